package store

import "github.com/omh-notes/omh/reply"

// ContextJSON is the answer sized for an agent's context window, as the
// MCP server gives it beside the cards: what the cards show, as data, in
// about a third more bytes than the size aim (find.Reply.ContextJSON).
// An answer without cards is its JSON.
func (a Answer) ContextJSON() reply.Cards {
	if a.Absent != "" || a.Reply == nil {
		return a.JSON()
	}
	out := a.Reply.ContextJSON()
	out.SchemaVersion, out.Filter = reply.SchemaVersion, a.filter
	return out
}
