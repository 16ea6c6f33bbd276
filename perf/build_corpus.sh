#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the ktext benchmark corpus (shared/corpus.md) from pinned Debian packages.
#
#   perf/build_corpus.sh [--only NAME,...] [--prefix BYTES] [--cache DIR] OUT_DIR
#
# NAMEs (default all): the texts dna, proteins, xml, english and sources, each written to
# OUT_DIR/NAME, and the string sets for sorting, one string per line with a newline after
# every line, each written to OUT_DIR/NAME.lines:
#   taxnames   the names (field 2) of the NCBI taxonomy names.dmp in microbegps
#   words      the American and then the British insane word lists, duplicates kept
#   fasta-ids  the header lines of metaphlan2-data's markers.fasta, without the '>'
#   lines      the lines of the sources text (the same bytes, cut at a line boundary)
#
# Needs apt-get (only to download; nothing is installed), dpkg-deb, sha256sum and python3.
# Every .deb is downloaded once into the cache directory (default $XDG_CACHE_HOME/ktext-corpus,
# never inside the repository), checked against the SHA256 pinned below and unpacked with
# dpkg -x; later runs work offline from the cache. OUT_DIR receives one file per dataset,
# cut to the first BYTES bytes with --prefix (e.g. 50000000 on a 2-core machine; a string
# set keeps the whole lines within its first BYTES bytes), and SHA256SUMS of those files.
#
# When Debian drops a pinned version (security updates rotate linux-source-*), the download
# fails with "Version ... was not found": pick the new one with `apt-cache show PKG`, and
# update its VERSION and SHA256 below (the corpus checksums change with it).
set -euo pipefail

# dataset  package  version  sha256 of the .deb (Debian 12 bookworm, looked up 2026-11-22);
# a dataset made from several packages has one line per package, in the order they are read
PINS="
dna       metaphlan2-data   2.6.0+ds-4   f38a6e3f49d7b03ba80d9fdd5647b9f9f2dfb38d43b28618053e8ef2c60db7d7
proteins  metastudent-data  2.0.1-8      020ed0c560a5ba96f39c434399b3ecf0fa790a4776c4aac24458f837969ae54b
sources   linux-source-6.1  6.1.192-2    ae95fe63d4c553f8d0e6c86cb1ab566f3894a43743eb19ab585cd97d82f26514
xml       unicode-cldr-core 41-0.1       35d30d5d3bee4d8244e95236259c4c2a0db06e21bad696515751fcfeee4d0260
english   dict-gcide        0.48.5+nmu2  7b0af5cfde3cbdef5e9d6e78f92ec335ced7c2790f37a40f49bebc6f7347ac0f
taxnames  microbegps        1.0.0-5      e155f258e7a83e970492aa17fd737e4970b1d37c231cf238b1162b0ebdf89c20
words     wamerican-insane  2020.12.07-2 7ad9f4dde6a07c1dc33c7bdc2435940a889805b9d32286eb8afe6434109e4a0a
words     wbritish-insane   2020.12.07-2 0e444a36d96be51004b9e86f02770af08c40bcad46ebae9136e8004a462f8fa2
fasta-ids metaphlan2-data   2.6.0+ds-4   f38a6e3f49d7b03ba80d9fdd5647b9f9f2dfb38d43b28618053e8ef2c60db7d7
lines     linux-source-6.1  6.1.192-2    ae95fe63d4c553f8d0e6c86cb1ab566f3894a43743eb19ab585cd97d82f26514
"
# linux-source-6.1 6.1.192-2 is in bookworm-security and gives the corpus.md size; when it has
# rotated away, 6.1.176-1 of bookworm main (SHA256 9305d1a151b8e83dcb88aa11361e7b9513f0c252bdf7f5647e4542762d99c094)
# gives a sources file of 1,176,841,382 bytes instead of 1,177,071,176 (change both the
# sources and the lines pin).
# Built in this order whatever the order given to --only (lines reuses a sources built before it).
ALL="dna,proteins,xml,english,sources,taxnames,words,fasta-ids,lines"
STRING_SETS="taxnames,words,fasta-ids,lines"

usage() {  # the header comment, up to the first line that is not a comment
  awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"
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

pin() {  # pin DATASET -> "package version sha256", one line per package
  echo "$PINS" | awk -v d="$1" '$1 == d { print $2, $3, $4 }'
}

file_of() {  # file_of DATASET -> its file name in OUT_DIR
  case ",$STRING_SETS," in *",$1,"*) echo "$1.lines" ;; *) echo "$1" ;; esac
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

# make DATASET ROOT...: writes $out/$(file_of DATASET) (through a temporary name); ROOT is
# where a pinned package was unpacked, one per package, or for lines the sources file itself
make_dataset() {
  local d="$1" f
  f="$(file_of "$d")"
  shift
  python3 - "$d" "$out/$f.tmp" "$prefix" "$@" <<'PY'
import gzip, lzma, os, sys, tarfile

name, dst, prefix, roots = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
root = roots[0]

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
        self.put(b)
    def put(self, b):
        self.f.write(b)
        self.n += len(b)
    def close(self):
        self.f.close()

class Lines(Out):
    """A string set: text cut at a line boundary, every line followed by a newline. Takes
    either raw text (write) or one string at a time (line); with a prefix, only the lines
    that lie whole (newline included) in the first `prefix` bytes."""
    def __init__(self, path):
        super().__init__(path)
        self.end = 0  # bytes up to and including the last newline written
    def put(self, b):
        i = b.rfind(b"\n")
        if i >= 0:
            self.end = self.n + i + 1
        super().put(b)
    def line(self, s):
        self.write(s + b"\n")
    def close(self):
        if self.n > self.end:  # a last line without its newline
            if self.full:
                self.f.truncate(self.end)  # cut by the prefix: drop it
            else:
                self.f.write(b"\n")
        self.f.close()

def files_under(top, suffixes):
    found = []
    for d, dirs, files in os.walk(top):
        for f in files:
            p = os.path.join(d, f)
            if f.endswith(suffixes) and os.path.isfile(p):
                found.append(p)
    return sorted(found, key=lambda p: os.path.relpath(p, top).encode())

def open_maybe_compressed(path):
    """Opens path for reading bytes, or path.bz2, .gz or .xz when only that is there."""
    if not os.path.exists(path):
        import bz2
        for ext, op in ((".bz2", bz2.open), (".gz", gzip.open), (".xz", lzma.open)):
            if os.path.exists(path + ext):
                return op(path + ext, "rb")
    return open(path, "rb")

def markers_fasta(root):
    return open_maybe_compressed(os.path.join(root, "var/lib/metaphlan2-data/markers.fasta"))

def kernel_sources(root):
    """Yields the contents of every *.c and *.h of the kernel tarball, in archive order."""
    tars = [p for p in files_under(os.path.join(root, "usr/src"), (".tar.xz",)) if "linux-source" in p]
    if len(tars) != 1:
        sys.exit(f"build_corpus.sh: expected one linux-source tarball, found {tars}")
    with tarfile.open(tars[0], "r|xz") as tar:
        for m in tar:
            if m.isfile() and m.name.endswith((".c", ".h")):
                yield tar.extractfile(m).read()

out = Lines(dst) if dst.endswith(".lines.tmp") else Out(dst)
if name == "dna":
    # sequence lines of markers.fasta: drop the '>' headers, join the lines
    with markers_fasta(root) as f:
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
    for b in kernel_sources(root):
        out.write(b)
        if out.full:
            break
elif name == "taxnames":
    # field 2 (name_txt) of the NCBI taxonomy names.dmp, fields separated by "\t|\t"
    path = os.path.join(root, "usr/share/microbegps/data/taxonomy/names.dmp")
    with open_maybe_compressed(path) as f:
        for no, line in enumerate(f, 1):
            fields = line.rstrip(b"\r\n").split(b"\t|\t")
            if len(fields) < 2:
                sys.exit(f"build_corpus.sh: {path}:{no}: no second field")
            out.line(fields[1])
            if out.full:
                break
elif name == "words":
    # usr/share/dict/*-english-insane of every package in pin order, one word per line;
    # the lists overlap, and the duplicates stay
    paths = [p for r in roots for p in files_under(os.path.join(r, "usr/share/dict"), ("-english-insane",))]
    if len(paths) != len(roots):
        sys.exit(f"build_corpus.sh: expected one *-english-insane per package, found {paths}")
    for p in paths:
        with open(p, "rb") as f:
            for line in f:
                out.line(line.rstrip(b"\r\n"))
                if out.full:
                    break
        if out.full:
            break
elif name == "fasta-ids":
    # the header lines of markers.fasta without their '>'
    with markers_fasta(root) as f:
        for line in f:
            if line.startswith(b">"):
                out.line(line[1:].rstrip(b"\r\n"))
                if out.full:
                    break
elif name == "lines":
    # the sources text cut into lines: from the sources file just built with the same
    # prefix (the same first bytes), else from the kernel tarball again
    if os.path.isfile(root):
        with open(root, "rb") as f:
            while not out.full:
                b = f.read(1 << 20)
                if not b:
                    break
                out.write(b)
    else:
        for b in kernel_sources(root):
            out.write(b)
            if out.full:
                break
else:
    sys.exit(f"unknown dataset {name}")
out.close()
PY
  mv -f "$out/$f.tmp" "$out/$f"
}

sources_built=0
for d in ${ALL//,/ }; do
  case ",$only," in *",$d,"*) ;; *) continue ;; esac
  if [ "$d" = lines ] && [ "$sources_built" = 1 ]; then
    echo "building lines from $out/sources" >&2
    make_dataset lines "$out/sources"
  else
    mapfile -t pins < <(pin "$d")
    roots=()
    from=""
    for p in "${pins[@]}"; do
      read -r pkg ver sha <<<"$p"
      root="$(fetch "$pkg" "$ver" "$sha")"
      roots+=("$root")
      from+="${from:+ }$pkg=$ver"
    done
    echo "building $d from $from" >&2
    make_dataset "$d" "${roots[@]}"
  fi
  if [ "$d" = sources ]; then sources_built=1; fi
  printf '%-9s %15s bytes\n' "$d" "$(stat -c %s "$out/$(file_of "$d")")"
done

# Checksums of every dataset present in OUT_DIR (kept across partial rebuilds).
(
  cd "$out"
  for d in ${ALL//,/ }; do
    f="$(file_of "$d")"
    if [ -f "$f" ]; then echo "$f"; fi
  done | xargs -r sha256sum > SHA256SUMS.tmp
  mv -f SHA256SUMS.tmp SHA256SUMS
)
echo "checksums: $out/SHA256SUMS" >&2
cat "$out/SHA256SUMS"
