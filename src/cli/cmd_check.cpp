// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext check INPUT SA [--width 4|8]: exit 0 when SA is the suffix array of INPUT, 3 when not.

#include <optional>
#include <variant>

#include <ktext/core/error.hpp>
#include <ktext/suffix/check_suffix_array.hpp>
#include <ktext/suffix/memory_bounds.hpp>

#include "commands.hpp"
#include "context.hpp"
#include "run.hpp"
#include "sa_file.hpp"

namespace ktext::cli {

int run_check(const GlobalOptions& global, const CheckOptions& options) {
  Context ctx(global, "check");
  InputFile& text_file = ctx.input(options.input);
  InputFile& sa_file = ctx.input(options.sa);
  const Backend backend = ctx.start();
  const std::vector<std::uint8_t> text = text_file.read_rest();
  const std::uint64_t n = text.size();

  // A file that cannot be a suffix array of this text is a verification failure, not an I/O error.
  ktext::SuffixArrayCheck result;
  std::optional<LoadedSa> sa;
  try {
    sa = read_sa(sa_file, n, options.width);
  } catch (const ktext::FormatError& e) {
    result = ktext::SuffixArrayCheck{false, -1, e.what()};
  }
  double seconds = 0;
  std::uint64_t device_bytes = 0;
  if (sa) {
    std::visit(
        [&](const auto& values) {
          using I = std::remove_const_t<std::remove_pointer_t<decltype(values.data())>>;
          const bool device = backend == Backend::Cuda;
          device_bytes = device ? n * (1 + sizeof(I)) + ktext::check_suffix_array_workspace_bytes<I>(n) : 0;
          if (device) ctx.require_memory(device_bytes, n);
          run_on_backend(backend, [&](const auto& exec) {
            const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
            const auto d_sa = mirror(exec, values.data(), n, "ktext_cli::sa");
            seconds = timed(exec, [&] { result = ktext::check_suffix_array(exec, d_text, d_sa); });
          });
        },
        sa->values);
  }

  Json json = ctx.report(n, seconds, device_bytes);
  json["input"] = utf8_safe(options.input);
  json["sa"] = utf8_safe(options.sa);
  json["width"] = sa ? sa->width : options.width;
  json["format"] = sa ? (sa->format == SaFormat::Npy ? "npy" : "raw") : "unknown";
  json["valid"] = result.valid;
  json["bad_index"] = result.bad_index;
  json["reason"] = utf8_safe(result.reason);
  ctx.finish(json, result.valid            ? "valid"
                   : result.bad_index >= 0 ? format("invalid: first bad index %lld: %s",
                                                    static_cast<long long>(result.bad_index), result.reason.c_str())
                                           : "invalid: " + result.reason);
  return result.valid ? kExitOk : kExitInvalid;
}

}  // namespace ktext::cli
