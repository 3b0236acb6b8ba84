package index

// schema is the whole database. There is no migration code: a change here
// bumps SchemaVersion and the next command builds a new file.
//
//   - blob: one row per distinct note content ever parsed, keyed by its git
//     blob id, whichever commit, path or layer it appeared under.
//   - term: the dictionary of terms, so posting lists and term vectors hold
//     small integers; keyed by text, which is stored once.
//   - snap: one row per snapshot (a working tree, or a past commit): how it
//     was built, and seq, which every refresh and every save of stat data
//     bumps, so a command that only saves stat data it read saves it onto
//     the state it read it from.
//   - info: the snapshot's packed per-document info that ranking reads on
//     every question, in chunks of infoChunk documents, so a refresh
//     rewrites only the chunks holding the documents it changed.
//   - scan: what scans of the working tree and of the private folder
//     remember (localscan.ScanState), one row per piece: HEAD's note files with
//     the stat and blob id of their working copies, folder listings. A
//     one-note change rewrites one piece.
//   - doc: the documents of a snapshot, numbered by ord.
//   - posting: per snapshot, part (committed-and-private, or uncommitted) and
//     term, the packed list of documents holding the term. The three are one
//     integer key (see postingKey): a table keyed by its row id packs its
//     pages full when rows come in key order, where a keyed (WITHOUT ROWID)
//     table left a third of every page empty.
//   - name, rawlink, inbound, backlink: what link resolution needs to stay
//     incremental and what reverse links are read from: every name a note
//     can be linked by, every link target written, how many notes link to
//     each key, and which notes link to it (with the verb of a typed link).
//     A rawlink's target is the name's hash (see nameHash), and names hold
//     only the kinds the dialect's lookups ask for (vault.Dialect.Asks).
//   - step: cached first-parent history steps, for git dates.
//   - counter: numbers kept across refreshes (see collect).
const schema = `
PRAGMA page_size = 8192;
PRAGMA journal_mode = WAL;
CREATE TABLE blob (
	id INTEGER PRIMARY KEY,
	oid BLOB NOT NULL UNIQUE,
	meta BLOB NOT NULL,
	terms BLOB NOT NULL
);
CREATE TABLE term (
	text TEXT PRIMARY KEY,
	id INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE snap (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	state BLOB NOT NULL,
	seq INTEGER NOT NULL
);
CREATE TABLE info (
	snap INTEGER NOT NULL,
	chunk INTEGER NOT NULL,
	data BLOB NOT NULL,
	PRIMARY KEY (snap, chunk)
);
CREATE TABLE scan (
	id INTEGER PRIMARY KEY,
	snap INTEGER NOT NULL,
	tree INTEGER NOT NULL,
	head INTEGER NOT NULL,
	data BLOB NOT NULL
);
CREATE INDEX scan_snap ON scan (snap, tree);
CREATE TABLE doc (
	snap INTEGER NOT NULL,
	ord INTEGER NOT NULL,
	part INTEGER NOT NULL,
	layer INTEGER NOT NULL,
	key TEXT NOT NULL,
	path TEXT NOT NULL,
	blob INTEGER NOT NULL,
	git_date TEXT NOT NULL,
	mtime INTEGER NOT NULL,
	date TEXT NOT NULL,
	date_source INTEGER NOT NULL,
	title TEXT NOT NULL,
	type TEXT NOT NULL,
	links TEXT NOT NULL,
	PRIMARY KEY (snap, ord)
) WITHOUT ROWID;
CREATE INDEX doc_key ON doc (snap, key, layer, path);
CREATE INDEX doc_local ON doc (snap, path) WHERE layer = 2;
CREATE TABLE posting (
	key INTEGER PRIMARY KEY,
	list BLOB NOT NULL
);
CREATE TABLE name (
	snap INTEGER NOT NULL,
	name TEXT NOT NULL,
	ord INTEGER NOT NULL,
	kind INTEGER NOT NULL,
	PRIMARY KEY (snap, name, ord)
) WITHOUT ROWID;
CREATE TABLE rawlink (
	snap INTEGER NOT NULL,
	target INTEGER NOT NULL,
	ord INTEGER NOT NULL,
	PRIMARY KEY (snap, target, ord)
) WITHOUT ROWID;
CREATE TABLE inbound (
	snap INTEGER NOT NULL,
	key TEXT NOT NULL,
	n_all INTEGER NOT NULL,
	n_base INTEGER NOT NULL,
	PRIMARY KEY (snap, key)
) WITHOUT ROWID;
CREATE TABLE backlink (
	snap INTEGER NOT NULL,
	target TEXT NOT NULL,
	src INTEGER NOT NULL,
	verb TEXT NOT NULL,
	PRIMARY KEY (snap, target, src, verb)
) WITHOUT ROWID;
CREATE TABLE counter (
	name TEXT PRIMARY KEY,
	n INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE step (
	oid BLOB PRIMARY KEY,
	data BLOB NOT NULL
) WITHOUT ROWID;
`
