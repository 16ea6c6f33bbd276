// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace ktext::cli {

namespace {
// On a terminal one line is rewritten in place; in a log every record gets its own line.
void print_progress(const std::string& line, bool terminal, bool last) {
  if (terminal) std::fprintf(stderr, "\r\033[K%s%s", line.c_str(), last ? "\n" : "");
  else std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}
}  // namespace

ProgressReporter::ProgressReporter(const GlobalOptions& options) {
  terminal_ = ::isatty(STDERR_FILENO) == 1;
  enabled_ = !options.quiet && (options.progress || terminal_);
}

ktext::SuffixArrayOptions ProgressReporter::options(const std::string& label) const {
  ktext::SuffixArrayOptions opts;
  if (!enabled_) return opts;
  const bool terminal = terminal_;
  opts.progress = [label, terminal](const ktext::SuffixArrayProgress& p) {
    const double done = p.n == 0 ? 1.0 : 1.0 - double(p.active) / double(p.n);
    char line[256];
    if (std::string(p.phase) == "doubling")
      std::snprintf(line, sizeof line, "ktext: %s: doubling round %d (h = %llu): %5.1f%% sorted", label.c_str(),
                    p.round, static_cast<unsigned long long>(p.h), 100.0 * done);
    else
      std::snprintf(line, sizeof line, "ktext: %s: %s: %5.1f%% sorted", label.c_str(), p.phase, 100.0 * done);
    print_progress(line, terminal, std::string(p.phase) == "done");
  };
  return opts;
}

void ProgressReporter::note(const std::string& label, const std::string& text) const {
  if (enabled_) print_progress("ktext: " + label + ": " + text, terminal_, text == "done");
}

}  // namespace ktext::cli
