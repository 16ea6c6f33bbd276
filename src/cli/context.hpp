// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The command context: what every command does before and around its work, in the order that
// lets cheap failures come first: the options checked, the inputs opened, the output opened
// (refused when it is one of the inputs, or shares stdout with --json), Kokkos started and the
// backend resolved, the backend's memory compared with what the input sizes need; at the end
// one report, as JSON or text, written with its failures detected.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <ktext/suffix/suffix_array_types.hpp>

#include "backend.hpp"
#include "io.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace ktext::cli {

class Context {
 public:
  Context(const GlobalOptions& global, const char* command);

  /// Opens an input ("-": standard input, at most once).
  InputFile& input(const std::string& path);
  /// Opens the output, after the inputs; one of the inputs is refused unless \p may_be_an_input
  /// (for commands that read every input before the output replaces anything).
  OutputFile& output(const std::string& path, bool may_be_an_input = false);
  /// Starts Kokkos and resolves --backend.
  Backend start();
  /// Refuses (exit 2, with the figures) a run that needs \p bytes more than the backend has free.
  void require_memory(std::uint64_t bytes, std::uint64_t n) const;
  /// The text of \p in, after start(). \p bound(n) is the bytes a run on n bytes holds on the
  /// backend: a GPU too small is said from the file's size before reading, then from the text.
  template <class Bound>
  std::vector<std::uint8_t> read_text(InputFile& in, Bound bound) const {
    if (in.size()) require_memory(bound(*in.size()), *in.size());
    std::vector<std::uint8_t> text = in.read_rest();
    require_memory(bound(text.size()), text.size());
    return text;
  }

  Backend backend() const { return backend_; }
  const ProgressReporter& progress() const { return progress_; }
  /// --algorithm.
  ktext::SuffixArrayAlgorithm sa_algorithm() const;
  /// Suffix-array options with --algorithm, reporting progress as \p label.
  ktext::SuffixArrayOptions suffix_array_options(const std::string& label) const;
  /// suffix_array_options() labelled "<command> [what] <backend>".
  ktext::SuffixArrayOptions progress_options(const std::string& what = "") const;
  OutputFile& out() { return *output_; }

  /// The fields every JSON report starts with; \p peak_device_bytes as the command measured it.
  Json report(std::uint64_t n, double seconds, std::uint64_t peak_device_bytes) const;
  /// Prints \p json with --json, else \p summary (unless -q): to stderr when the output owns
  /// stdout. Adds total_seconds.
  void finish(Json json, const std::string& summary) const;

  const GlobalOptions& global;
  const char* const command;
  const Stopwatch total;

 private:
  std::optional<Backend> requested_;
  std::deque<InputFile> inputs_;
  std::optional<OutputFile> output_;
  std::optional<KokkosSession> session_;
  Backend backend_ = Backend::Serial;
  ProgressReporter progress_;
};

}  // namespace ktext::cli
