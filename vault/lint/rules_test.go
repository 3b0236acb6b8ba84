package lint

import (
	"slices"
	"testing"

	"github.com/omh-notes/omh/vault"
)

// The rules lint checks are the ones the config names, in the same order.
// Catches: a rule added to the table that lint.disable refuses to name, or
// one the config accepts that lint does not know.
func TestTheRulesAreTheOnesTheConfigNames(t *testing.T) {
	t.Parallel()
	var ids []string
	for _, r := range Rules {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, vault.LintRuleIDs) {
		t.Errorf("lint's rules %q, the config's %q", ids, vault.LintRuleIDs)
	}
}
