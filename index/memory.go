package index

import (
	"runtime/debug"
	"sync"
)

// A first build holds, near its end, about 4.4 KB per note (the documents,
// their links, every posting list as it grows: 168 MB at vba-docs' 38,187
// notes), and Go's collector lets the heap grow to twice what is live, so
// it peaked at 430 MiB. While first builds run, the heap is held to a soft
// limit of buildMemoryBase plus buildMemoryPerNote for each note they
// parse: at vba-docs 314 MiB, where GOMEMLIMIT=300MiB took peak memory to
// 334 MiB at the same CPU time. A limit already set lower is kept.
const (
	buildMemoryBase    = 128 << 20
	buildMemoryPerNote = 5 << 10
)

// buildMemory is what the first builds running in this process asked for.
var buildMemory struct {
	sync.Mutex
	builds int
	bytes  int64
	prev   int64 // the limit before the first of them
}

// limitMemory holds the heap to a first build's limit for notes notes,
// until release is called.
func limitMemory(notes int) (release func()) {
	want := int64(notes) * buildMemoryPerNote
	m := &buildMemory
	m.Lock()
	defer m.Unlock()
	if m.builds == 0 {
		m.prev = debug.SetMemoryLimit(-1)
	}
	m.builds++
	m.bytes += want
	debug.SetMemoryLimit(min(m.prev, buildMemoryBase+m.bytes))
	return func() {
		m.Lock()
		defer m.Unlock()
		m.builds--
		m.bytes -= want
		if m.builds == 0 {
			debug.SetMemoryLimit(m.prev)
			return
		}
		debug.SetMemoryLimit(min(m.prev, buildMemoryBase+m.bytes))
	}
}
