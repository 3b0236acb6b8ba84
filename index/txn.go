package index

import (
	"database/sql"
	"fmt"
)

// txn is a transaction whose statements are prepared once and reused:
// parsing SQL costs more than running the small lookups a refresh or an
// answer makes by the thousand.
type txn struct {
	*sql.Tx
	stmts map[string]*sql.Stmt
}

func newTxn(tx *sql.Tx) *txn { return &txn{Tx: tx, stmts: map[string]*sql.Stmt{}} }

func (t *txn) prepare(query string) (*sql.Stmt, error) {
	if st, ok := t.stmts[query]; ok {
		return st, nil
	}
	st, err := t.Tx.Prepare(query)
	if err != nil {
		return nil, fmt.Errorf("preparing a query: %w", err)
	}
	t.stmts[query] = st
	return st, nil
}

func (t *txn) QueryRow(query string, args ...any) *sql.Row {
	st, err := t.prepare(query)
	if err != nil {
		return t.Tx.QueryRow(query, args...) // reports the same error through Scan
	}
	return st.QueryRow(args...)
}

func (t *txn) Query(query string, args ...any) (*sql.Rows, error) {
	st, err := t.prepare(query)
	if err != nil {
		return nil, err
	}
	return st.Query(args...)
}

func (t *txn) Exec(query string, args ...any) (sql.Result, error) {
	crash.Step()
	st, err := t.prepare(query)
	if err != nil {
		return nil, err
	}
	return st.Exec(args...)
}
