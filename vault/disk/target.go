package disk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/omh-notes/omh/vault"
)

// CheckTarget refuses to write the new file rel ("/"-separated) under root
// when any folder on its way is a symbolic link or not a folder, when it
// lies in git's own folder (by any name vault.IsGitFolder knows), or when
// a part of it names an existing file differently only in Unicode
// normalisation (or, with foldCase, in case): on macOS and Windows such
// names are one file, and on Linux two notes nobody can tell apart.
func CheckTarget(root, rel string, foldCase bool) error {
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if vault.IsGitFolder(p) {
			return fmt.Errorf("%s lies inside git's own folder", rel)
		}
	}
	dir := root
	for i, p := range parts {
		shown := strings.Join(parts[:i+1], "/")
		if twin, err := twinIn(dir, p, foldCase); err != nil {
			return err
		} else if twin != "" {
			return fmt.Errorf("%s differs from the existing %s only in case or Unicode normalisation", shown, strings.Join(append(parts[:i:i], twin), "/"))
		}
		next := filepath.Join(dir, p)
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil // the rest is to be created
		case err != nil:
			return err
		case fi.Mode()&os.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link; omh never writes through links", shown)
		case i < len(parts)-1 && !fi.IsDir():
			return fmt.Errorf("%s is not a folder", shown)
		}
		dir = next
	}
	return nil
}

// twinIn returns the name in dir that differs from name only in Unicode
// normalisation (or case, with foldCase); "" when there is none or name
// itself is there.
func twinIn(dir, name string, foldCase bool) (string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("listing %s: %w", dir, err)
	}
	// Case is compared by Unicode's simple folding (strings.EqualFold), as
	// NTFS's case table does: full folding (x/text/cases) also made "ß"
	// and "ss" one name, and linking it cost every command 0.5-1 ms of
	// package initialisation (its language tables).
	same := func(a, b string) bool {
		if foldCase {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	want := norm.NFC.String(name)
	twin := ""
	for _, e := range entries {
		switch {
		case e.Name() == name:
			return "", nil
		case twin == "" && same(norm.NFC.String(e.Name()), want):
			twin = e.Name()
		}
	}
	return twin, nil
}
