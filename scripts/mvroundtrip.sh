#!/bin/sh
# omh mv round trips on copies of the real vaults: 20 random linked notes of
# each (OMH_ROUNDTRIPS), renamed and back, each move committed; every file
# must end byte-identical and lint must find as many dangling links as
# before. go test runs 3 notes of the two small vaults; this runs them all
# (vba-docs, 38,187 notes, takes minutes to index).
#
#   sh scripts/mvroundtrip.sh [VAULT...]     default: dendron-site obsidian-help-en vba-docs
set -eu
cd "$(dirname "$0")/.."
vaults=${*:-dendron-site obsidian-help-en vba-docs}
OMH_ROUNDTRIPS=${OMH_ROUNDTRIPS:-20} OMH_ROUNDTRIP_VAULTS=$(echo $vaults | tr ' ' ,) \
	go test ./store -run TestRealVaultsRenameAndBackLeavesEveryByte -count=1 -v -timeout 60m |
	grep -E '^(---|    ---|ok|FAIL|PASS)|realvaults_test'
