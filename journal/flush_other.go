//go:build !linux

package journal

import (
	"fmt"
	"os"

	"github.com/omh-notes/omh/vault/disk"
)

// flush makes what was written to paths (files and folders) durable, one
// sync each, and says when the disk reported it could not. A path gone
// meanwhile has nothing to sync.
func flush(paths []string) error {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			err = disk.SyncDir(p)
		} else if f, oerr := os.Open(p); oerr == nil {
			err = f.Sync()
			f.Close()
		}
		if err != nil {
			return fmt.Errorf("syncing %s: %w", p, err)
		}
	}
	return nil
}
