// Command compare scores three rankers on the same notes and the same
// questions: omh's default ranker, omh's baseline ranker (the first omh had) and
// SQLite FTS5's bm25(). Every metric is computed here, by one piece of code,
// from each ranker's list of ranked keys (up to 100), so the figures of the
// three are comparable to the last digit.
//
//	go run ./internal/tools/compare                       # tune questions, all five data sets
//	go run ./internal/tools/compare -split report -v      # report questions, ids of gains and losses
//	go run ./internal/tools/compare -split all            # every judged query, as the data README's reference table
//	go run ./internal/tools/compare -limit 100 -check testdata/quality/baseline.json
//	go run ./internal/tools/compare -fragments            # per language: a piece of a note's body finds the note
//
// Data sets: scifact (tune: the train queries; report: the test queries),
// cranfield and cisi (tune and report: the two halves of omh eval's hash
// split), and the real vaults obsidian-help-en, dendron-site and vba-docs
// (tune only: their held-out questions are not in the data folder; the
// extra negatives files count for the verdict only).
//
// omh's rankers are asked through the omh binary, one `omh find --json
// --roots 100` process per question; omh eval is run once per ranker on the
// same questions as a cross-check of the metrics and for answer-on-card.
// FTS5 is asked in-process from a database built (untimed) over the same
// note files.
//
// It is a measuring program, not part of go test ./...
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/omh-notes/omh/internal/tools/fts5"
)

// Exit statuses.
const (
	exitOK     = 0
	exitWorse  = 1 // -check: a figure dropped by more than one question
	exitUsage  = 2
	exitFailed = 3 // something could not be run or read
)

type options struct {
	data, work, omh  string
	split            string
	sets             []string
	limit            int
	latency          int
	jobs             int
	jsonOut          string
	verbose          bool
	fast             bool
	fragments        bool
	fragmentCount    int
	keywords         bool
	freshCache       bool
	also             bool
	check, writeBase string
}

var allSets = []string{"scifact", "cranfield", "cisi", "obsidian-help-en", "dendron-site", "vba-docs"}

func main() {
	var o options
	var sets string
	flag.StringVar(&o.data, "data", "../shared/data", "the shared data folder (ir/, vaults/, gold/)")
	flag.StringVar(&o.work, "work", filepath.Join(os.TempDir(), "omh-compare"), "folder for vaults, databases and the built binaries; reused between runs")
	flag.StringVar(&o.omh, "omh", "", "the omh binary to measure (default: build ./cmd/omh into the work folder)")
	flag.StringVar(&o.split, "split", "tune", "which questions: tune, report, or all (every judged query of the report files, hash split ignored:\nwhat the data README's reference table is measured on)")
	flag.StringVar(&sets, "sets", strings.Join(allSets, ","), "data sets to measure, comma-separated")
	flag.IntVar(&o.limit, "limit", 0, "measure only the first N questions of each set, in id order (0: all)")
	flag.IntVar(&o.latency, "latency", 30, "questions per set whose process time is measured (0: none)")
	flag.IntVar(&o.jobs, "j", 2, "omh find processes run at once while ranking (timing always runs one at a time)")
	flag.StringVar(&o.jsonOut, "json", "", "write every figure to this file as JSON")
	flag.BoolVar(&o.verbose, "v", false, "list the ids of questions gained and lost")
	flag.BoolVar(&o.fast, "fast", false, "take omh's figures from one omh eval per ranker instead of one omh find per question:\nminutes faster, the same nDCG@10, R@5 and MRR@10, but no Recall@100 for omh and no cross-check")
	flag.BoolVar(&o.fragments, "fragments", false, "measure fragment recall on "+fragmentVault+" per language instead of the data sets:\nwhether a piece of a note's body, asked as a question, finds that note in the top 5")
	flag.IntVar(&o.fragmentCount, "fragment-count", 20, "with -fragments: notes drawn per language (fewer when a language has fewer notes with a unique fragment)")
	flag.BoolVar(&o.keywords, "keywords", false, "also ask every answerable question without its function words (one omh find each) and count\nthe questions whose whole sentence ranks the expected note worse than its keywords do")
	flag.BoolVar(&o.also, "also", false, "ask the real vaults' questions with the extra phrasings of gold/*-also.jsonl (omh find --also);\nthe IR collections, which have none, are skipped")
	flag.BoolVar(&o.freshCache, "fresh-cache", false, "delete each vault's omh cache (.git/omh) first, so that no cache an older binary wrote is measured")
	flag.StringVar(&o.check, "check", "", "baseline file: exit 1 when a figure of the default ranker dropped by more than one question's worth")
	flag.StringVar(&o.writeBase, "write-baseline", "", "write the default ranker's figures to this file, as a baseline for -check")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: compare [flags]\n\nScores omh's default and baseline rankers and SQLite FTS5 bm25() on the same notes and questions.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 || (o.split != "tune" && o.split != "report" && o.split != "all") || o.limit < 0 || o.latency < 0 || o.jobs < 1 || o.fragmentCount < 1 {
		flag.Usage()
		os.Exit(exitUsage)
	}
	for _, s := range strings.Split(sets, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !known(s) {
			fmt.Fprintf(os.Stderr, "compare: unknown data set %q (want some of %s)\n", s, strings.Join(allSets, ", "))
			os.Exit(exitUsage)
		}
		o.sets = append(o.sets, s)
	}
	os.Exit(run(o))
}

func known(name string) bool {
	for _, s := range allSets {
		if s == name {
			return true
		}
	}
	return false
}

func run(o options) int {
	start := time.Now()
	if err := os.MkdirAll(o.work, 0o755); err != nil {
		return fail(err)
	}
	var err error
	if o.work, err = filepath.Abs(o.work); err != nil {
		return fail(err)
	}
	if o.data, err = filepath.Abs(o.data); err != nil {
		return fail(err)
	}
	tools, err := prepareTools(o)
	if err != nil {
		return fail(err)
	}
	rep := report{Split: o.split, Limit: o.limit, Omh: tools.omh, DDL: fts5.DDL, Query: fts5.Query}
	if o.fragments {
		if rep.Fragments, err = runFragments(o, tools); err != nil {
			return fail(err)
		}
		rep.Seconds = time.Since(start).Seconds()
		if o.jsonOut != "" {
			if err := writeJSONFile(o.jsonOut, rep); err != nil {
				return fail(err)
			}
		}
		return exitOK
	}
	printHeader(os.Stdout, o)
	for _, name := range o.sets {
		ds := dataset(name, o.data, o.split, o.also)
		if ds.skip != "" {
			fmt.Printf("\n%s: skipped, %s\n", name, ds.skip)
			rep.Skipped = append(rep.Skipped, name+": "+ds.skip)
			continue
		}
		res, err := measureSet(o, tools, ds)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", name, err))
		}
		printSet(os.Stdout, res, o.verbose, len(rep.Sets) == 0)
		rep.Sets = append(rep.Sets, res)
	}
	printSummary(os.Stdout, rep)
	rep.Seconds = time.Since(start).Seconds()
	fmt.Printf("\ncompare took %.0fs\n", rep.Seconds)
	if o.jsonOut != "" {
		if err := writeJSONFile(o.jsonOut, rep); err != nil {
			return fail(err)
		}
	}
	if o.writeBase != "" {
		if err := writeBaseline(o.writeBase, rep); err != nil {
			return fail(err)
		}
		fmt.Printf("wrote the baseline %s\n", o.writeBase)
	}
	if o.check != "" {
		ok, err := checkBaseline(os.Stdout, o.check, rep)
		if err != nil {
			return fail(err)
		}
		if !ok {
			return exitWorse
		}
	}
	return exitOK
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "compare:", err)
	return exitFailed
}
