// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext bwt INPUT -o OUT [--raw]
// ktext unbwt INPUT -o OUT [--primary K]
//
// unbwt's INPUT is a ktext bwt container when it starts with the container magic, else a raw
// transform that needs --primary. Exit codes: 1 for a raw input without --primary and for a
// --primary that disagrees with the container's; 3 for a corrupt container, a --primary
// outside [1, n] (0 for the empty transform) and any pair that is not a Burrows-Wheeler transform.

#include <ktext/core/error.hpp>
#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/bwt_file.hpp>
#include <ktext/suffix/memory_bounds.hpp>
#include <ktext/suffix/unbwt.hpp>

#include "commands.hpp"
#include "context.hpp"
#include "host_array.hpp"
#include "run.hpp"

namespace ktext::cli {

namespace {

// The text, its BWT, and the suffix array's work (ktext::bwt builds the suffix array first).
std::uint64_t bwt_peak_bound(std::uint64_t n, ktext::SuffixArrayAlgorithm algorithm) {
  return with_index_type(n, [&](auto index) {
    return ktext::suffix_array_peak_bytes_bound<std::uint8_t, decltype(index)>(n, algorithm) + n;
  });
}

std::uint64_t unbwt_peak_bound(std::uint64_t n) { return 2 * n + ktext::unbwt_workspace_bytes(n); }

}  // namespace

int run_bwt(const GlobalOptions& global, const BwtOptions& options) {
  Context ctx(global, "bwt");
  InputFile& in = ctx.input(options.input);
  OutputFile& out = ctx.output(options.output);
  const Backend backend = ctx.start();
  const std::vector<std::uint8_t> text = ctx.read_text(in, [&](std::uint64_t n) { return bwt_peak_bound(n, ctx.sa_algorithm()); });
  const std::uint64_t n = text.size();
  const auto sa_options = ctx.progress_options();

  HostArray<std::uint8_t> bwt(n);
  std::uint64_t primary = 0;
  double seconds = 0;
  ktext::SuffixArrayStats stats;
  run_on_backend(backend, [&](const auto& exec) {
    const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
    const auto d_bwt = result_view(exec, bwt.data(), n, "ktext_cli::bwt");
    seconds = timed(exec, [&] { primary = ktext::bwt(exec, d_text, d_bwt, sa_options, &stats); });
    to_host(exec, d_bwt, bwt.data());
  });
  if (options.raw) out.write(bwt.data(), static_cast<std::size_t>(n));
  else ktext::write_bwt_file(bwt.data(), n, primary, out.sink());
  out.commit();

  // The primary index of a raw transform is data the user needs to invert it: -q keeps it.
  if (options.raw && !global.json)
    emit(out.owns_stdout() ? stderr : stdout, format("primary index: %llu\n", static_cast<unsigned long long>(primary)));
  // Measured: the suffix array's peak (text and suffix array included) and the n-byte output.
  Json json = ctx.report(n, seconds, stats.peak_bytes + n);
  json["input"] = utf8_safe(options.input);
  json["output"] = utf8_safe(options.output);
  json["format"] = options.raw ? "raw" : "container";
  json["rounds"] = stats.rounds;
  json["initial_prefix"] = stats.initial_prefix;
  json["reductions"] = stats.reductions;
  json["primary_index"] = primary;
  ctx.finish(json, format("bwt: n = %llu, backend %s, %.3f s (%.1f MB/s), primary index %llu; wrote %s (%s)",
                          static_cast<unsigned long long>(n), backend_name(backend), seconds, mb_per_s(n, seconds),
                          static_cast<unsigned long long>(primary), out.name().c_str(),
                          options.raw ? "raw bytes" : "ktext container"));
  return kExitOk;
}

int run_unbwt(const GlobalOptions& global, const UnbwtOptions& options) {
  Context ctx(global, "unbwt");
  InputFile& in = ctx.input(options.input);
  OutputFile& out = ctx.output(options.output);
  const std::vector<std::uint8_t> bytes = in.read_rest();

  const std::uint8_t* bwt = nullptr;
  std::uint64_t n = 0, primary = 0;
  const bool is_container = ktext::container::has_magic(bytes.data(), bytes.size());
  if (is_container) {
    const ktext::BwtFileInfo file = with_file_name(in.name(), [&] {
      return ktext::bwt_file_check(ktext::container::read_container(bytes, ktext::container::Kind::bwt));
    });
    if (options.has_primary && options.primary != file.primary)
      throw usage_error("--primary " + std::to_string(options.primary) + " disagrees with the primary index " +
                        std::to_string(file.primary) + " stored in " + in.name() + "; leave --primary out");
    bwt = file.data;
    n = file.n;
    primary = file.primary;
  } else {
    if (!options.has_primary)
      throw usage_error(in.name() + " is not a ktext container: a raw transform needs --primary K");
    bwt = bytes.data();
    n = bytes.size();
    primary = options.primary;
    if (n == 0 ? primary != 0 : (primary < 1 || primary > n))
      throw CliError(kExitInvalid, "primary index " + std::to_string(primary) + " is not " +
                                       (n == 0 ? std::string("0") : "in [1, " + std::to_string(n) + "]") + " for the " +
                                       std::to_string(n) + "-byte transform in " + in.name());
  }
  const Backend backend = ctx.start();
  ctx.require_memory(unbwt_peak_bound(n), n);

  HostArray<std::uint8_t> text(n);
  double seconds = 0;
  try {
    run_on_backend(backend, [&](const auto& exec) {
      const auto d_bwt = mirror(exec, bwt, n, "ktext_cli::bwt");
      const auto d_text = result_view(exec, text.data(), n, "ktext_cli::text");
      seconds = timed(exec, [&] { ktext::unbwt(exec, d_bwt, primary, d_text); });
      to_host(exec, d_text, text.data());
    });
  } catch (const ktext::InputError& e) {
    throw CliError(kExitInvalid, in.name() + ": " + e.what());
  }
  out.write(text.data(), static_cast<std::size_t>(n));
  out.commit();

  Json json = ctx.report(n, seconds, unbwt_peak_bound(n));
  json["input"] = utf8_safe(options.input);
  json["output"] = utf8_safe(options.output);
  json["format"] = is_container ? "container" : "raw";
  json["primary_index"] = primary;
  ctx.finish(json, format("unbwt: n = %llu, backend %s, %.3f s (%.1f MB/s), primary index %llu; wrote %s",
                          static_cast<unsigned long long>(n), backend_name(backend), seconds, mb_per_s(n, seconds),
                          static_cast<unsigned long long>(primary), out.name().c_str()));
  return kExitOk;
}

}  // namespace ktext::cli
