package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/omh-notes/omh/eval"
)

// set says where a data set's notes and questions come from for one split.
type set struct {
	name string
	skip string // why the set is not measured on this split; "" when it is
	// An IR collection, made into a vault by irvault:
	collection, queries, qrels, goldName string
	// A real vault: a git bundle, a gold file and, when the data folder
	// has one, a file of more questions the vault cannot answer, measured
	// for the verdict only.
	bundle, gold, negatives string
	// half is the half of omh eval's hash split to keep ("tune" or
	// "holdout"), "" to keep every question of the file.
	half   string
	source string // the questions, in words
}

func dataset(name, data, split string, also bool) set {
	suffix := ""
	if also {
		suffix = "-also"
	}
	ir := filepath.Join(data, "ir", name)
	s := set{name: name}
	switch name {
	case "scifact":
		s.collection = ir
		if also {
			s.skip = "it has no extra phrasings"
		}
		if split == "tune" {
			s.queries, s.qrels, s.goldName = "queries-train.jsonl", "qrels-train.tsv", "gold-train.jsonl"
			s.source = "queries-train.jsonl + qrels-train.tsv, all judged"
		} else {
			s.queries, s.qrels, s.goldName = "queries.jsonl", "qrels.tsv", "gold.jsonl"
			s.source = "queries.jsonl + qrels.tsv (BEIR test), all judged"
		}
	case "cranfield", "cisi":
		s.collection, s.queries, s.qrels, s.goldName = ir, "queries.jsonl", "qrels.tsv", "gold.jsonl"
		if also {
			s.skip = "it has no extra phrasings"
		}
		s.half = map[string]string{"tune": "tune", "report": "holdout"}[split]
		s.source = "queries.jsonl + qrels.tsv, the " + s.half + " half of omh eval's hash split"
		if s.half == "" {
			s.source = "queries.jsonl + qrels.tsv, every judged query"
		}
	case "obsidian-help-en", "dendron-site", "vba-docs":
		short := strings.SplitN(name, "-", 2)[0]
		s.bundle = filepath.Join(data, "vaults", name+".bundle")
		s.gold = filepath.Join(data, "gold", short+"-tune"+suffix+".jsonl")
		s.source = "gold/" + short + "-tune" + suffix + ".jsonl, all questions"
		if neg := filepath.Join(data, "gold", short+"-tune-negatives"+suffix+".jsonl"); exists(neg) {
			s.negatives = neg
			s.source += " + gold/" + short + "-tune-negatives" + suffix + ".jsonl"
		}
		if split != "tune" {
			s.skip = "its held-out questions are not in the data folder (the gold file here is all tune)"
		}
	}
	return s
}

// question is one gold line, kept verbatim for the subset file omh eval
// reads.
type question struct {
	ID       string             `json:"id"`
	Question string             `json:"question"`
	Also     []string           `json:"also"`
	Expect   []string           `json:"expect"`
	Answer   string             `json:"answer"`
	Negative bool               `json:"negative"`
	Gains    map[string]float64 `json:"gains"`
	line     []byte
}

// gain grades each expected note as omh eval grades them.
func (q question) gain() map[string]float64 { return eval.Gains(q.Expect, q.Gains) }

// prepared is a data set ready to measure.
type prepared struct {
	set
	vault     string
	questions []question
	goldFile  string // exactly the measured questions, for omh eval --split all
	dir       string
}

func prepare(o options, t tools, s set) (prepared, error) {
	p := prepared{set: s, dir: filepath.Join(o.work, s.name)}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return p, err
	}
	p.vault = filepath.Join(p.dir, "vault")
	var goldPath string
	if s.collection != "" {
		// irvault reuses the vault when it exists and writes the gold file.
		cmd := exec.Command(t.irvault, "-collection", s.collection, "-out", p.dir,
			"-queries", s.queries, "-qrels", s.qrels, "-gold", s.goldName)
		if out, err := cmd.CombinedOutput(); err != nil {
			return p, fmt.Errorf("irvault: %v\n%s", err, out)
		}
		goldPath = filepath.Join(p.dir, s.goldName)
	} else {
		if _, err := os.Stat(filepath.Join(p.vault, ".git")); err != nil {
			tmp := p.vault + ".tmp"
			os.RemoveAll(tmp)
			if out, err := exec.Command("git", "clone", "-q", s.bundle, tmp).CombinedOutput(); err != nil {
				return p, fmt.Errorf("git clone %s: %v\n%s", s.bundle, err, out)
			}
			if err := os.Rename(tmp, p.vault); err != nil {
				return p, err
			}
		}
		goldPath = s.gold
	}
	if o.freshCache {
		if err := os.RemoveAll(filepath.Join(p.vault, ".git", "omh")); err != nil {
			return p, err
		}
	}
	all, err := readQuestions(goldPath)
	if err != nil {
		return p, err
	}
	if s.negatives != "" {
		more, err := readQuestions(s.negatives)
		if err != nil {
			return p, err
		}
		for _, q := range more {
			if !q.Negative {
				return p, fmt.Errorf("%s: question %s is not negative", s.negatives, q.ID)
			}
		}
		all = append(all, more...)
	}
	for _, q := range all {
		if s.half == "" || half(q.ID) == s.half {
			p.questions = append(p.questions, q)
		}
	}
	sortByID(p.questions)
	if o.limit > 0 && len(p.questions) > o.limit {
		p.questions = p.questions[:o.limit]
	}
	if len(p.questions) == 0 {
		return p, fmt.Errorf("no questions in %s for this split", goldPath)
	}
	p.goldFile = filepath.Join(p.dir, fmt.Sprintf("measured-%s.jsonl", o.split))
	if o.also {
		p.goldFile = filepath.Join(p.dir, fmt.Sprintf("measured-%s-also.jsonl", o.split))
	}
	var buf bytes.Buffer
	for _, q := range p.questions {
		buf.Write(q.line)
		buf.WriteByte('\n')
	}
	return p, os.WriteFile(p.goldFile, buf.Bytes(), 0o644)
}

func readQuestions(path string) ([]question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []question
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var q question
		if err := json.Unmarshal(line, &q); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		if q.ID == "" || strings.TrimSpace(q.Question) == "" {
			return nil, fmt.Errorf("%s line %d: no id or no question", path, n)
		}
		q.line = append([]byte(nil), line...)
		out = append(out, q)
	}
	return out, sc.Err()
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// half is the half of omh eval's split a question id falls in: holdout
// when FNV-1a (32 bits) of the id is 0 modulo 5, as omh eval splits them.
func half(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%5 == 0 {
		return "holdout"
	}
	return "tune"
}

// sortByID orders questions by id: numerically when both ids are numbers
// (the IR collections), else as strings.
func sortByID(qs []question) {
	sort.SliceStable(qs, func(i, j int) bool {
		a, errA := strconv.ParseInt(qs[i].ID, 10, 64)
		b, errB := strconv.ParseInt(qs[j].ID, 10, 64)
		switch {
		case errA == nil && errB == nil:
			return a < b
		case (errA == nil) != (errB == nil):
			return errA == nil // numbers first
		}
		return qs[i].ID < qs[j].ID
	})
}
