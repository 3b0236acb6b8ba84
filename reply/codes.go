package reply

// The stable codes of omh's errors, which scripts and agents may rely on:
// --json prints {"error": {"code", "message"}}, the MCP server starts a
// tool error's text with the code. A code is never renamed; vault/rename
// refuses with KeyTaken, Changed and Unrewritable under the same names.
const (
	// The request
	Usage    = "usage"   // a malformed command line or request
	BadKey   = "bad_key" // a key no note could have
	BadAsOf  = "bad_as_of"
	BadSince = "bad_since" // --since names no date, commit, branch or tag, or history a shallow clone lacks
	// BadLines: lines past the note's end.
	BadLines      = "bad_lines"
	BadBody       = "bad_body"
	BadGold       = "bad_gold"       // eval's questions cannot be read
	BadBaseline   = "bad_baseline"   // eval's --baseline is not an eval result
	StoreMismatch = "store_mismatch" // the baseline was measured on another store

	// What the store holds
	NotFound         = "not_found"
	Ambiguous        = "ambiguous"
	KeyTaken         = "key_taken"
	NotARecord       = "not_a_record"
	AlreadyRetracted = "already_retracted"
	TeamRecord       = "team_record" // retracting a tracked record needs --team
	LinksLocal       = "links_local" // a promoted note would link to one left on this machine
	Changed          = "changed"     // a note changed while mv read the store
	Unrewritable     = "unrewritable"
	Excluded         = "excluded" // the config's exclude globs would leave the note out
	Ignored          = "ignored"  // git ignores the note's new path
	LintFailed       = "lint_failed"

	// The repository and its configuration
	NoSuchFolder      = "no_such_folder"
	NotARepository    = "not_a_repository"
	NoWorktree        = "no_worktree"
	BadConfig         = "bad_config"
	BadPrivateDir     = "bad_private_dir"
	BadNotes          = "bad_notes"
	BadTemplate       = "bad_template"
	BadTarget         = "bad_target" // a file cannot be written where it goes
	ConfigDiffers     = "config_differs"
	MissingObjects    = "missing_objects"
	NoCachePlace      = "no_cache_place"
	GitFailed         = "git_failed"
	GitBusy           = "git_busy"           // another git process holds git's index lock: nothing was written
	Journal           = "journal"            // a change's journal cannot be written or finished
	JournalUnwritable = "journal_unwritable" // the journal's folder cannot be written: no change may start
	DamagedCache      = "damaged_cache"      // a command that changes nothing found the cache damaged
	HookRefused       = "hook_refused"
	HookFailed        = "hook_failed"
	Internal          = "internal" // anything else: an unrecoverable failure
)
