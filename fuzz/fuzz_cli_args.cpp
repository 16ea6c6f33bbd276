// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The command line of `ktext`: ktext::cli::parse_command_line (CLI11 and ktext's own integer
// and width checks) on argv words cut from the input at NUL and '\n'. No command runs.
// Checked: nothing escapes as an exception (main() would turn it into exit 2 instead of a usage
// error), help/version/usage errors come back as exit 0 or 1, and a parsed command carries
// values inside the ranges the commands rely on.
// Run it with -close_fd_mask=3: help and usage messages would otherwise flood the log.

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words{"ktext"};
  std::string word;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\0' || data[i] == '\n') {
      words.push_back(word);
      word.clear();
    } else {
      word.push_back(char(data[i]));
    }
  }
  if (size > 0) words.push_back(word);
  if (words.size() > 64) return 0;  // CLI11's work grows with the words; long lines add nothing
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  using namespace ktext::cli;
  CommandLine cl;
  try {
    cl = parse_command_line(int(words.size()), argv.data());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "exception: %s\n", e.what());
    FUZZ_CHECK(false, "parse_command_line let an exception escape");
  } catch (...) {
    FUZZ_CHECK(false, "parse_command_line let an unknown exception escape");
  }
  if (cl.command == Command::None) {
    FUZZ_CHECK(cl.exit_code == 0 || cl.exit_code == 1, "help, version or usage error with an exit code other than 0 or 1");
    return 0;
  }
  const GlobalOptions& g = cl.global;
  FUZZ_CHECK(g.backend == "auto" || g.backend == "cuda" || g.backend == "openmp" || g.backend == "serial",
             "--backend outside its set");
  FUZZ_CHECK(g.threads >= 0 && g.threads <= (1 << 20), "--threads out of range");
  FUZZ_CHECK(g.device >= -1 && g.device <= (1 << 16), "--device out of range");
  auto width_ok = [](int w) { return w == 0 || w == 4 || w == 8; };
  FUZZ_CHECK(width_ok(cl.sa.width) && width_ok(cl.lcp.width) && width_ok(cl.check.width), "--width not 4 or 8");
  FUZZ_CHECK(cl.sa.format == "raw" || cl.sa.format == "npy", "sa --format outside its set");
  FUZZ_CHECK(cl.lcp.format == "raw" || cl.lcp.format == "npy", "lcp --format outside its set");
  FUZZ_CHECK(cl.index.sample_rate >= 1, "--sample-rate 0");
  FUZZ_CHECK(cl.index.occurrences == "table" || cl.index.occurrences == "wm", "--occ outside its set");
  if (cl.command == Command::WtQuery)
    FUZZ_CHECK(cl.wt_query.op == "access" || cl.wt_query.op == "rank" || cl.wt_query.op == "select",
               "wt query --op outside its set");
  if (cl.command == Command::Unbwt) FUZZ_CHECK(cl.unbwt.has_primary || cl.unbwt.primary == 0, "primary without --primary");
  return 0;
}
