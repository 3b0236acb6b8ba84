package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/omh-notes/omh/reply"
	"github.com/omh-notes/omh/store"
)

// aliases are the names agents reach for beside a tool's own parameters,
// where they can mean one thing only; the schema names them.
var aliases = map[string]map[string]string{
	"find":       {"query": "question", "limit": "roots", "also": "phrasings", "tag": "tags"},
	"proof_find": {"query": "question", "also": "phrasings", "tag": "tags"},
}

// paramNames rewrites the command line's words in the store's messages as
// the tools' own: --roots is the parameter roots, and what only the
// command line has (new's --key and --if-exists) is not offered.
var paramNames = strings.NewReplacer(
	"choose another with --key, or use --if-exists skip or suffix", "choose another title",
	"give the key with --key", "choose another title",
	"give --team to edit it", "set team to edit it",
	"--also", "phrasings", "--as-of", "as_of", "--max-chars", "max_chars", "--roots", "roots",
	"--retracted", "retracted", "--layer", "layer", "--tag", "tags", "--path", "path", "--since", "since", "--limit", "limit", "--offset", "offset", "--type", "type", "--lines", "lines", "--link", "links",
)

// readArguments reads a call's arguments as agents write them before the
// SDK checks them against the tool's schema: an alias is its parameter,
// null is the default (the parameter left out), a number or a boolean may
// come as a string, a list of one as its item. What is still wrong is a
// tool error with the code usage, as a command line the parser refused.
func readArguments(schemas map[string]*jsonschema.Schema) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok {
				return next(ctx, method, req)
			}
			if schema := schemas[call.Params.Name]; schema != nil {
				args, err := normalize(call.Params.Name, schema, call.Params.Arguments)
				if err != nil {
					return usageResult(err.Error()), nil
				}
				call.Params.Arguments = args
			}
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil && r.IsError && r.StructuredContent == nil {
				return usageResult(textOf(r)), nil // the SDK refused the arguments
			}
			return res, err
		}
	}
}

// usageResult is a tool error with the code usage.
func usageResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: textContent(reply.Usage + ": " + msg),
		StructuredContent: reply.Failure(reply.Usage, errors.New(msg))}
}

// normalize reads raw arguments to tool as its schema says and writes them
// back as the SDK takes them.
func normalize(tool string, schema *jsonschema.Schema, raw json.RawMessage) (json.RawMessage, error) {
	var args map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &args) != nil {
		return raw, nil // no object: the SDK says what is wrong
	}
	out := map[string]json.RawMessage{}
	for _, name := range sortedKeys(args) {
		value, param := args[name], name
		if p, ok := aliases[tool][name]; ok {
			if _, both := args[p]; both {
				return nil, fmt.Errorf("give %s or %s, not both", p, name)
			}
			param = p
		}
		prop := schema.Properties[param]
		if prop == nil {
			return nil, fmt.Errorf("%s has no parameter %q; it takes %s", tool, name, strings.Join(sortedKeys(schema.Properties), ", "))
		}
		if string(value) == "null" {
			continue // the default, as if left out
		}
		v, err := coerce(param, prop.Type, value)
		if err != nil {
			return nil, err
		}
		out[param] = v
	}
	return json.Marshal(out)
}

// coerce reads a string where the schema wants a number, a boolean or a
// list: "2" is 2, "true" true, "x" ["x"].
func coerce(param, typ string, value json.RawMessage) (json.RawMessage, error) {
	var s string
	if json.Unmarshal(value, &s) != nil || typ == "string" {
		return value, nil
	}
	switch typ {
	case "integer":
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			return json.Marshal(n)
		}
		return nil, fmt.Errorf("%s is a whole number, not %q", param, s)
	case "boolean":
		if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return json.Marshal(b)
		}
		return nil, fmt.Errorf("%s is true or false, not %q", param, s)
	case "array":
		return json.Marshal([]string{s})
	}
	return value, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// toolError is a failed call as the agent sees it: a tool error whose text
// starts with omh's stable code, and the JSON --json prints on standard
// error as structured content, in the words of the tools' parameters.
func toolError(err error) (*mcp.CallToolResult, any, error) {
	code, msg := store.Code(err), errors.New(paramNames.Replace(err.Error()))
	return &mcp.CallToolResult{IsError: true, Content: textContent(code + ": " + msg.Error())}, reply.Failure(code, msg), nil
}
