package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/omh-notes/omh/internal/tools/fts5"
)

// report is everything one run measured, as -json writes it.
type report struct {
	Split   string      `json:"split"`
	Limit   int         `json:"limit"` // questions per set, 0 for all
	Omh     string      `json:"omh"`
	DDL     string      `json:"fts5_ddl"`
	Query   string      `json:"fts5_query"`
	Sets    []setResult `json:"sets"`
	Skipped []string    `json:"skipped,omitempty"`
	// Fragments is -fragments' measure, per language.
	Fragments []fragmentResult `json:"fragments,omitempty"`
	Seconds   float64          `json:"seconds"`
}

func printHeader(w io.Writer, o options) {
	limit := "all questions"
	if o.limit > 0 {
		limit = fmt.Sprintf("the first %d questions of each set in id order", o.limit)
	}
	fmt.Fprintf(w, "compare · split %s · %s · %s\n", o.split, limit, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(w, "FTS5 table: %s\n", fts5.DDL)
	fmt.Fprintf(w, "FTS5 query: %s\n", fts5.Query)
	fmt.Fprintf(w, "  (title = frontmatter title, else the first '# ' heading, else the file name, plus frontmatter aliases; body = the rest, frontmatter left out;\n")
	fmt.Fprintf(w, "   MATCH = each distinct question word, a run of letters and digits, double-quoted and OR-ed)\n")
	fmt.Fprintf(w, "metrics: computed here from each ranker's 100 ranked keys; nDCG@10 with the gold's graded gains, linear, log2(i+2) discount;\n")
	if o.fast {
		fmt.Fprintf(w, "  means over answerable questions. omh (-fast): the per-question figures of one `omh eval --ranker R --json` per set, no Recall@100.\n")
	} else {
		fmt.Fprintf(w, "  means over answerable questions. omh: one `omh find --json --roots 100 --ranker R` per question.\n")
	}
	if o.latency > 0 {
		fmt.Fprintf(w, "latency: median wall time of one process per question (omh find --json with its 8 default roots; `fts5peer query -bare` for FTS5),\n")
		fmt.Fprintf(w, "  timed one at a time on the first %d questions; FTS5 also in-process (query and rows), over every question.\n", o.latency)
	} else {
		fmt.Fprintf(w, "latency: processes not timed (-latency 0); FTS5 in-process (query and rows), over every question.\n")
	}
}

func printSet(w io.Writer, r setResult, verbose, first bool) {
	fmt.Fprintf(w, "\n%s · %s: %s · %d questions (%d answerable, %d negative) · notes: omh %d, fts5 %d\n",
		r.Name, r.Split, r.Source, r.Questions, r.Answerable, r.Negatives, r.NotesOmh, r.NotesFTS)
	if r.NotesOmh != r.NotesFTS {
		fmt.Fprintf(w, "  WARNING: omh and FTS5 hold different numbers of notes\n")
	}
	fmt.Fprintf(w, "  %-22s %7s %7s %8s %7s %7s %7s %11s %14s\n", "ranker", "hit@1", "R@1", "nDCG@10", "R@5", "R@100", "MRR@10", "process ms", "in-process ms")
	for _, x := range r.Rankers {
		name := x.Name
		switch {
		case x.Name == rankFTS:
			name = "fts5 bm25()"
		case x.Is != "" && x.Is != x.Name:
			name = fmt.Sprintf("%s (= %s)", x.Name, x.Is)
		}
		proc, inproc := "-", "-"
		if x.Timed > 0 {
			proc = fmt.Sprintf("%.1f", x.ProcessMS)
		}
		if x.Name == rankFTS {
			inproc = fmt.Sprintf("%.2f", x.InProcessMS)
		}
		t := x.Totals
		fmt.Fprintf(w, "  %-22s %7.3f %7.3f %8.3f %7.3f %s %7.3f %11s %14s\n", name, t.Hit1, t.Recall1, t.NDCG10, t.Recall5, fmtOpt(t.Recall100, 7), t.MRR10, proc, inproc)
	}
	printMoves(w, "default vs fts5", r.VsFTS, verbose)
	printMoves(w, "default vs baseline", r.VsBaseline, verbose)
	var checks []string
	for _, c := range r.CrossChecks {
		s := fmt.Sprintf("%s %d/%d agree", c.Ranker, c.Agree, c.Compared)
		if len(c.Differ) > 0 {
			s += " (differ: " + listIDs(c.Differ, 10) + ")"
		}
		checks = append(checks, s)
	}
	if len(checks) > 0 {
		fmt.Fprintf(w, "  omh eval cross-check (nDCG@10, R@5, MRR@10 per question): %s\n", strings.Join(checks, "; "))
	}
	if r.AnswerOnCard != nil {
		fmt.Fprintf(w, "  answer on a card (omh eval, default ranker, default reply): %.3f of %d questions\n", r.AnswerOnCard.Value, r.AnswerOnCard.Questions)
	}
	if n, a := r.NegativesDoubted, r.AnswerableAnswered; n != nil || a != nil {
		line := "  verdict (omh eval, default ranker):"
		if n != nil {
			line += fmt.Sprintf(" weak or none on %.3f of %d negatives;", n.Value, n.Questions)
		}
		if a != nil {
			line += fmt.Sprintf(" wrongly weak or none on %.3f of %d answerable", 1-a.Value, a.Questions)
		}
		fmt.Fprintln(w, line)
	}
	if k := r.Keywords; k != nil {
		fmt.Fprintf(w, "  whole sentence vs its keywords (function words removed), default ranker: %d questions compared, the sentence ranks the note worse on %d, better on %d\n",
			k.Compared, len(k.Worse), len(k.Better))
		if verbose && len(k.Worse) > 0 {
			fmt.Fprintf(w, "    worse: %s\n", listIDs(k.Worse, 20))
		}
	}
	if ref := r.Reference; ref != nil {
		fts, base := r.ranker(rankFTS).Totals.NDCG10, r.ranker(rankBaseline).Totals.NDCG10
		fmt.Fprintf(w, "  reference nDCG@10 (data README): BM25 k1 0.9 b 0.4 %.3f, fts5 %+.3f from it; rarity baseline %.3f, omh baseline %+.3f from it\n",
			ref.BM25, fts-ref.BM25, ref.Rarity, base-ref.Rarity)
		if r.Split == "report" && r.Name != "scifact" {
			fmt.Fprintf(w, "    (the README's figures for %s are over every judged query, both halves: compare them with -split all)\n", r.Name)
		}
	}
	if first || verbose {
		fmt.Fprintf(w, "  example MATCH (%s): %s\n", r.IDs[0], r.ExampleMatch)
	}
	lists := fmt.Sprintf("%.0fs + %.0fs", r.ranker(rankDefault).RankSeconds, r.ranker(rankBaseline).RankSeconds)
	switch {
	case r.ranker(rankDefault).FromEval:
		lists = fmt.Sprintf("none; omh eval %.0fs + %.0fs", r.ranker(rankDefault).RankSeconds, r.ranker(rankBaseline).RankSeconds)
	case r.ranker(rankBaseline).SameAs != "":
		lists = fmt.Sprintf("%.0fs, once: default and baseline are one scoring function", r.ranker(rankDefault).RankSeconds)
	}
	fmt.Fprintf(w, "  took %.0fs (prepare %.1fs, FTS5 build %.1fs; omh find lists %s)\n", r.Seconds, r.PrepareSec, r.FTSBuildSec, lists)
}

func printMoves(w io.Writer, label string, c comparison, verbose bool) {
	fmt.Fprintf(w, "  %s: %d gained, %d lost (nDCG@10 moved by 0.1 or more)\n", label, len(c.Gained), len(c.Lost))
	if verbose && len(c.Gained)+len(c.Lost) > 0 {
		fmt.Fprintf(w, "    (id  nDCG@10 of the other ranker → of the default)\n")
	}
	if !verbose {
		return
	}
	for _, part := range []struct {
		sign string
		cs   []change
	}{{"+", c.Gained}, {"-", c.Lost}} {
		if len(part.cs) == 0 {
			continue
		}
		var items []string
		for _, x := range part.cs {
			items = append(items, fmt.Sprintf("%s %.2f→%.2f", x.ID, x.From, x.To))
		}
		fmt.Fprintf(w, "    %s %s\n", part.sign, strings.Join(items, ", "))
	}
}

func listIDs(ids []string, most int) string {
	if len(ids) <= most {
		return strings.Join(ids, " ")
	}
	return strings.Join(ids[:most], " ") + fmt.Sprintf(" … %d more", len(ids)-most)
}

// printSummary prints one line per data set: hit@1, nDCG@10, Recall@5 and
// Recall@100 of the three rankers side by side.
func printSummary(w io.Writer, rep report) {
	if len(rep.Sets) == 0 {
		return
	}
	fmt.Fprintf(w, "\nsummary · split %s\n", rep.Split)
	fmt.Fprintf(w, "  %-18s %5s │ %-23s │ %-23s │ %-23s │ %-23s\n", "", "", "hit@1", "nDCG@10", "R@5", "R@100")
	fmt.Fprintf(w, "  %-18s %5s │ %7s %7s %7s │ %7s %7s %7s │ %7s %7s %7s │ %7s %7s %7s\n", "data set", "n",
		"default", "base", "fts5", "default", "base", "fts5", "default", "base", "fts5", "default", "base", "fts5")
	for _, s := range rep.Sets {
		d, b, f := s.ranker(rankDefault).Totals, s.ranker(rankBaseline).Totals, s.ranker(rankFTS).Totals
		fmt.Fprintf(w, "  %-18s %5d │ %7.3f %7.3f %7.3f │ %7.3f %7.3f %7.3f │ %7.3f %7.3f %7.3f │ %s %s %s\n", s.Name, s.Answerable,
			d.Hit1, b.Hit1, f.Hit1, d.NDCG10, b.NDCG10, f.NDCG10, d.Recall5, b.Recall5, f.Recall5,
			fmtOpt(d.Recall100, 7), fmtOpt(b.Recall100, 7), fmtOpt(f.Recall100, 7))
	}
}

func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
