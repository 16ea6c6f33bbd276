// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext check INPUT SA [--width 4|8]

#include <cstdio>
#include <optional>
#include <variant>

#include <ktext/core/error.hpp>

#include "backend.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "io.hpp"
#include "report.hpp"
#include "sa_file.hpp"
#include "suffix_runs.hpp"

namespace ktext::cli {

int run_check(const GlobalOptions& global, const CheckOptions& options) {
  const auto requested = parse_backend(global.backend);
  if (options.input == "-" && options.sa == "-") throw usage_error("INPUT and SA cannot both be standard input");

  InputFile text_file = InputFile::open(options.input);
  InputFile sa_file = InputFile::open(options.sa);
  const std::vector<std::uint8_t> text = read_text(text_file);
  const std::uint64_t n = text.size();

  // A file that cannot be a suffix array of this text is a verification failure, not an I/O error.
  ktext::SuffixArrayCheck result;
  std::optional<LoadedSa> sa;
  try {
    sa = read_sa(sa_file, n, options.width);
  } catch (const ktext::FormatError& e) {
    result = ktext::SuffixArrayCheck{false, -1, e.what()};
  }

  KokkosSession session(global);
  const Backend backend = resolve_backend(requested);
  double seconds = 0;
  std::uint64_t device_bytes = 0;
  if (sa) {
    Stopwatch watch;
    result = std::visit([&](const auto& values) { return verify_suffix_array(backend, text.data(), n, values.data()); },
                        sa->values);
    seconds = watch.seconds();
    // The text and SA in the backend's memory, plus the inverse array the device check builds.
    device_bytes = n * (1 + std::uint64_t(sa->width) * (backend == Backend::Cuda ? 2 : 1));
  }

  if (global.json) {
    Json report = base_report("check", backend_name(backend), n, seconds, device_bytes);
    report["input"] = options.input;
    report["sa"] = options.sa;
    report["width"] = sa ? sa->width : options.width;
    report["format"] = sa ? (sa->format == SaFormat::Npy ? "npy" : "raw") : "unknown";
    report["valid"] = result.valid;
    report["bad_index"] = result.bad_index;
    report["reason"] = result.reason;
    print_json(report);
  } else if (!global.quiet) {
    if (result.valid) std::printf("valid\n");
    else if (result.bad_index >= 0)
      std::printf("invalid: first bad index %lld: %s\n", static_cast<long long>(result.bad_index), result.reason.c_str());
    else std::printf("invalid: %s\n", result.reason.c_str());
  }
  return result.valid ? kExitOk : kExitInvalid;
}

}  // namespace ktext::cli
