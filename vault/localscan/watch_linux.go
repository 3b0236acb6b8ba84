package localscan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/omh-notes/omh/vault/gitrepo"
)

// inotifyWatcher watches every folder of a working tree but git's own with
// inotify. Events are read when asked (never by a goroutine racing the
// answer): a write that returned before the question is in the queue.
type inotifyWatcher struct {
	mu      sync.Mutex
	fd      int
	root    string
	prefix  string            // this watcher's tokens: "inotify:<pid>:<fd>:"
	folders map[int]string    // watch descriptor → folder, relative to root ("" is root)
	changed map[string]uint64 // path → the step it last changed at
	step    uint64
	lost    uint64 // the last step at which events were dropped; 0 when never
}

// watchMask is what changes a scan's answer: contents written, files and
// folders made, removed or renamed, modes and times changed.
const watchMask = unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_ATTRIB | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF

func watchTree(root string) (gitrepo.Watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("starting to watch %s: %w", root, err)
	}
	w := &inotifyWatcher{fd: fd, root: root, prefix: fmt.Sprintf("inotify:%d:%d:", os.Getpid(), fd),
		folders: map[int]string{}, changed: map[string]uint64{}, step: 1}
	if err := w.addTree(""); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return w, nil
}

// addTree watches folder (relative to the root) and every folder below it
// but .git. A folder that appeared while omh watched may hold files made
// before its watch was added, whose events never came: they count as
// changed.
func (w *inotifyWatcher) addTree(folder string) error {
	appeared := folder != ""
	return filepath.WalkDir(filepath.Join(w.root, filepath.FromSlash(folder)), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if p == w.root {
				return err
			}
			return nil // a folder gone meanwhile reports its own removal
		}
		if d.Name() == ".git" && p != w.root {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(w.root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		if appeared {
			w.changed[rel] = w.step
		}
		if !d.IsDir() {
			return nil
		}
		wd, err := unix.InotifyAddWatch(w.fd, p, watchMask|unix.IN_ONLYDIR|unix.IN_DONT_FOLLOW)
		if err != nil {
			return fmt.Errorf("watching %s: %w", p, err) // out of watches: no watcher at all
		}
		w.folders[wd] = rel
		return nil
	})
}

// read takes every queued event into changed.
func (w *inotifyWatcher) read() error {
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EAGAIN) || n == 0 {
			return nil
		}
		if err != nil {
			return err
		}
		w.step++
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				name = strings.TrimRight(string(raw), "\x00")
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
				w.lost = w.step
				continue
			}
			folder, ok := w.folders[int(ev.Wd)]
			if !ok {
				continue
			}
			path := name
			if folder != "" {
				path = folder + "/" + name
			}
			if ev.Mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF) != 0 && name == "" {
				delete(w.folders, int(ev.Wd))
				continue
			}
			if name == ".git" && folder == "" {
				continue
			}
			w.changed[path] = w.step
			if ev.Mask&unix.IN_ISDIR != 0 && ev.Mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 {
				if err := w.addTree(path); err != nil {
					w.lost = w.step // a folder we cannot watch: say everything from now on
				}
			}
		}
	}
}

// Query answers as a file system monitor does: the paths changed since
// token, or everything when the token is not this watcher's or events
// were dropped since.
func (w *inotifyWatcher) Query(token string) (string, []string, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.read(); err != nil {
		return "", nil, true, err
	}
	next := w.prefix + strconv.FormatUint(w.step, 10)
	since, ok := strings.CutPrefix(token, w.prefix)
	from, err := strconv.ParseUint(since, 10, 64)
	if !ok || err != nil || from > w.step || w.lost >= from {
		return next, nil, true, nil
	}
	var paths []string
	for p, at := range w.changed {
		if at > from {
			paths = append(paths, p)
		}
	}
	return next, paths, false, nil
}

func (w *inotifyWatcher) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return unix.Close(w.fd)
}
