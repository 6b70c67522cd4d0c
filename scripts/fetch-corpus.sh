#!/usr/bin/env bash
# Fetches the real-world OpenCL C corpus (test/oracle/corpus-clang.test.ts) from Debian's packages
# into .corpus/ (ignored by git, never committed): apt-get download, then dpkg -x.
set -euo pipefail
cd "$(dirname "$0")/.."
PACKAGES=(darktable hashcat-data python3-silx)
ROOT=.corpus/root
if [ -f "$ROOT/.done" ] && [ "$(cat "$ROOT/.done")" = "${PACKAGES[*]}" ]; then exit 0; fi
rm -rf .corpus
mkdir -p .corpus/debs "$ROOT"
(cd .corpus/debs && apt-get download "${PACKAGES[@]}")
for deb in .corpus/debs/*.deb; do dpkg -x "$deb" "$ROOT"; done
ls .corpus/debs > "$ROOT/packages.txt"
echo "${PACKAGES[*]}" > "$ROOT/.done"
