package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/unicode/norm"
)

// tools are the binaries a run uses.
type tools struct {
	omh     string
	irvault string
	fts5    string // the FTS5 peer, for its process-per-query timing
}

// prepareTools builds omh (unless -omh names one), irvault and the FTS5
// peer from the module the current directory is in.
func prepareTools(o options) (tools, error) {
	t := tools{omh: o.omh, irvault: filepath.Join(o.work, "irvault"), fts5: filepath.Join(o.work, "fts5peer")}
	build := func(out, pkg string) error {
		start := time.Now()
		cmd := exec.Command("go", "build", "-o", out, pkg)
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
		}
		fmt.Fprintf(os.Stderr, "built %s in %.1fs\n", out, time.Since(start).Seconds())
		return nil
	}
	if t.omh == "" {
		t.omh = filepath.Join(o.work, "omh")
		if err := build(t.omh, "github.com/omh-notes/omh/cmd/omh"); err != nil {
			return t, err
		}
	} else {
		abs, err := filepath.Abs(t.omh)
		if err != nil {
			return t, err
		}
		t.omh = abs
	}
	if err := build(t.irvault, "github.com/omh-notes/omh/internal/tools/irvault"); err != nil {
		return t, err
	}
	return t, build(t.fts5, "github.com/omh-notes/omh/internal/tools/fts5peer")
}

// omhRanked asks omh find for the ranked keys of one question, up to depth.
func omhRanked(omh, vault, ranker string, q question, depth int) ([]string, time.Duration, error) {
	args := []string{"-C", vault, "find", "--json", "--roots", strconv.Itoa(depth), "--ranker", ranker}
	for _, a := range q.Also {
		args = append(args, "--also", a)
	}
	args = append(args, "-") // the question on standard input: no quoting, no flag look-alikes
	cmd := exec.Command(omh, args...)
	cmd.Stdin = strings.NewReader(q.Question)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil {
		return nil, took, fmt.Errorf("omh find (%s) on %s: %v\n%s", ranker, q.ID, err, stderr.Bytes())
	}
	// Gold files and FTS5 name notes by their paths from the repository
	// root, which a key under a notes root such as en/ is not.
	var reply struct {
		Hits []struct {
			Path  string `json:"path"`
			Depth int    `json:"depth"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &reply); err != nil {
		return nil, took, fmt.Errorf("omh find (%s) on %s: reply is not JSON: %w", ranker, q.ID, err)
	}
	keys := []string{}
	for _, h := range reply.Hits {
		if h.Depth == 0 {
			keys = append(keys, norm.NFC.String(strings.TrimSuffix(h.Path, ".md")))
		}
	}
	return keys, took, nil
}

// rankAll asks omh find for every question, jobs processes at a time.
func rankAll(omh, vault, ranker string, qs []question, depth, jobs int) ([][]string, error) {
	out := make([][]string, len(qs))
	errs := make([]error, len(qs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], _, errs[i] = omhRanked(omh, vault, ranker, qs[i], depth)
			}
		}()
	}
	for i := range qs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// evalReport is the part of omh eval --json that compare reads.
type evalReport struct {
	Ranker string `json:"ranker"`
	Store  struct {
		Commit string `json:"commit"`
		Notes  int    `json:"notes"`
	} `json:"store"`
	Questions []struct {
		ID           string  `json:"id"`
		Negative     bool    `json:"negative"`
		Rank         int     `json:"rank"`
		Recall1      float64 `json:"recall_1"`
		Recall5      float64 `json:"recall_5"`
		MRR10        float64 `json:"mrr_10"`
		NDCG10       float64 `json:"ndcg_10"`
		HasAnswer    bool    `json:"has_answer"`
		AnswerOnCard bool    `json:"answer_on_card"`
		Verdict      string  `json:"verdict"`
	} `json:"questions"`
	Total struct {
		Answerable   int     `json:"answerable"`
		Recall5      float64 `json:"recall_5"`
		NDCG10       float64 `json:"ndcg_10"`
		AnswerOnCard float64 `json:"answer_on_card"`
	} `json:"total"`
}

// omhEval runs omh eval on exactly the measured questions, with the reply
// omh find gives by default (8 roots, 6,000 characters), one way: with the
// gold's extra phrasings or without.
func omhEval(omh, vault, goldFile, ranker string, also bool) (evalReport, error) {
	var r evalReport
	way := "without"
	if also {
		way = "with"
	}
	cmd := exec.Command(omh, "-C", vault, "eval", goldFile, "--split", "all", "--ranker", ranker, "--also", way, "--json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return r, fmt.Errorf("omh eval (%s): %v\n%s", ranker, err, stderr.Bytes())
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return r, fmt.Errorf("omh eval (%s): reply is not JSON: %w", ranker, err)
	}
	return r, nil
}
