// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext unbwt INPUT -o OUT [--primary K]
//
// INPUT is a ktext bwt container when it starts with the container magic, else a raw
// transform that needs --primary. Exit codes: 1 for a raw input without --primary and for a
// --primary that disagrees with the container's; 3 for a corrupt container, a --primary
// outside [1, n] (e.g. 0 or n+1) and any pair that is not a Burrows-Wheeler transform.

#include <cstdio>

#include <ktext/core/error.hpp>

#include "backend.hpp"
#include "commands.hpp"
#include "container_io.hpp"
#include "errors.hpp"
#include "host_array.hpp"
#include "io.hpp"
#include "report.hpp"
#include "text_runs.hpp"

namespace ktext::cli {

int run_unbwt(const GlobalOptions& global, const UnbwtOptions& options) {
  const auto requested = parse_backend(global.backend);
  require_stdout_for_one(global, options.output);
  Stopwatch total;
  InputFile in = InputFile::open(options.input);
  OutputFile out = OutputFile::create(options.output);
  std::vector<std::uint8_t> bytes = read_text(in);

  BwtContainer file;
  const std::uint8_t* bwt = nullptr;
  std::uint64_t n = 0, primary = 0;
  const bool is_container = ktext::container::has_magic(bytes.data(), bytes.size());
  if (is_container) {
    file = read_bwt_container(std::move(bytes), in.name());
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
    if (primary < 1 || primary > n)
      throw CliError(kExitInvalid, "primary index " + std::to_string(primary) + " is not in [1, " + std::to_string(n) +
                                       "] for the " + std::to_string(n) + "-byte transform in " + in.name());
  }

  KokkosSession session(global);
  const Backend backend = resolve_backend(requested);
  HostArray<std::uint8_t> text(n);
  double seconds = 0;
  if (n > 0) {
    try {
      seconds = run_unbwt(backend, bwt, n, primary, text.data());
    } catch (const ktext::InputError& e) {
      throw CliError(kExitInvalid, in.name() + ": " + e.what());
    }
    out.write(text.data(), static_cast<std::size_t>(n));
  }
  out.commit();

  if (global.json) {
    Json report = base_report("unbwt", backend_name(backend), n, seconds, unbwt_peak_bytes(n));
    report["input"] = options.input;
    report["output"] = options.output;
    report["format"] = is_container ? "container" : "raw";
    report["primary_index"] = primary;
    report["total_seconds"] = total.seconds();
    print_json(report);
  } else if (!global.quiet) {
    std::FILE* stream = out.is_stdout() ? stderr : stdout;
    std::fprintf(stream, "unbwt: n = %llu, backend %s, %.3f s (%.1f MB/s), primary index %llu; wrote %s\n",
                 static_cast<unsigned long long>(n), backend_name(backend), seconds, mb_per_s(n, seconds),
                 static_cast<unsigned long long>(primary), out.name().c_str());
  }
  return kExitOk;
}

}  // namespace ktext::cli
