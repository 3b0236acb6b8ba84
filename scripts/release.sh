#!/bin/sh
# Builds omh's release binaries into DIR: one static binary (CGO_ENABLED=0,
# no C library behind it) for each of linux, darwin and windows on amd64 and
# arm64, named omh-OS-ARCH[.exe], and SHA256SUMS beside them. Each is
# stamped with the checkout's version (git describe) and revision. Each binary's
# build information is checked to say CGO_ENABLED=0, so a build that linked
# the C library fails here rather than on a user's machine.
# Usage: sh scripts/release.sh DIR [OS/ARCH...]
# Given targets, it builds only those (CI builds one per system: the code
# differs by system, not by processor, and a cold build costs a minute or
# more each).
set -eu
out=${1:?usage: sh scripts/release.sh DIR [OS/ARCH...]}
shift
cd "$(dirname "$0")/.."
mkdir -p "$out"
# The version and revision are stamped, not left to go build's VCS
# stamping, which records nothing with -buildvcs=false or in a linked git
# worktree; omh version prints them.
revision=$(git rev-parse HEAD)
version=$(git describe --tags --always --dirty)
stamp="-X main.stampedVersion=$version -X main.stampedRevision=$revision"
targets=${*:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
for t in $targets; do
	os=${t%/*} arch=${t#*/}
	bin="$out/omh-$os-$arch"
	[ "$os" = windows ] && bin="$bin.exe"
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "-s -w $stamp" -o "$bin" ./cmd/omh
	if ! go version -m "$bin" | grep -q 'CGO_ENABLED=0'; then
		echo "release.sh: $bin is not a static build" >&2
		exit 1
	fi
	echo "built $bin" >&2
done
(cd "$out" && sha256sum omh-* > SHA256SUMS)
