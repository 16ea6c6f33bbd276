#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the ktext benchmark corpus (shared/corpus.md) from pinned Debian packages.
#
#   perf/build_corpus.sh [--only dna,proteins,xml,english,sources] [--prefix BYTES]
#                        [--cache DIR] OUT_DIR
#
# Needs apt-get (only to download; nothing is installed), dpkg-deb, sha256sum and python3.
# Every .deb is downloaded once into the cache directory (default $XDG_CACHE_HOME/ktext-corpus,
# never inside the repository), checked against the SHA256 pinned below and unpacked with
# dpkg -x; later runs work offline from the cache. OUT_DIR receives one file per dataset,
# cut to the first BYTES bytes with --prefix (e.g. 50000000 on a 2-core machine), and
# SHA256SUMS of those files.
#
# When Debian drops a pinned version (security updates rotate linux-source-*), the download
# fails with "Version ... was not found": pick the new one with `apt-cache show PKG`, and
# update its VERSION and SHA256 below (the corpus checksums change with it).
set -euo pipefail

# dataset  package  version  sha256 of the .deb (Debian 12 bookworm, looked up 2026-11-22)
PINS="
dna       metaphlan2-data   2.6.0+ds-4   f38a6e3f49d7b03ba80d9fdd5647b9f9f2dfb38d43b28618053e8ef2c60db7d7
proteins  metastudent-data  2.0.1-8      020ed0c560a5ba96f39c434399b3ecf0fa790a4776c4aac24458f837969ae54b
sources   linux-source-6.1  6.1.192-2    ae95fe63d4c553f8d0e6c86cb1ab566f3894a43743eb19ab585cd97d82f26514
xml       unicode-cldr-core 41-0.1       35d30d5d3bee4d8244e95236259c4c2a0db06e21bad696515751fcfeee4d0260
english   dict-gcide        0.48.5+nmu2  7b0af5cfde3cbdef5e9d6e78f92ec335ced7c2790f37a40f49bebc6f7347ac0f
"
# linux-source-6.1 6.1.192-2 is in bookworm-security and gives the corpus.md size; when it has
# rotated away, 6.1.176-1 of bookworm main (SHA256 9305d1a151b8e83dcb88aa11361e7b9513f0c252bdf7f5647e4542762d99c094)
# gives a sources file of 1,176,841,382 bytes instead of 1,177,071,176.
ALL="dna,proteins,xml,english,sources"

usage() {
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-1}"
}

only="$ALL"
prefix=0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ktext-corpus"
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="$2"; shift 2 ;;
    --only=*) only="${1#*=}"; shift ;;
    --prefix) prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --cache) cache="$2"; shift 2 ;;
    --cache=*) cache="${1#*=}"; shift ;;
    -h|--help) usage 0 ;;
    -*) echo "build_corpus.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$out" ] || { echo "build_corpus.sh: one output directory only" >&2; usage; }; out="$1"; shift ;;
  esac
done
[ -n "$out" ] || usage
case "$prefix" in ''|*[!0-9]*) echo "build_corpus.sh: --prefix takes a byte count" >&2; exit 1 ;; esac
for d in ${only//,/ }; do
  case ",$ALL," in *",$d,"*) ;; *) echo "build_corpus.sh: unknown dataset '$d' (have $ALL)" >&2; exit 1 ;; esac
done
for tool in apt-get dpkg-deb sha256sum python3; do
  command -v "$tool" >/dev/null || { echo "build_corpus.sh: $tool is required" >&2; exit 1; }
done

repo="$(cd "$(dirname "$0")/.." && pwd -P)"
cache_abs="$(realpath -m "$cache")"
case "$cache_abs/" in "$repo"/*) echo "build_corpus.sh: put the cache outside the repository ($repo)" >&2; exit 1 ;; esac
mkdir -p "$cache" "$out"
cache="$(cd "$cache" && pwd -P)"
out="$(cd "$out" && pwd -P)"

pin() {  # pin DATASET -> "package version sha256"
  echo "$PINS" | awk -v d="$1" '$1 == d { print $2, $3, $4 }'
}

# fetch PACKAGE VERSION SHA256 -> prints the unpacked directory
fetch() {
  local pkg="$1" ver="$2" sha="$3"
  local deb="$cache/${pkg}_${ver//:/%3a}_all.deb" dir="$cache/x/${pkg}_${ver}"
  if [ ! -f "$deb" ] || ! echo "$sha  $deb" | sha256sum -c --status; then
    echo "downloading $pkg=$ver" >&2
    rm -f "$deb"
    (cd "$cache" && apt-get download "$pkg=$ver" >&2)
  fi
  if ! echo "$sha  $deb" | sha256sum -c --status; then
    echo "build_corpus.sh: $deb does not match the pinned SHA256 $sha" >&2
    exit 2
  fi
  if [ ! -f "$dir/.unpacked" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    dpkg-deb -x "$deb" "$dir"
    touch "$dir/.unpacked"
  fi
  echo "$dir"
}

# make DATASET ROOT: writes $out/DATASET (through a temporary name)
make_dataset() {
  python3 - "$1" "$2" "$out/$1.tmp" "$prefix" <<'PY'
import gzip, lzma, os, sys, tarfile

name, root, dst, prefix = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

class Out:
    """Writes at most `prefix` bytes (0 = unlimited); .full tells producers to stop early."""
    def __init__(self, path):
        self.f = open(path, "wb")
        self.n = 0
        self.full = False
    def write(self, b):
        if self.full:
            return
        if prefix and self.n + len(b) >= prefix:
            b = b[: prefix - self.n]
            self.full = True
        self.f.write(b)
        self.n += len(b)
    def close(self):
        self.f.close()

def files_under(top, suffixes):
    found = []
    for d, dirs, files in os.walk(top):
        for f in files:
            p = os.path.join(d, f)
            if f.endswith(suffixes) and os.path.isfile(p):
                found.append(p)
    return sorted(found, key=lambda p: os.path.relpath(p, top).encode())

out = Out(dst)
if name == "dna":
    # sequence lines of markers.fasta: drop the '>' headers, join the lines
    path = os.path.join(root, "var/lib/metaphlan2-data/markers.fasta")
    opener = open
    if not os.path.exists(path):
        for ext, op in ((".bz2", None), (".gz", gzip.open), (".xz", lzma.open)):
            if os.path.exists(path + ext):
                if op is None:
                    import bz2
                    op = bz2.open
                path, opener = path + ext, op
                break
    with opener(path, "rb") as f:
        for line in f:
            if not line.startswith(b">"):
                out.write(line.rstrip(b"\r\n"))
            if out.full:
                break
elif name == "proteins":
    # the BLAST protein databases */goasp.fasta.psq: NCBIstdaa codes -> letters, sequences
    # (separated by 0 bytes) deduplicated in order of first appearance and joined
    letters = b"-ABCDEFGHIKLMNPQRSTVWXYZU*OJ"
    table = bytes(letters[i] if i < len(letters) else ord("?") for i in range(256))
    top = os.path.join(root, "usr/share/metastudent-data/dataset_201401")
    dbs = [p for p in files_under(top, (".psq",)) if os.path.basename(p) == "goasp.fasta.psq"]
    if len(dbs) != 3:
        sys.exit(f"build_corpus.sh: expected 3 goasp.fasta.psq under {top}, found {len(dbs)}")
    seen = set()
    for db in dbs:
        with open(db, "rb") as f:
            data = f.read()
        for seq in data.split(b"\0"):
            if not seq or seq in seen:
                continue
            seen.add(seq)
            out.write(seq.translate(table))
            if out.full:
                break
        if out.full:
            break
elif name == "xml":
    # all *.xml under usr/share/unicode/cldr, sorted by path, concatenated
    for p in files_under(os.path.join(root, "usr/share/unicode/cldr"), (".xml",)):
        with open(p, "rb") as f:
            out.write(f.read())
        if out.full:
            break
elif name == "english":
    # gcide.dict.dz decompressed (dictzip is gzip)
    with gzip.open(os.path.join(root, "usr/share/dictd/gcide.dict.dz"), "rb") as f:
        while not out.full:
            b = f.read(1 << 20)
            if not b:
                break
            out.write(b)
elif name == "sources":
    # all *.c and *.h of the kernel tarball, concatenated in archive order
    tars = [p for p in files_under(os.path.join(root, "usr/src"), (".tar.xz",)) if "linux-source" in p]
    if len(tars) != 1:
        sys.exit(f"build_corpus.sh: expected one linux-source tarball, found {tars}")
    with tarfile.open(tars[0], "r|xz") as tar:
        for m in tar:
            if m.isfile() and m.name.endswith((".c", ".h")):
                out.write(tar.extractfile(m).read())
                if out.full:
                    break
else:
    sys.exit(f"unknown dataset {name}")
out.close()
PY
  mv -f "$out/$1.tmp" "$out/$1"
}

for d in ${only//,/ }; do
  read -r pkg ver sha <<<"$(pin "$d")"
  root="$(fetch "$pkg" "$ver" "$sha")"
  echo "building $d from $pkg=$ver" >&2
  make_dataset "$d" "$root"
  printf '%-9s %15s bytes\n' "$d" "$(stat -c %s "$out/$d")"
done

# Checksums of every dataset present in OUT_DIR (kept across partial rebuilds).
(cd "$out" && ls -1 | grep -xE "${ALL//,/|}" | xargs -r sha256sum > SHA256SUMS.tmp && mv -f SHA256SUMS.tmp SHA256SUMS)
echo "checksums: $out/SHA256SUMS" >&2
cat "$out/SHA256SUMS"
