// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The query lines of `ktext wt query`: "i" for access, "c i" for rank, "c k" for select, as
// decimal numbers separated by spaces, tabs or carriage returns (c a byte value, 0..255). In a
// header of its own so that the parser can be tested and fuzzed without the command around it.

#include <cstdint>
#include <string>
#include <vector>

namespace ktext::cli {

/// The fields of one query line: 1 for access, 2 otherwise; CliError (exit 2) naming the line.
struct QueryParser {
  std::string file;   ///< the query file's name as messages show it
  int fields;         ///< numbers per line: 1 (access) or 2 (rank, select)
  std::uint64_t line = 0;  ///< lines parsed so far (the number of the last one)

  /// Parses \p text (one line without its '\n') into out[0, fields).
  void parse(const std::vector<std::uint8_t>& text, std::uint64_t* out);
  [[noreturn]] void fail(const char* expected) const;
};

}  // namespace ktext::cli
