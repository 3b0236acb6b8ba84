package localscan

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/omh-notes/omh/internal/procs"
	"github.com/omh-notes/omh/internal/safefile"
	"github.com/omh-notes/omh/vault/gitcli"
	"github.com/omh-notes/omh/vault/gitrepo"
)

// recRef is one record of a page.
type recRef struct {
	p *page
	i int
}

// check compares the stat of each referenced file with its record, on
// every core, and reads again, on every core too, the files whose stat
// moved (or that were never trusted): a copied or freshly checked out tree
// whose git index does not vouch for its files is hashed whole, 10,000
// notes taking most of a second on one core. Records are changed in
// place; a file gone loses its presence.
func (sc *scanner) check(st *ScanState, base string, worktree bool, refs []recRef) error {
	workers := procs.Workers(len(refs) / 64)
	found := make([][]moved, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		// Each worker takes a run of neighbouring records, so it stats
		// folder by folder.
		go func(w int) {
			defer wg.Done()
			files := newDirStatter(base)
			defer files.close()
			for k := w * len(refs) / workers; k < (w+1)*len(refs)/workers; k++ {
				ref := refs[k]
				r := ref.p.rec(ref.i)
				p, d := ref.p.path(ref.i), ref.p.dirLen(ref.i)
				stat, ok := files.lstat(p[:d], string(nameAt(p, d)))
				switch flags := r[recFlags]; {
				case !ok:
					if flags&(flagPresent|flagUnchecked) != 0 {
						found[w] = append(found[w], moved{ref, content{stat: FileStat{Size: -1}}})
					}
				case flags&(flagPresent|flagRacy|flagUnchecked) != flagPresent || recStat(r) != stat:
					found[w] = append(found[w], moved{ref, sc.contentOf(base, string(p), worktree && flags&flagPresent == 0, stat)})
				}
			}
		}(w)
	}
	wg.Wait()
	all := slices.Concat(found...)
	if worktree {
		sc.asGitSees(base, all)
	}
	for _, m := range all {
		sc.update(worktree, base, m.recRef, m.now)
	}
	return nil
}

// moved is a file whose stat moved, and what it holds now.
type moved struct {
	recRef
	now content
}

// asGitSees takes, for each tracked working copy whose bytes differ from
// HEAD's blob, the blob id git itself would compare: the file may differ
// only by what git's attributes and settings do on the way in (eol=crlf,
// autocrlf, a clean filter), and then it is unchanged. git hashes them as
// it would stage them, in one process (a blob id taken from git's index
// is git's view already). A file that differs all the same
// keeps the id of its bytes, which are what is read as its local copy.
// Only files whose stat moved are asked about: nothing, when nothing
// changed. (Git's index, whose stat data git status trusts, is not read
// for them: decoding it took 0.3 s at 38,187 notes.)
func (sc *scanner) asGitSees(base string, ms []moved) {
	var ask []*moved
	for i := range ms {
		m := &ms[i]
		r := m.p.rec(m.i)
		head := plumbing.Hash(r[recHead : recHead+20])
		if r[recFlags]&flagTracked == 0 || m.now.err != nil || m.now.stat.Size < 0 || m.now.byIndex || m.now.blob == head {
			continue
		}
		if !bytes.ContainsRune(m.p.path(m.i), '\n') {
			ask = append(ask, m)
		}
	}
	if len(ask) == 0 {
		return
	}
	paths := make([]string, len(ask))
	for i, m := range ask {
		paths[i] = string(m.p.path(m.i))
	}
	ids, err := gitcli.StagedIDs(base, paths)
	if err != nil {
		return // the bytes decide, as before git could be asked
	}
	for i, m := range ask {
		if r := m.p.rec(m.i); ids[i] == plumbing.Hash(r[recHead:recHead+20]) {
			m.now.blob = ids[i]
		}
	}
}

// content is what a file whose stat moved holds now.
type content struct {
	blob    plumbing.Hash
	stat    FileStat // a negative size: the file is gone
	err     error    // it could not be read
	byIndex bool     // blob is what git's index says, not the file's bytes'
}

// contentOf finds the blob id of the file at rel, whose stat is now stat: from
// git's index when asked to and the index vouches for it, else by hashing
// the file. It is safe to call from many goroutines.
func (sc *scanner) contentOf(base, rel string, askIndex bool, stat FileStat) content {
	if askIndex {
		if blob, known := sc.fromIndex(rel, stat); known {
			return content{blob: blob, stat: stat, byIndex: true}
		}
	}
	blob, stat, err := hashFile(filepath.Join(base, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return content{stat: FileStat{Size: -1}}
	}
	return content{blob: blob, stat: stat, err: err}
}

// update records in a file's record what read found it holds now.
func (sc *scanner) update(worktree bool, base string, ref recRef, now content) {
	p, r := ref.p, ref.p.rec(ref.i)
	p.dirty = true
	r[recFlags] &^= flagUnchecked
	if now.stat.Size < 0 {
		r[recFlags] &^= flagPresent
		return
	}
	sc.read++
	if now.err != nil { // one note, not the store: left out, and read again next time
		shown := string(p.path(ref.i))
		if !worktree {
			shown = filepath.Join(base, filepath.FromSlash(shown))
		}
		sc.skips = append(sc.skips, gitrepo.SkipUnreadable(shown, now.err))
		r[recFlags] &^= flagPresent
		r[recFlags] |= flagUnchecked
		return
	}
	blob, stat := now.blob, now.stat
	copy(r[recWork:], blob[:])
	putStat(r, stat)
	r[recFlags] |= flagPresent
	r[recFlags] &^= flagRacy
	if sc.now-stat.Mtime < racyWindow {
		r[recFlags] |= flagRacy
	}
}

// fromIndex takes a file's blob id from git's index when the index holds an
// entry for it whose stat data match and that git wrote after the file
// last changed, the test git itself uses. It saves hashing every file the
// first time a working tree is scanned. An index go-git cannot read (a split
// or sparse index, a newer format) only means the files are hashed.
func (sc *scanner) fromIndex(rel string, st FileStat) (plumbing.Hash, bool) {
	sc.indexRead.Do(func() {
		sc.gitIndex, sc.indexTime = readGitIndex(filepath.Join(sc.Repo.GitDir, "index"))
	})
	e, ok := sc.gitIndex[rel]
	// A merged entry is stage 0 as git writes it and go-git decodes it;
	// go-git's index.Merged constant is 1, and comparing with it made every
	// first scan hash every file.
	if !ok || e.Stage != 0 || e.SkipWorktree || e.IntentToAdd {
		return plumbing.ZeroHash, false
	}
	mtime, ctime := e.ModifiedAt.UnixNano(), e.CreatedAt.UnixNano()
	if int64(e.Size) != st.Size || mtime != st.Mtime || (st.Ctime != 0 && ctime != st.Ctime) ||
		(e.Inode != 0 && e.Inode != uint32(st.Ino)) || mtime >= sc.indexTime {
		return plumbing.ZeroHash, false
	}
	return e.Hash, true
}

func readGitIndex(path string) (map[string]index.Entry, int64) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0
	}
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(&idx); err != nil {
		return nil, 0
	}
	entries := make(map[string]index.Entry, len(idx.Entries))
	for _, e := range idx.Entries {
		entries[e.Name] = *e
	}
	return entries, fi.ModTime().UnixNano()
}

// hashFile computes a file's git blob id without holding it in memory, and
// the stat of the very file read. A file that changes size while being read
// is read again.
func hashFile(abs string) (plumbing.Hash, FileStat, error) {
	for attempt := 0; ; attempt++ {
		f, err := safefile.Open(abs)
		if err != nil {
			return plumbing.ZeroHash, FileStat{}, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return plumbing.ZeroHash, FileStat{}, fmt.Errorf("stat %s: %w", abs, err)
		}
		if id, ok, err := gitrepo.HugeBinaryID(f, fi.Size()); err != nil || ok {
			f.Close()
			if err != nil {
				return plumbing.ZeroHash, FileStat{}, fmt.Errorf("reading %s: %w", abs, err)
			}
			return id, statOf(fi), nil
		}
		h := sha1.New()
		fmt.Fprintf(h, "blob %d\x00", fi.Size())
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return plumbing.ZeroHash, FileStat{}, fmt.Errorf("reading %s: %w", abs, err)
		}
		if n == fi.Size() {
			var id plumbing.Hash
			copy(id[:], h.Sum(nil))
			return id, statOf(fi), nil
		}
		if attempt == 3 {
			return plumbing.ZeroHash, FileStat{}, fmt.Errorf("%s keeps changing while being read", abs)
		}
	}
}
