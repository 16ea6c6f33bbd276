// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// What every CLI test file shares: byte helpers, the one-line error check, and a fixture that
// runs ktext in its own scratch directory.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace ktext::cli_test {

using Bytes = std::vector<std::uint8_t>;
using Names = std::vector<std::string>;

inline Bytes bytes_of(const std::string& s) { return Bytes(s.begin(), s.end()); }

/// A run's arguments, space-separated, for failure messages.
inline std::string joined(const Names& args) {
  std::string text;
  for (const std::string& a : args) text += (text.empty() ? "" : " ") + a;
  return text;
}

/// A single line "ktext: ..." on stderr, as the contract asks for failures.
inline void expect_one_error_line(const RunResult& r, const std::string& what = "") {
  EXPECT_EQ(r.err.rfind("ktext: ", 0), 0u) << what << ": " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
}

/// ktext run in a fresh scratch directory that holds only what the test and ktext write.
class CliTest : public ::testing::Test {
 protected:
  RunResult ktext(const Names& args, const std::string& stdin_path = "", const std::string& stdout_path = "") {
    return run_ktext(args, dir.work(), stdin_path, stdout_path);
  }
  std::string put(const std::string& name, const Bytes& bytes) {
    write_file(dir.path(name), bytes);
    return name;
  }
  ScratchDir dir;
};

}  // namespace ktext::cli_test
