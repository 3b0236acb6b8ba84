// Command fts5peer is the SQLite FTS5 peer as a process (package fts5):
// the benchmark and compare time one per question, as an agent would run
// it. A query first brings the table level with the notes folder, as a
// plain full-text peer must for a fresh answer: it stats every markdown
// file, re-indexes what changed, and only then asks FTS5 for the best
// bm25 matches.
//
//	fts5peer version                         print SQLite's version
//	fts5peer ddl                             print the schema and the query
//	fts5peer build -db FILE -root DIR        index every note under DIR afresh
//	fts5peer query -db FILE -root DIR [-limit N] -- QUESTION…
//	                                         refresh, then print "key<TAB>bm25" lines
//	fts5peer query -bare -db FILE [-limit N] -- QUESTION…
//	                                         the same without the refresh: the floor
//	                                         of a process that asks SQLite one question
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/omh-notes/omh/internal/tools/fts5"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fts5peer:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: fts5peer version|ddl|build|query …")
	}
	fl := flag.NewFlagSet(args[0], flag.ContinueOnError)
	dbPath := fl.String("db", "", "the SQLite database file")
	root := fl.String("root", "", "the folder of markdown notes")
	bare := fl.Bool("bare", false, "query: skip the refresh")
	limit := fl.Int("limit", 8, "query: how many notes to print, best first")
	if err := fl.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "ddl":
		fmt.Println(fts5.DDL)
		fmt.Println(fts5.Query)
		return nil
	case "version":
		v, err := fts5.Version()
		if err == nil {
			fmt.Println(v)
		}
		return err
	case "build":
		if *dbPath == "" || *root == "" {
			return errors.New("build needs -db and -root")
		}
		n, err := fts5.Build(*dbPath, *root)
		if err == nil {
			fmt.Printf("indexed %d notes\n", n)
		}
		return err
	case "query":
		if *dbPath == "" || (*root == "" && !*bare) || fl.NArg() == 0 {
			return errors.New("query needs -db, -root (unless -bare) and a question")
		}
		return query(*dbPath, *root, fts5.Match(fl.Args()...), *limit, !*bare)
	}
	return fmt.Errorf("unknown mode %q", args[0])
}

// query refreshes the table, unless told not to, and prints the best
// matches.
func query(dbPath, root, match string, limit int, fresh bool) error {
	db, err := fts5.Open(dbPath, root)
	if err != nil {
		return err
	}
	defer db.Close()
	if fresh {
		changed, err := db.Refresh()
		if err != nil {
			return err
		}
		if changed > 0 {
			fmt.Fprintf(os.Stderr, "fts5peer: re-indexed %d changed files\n", changed)
		}
	}
	hits, err := db.Search(match, limit)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	for _, h := range hits {
		fmt.Fprintf(&out, "%s\t%.4f\n", h.Key, h.Score)
	}
	_, err = os.Stdout.Write(out.Bytes())
	return err
}
