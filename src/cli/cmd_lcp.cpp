// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext lcp INPUT -o OUT [--width 4|8] [--format raw|npy]

#include "commands.hpp"
#include "integer_array_command.hpp"
#include "text_runs.hpp"

namespace ktext::cli {

int run_lcp(const GlobalOptions& global, const LcpOptions& options) {
  return run_integer_array_command(
      "lcp", "LCP array", global, options,
      [](auto index_tag, Backend backend, const std::uint8_t* text, std::uint64_t n, const ktext::SuffixArrayOptions& o) {
        using I = decltype(index_tag);
        auto run = run_lcp<I>(backend, text, n, o);
        return ArrayRun<I>{std::move(run.lcp), run.stats, run.seconds};
      });
}

}  // namespace ktext::cli
