// ktext lcp INPUT -o OUT [--width 4|8] [--format raw|npy]

#include <cstdio>
#include <limits>

#include "backend.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "io.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "sa_file.hpp"
#include "text_runs.hpp"

namespace ktext::cli {

namespace {

constexpr std::uint64_t kMax32 = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());

CliError width4_too_small(std::uint64_t n) {
  return io_error("--width 4 cannot hold the LCP array of a text of " + std::to_string(n) +
                  " bytes (4-byte values need n < 2^31); use --width 8 or leave --width out");
}

}  // namespace

int run_lcp(const GlobalOptions& global, const LcpOptions& options) {
  const auto requested = parse_backend(global.backend);
  const SaFormat format = options.format == "npy" ? SaFormat::Npy : SaFormat::Raw;
  if (options.output == "-" && global.json)
    throw usage_error("--json and -o - would both write to standard output; use one of them");
  Stopwatch total;
  InputFile in = InputFile::open(options.input);
  if (options.width == 4 && in.size() && *in.size() > kMax32) throw width4_too_small(*in.size());
  OutputFile out = OutputFile::create(options.output);
  KokkosSession session(global);
  const Backend backend = resolve_backend(requested);
  const std::vector<std::uint8_t> text = read_text(in);
  const std::uint64_t n = text.size();
  if (options.width == 4 && n > kMax32) throw width4_too_small(n);
  const int width = options.width != 0 ? options.width : (n > kMax32 ? 8 : 4);
  const ProgressReporter progress(global);
  const auto sa_options = progress.options(std::string("lcp ") + backend_name(backend));

  ktext::SuffixArrayStats stats;
  double seconds = 0;
  auto build_and_write = [&](auto index_tag) {
    using I = decltype(index_tag);
    const auto run = run_lcp<I>(backend, text.data(), n, sa_options);
    write_sa(out, run.lcp.data(), n, width, format);
    stats = run.stats;
    seconds = run.seconds;
  };
  if (n <= kMax32) build_and_write(std::int32_t{});
  else build_and_write(std::int64_t{});
  out.commit();

  if (global.json) {
    Json report = base_report("lcp", backend_name(backend), n, seconds, stats.peak_bytes);
    report["input"] = options.input;
    report["output"] = options.output;
    report["width"] = width;
    report["format"] = options.format;
    report["rounds"] = stats.rounds;
    report["total_seconds"] = total.seconds();
    print_json(report);
  } else if (!global.quiet) {
    std::FILE* stream = out.is_stdout() ? stderr : stdout;
    std::fprintf(stream, "lcp: n = %llu, backend %s, %.3f s (%.1f MB/s) with the suffix array; wrote %s (%s, %d-byte values)\n",
                 static_cast<unsigned long long>(n), backend_name(backend), seconds, mb_per_s(n, seconds),
                 out.name().c_str(), options.format.c_str(), width);
  }
  return kExitOk;
}

}  // namespace ktext::cli
