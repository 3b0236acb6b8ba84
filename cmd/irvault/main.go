// Command irvault turns an IR test collection (corpus.jsonl, queries.jsonl,
// qrels.tsv) into what omh measures: a git repository with one note per
// document, the title as its heading, and gold questions for omh eval whose
// expected notes are the judged documents, graded for nDCG.
//
//	go run ./cmd/irvault -collection ../shared/data/ir/cranfield -out /tmp/ir/cranfield
//	omh -C /tmp/ir/cranfield/vault eval /tmp/ir/cranfield/gold.jsonl --split tune
//
// The vault is built once and reused while its corpus is unchanged. It is
// not needed by go test ./...
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/omh-notes/omh/eval"
)

func main() {
	collection := flag.String("collection", "", "folder holding corpus.jsonl, queries.jsonl and qrels.tsv")
	out := flag.String("out", "", "folder to write vault/ and gold.jsonl into")
	queries := flag.String("queries", "queries.jsonl", "queries file inside the collection")
	qrels := flag.String("qrels", "qrels.tsv", "judgments file inside the collection")
	gold := flag.String("gold", "gold.jsonl", "name of the gold file to write")
	flag.Parse()
	if *collection == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*collection, *out, *queries, *qrels, *gold); err != nil {
		fmt.Fprintln(os.Stderr, "irvault:", err)
		os.Exit(1)
	}
}

func run(collection, out, queriesFile, qrelsFile, goldFile string) error {
	vault := filepath.Join(out, "vault")
	if _, err := os.Stat(filepath.Join(vault, ".git")); err != nil {
		if err := buildVault(filepath.Join(collection, "corpus.jsonl"), vault); err != nil {
			return err
		}
	}
	judged, err := readQrels(filepath.Join(collection, qrelsFile))
	if err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(collection, queriesFile))
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := os.Create(filepath.Join(out, goldFile))
	if err != nil {
		return err
	}
	defer w.Close()
	enc := json.NewEncoder(w)
	written := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var q struct{ ID, Text string }
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return fmt.Errorf("%s: %w", queriesFile, err)
		}
		gains := judged[q.ID]
		if len(gains) == 0 {
			continue // an unjudged query measures nothing
		}
		g := eval.Gold{ID: q.ID, Question: q.Text, Gains: map[string]float64{}}
		for doc, grade := range gains {
			g.Expect = append(g.Expect, noteKey(doc))
			g.Gains[noteKey(doc)] = grade
		}
		sort.Strings(g.Expect)
		if err := enc.Encode(g); err != nil {
			return err
		}
		written++
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Printf("%s: %d judged questions in %s, notes in %s\n", filepath.Base(collection), written, filepath.Join(out, goldFile), vault)
	return nil
}

// readQrels reads query → document → grade; only grades above zero count.
func readQrels(path string) (map[string]map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[string]float64{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Split(strings.TrimSpace(sc.Text()), "\t")
		if line == 1 && fields[0] == "query-id" || len(fields) < 3 {
			continue
		}
		grade, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, line, err)
		}
		if grade <= 0 {
			continue
		}
		if out[fields[0]] == nil {
			out[fields[0]] = map[string]float64{}
		}
		out[fields[0]][fields[1]] = grade
	}
	return out, sc.Err()
}

// noteKey is the note a document becomes: its id, made safe as a file name.
func noteKey(id string) string {
	return strings.NewReplacer("/", "_", "\\", "_", ".", "_").Replace(id)
}

// buildVault writes one note per document and commits them, with fixed
// dates so every build of the same corpus has the same commit.
func buildVault(corpus, vault string) error {
	tmp := vault + ".tmp"
	os.RemoveAll(tmp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	f, err := os.Open(corpus)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var d struct{ ID, Title, Text string }
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return fmt.Errorf("%s: %w", corpus, err)
		}
		note := "# " + strings.TrimSpace(d.Title) + "\n\n" + strings.TrimSpace(d.Text) + "\n"
		if err := os.WriteFile(filepath.Join(tmp, noteKey(d.ID)+".md"), []byte(note), 0o644); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=irvault", "-c", "user.email=irvault@example.invalid", "-c", "commit.gpgsign=false",
			"commit", "-q", "-m", "corpus", "--date=2000-01-01T00:00:00Z"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	return os.Rename(tmp, vault)
}
