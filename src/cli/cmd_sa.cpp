// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext sa INPUT -o OUT [--width 4|8] [--format raw|npy]
// ktext lcp INPUT -o OUT [--width 4|8] [--format raw|npy]
// Both turn the bytes of INPUT into one integer per byte, written in the same encodings (raw
// little-endian of width 4 or 8, or .npy) with the same checks and reports.

#include <algorithm>

#include <ktext/suffix/lcp.hpp>
#include <ktext/suffix/memory_bounds.hpp>
#include <ktext/suffix/suffix_array.hpp>

#include "commands.hpp"
#include "context.hpp"
#include "host_array.hpp"
#include "run.hpp"
#include "sa_file.hpp"

namespace ktext::cli {

namespace {

// Bytes the backend holds: the suffix array's work, or for lcp the larger of that plus the LCP
// output and the LCP pass (text, SA, LCP and its workspace).
template <class I>
std::uint64_t array_peak_bound(bool lcp, std::uint64_t n, ktext::SuffixArrayAlgorithm algorithm) {
  const std::uint64_t sa = ktext::suffix_array_peak_bytes_bound<std::uint8_t, I>(n, algorithm);
  if (!lcp) return sa;
  return std::max(sa + n * sizeof(I), n * (1 + 2 * sizeof(I)) + ktext::lcp_workspace_bytes<I>(n));
}

std::uint64_t array_peak_bound(bool lcp, std::uint64_t n, ktext::SuffixArrayAlgorithm algorithm) {
  return with_index_type(n, [&](auto index) { return array_peak_bound<decltype(index)>(lcp, n, algorithm); });
}

int run_array_command(Context& ctx, bool lcp, const SaOptions& options) {
  const char* what = lcp ? "LCP array" : "suffix array";
  auto refuse_width4 = [&](std::uint64_t n) {
    if (options.width == 4 && !ktext::index_fits<std::int32_t>(n))
      throw io_error(std::string("--width 4 cannot hold the ") + what + " of a text of " + std::to_string(n) +
                     " bytes (4-byte values need n < 2^31); use --width 8 or leave --width out");
  };
  InputFile& in = ctx.input(options.input);
  if (in.size()) refuse_width4(*in.size());
  OutputFile& out = ctx.output(options.output);
  const Backend backend = ctx.start();
  const std::vector<std::uint8_t> text =
      ctx.read_text(in, [&](std::uint64_t n) { return array_peak_bound(lcp, n, ctx.sa_algorithm()); });
  const std::uint64_t n = text.size();
  refuse_width4(n);
  const int width = options.width != 0 ? options.width : (ktext::index_fits<std::int32_t>(n) ? 4 : 8);
  const auto sa_options = ctx.progress_options();

  ktext::SuffixArrayStats stats;
  double seconds = 0;
  with_index_type(n, [&](auto index) {
    using I = decltype(index);
    HostArray<I> values(n);
    run_on_backend(backend, [&](const auto& exec) {
      using Mem = typename std::decay_t<decltype(exec)>::memory_space;
      const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
      const auto d_out = result_view(exec, values.data(), n, lcp ? "ktext_cli::lcp" : "ktext_cli::sa");
      if (!lcp) {
        seconds = timed(exec, [&] { stats = ktext::suffix_array(exec, d_text, d_out, sa_options); });
      } else {
        Kokkos::View<I*, Mem> d_sa(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::sa"), n);
        seconds = timed(exec, [&] {
          stats = ktext::suffix_array(exec, d_text, d_sa, sa_options);
          ktext::lcp(exec, d_text, d_sa, d_out);
        });
        stats.peak_bytes = std::max<std::uint64_t>(stats.peak_bytes + n * sizeof(I),
                                                   n * (1 + 2 * sizeof(I)) + ktext::lcp_workspace_bytes<I>(n));
      }
      to_host(exec, d_out, values.data());
    });
    write_sa(out, values.data(), n, width, options.format == "npy" ? SaFormat::Npy : SaFormat::Raw);
  });
  out.commit();

  Json json = ctx.report(n, seconds, stats.peak_bytes);
  json["input"] = utf8_safe(options.input);
  json["output"] = utf8_safe(options.output);
  json["width"] = width;
  json["format"] = options.format;
  json["rounds"] = stats.rounds;
  json["initial_prefix"] = stats.initial_prefix;
  json["reductions"] = stats.reductions;
  ctx.finish(json, format("%s: n = %llu, backend %s, %.3f s (%.1f MB/s), %d doubling rounds, peak device %s; wrote %s "
                          "(%s, %d-byte values)",
                          ctx.command, static_cast<unsigned long long>(n), backend_name(backend), seconds,
                          mb_per_s(n, seconds), stats.rounds, human_bytes(stats.peak_bytes).c_str(), out.name().c_str(),
                          options.format.c_str(), width));
  return kExitOk;
}

}  // namespace

int run_sa(const GlobalOptions& global, const SaOptions& options) {
  Context ctx(global, "sa");
  return run_array_command(ctx, false, options);
}

int run_lcp(const GlobalOptions& global, const LcpOptions& options) {
  Context ctx(global, "lcp");
  return run_array_command(ctx, true, options);
}

}  // namespace ktext::cli
