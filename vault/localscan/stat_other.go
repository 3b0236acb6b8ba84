//go:build !linux && !darwin

package localscan

import "os"

// Elsewhere only size and modification time are compared; a change that
// keeps both within the racy window is still caught by re-hashing.
func statOf(fi os.FileInfo) FileStat {
	return FileStat{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
}

func lstatRegular(path string) (FileStat, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return FileStat{}, false
	}
	return statOf(fi), true
}
