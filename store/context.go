package store

import "github.com/omh-notes/omh/store/reply"

// ContextJSON is the answer sized for an agent's context window, as the
// MCP server gives it beside the cards: what the cards show, as data, in
// about a third more bytes than the size aim (find.Reply.ContextJSON).
// The question must have asked for cards.
func (a Answer) ContextJSON() any {
	if a.Absent != "" {
		return a.JSON()
	}
	out := a.Reply.ContextJSON()
	out.SchemaVersion = reply.SchemaVersion
	return out
}
