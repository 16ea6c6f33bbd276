// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Running the ktext binary as a user would, in a scratch directory, and small file helpers.

#include <cstdint>
#include <string>
#include <vector>

namespace ktext::cli_test {

struct RunResult {
  int exit_code = -1;  ///< -1 when the process died from a signal, kTimedOut when it was stopped
  std::string out;
  std::string err;
  double seconds = 0;
};

/// RunResult::exit_code of a ktext that ran past the limit and was killed: a hang fails its test
/// instead of stopping the whole run. The limit is KTEXT_CLI_TEST_TIMEOUT seconds (default 900).
inline constexpr int kTimedOut = -2;

/// stdout_path for a pipe nobody reads: every write to standard output fails.
inline const std::string kClosedPipe = "<closed pipe>";

/// The ktext binary under test: $KTEXT_CLI where set (to run the tests on another machine, whose
/// copy of the binary lies elsewhere), else the one this build made.
const std::string& ktext_path();

/// Runs ktext with \p args in directory \p cwd; stdin from \p stdin_path ("" for /dev/null).
/// stdout and stderr are captured through files in \p cwd's parent, so \p cwd holds only what
/// ktext writes; \p stdout_path sends stdout elsewhere (a file or device, or kClosedPipe).
RunResult run_ktext(const std::vector<std::string>& args, const std::string& cwd, const std::string& stdin_path = "",
                    const std::string& stdout_path = "");

/// A fresh directory removed (with everything in it) on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  /// The directory ktext runs in and writes to.
  const std::string& work() const { return work_; }
  std::string path(const std::string& name) const { return work_ + "/" + name; }
  /// Names in work(), sorted, hidden ones included.
  std::vector<std::string> list() const;

 private:
  std::string root_;
  std::string work_;
};

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes);
std::vector<std::uint8_t> read_file(const std::string& path);
bool file_exists(const std::string& path);

/// Suffix array by sorting suffixes with byte comparisons (libdivsufsort semantics).
std::vector<std::int64_t> naive_suffix_array(const std::vector<std::uint8_t>& text);

/// Little-endian signed integers of \p width bytes.
std::vector<std::int64_t> decode_le(const std::uint8_t* data, std::size_t bytes, int width);
std::vector<std::uint8_t> encode_le(const std::vector<std::int64_t>& values, int width);

}  // namespace ktext::cli_test
