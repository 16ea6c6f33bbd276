// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The set-up shared by commands that turn one text into one output file (bwt, index), in the
// order that lets cheap failures come first: the backend's name and the use of stdout, the
// input opened, the output's temporary created, Kokkos started, the backend resolved, the GPU's
// memory compared with the file's size, and only then the text read.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "io.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace ktext::cli {

class TextCommand {
 public:
  TextCommand(const GlobalOptions& global, const std::string& input, const std::string& output);

 private:
  std::optional<Backend> requested_;

 public:
  Stopwatch total;
  InputFile in;
  OutputFile out;
  KokkosSession session;
  Backend backend;
  ProgressReporter progress;
  std::vector<std::uint8_t> text;
};

}  // namespace ktext::cli
