// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// `sa` and `lcp` both turn the bytes of INPUT into one integer per byte, written in the same
// encodings (raw little-endian of width 4 or 8, or .npy), with the same checks, temp-file
// output and reports; only the array they compute differs.

#include <cstdio>
#include <limits>
#include <string>

#include "backend.hpp"
#include "errors.hpp"
#include "io.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "sa_file.hpp"
#include "suffix_runs.hpp"

namespace ktext::cli {

/// An array computed from the text, with the suffix array statistics of the run.
template <class I>
struct ArrayRun {
  HostArray<I> array;
  ktext::SuffixArrayStats stats;
  double seconds = 0;  ///< computation alone, copies to and from the device excluded
};

/// \p produce(index_tag, backend, text, n, options) returns {array (HostArray<I>), stats,
/// seconds} for I = decltype(index_tag). \p what names the array in messages ("suffix array").
template <class Produce>
int run_integer_array_command(const char* command, const char* what, const GlobalOptions& global,
                              const SaOptions& options, Produce produce) {
  constexpr std::uint64_t max32 = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());
  auto width4_too_small = [&](std::uint64_t n) {
    return io_error(std::string("--width 4 cannot hold the ") + what + " of a text of " + std::to_string(n) +
                    " bytes (4-byte values need n < 2^31); use --width 8 or leave --width out");
  };
  const auto requested = parse_backend(global.backend);
  const SaFormat format = options.format == "npy" ? SaFormat::Npy : SaFormat::Raw;
  require_stdout_for_one(global, options.output);
  Stopwatch total;

  // Cheap failures first: the input's size and the output's directory decide before any reading.
  InputFile in = InputFile::open(options.input);
  if (options.width == 4 && in.size() && *in.size() > max32) throw width4_too_small(*in.size());
  OutputFile out = OutputFile::create(options.output);
  KokkosSession session(global);
  const Backend backend = resolve_backend(requested);
  // A GPU too small for the file is known from its size: say so before reading gigabytes.
  if (in.size()) {
    if (*in.size() > max32) require_device_memory<std::int64_t>(backend, *in.size());
    else require_device_memory<std::int32_t>(backend, *in.size());
  }
  const std::vector<std::uint8_t> text = read_text(in);
  const std::uint64_t n = text.size();
  if (options.width == 4 && n > max32) throw width4_too_small(n);
  const int width = options.width != 0 ? options.width : (n > max32 ? 8 : 4);
  const ProgressReporter progress(global);
  const auto sa_options = progress.options(std::string(command) + " " + backend_name(backend));

  ktext::SuffixArrayStats stats;
  double seconds = 0;
  auto build_and_write = [&](auto index_tag) {
    const auto run = produce(index_tag, backend, text.data(), n, sa_options);
    write_sa(out, run.array.data(), n, width, format);
    stats = run.stats;
    seconds = run.seconds;
  };
  if (n <= max32) build_and_write(std::int32_t{});
  else build_and_write(std::int64_t{});
  out.commit();

  if (global.json) {
    Json report = base_report(command, backend_name(backend), n, seconds, stats.peak_bytes);
    report["input"] = options.input;
    report["output"] = options.output;
    report["width"] = width;
    report["format"] = options.format;
    report["rounds"] = stats.rounds;
    report["initial_prefix"] = stats.initial_prefix;
    report["total_seconds"] = total.seconds();
    print_json(report);
  } else if (!global.quiet) {
    // With -o - the array owns stdout, so the summary goes to stderr.
    std::FILE* stream = out.is_stdout() ? stderr : stdout;
    std::fprintf(stream,
                 "%s: n = %llu, backend %s, %.3f s (%.1f MB/s), %d doubling rounds, peak device %s; wrote %s (%s, "
                 "%d-byte values)\n",
                 command, static_cast<unsigned long long>(n), backend_name(backend), seconds, mb_per_s(n, seconds),
                 stats.rounds, human_bytes(stats.peak_bytes).c_str(), out.name().c_str(), options.format.c_str(), width);
  }
  return kExitOk;
}

}  // namespace ktext::cli
