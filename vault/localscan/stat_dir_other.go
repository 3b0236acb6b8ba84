//go:build !linux && !darwin

package localscan

import "path/filepath"

// dirStatter stats files by their whole path where there is no fstatat.
type dirStatter struct{ base string }

func newDirStatter(base string) *dirStatter { return &dirStatter{base: base} }

func (d *dirStatter) lstat(dir []byte, name string) (FileStat, bool) {
	return lstatRegular(filepath.Join(d.base, filepath.FromSlash(string(dir)), name))
}

func (d *dirStatter) close() {}
