// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "options.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

#include <ktext/version.hpp>
#include <ktext_oracles/divsufsort.hpp>

#include "backend.hpp"
#include "errors.hpp"

namespace ktext::cli {

namespace {

std::string version_text() {
  return std::string("ktext ") + KTEXT_VERSION_STRING + "\nbackends: " + compiled_backends_text() +
         "\nlibdivsufsort: " + (ktext::oracle::have_divsufsort() ? "yes" : "no");
}

// Integer options arrive as text and are converted here: decimal digits only, in range, never
// wrapped (CLI11 would read "-1" into an unsigned as its two's complement).
template <class T>
T parse_integer(const char* option, const std::string& text, T lo, T hi) {
  T value = 0;
  bool ok = !text.empty() && text.size() <= 20;
  for (const char c : text) {
    if (!ok) break;
    const unsigned digit = unsigned(c) - unsigned('0');
    if (digit > 9 || value > (hi - T(digit)) / 10) ok = false;
    else value = T(value * 10 + T(digit));
  }
  if (!ok || value < lo)
    throw usage_error(std::string(option) + " expects a whole number from " + std::to_string(lo) + " to " +
                      std::to_string(hi) + ", not " + quote(text));
  return value;
}

struct IntegerTexts {
  std::string threads, device, sa_width, check_width, lcp_width, primary, sample_rate = "32";
  std::string sort_size, sort_chunk;  // sizes, parsed by the command (% needs the machine's memory)
};

int parse_width(const std::string& text) {
  if (text.empty()) return 0;
  if (text != "4" && text != "8") throw usage_error("--width expects 4 or 8, not " + quote(text));
  return text[0] - '0';
}

void add_global_options(CLI::App& app, GlobalOptions& g, IntegerTexts& t) {
  app.add_option("--backend", g.backend,
                 "Execution space: auto (CUDA if built and a GPU is present, else OpenMP, else Serial), cuda, openmp, serial")
      ->check(CLI::IsMember({"auto", "cuda", "openmp", "serial"}))
      ->capture_default_str();
  app.add_flag("--json", g.json, "Print one JSON object on standard output instead of text");
  app.add_flag("-q,--quiet", g.quiet, "Print nothing but errors; no progress");
  app.add_flag("--progress", g.progress, "Report progress on standard error even when it is not a terminal");
  app.add_option("--threads", t.threads, "Host threads of the OpenMP backend (at most the processors available)");
  app.add_option("--device", t.device, "GPU index of the CUDA backend");
  app.add_option("--algorithm", g.algorithm,
                 "Suffix sorting of sa, lcp, bwt, index and crosscheck: auto (dc3, which measured faster on every backend), "
                 "dc3 (difference cover: two thirds of the suffixes by prefix doubling, then one merge), doubling "
                 "(prefix doubling of every suffix); the output is the same")
      ->check(CLI::IsMember({"auto", "dc3", "doubling"}))
      ->capture_default_str();
}

}  // namespace

CommandLine parse_command_line(int argc, char** argv) {
  CommandLine cl;
  CLI::App app{"ktext: suffix arrays and text indexes on Kokkos backends", "ktext"};
  app.set_version_flag("--version", version_text);
  app.require_subcommand(1);
  // Global options may follow the command name: unmatched options fall through to the parent.
  app.fallthrough();
  IntegerTexts ints;
  add_global_options(app, cl.global, ints);
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "ktext: usage error: " + std::string(e.what()) + "\nRun with --help for more information.\n";
  });

  auto* sa = app.add_subcommand("sa", "Suffix array of the bytes of INPUT");
  sa->fallthrough();
  sa->add_option("INPUT", cl.sa.input, "Text file ('-': standard input)")->required();
  sa->add_option("-o,--output", cl.sa.output, "Output file ('-': standard output)")->required();
  sa->add_option("--width", ints.sa_width, "Bytes per index, 4 or 8 (default: 4 if n < 2^31, else 8)");
  sa->add_option("--format", cl.sa.format, "raw: little-endian signed integers; npy: NumPy .npy")
      ->check(CLI::IsMember({"raw", "npy"}))
      ->capture_default_str();

  auto* check = app.add_subcommand("check", "Verify that SA is the suffix array of INPUT");
  check->fallthrough();
  check->add_option("INPUT", cl.check.input, "Text file ('-': standard input)")->required();
  check->add_option("SA", cl.check.sa, "Suffix array: raw little-endian or .npy ('-': standard input)")->required();
  check->add_option("--width", ints.check_width, "Bytes per index of a raw SA, 4 or 8 (default: from the file size)");

  auto* cross = app.add_subcommand(
      "crosscheck", "Build suffix arrays (and the other outputs, and sorted lines) on every backend (and libdivsufsort) and compare them bit for bit");
  cross->fallthrough();
  cross->add_option("INPUT", cl.crosscheck.inputs, "Text files (default: an embedded ~1 MiB test text)");

  auto* bwt = app.add_subcommand("bwt", "Burrows-Wheeler transform of the bytes of INPUT (sentinel row omitted, plus the primary index)");
  bwt->fallthrough();
  bwt->add_option("INPUT", cl.bwt.input, "Text file ('-': standard input)")->required();
  bwt->add_option("-o,--output", cl.bwt.output, "Output file ('-': standard output)")->required();
  bwt->add_flag("--raw", cl.bwt.raw,
                "Write the n transformed bytes only (default: a ktext container holding n and the primary index); "
                "the primary index is printed ('primary index: K', or primary_index in --json)");

  auto* unbwt = app.add_subcommand("unbwt", "Inverse Burrows-Wheeler transform");
  unbwt->fallthrough();
  unbwt->add_option("INPUT", cl.unbwt.input, "A ktext bwt container, or with --primary the raw transform ('-': standard input)")
      ->required();
  unbwt->add_option("-o,--output", cl.unbwt.output, "Output file ('-': standard output)")->required();
  auto* primary = unbwt->add_option("--primary", ints.primary,
                                    "Primary index of a raw transform, 1..n (0 for the empty transform; with a "
                                    "container it must agree with the stored one)");
  unbwt->add_flag("--verify", cl.unbwt.verify,
                  "Accepted as by every command that loads a file: inverting proves the transform anyway (a forged "
                  "one exits 3)");

  auto* lcp = app.add_subcommand("lcp", "LCP array of the bytes of INPUT (lcp[0] = 0), encoded like sa's output");
  lcp->fallthrough();
  lcp->add_option("INPUT", cl.lcp.input, "Text file ('-': standard input)")->required();
  lcp->add_option("-o,--output", cl.lcp.output, "Output file ('-': standard output)")->required();
  lcp->add_option("--width", ints.lcp_width, "Bytes per value, 4 or 8 (default: 4 if n < 2^31, else 8)");
  lcp->add_option("--format", cl.lcp.format, "raw: little-endian signed integers; npy: NumPy .npy")
      ->check(CLI::IsMember({"raw", "npy"}))
      ->capture_default_str();

  auto* info = app.add_subcommand("info", "Describe and verify a ktext container file");
  info->fallthrough();
  info->add_option("FILE", cl.info.input, "Container file ('-': standard input)")->required();
  info->add_flag("--verify", cl.info.verify,
                 "Also prove the contents of an fm_index or bwt file with one O(n) walk, as search --verify does "
                 "(default: the checks every loader runs)");

  auto* index = app.add_subcommand("index", "FM-index of the bytes of INPUT, for ktext search");
  index->fallthrough();
  index->add_option("INPUT", cl.index.input, "Text file ('-': standard input)")->required();
  index->add_option("-o,--output", cl.index.output, "Index file, a ktext container ('-': standard output)")->required();
  index->add_option("--sample-rate", ints.sample_rate,
                    "Keep the suffix-array entry of every S-th text position, 1 to 4294967295: larger S, smaller "
                    "index, slower --locate")
      ->capture_default_str();
  index->add_option("--occ", cl.index.occurrences,
                    "Occurrence counts: table (fastest counts) or wm (a wavelet matrix: smaller, slower)")
      ->check(CLI::IsMember({"table", "wm"}))
      ->capture_default_str();

  auto* search = app.add_subcommand(
      "search", "Count (and with --locate, list) the exact occurrences of patterns, overlapping ones included");
  search->fallthrough();
  search->add_option("INDEX", cl.search.index, "Index file from ktext index ('-': standard input)")->required();
  search->add_option("PATTERN", cl.search.patterns, "Patterns, searched before those of -f");
  search->add_option("-f,--file", cl.search.pattern_file,
                     "One pattern per line, bytes exactly as written (a '\r' before the newline belongs to the pattern; "
                     "'-': standard input)");
  search->add_flag("--locate", cl.search.locate, "Also list the positions: count<TAB>pos,pos,... ascending");
  search->add_flag("--verify", cl.search.verify,
                   "Prove the index before searching (one O(n) walk on the host): no forged or inconsistent file is "
                   "accepted. Use it for files from untrusted sources");
  search->add_option("-o,--output", cl.search.output, "Results, one line per pattern ('-': standard output)")
      ->capture_default_str();

  auto* wt = app.add_subcommand("wt", "Wavelet tree or matrix of the bytes of a text, and batched queries on it");
  wt->fallthrough();
  wt->require_subcommand(1);
  auto* wt_build = wt->add_subcommand("build", "Build the wavelet tree (or with --matrix the wavelet matrix) of INPUT");
  wt_build->fallthrough();
  wt_build->add_option("INPUT", cl.wt_build.input, "Text file ('-': standard input)")->required();
  wt_build->add_option("-o,--output", cl.wt_build.output, "Output file, a ktext container ('-': standard output)")
      ->required();
  wt_build->add_flag("--matrix", cl.wt_build.matrix, "Build a wavelet matrix instead of a wavelet tree");
  auto* wt_query = wt->add_subcommand("query", "Answer access, rank or select queries on a file of ktext wt build");
  wt_query->fallthrough();
  wt_query->add_option("WT", cl.wt_query.structure, "File from ktext wt build")->required();
  wt_query->add_option("--op", cl.wt_query.op,
                       "access (lines 'i': the byte at i), rank (lines 'c i': occurrences of byte c in [0, i)) or "
                       "select (lines 'c k': position of the k-th c, from 1; -1 when there is none)")
      ->check(CLI::IsMember({"access", "rank", "select"}))
      ->required();
  wt_query->add_option("-f,--file", cl.wt_query.queries, "Queries, one per line ('-': standard input)")->required();
  wt_query->add_option("-o,--output", cl.wt_query.output, "Results, one line per query ('-': standard output)")
      ->capture_default_str();
  wt_query->add_flag("--verify", cl.wt_query.verify,
                     "Accepted as by every command that loads a file: the checks that always run already prove a "
                     "wavelet file");
  auto* sort = app.add_subcommand(
      "sort", "Sort the records of the FILEs (lines, or NUL-terminated with -z) by their bytes: the output of "
              "LC_ALL=C sort with the same options");
  sort->fallthrough();
  sort->add_option("FILE", cl.sort.inputs, "Input files, read in order ('-' or none: standard input)");
  sort->add_option("-o,--output", cl.sort.output,
                   "Output file ('-': standard output); it may be one of the inputs, which are read in full first")
      ->capture_default_str();
  sort->add_flag("-u,--unique", cl.sort.unique, "Write only the first of equal records");
  sort->add_flag("-r,--reverse", cl.sort.reverse, "Descending order");
  sort->add_flag("-z,--zero-terminated", cl.sort.zero_terminated, "Records end with NUL, not newline");
  auto* sort_size = sort->add_option("-S,--buffer-size", ints.sort_size,
                   "Host memory for records, as in GNU sort: a number with suffix b, K (default), M, G, T, P, E or % "
                   "of physical memory (default 25%); larger inputs are sorted in runs spilled to -T and merged");
  sort->add_option("-T,--temporary-directory", cl.sort.temp_dir,
                   "Directory of the spilled runs (default: $TMPDIR, else /tmp); files ktext-sort-<pid>-XXXXXX, removed "
                   "at the end");
  auto* sort_chunk = sort->add_option("--chunk", ints.sort_chunk,
                   "Most backend memory one string sort may use, same suffixes as -S (default: the GPU's free memory; "
                   "unlimited on host backends); larger batches are sorted in chunks and merged on the host");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 numbers its errors 100+; the contract has one code for every usage error.
    cl.exit_code = app.exit(e) == 0 ? kExitOk : kExitUsage;
    return cl;
  }
  try {
    if (!ints.threads.empty()) cl.global.threads = parse_integer<int>("--threads", ints.threads, 1, 1 << 20);
    if (!ints.device.empty()) cl.global.device = parse_integer<int>("--device", ints.device, 0, 1 << 16);
    cl.sa.width = parse_width(ints.sa_width);
    cl.lcp.width = parse_width(ints.lcp_width);
    cl.check.width = parse_width(ints.check_width);
    cl.index.sample_rate = parse_integer<std::uint32_t>("--sample-rate", ints.sample_rate, 1, 0xffffffffu);
    if (primary->count() > 0)
      cl.unbwt.primary = parse_integer<std::uint64_t>("--primary", ints.primary, 0, ~std::uint64_t(0));
  } catch (const CliError& e) {
    std::fprintf(stderr, "ktext: usage error: %s\nRun with --help for more information.\n", e.what());
    cl.exit_code = kExitUsage;
    return cl;
  }
  if (sa->parsed()) cl.command = Command::Sa;
  else if (check->parsed()) cl.command = Command::Check;
  else if (cross->parsed()) cl.command = Command::Crosscheck;
  else if (bwt->parsed()) cl.command = Command::Bwt;
  else if (unbwt->parsed()) {
    cl.command = Command::Unbwt;
    cl.unbwt.has_primary = primary->count() > 0;
  } else if (lcp->parsed()) cl.command = Command::Lcp;
  else if (info->parsed()) cl.command = Command::Info;
  else if (index->parsed()) cl.command = Command::Index;
  else if (search->parsed()) cl.command = Command::Search;
  else if (wt_build->parsed()) cl.command = Command::WtBuild;
  else if (wt_query->parsed()) cl.command = Command::WtQuery;
  else if (sort->parsed()) {
    cl.command = Command::Sort;
    if (sort_size->count() > 0) cl.sort.buffer_size = ints.sort_size;
    if (sort_chunk->count() > 0) cl.sort.chunk = ints.sort_chunk;
  }
  return cl;
}


}  // namespace ktext::cli
