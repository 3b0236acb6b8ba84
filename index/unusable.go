package index

import "os"

// Unusable reports whether the cache's file is no regular file at all (a
// folder, a link to /dev/null): what SQLite reports about it ("unable to
// open database file", "disk I/O error") is not damage it can tell, but
// the cache is no better for it, and Replace takes its place.
func (c *Cache) Unusable() bool {
	fi, err := os.Lstat(c.Path)
	return err == nil && !fi.Mode().IsRegular()
}
