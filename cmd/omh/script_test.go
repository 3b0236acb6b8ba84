package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/omh-notes/omh/vault/vaulttest"
)

// The transcripts in testdata/script run the omh built for this test run
// (TestMain puts it first on PATH) the way a person would: the README's
// examples and each command's usual answer and main refusals. A changed
// message or a README example that stopped working fails here, so the
// docs cannot drift from the binary. `demo DIR` lays the demo store out in
// DIR, its private notes in $OMH_LOCAL_DIR (beside $WORK, never inside a repository).
func TestTranscripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			vars := vaulttest.IsolatedEnv(filepath.Join(env.WorkDir, ".home"), filepath.Join(env.WorkDir+"-outside", "private")) // outside $WORK: some scripts make $WORK the repository
			vars["OMH_SOURCE"], vars["COLUMNS"] = "transcript", "80"
			for k, v := range vars {
				env.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"demo": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: demo DIR")
				}
				if err := layDemo(ts.MkAbs(args[0]), ts.Getenv("OMH_LOCAL_DIR")); err != nil {
					ts.Fatalf("%v", err)
				}
			},
		},
	})
}
