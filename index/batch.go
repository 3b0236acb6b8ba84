package index

import (
	"fmt"
	"strings"
)

// batchRows is how many rows one multi-row INSERT carries: a first build
// writes hundreds of thousands of rows, and one statement per row cost more
// than the writing itself.
const batchRows = 256

// inserter collects rows for one table and writes them in multi-row
// statements. Rows become visible to queries only after Flush.
type inserter struct {
	tx     *txn
	verb   string // "INSERT" or "INSERT OR REPLACE"
	table  string
	cols   []string
	buffer []any
}

func newInserter(tx *txn, verb, table string, cols ...string) *inserter {
	return &inserter{tx: tx, verb: verb, table: table, cols: cols}
}

func (in *inserter) Add(values ...any) error {
	if len(values) != len(in.cols) {
		panic(fmt.Sprintf("%d values for %d columns of %s", len(values), len(in.cols), in.table))
	}
	in.buffer = append(in.buffer, values...)
	if len(in.buffer) == batchRows*len(in.cols) {
		return in.Flush()
	}
	return nil
}

func (in *inserter) Flush() error {
	rows := len(in.buffer) / len(in.cols)
	if rows == 0 {
		return nil
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(in.cols)), ", ") + ")"
	query := fmt.Sprintf("%s INTO %s (%s) VALUES %s", in.verb, in.table, strings.Join(in.cols, ", "),
		strings.TrimSuffix(strings.Repeat(one+", ", rows), ", "))
	if _, err := in.tx.Exec(query, in.buffer...); err != nil {
		return fmt.Errorf("writing %s: %w", in.table, err)
	}
	in.buffer = in.buffer[:0]
	return nil
}
