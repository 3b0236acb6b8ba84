#!/bin/sh
# Commit subjects say what changed in at most 72 characters (merges too),
# from the commit named below on: the history before it keeps its longer
# ones. Skipped, saying so, when the checkout has no history back to it (a
# shallow clone).
set -eu
cd "$(dirname "$0")/.."
since=91ddde3
if ! git cat-file -e "$since^{commit}" 2>/dev/null; then
	echo "subjects: skipped (no history back to $since)"
	exit 0
fi
long=0
git log --format=%s "$since..HEAD" > "${TMPDIR:-/tmp}/omh-subjects.$$"
while IFS= read -r subject; do
	n=$(printf '%s' "$subject" | LC_ALL=C.UTF-8 wc -m)
	if [ "$n" -gt 72 ]; then
		echo "subject over 72 characters ($n): $subject"
		long=1
	fi
done < "${TMPDIR:-/tmp}/omh-subjects.$$"
rm -f "${TMPDIR:-/tmp}/omh-subjects.$$"
exit $long
