#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs the Cuda test executables of a build under compute-sanitizer, each split into SHARES
# processes by KTEXT_TEST_CASES=i/SHARES (every process runs every test, its share of each
# sweep), JOBS at once. One process per executable, not per test: the tool's start-up costs
# minutes when many processes start together.
#
#   tests/compute_sanitizer.sh [-t memcheck|racecheck|...] [-s SHARES] [-j JOBS] [-o REGEX]
#                              [-f GTEST_FILTER] [-k TIMEOUT_S] [-l LOG_DIR] BUILD_DIR
#
# -o keeps the executables whose name matches REGEX; -f passes a gtest filter to each. Exits 0
# only when every process exited 0 (the tool runs with --error-exitcode), and prints each
# process's exit status, time and summary line. Logs go to LOG_DIR (default: a new temporary
# directory), one per process.
set -u -o pipefail
tool=memcheck shares=4 jobs=$(nproc) only=. filter='*' limit=0 logs=
usage() { sed -n '8,9p' "$0" | sed 's/^# *//' >&2; exit 2; }
while getopts "t:s:j:o:f:k:l:h" opt; do
  case $opt in
    t) tool=$OPTARG ;; s) shares=$OPTARG ;; j) jobs=$OPTARG ;; o) only=$OPTARG ;;
    f) filter=$OPTARG ;; k) limit=$OPTARG ;; l) logs=$OPTARG ;; *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
build=$1
[[ $shares =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ && $limit =~ ^[0-9]+$ ]] || { echo "compute_sanitizer.sh: -s, -j and -k take whole numbers" >&2; exit 2; }
command -v compute-sanitizer > /dev/null || { echo "compute_sanitizer.sh: compute-sanitizer is not on the PATH" >&2; exit 2; }
exes=$(find "$build/tests" -maxdepth 1 -type f -perm -u+x -name 'ktext_test_*_cuda' | sort | grep -E -- "$only")
[ -n "$exes" ] || { echo "compute_sanitizer.sh: no Cuda test executable matching '$only' in $build/tests" >&2; exit 2; }
[ -n "$logs" ] || logs=$(mktemp -d "${TMPDIR:-/tmp}/ktext-sanitizer.XXXXXX")
mkdir -p "$logs" || exit 2

run_one() {  # executable share
  local exe=$1 share=$2 timer=() extra=() start=$SECONDS rc
  local log=$logs/$(basename "$exe")_${share/\//of}.log
  [ "$limit" -gt 0 ] && timer=(timeout "$limit")
  # The out-of-memory test makes cudaMalloc fail on purpose: those API errors are its subject.
  [[ $exe == *out_of_memory* ]] && extra=(--report-api-errors no)
  KTEXT_TEST_CASES=$share "${timer[@]}" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 9 \
    "$exe" --gtest_filter="$filter" > "$log" 2>&1
  rc=$?
  echo "rc=$rc $((SECONDS - start))s $(basename "$exe") $share: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY|INITCHECK SUMMARY' "$log" | tail -1 | sed 's/^=* *//')"
  return $rc
}
export -f run_one
export tool filter limit logs

echo "compute-sanitizer --tool $tool, $shares shares per executable, $jobs at once; logs in $logs" >&2
for exe in $exes; do
  for ((i = 0; i < shares; ++i)); do printf '%s\n%s\n' "$exe" "$i/$shares"; done
done | xargs -d '\n' -n 2 -P "$jobs" bash -c 'run_one "$0" "$1"'
status=$?
[ $status -eq 0 ] && echo "every process exited 0" >&2 || echo "some process failed (xargs status $status): see $logs" >&2
[ $status -eq 0 ]
