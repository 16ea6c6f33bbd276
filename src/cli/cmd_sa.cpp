// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext sa INPUT -o OUT [--width 4|8] [--format raw|npy]

#include "commands.hpp"
#include "integer_array_command.hpp"

namespace ktext::cli {

int run_sa(const GlobalOptions& global, const SaOptions& options) {
  return run_integer_array_command(
      "sa", "suffix array", global, options,
      [](auto index_tag, Backend backend, const std::uint8_t* text, std::uint64_t n, const ktext::SuffixArrayOptions& o) {
        using I = decltype(index_tag);
        auto run = build_suffix_array<I>(backend, text, n, o);
        return ArrayRun<I>{std::move(run.sa), run.stats, run.seconds};
      });
}

}  // namespace ktext::cli
