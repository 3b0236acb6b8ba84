// Package pagesum is a SQLite VFS that keeps a checksum in every page of
// a database file and checks it on every read: a page the disk gives back
// other than it was written (a flipped bit, a torn or misplaced write) is
// an error, SQLITE_IOERR_DATA, never data. SQLite itself checks nothing
// of the sort: of 150 single bits flipped in omh's cache, 15 gave other
// answers without a word (a key no note has, a date "2026-03-2$", a note
// missing from the top 20).
//
// A database opened through the VFS (vfs=omhsum in its URI) that Create
// made holds, in the last Reserve bytes of each page, a CRC-32C of the
// rest and of the page's number, written by each write of a whole page
// and checked by each read of one. The write-ahead log is left to
// SQLite's own checksums, which cover every frame; only the database file
// is read without any. The checksum costs about a microsecond per 8 KiB
// page read from disk, and nothing for pages SQLite has in memory.
package pagesum

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Name is the VFS's name, for a database URI's vfs parameter.
const Name = "omhsum"

// Reserve is the bytes at the end of each page that hold its checksum.
const Reserve = 4

// PageSize is the page size of the databases Create makes; a page read of
// another size is no page of theirs.
const PageSize = 8192

var (
	register   sync.Once
	regErr     error
	base       uintptr // the VFS this one wraps: SQLite's default
	vfs        sqlite3.Tsqlite3_vfs
	methods    sqlite3.Tsqlite3_io_methods
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
)

// file is the head of the VFS's file object; the wrapped VFS's own file
// object follows it. main says it is a database file, whose pages are
// checked.
type file struct {
	methods uintptr
	main    int64
}

const fileSize = int32(unsafe.Sizeof(file{}))

// Register makes the VFS known to SQLite, once per process.
func Register() error {
	register.Do(func() {
		tls := libc.NewTLS()
		defer tls.Close()
		base = sqlite3.Xsqlite3_vfs_find(tls, 0)
		if base == 0 {
			regErr = fmt.Errorf("pagesum: SQLite has no default VFS")
			return
		}
		b := as[sqlite3.Tsqlite3_vfs](base)
		vfs = *b
		vfs.FiVersion = min(b.FiVersion, 3)
		vfs.FszOsFile = b.FszOsFile + fileSize
		vfs.FpNext = 0
		name, err := libc.CString(Name)
		if err != nil {
			regErr = err
			return
		}
		vfs.FzName = name
		setFunc(&vfs.FxOpen, xOpen)
		methods.FiVersion = 3
		setFunc(&methods.FxClose, xClose)
		setFunc(&methods.FxRead, xRead)
		setFunc(&methods.FxWrite, xWrite)
		setFunc(&methods.FxTruncate, xTruncate)
		setFunc(&methods.FxSync, xSync)
		setFunc(&methods.FxFileSize, xFileSize)
		setFunc(&methods.FxLock, xLock)
		setFunc(&methods.FxUnlock, xUnlock)
		setFunc(&methods.FxCheckReservedLock, xCheckReservedLock)
		setFunc(&methods.FxFileControl, xFileControl)
		setFunc(&methods.FxSectorSize, xSectorSize)
		setFunc(&methods.FxDeviceCharacteristics, xDeviceCharacteristics)
		setFunc(&methods.FxShmMap, xShmMap)
		setFunc(&methods.FxShmLock, xShmLock)
		setFunc(&methods.FxShmBarrier, xShmBarrier)
		setFunc(&methods.FxShmUnmap, xShmUnmap)
		setFunc(&methods.FxFetch, xFetch)
		setFunc(&methods.FxUnfetch, xUnfetch)
		if rc := sqlite3.Xsqlite3_vfs_register(tls, uintptr(unsafe.Pointer(&vfs)), 0); rc != sqlite3.SQLITE_OK {
			regErr = fmt.Errorf("pagesum: registering the VFS: SQLite error %d", rc)
		}
	})
	return regErr
}

// Sum is the checksum of page, the pgno-th of its file (counting from 1),
// as the last Reserve bytes hold it.
func Sum(page []byte, pgno uint32) uint32 {
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], pgno)
	return crc32.Update(crc32.Checksum(n[:], castagnoli), castagnoli, page[:len(page)-Reserve]) ^ 0x6f6d6821
}

// Check reports whether page, the pgno-th of its file, holds its checksum.
func Check(page []byte, pgno uint32) bool {
	return binary.LittleEndian.Uint32(page[len(page)-Reserve:]) == Sum(page, pgno)
}

// isPage reports whether a write of amt bytes at off is one of a whole
// page, and which.
func isPage(amt int32, off int64) (pgno uint32, ok bool) {
	if amt != PageSize || off%PageSize != 0 {
		return 0, false
	}
	return uint32(off/PageSize) + 1, true
}

// as is the C object at p.
func as[T any](p uintptr) *T { return (*T)(*(*unsafe.Pointer)(unsafe.Pointer(&p))) }

// bytesAt is the C memory of n bytes at p.
func bytesAt(p uintptr, n int32) []byte {
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}

// call is the C function pointer p as the Go function type F (the form
// SQLite's transpiled code keeps functions in).
func call[F any](p uintptr) F { return *(*F)(unsafe.Pointer(&p)) }

// setFunc makes the C function pointer at field the Go function f. Only
// package-level functions: SQLite keeps the pointer where the collector
// cannot see it.
func setFunc[F any](field *uintptr, f F) { *(*F)(unsafe.Pointer(field)) = f }

// sub is the wrapped VFS's file object behind the VFS's own.
func sub(p uintptr) uintptr { return p + uintptr(fileSize) }

// subMethods are the wrapped file's methods.
func subMethods(p uintptr) *sqlite3.Tsqlite3_io_methods {
	return as[sqlite3.Tsqlite3_io_methods](as[sqlite3.Tsqlite3_file](sub(p)).FpMethods)
}

func xOpen(tls *libc.TLS, _ uintptr, name uintptr, p uintptr, flags int32, outFlags uintptr) int32 {
	open := call[func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32](as[sqlite3.Tsqlite3_vfs](base).FxOpen)
	f := as[file](p)
	*f = file{}
	rc := open(tls, base, name, sub(p), flags, outFlags)
	if rc != sqlite3.SQLITE_OK || as[sqlite3.Tsqlite3_file](sub(p)).FpMethods == 0 {
		return rc
	}
	f.methods = uintptr(unsafe.Pointer(&methods))
	if flags&sqlite3.SQLITE_OPEN_MAIN_DB != 0 {
		f.main = 1
	}
	return rc
}

func xClose(tls *libc.TLS, p uintptr) int32 {
	return call[func(*libc.TLS, uintptr) int32](subMethods(p).FxClose)(tls, sub(p))
}

// xRead reads as the wrapped file does, checking each page of a database
// file it reads from: a page that does not hold its checksum is an error.
// A read of the start of a page past the first (an overflow page SQLite
// reads straight into a value, its "direct overflow read", a part of a
// page long) reads and checks the whole page: a flip there once gave a
// note's date as 20194790 without a word. The file's header, read alone
// first, is checked when SQLite reads the first page whole, as it always
// does before using it (an error on the header alone reached the caller
// as a plain I/O error, not as damage).
func xRead(tls *libc.TLS, p uintptr, buf uintptr, amt int32, off int64) int32 {
	read := call[func(*libc.TLS, uintptr, uintptr, int32, int64) int32](subMethods(p).FxRead)
	if as[file](p).main == 0 || off%PageSize != 0 || amt > PageSize || (off == 0 && amt < PageSize) {
		return read(tls, sub(p), buf, amt, off)
	}
	pgno := uint32(off/PageSize) + 1
	page := buf
	if amt < PageSize {
		page = tls.Alloc(PageSize)
		defer tls.Free(PageSize)
	}
	rc := read(tls, sub(p), page, PageSize, off)
	if rc == sqlite3.SQLITE_OK && !Check(bytesAt(page, PageSize), pgno) {
		rc = sqlite3.SQLITE_IOERR_DATA
	}
	if page != buf {
		copy(bytesAt(buf, amt), bytesAt(page, amt))
	}
	return rc
}

// xWrite writes a whole page of a database file with its checksum.
func xWrite(tls *libc.TLS, p uintptr, buf uintptr, amt int32, off int64) int32 {
	if pgno, ok := isPage(amt, off); ok && as[file](p).main != 0 {
		page := bytesAt(buf, amt)
		binary.LittleEndian.PutUint32(page[amt-Reserve:], Sum(page, pgno))
	}
	return call[func(*libc.TLS, uintptr, uintptr, int32, int64) int32](subMethods(p).FxWrite)(tls, sub(p), buf, amt, off)
}

func xTruncate(tls *libc.TLS, p uintptr, size int64) int32 {
	return call[func(*libc.TLS, uintptr, int64) int32](subMethods(p).FxTruncate)(tls, sub(p), size)
}

func xSync(tls *libc.TLS, p uintptr, flags int32) int32 {
	return call[func(*libc.TLS, uintptr, int32) int32](subMethods(p).FxSync)(tls, sub(p), flags)
}

func xFileSize(tls *libc.TLS, p uintptr, size uintptr) int32 {
	return call[func(*libc.TLS, uintptr, uintptr) int32](subMethods(p).FxFileSize)(tls, sub(p), size)
}

func xLock(tls *libc.TLS, p uintptr, lock int32) int32 {
	return call[func(*libc.TLS, uintptr, int32) int32](subMethods(p).FxLock)(tls, sub(p), lock)
}

func xUnlock(tls *libc.TLS, p uintptr, lock int32) int32 {
	return call[func(*libc.TLS, uintptr, int32) int32](subMethods(p).FxUnlock)(tls, sub(p), lock)
}

func xCheckReservedLock(tls *libc.TLS, p uintptr, out uintptr) int32 {
	return call[func(*libc.TLS, uintptr, uintptr) int32](subMethods(p).FxCheckReservedLock)(tls, sub(p), out)
}

func xFileControl(tls *libc.TLS, p uintptr, op int32, arg uintptr) int32 {
	return call[func(*libc.TLS, uintptr, int32, uintptr) int32](subMethods(p).FxFileControl)(tls, sub(p), op, arg)
}

func xSectorSize(tls *libc.TLS, p uintptr) int32 {
	return call[func(*libc.TLS, uintptr) int32](subMethods(p).FxSectorSize)(tls, sub(p))
}

func xDeviceCharacteristics(tls *libc.TLS, p uintptr) int32 {
	return call[func(*libc.TLS, uintptr) int32](subMethods(p).FxDeviceCharacteristics)(tls, sub(p))
}

func xShmMap(tls *libc.TLS, p uintptr, page int32, size int32, extend int32, out uintptr) int32 {
	return call[func(*libc.TLS, uintptr, int32, int32, int32, uintptr) int32](subMethods(p).FxShmMap)(tls, sub(p), page, size, extend, out)
}

func xShmLock(tls *libc.TLS, p uintptr, offset int32, n int32, flags int32) int32 {
	return call[func(*libc.TLS, uintptr, int32, int32, int32) int32](subMethods(p).FxShmLock)(tls, sub(p), offset, n, flags)
}

func xShmBarrier(tls *libc.TLS, p uintptr) {
	call[func(*libc.TLS, uintptr)](subMethods(p).FxShmBarrier)(tls, sub(p))
}

func xShmUnmap(tls *libc.TLS, p uintptr, delete int32) int32 {
	return call[func(*libc.TLS, uintptr, int32) int32](subMethods(p).FxShmUnmap)(tls, sub(p), delete)
}

// xFetch maps nothing: a page read through a mapping would skip its check.
func xFetch(_ *libc.TLS, _ uintptr, _ int64, _ int32, out uintptr) int32 {
	*as[uintptr](out) = 0
	return sqlite3.SQLITE_OK
}

func xUnfetch(_ *libc.TLS, _ uintptr, _ int64, _ uintptr) int32 {
	return sqlite3.SQLITE_OK
}

// Create makes the database file path through the VFS, with room for the
// checksums in every page, and runs sql (the schema, which sets PageSize
// before anything else) in it. SQLite's room at the end of each page is
// fixed by the first write, so only a database made this way has it.
func Create(path, sql string) error {
	if err := Register(); err != nil {
		return err
	}
	tls := libc.NewTLS()
	defer tls.Close()
	var c [4]uintptr // the C strings: path, VFS, schema name, sql
	for i, s := range []string{path, Name, "main", sql} {
		p, err := libc.CString(s)
		if err != nil {
			return err
		}
		defer libc.Xfree(tls, p)
		c[i] = p
	}
	out := tls.Alloc(8)
	defer tls.Free(8)
	rc := sqlite3.Xsqlite3_open_v2(tls, c[0], out, sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_CREATE, c[1])
	db := *as[uintptr](out)
	defer sqlite3.Xsqlite3_close_v2(tls, db)
	fail := func(what string) error {
		return &Error{Op: what, Path: path, Msg: libc.GoString(sqlite3.Xsqlite3_errmsg(tls, db)), Code: int(sqlite3.Xsqlite3_extended_errcode(tls, db))}
	}
	if rc != sqlite3.SQLITE_OK {
		return fail("opening")
	}
	*as[int32](out) = Reserve
	if rc = sqlite3.Xsqlite3_file_control(tls, db, c[2], sqlite3.SQLITE_FCNTL_RESERVE_BYTES, out); rc != sqlite3.SQLITE_OK {
		return fail("making room for checksums in")
	}
	if rc = sqlite3.Xsqlite3_exec(tls, db, c[3], 0, 0, 0); rc != sqlite3.SQLITE_OK {
		return fail("creating")
	}
	return nil
}

// Error is a failure of Create, with SQLite's extended result code.
type Error struct {
	Op, Path, Msg string
	Code          int
}

func (e *Error) Error() string { return fmt.Sprintf("%s %s: %s (%d)", e.Op, e.Path, e.Msg, e.Code) }
