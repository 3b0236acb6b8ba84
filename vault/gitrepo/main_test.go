package gitrepo

import (
	"testing"

	"github.com/omh-notes/omh/vault/vaulttest"
)

func TestMain(m *testing.M) { vaulttest.Main(m) }
