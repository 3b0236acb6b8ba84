#!/bin/sh
# The quality gate: omh's default ranker must not lose, against the committed
# figures in testdata/quality/baseline.json, more than one question's worth
# (1/questions) of hit@1, nDCG@10 or Recall@5 on any data set, nor of
# answer-on-card and of the verdict's figures (negatives marked weak or
# none, answerable questions marked answered) on the real vaults. It runs
# internal/tools/compare (omh's default and baseline rankers and SQLite FTS5 bm25() on
# the same notes and questions) on every tune question: scifact's 809 train
# queries, cranfield's 178 and cisi's 60 tune-half queries, obsidian-help-en's
# and dendron-site's 35 (30 answerable each, plus 10 and 11 more negatives)
# and vba-docs' 29 (24 answerable). All three rankers are printed; the
# default one is judged.
#
# It runs compare -fast: omh's figures come from one `omh eval` per ranker and
# data set (the same per-question nDCG@10, Recall@5 and MRR@10 that compare
# computes from `omh find` lists, which it cross-checks in its full mode, but
# no Recall@100). The five smaller sets take about a minute; vba-docs
# (38,187 notes) adds its cold index and two omh evals, a few minutes more. OMH_QUALITY_LIMIT=N measures only the first N questions of each
# set, in id order (the baseline must then be written with the same N).
#
#   scripts/quality.sh           check (exit 1 when a figure dropped)
#   scripts/quality.sh -write    measure the current code and rewrite the baseline
#
# It then asks the real vaults' questions again with the extra phrasings of
# gold/*-also.jsonl (compare -also), against testdata/quality/baseline-also.json:
# the same gate on the questions as agents ask them. That run reuses the
# caches the first one wrote with the same binary, and times nothing.
#
# Each vault's omh cache is deleted first (-fresh-cache): a cache written by
# an older binary under the same schema number must not be what is measured.
#
# Needs ../shared/data (OMH_DATA overrides); without it the gate is skipped.
# Vaults and binaries are kept in $OMH_QUALITY_WORK (default
# ${TMPDIR:-/tmp}/omh-quality) and reused by the next run.
set -eu
cd "$(dirname "$0")/.."

data=${OMH_DATA:-../shared/data}
work=${OMH_QUALITY_WORK:-${TMPDIR:-/tmp}/omh-quality}
limit=${OMH_QUALITY_LIMIT:-0}
baseline=testdata/quality/baseline.json
baseline_also=testdata/quality/baseline-also.json

case ${1:-} in
'') mode=-check ;;
-write) mode=-write-baseline ;;
*) echo "usage: scripts/quality.sh [-write]" >&2; exit 2 ;;
esac

if [ ! -d "$data/ir" ] || [ ! -d "$data/vaults" ] || [ ! -d "$data/gold" ]; then
	echo "quality: skipped, no evaluation data at $data (set OMH_DATA to measure)"
	exit 0
fi
for b in "$baseline" "$baseline_also"; do
	if [ "$mode" = -check ] && [ ! -f "$b" ]; then
		echo "quality: $b is missing; write it with scripts/quality.sh -write" >&2
		exit 1
	fi
done

mkdir -p "$work"
go build -o "$work/omh" ./cmd/omh
go build -o "$work/compare" ./internal/tools/compare
status=
"$work/compare" -data "$data" -work "$work" -omh "$work/omh" -split tune -limit "$limit" \
	-fast -fresh-cache -latency 0 -json "$work/quality.json" "$mode" "$baseline" \
	|| status=$?
"$work/compare" -data "$data" -work "$work" -omh "$work/omh" -split tune -limit "$limit" -also \
	-sets obsidian-help-en,dendron-site,vba-docs -fast -latency 0 -json "$work/quality-also.json" "$mode" "$baseline_also" \
	|| status=$?
exit ${status:-0}
