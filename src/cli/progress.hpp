// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Progress on stderr: phases, doubling rounds and percent done of suffix array construction,
// and free-form steps (sorted runs, merges).

#include <string>

#include <ktext/suffix/suffix_array_types.hpp>

#include "options.hpp"

namespace ktext::cli {

class ProgressReporter {
 public:
  /// On when stderr is a terminal or --progress is given; never with -q.
  explicit ProgressReporter(const GlobalOptions& options);
  bool enabled() const { return enabled_; }
  /// Options whose callback reports under \p label ("sa openmp"); no callback when disabled.
  /// The returned options refer to this reporter, which must outlive them.
  ktext::SuffixArrayOptions options(const std::string& label) const;
  /// One progress line "ktext: <label>: <text>", when enabled.
  void note(const std::string& label, const std::string& text) const;

 private:
  bool enabled_ = false;
  bool terminal_ = false;
};

}  // namespace ktext::cli
