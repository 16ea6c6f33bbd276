// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext sort against `LC_ALL=C sort` (GNU coreutils) run through the shell on the same files
// with the same options: every option and combination, files and standard input, missing final
// terminators, CR and NUL bytes, empty input and empty lines, the chunked and the spilled paths
// forced with small limits, temporary files removed after success and failure.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli_fixture.hpp"

namespace ktext::cli_test {
namespace {

/// Names in \p path but . and ..
Names entries_of(const std::string& path) {
  Names names;
  if (DIR* d = ::opendir(path.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
    ::closedir(d);
  }
  return names;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The standard output of `LC_ALL=C sort ARGS` run in \p dir, stdin from \p stdin_name.
Bytes gnu_sort(const std::string& dir, const Names& args, const std::string& stdin_name = "") {
  std::string cmd = "cd " + shell_quote(dir) + " && LC_ALL=C sort";
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " < " + (stdin_name.empty() ? std::string("/dev/null") : shell_quote(stdin_name));
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("popen failed");
  Bytes out;
  char buf[65536];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) out.insert(out.end(), buf, buf + got);
  EXPECT_EQ(::pclose(p), 0) << cmd;
  return out;
}

/// Records with what breaks sorters: empty ones, CR before the terminator, NUL and every other
/// byte inside, duplicates, a 200-byte shared prefix, prefixes of one another; the other
/// terminator appears inside records. \p final_terminator false leaves the last one open.
Bytes records(std::size_t n, std::uint32_t seed, std::uint8_t terminator, bool final_terminator = true) {
  std::mt19937 rng(seed);
  const std::string prefix(200, '/');
  std::vector<Bytes> pool;
  for (std::size_t i = 0; i < n; ++i) {
    Bytes r;
    switch (rng() % 8) {
      case 0: break;  // empty
      case 1: r = bytes_of(prefix + std::to_string(rng() % 50)); break;
      case 2: r = bytes_of(std::string(rng() % 6, 'a')); break;
      case 3:
        for (int k = int(rng() % 12); k > 0; --k) r.push_back(std::uint8_t(rng()));
        break;
      case 4: r = bytes_of("line\r"); break;
      case 5: r = {'x', 0, 'y', std::uint8_t(terminator == '\n' ? 0 : '\n'), 'z'}; break;
      default:
        if (!pool.empty()) r = pool[rng() % pool.size()];
        else r = bytes_of("dup");
    }
    for (auto& c : r)
      if (c == terminator) c = 'T';
    pool.push_back(r);
  }
  Bytes out;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    out.insert(out.end(), pool[i].begin(), pool[i].end());
    if (final_terminator || i + 1 < pool.size()) out.push_back(terminator);
  }
  return out;
}

class Sort : public CliTest {
 protected:
  /// ktext sort ARGS (plus EXTRA, which GNU sort does not take) equals LC_ALL=C sort ARGS.
  void expect_same(const Names& args, const std::string& stdin_name = "", const Names& extra = {}) {
    Names k{"sort"};
    k.insert(k.end(), args.begin(), args.end());
    k.insert(k.end(), extra.begin(), extra.end());
    const RunResult r = ktext(k, stdin_name.empty() ? "" : dir.path(stdin_name));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string what;
    for (const auto& a : k) what += a + " ";
    EXPECT_TRUE(bytes_of(r.out) == gnu_sort(dir.work(), args, stdin_name)) << what;
  }
  nlohmann::json json_of(const Names& args) {
    const RunResult r = ktext(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  }
};

TEST_F(Sort, EveryOptionAndCombinationEqualsGnuSort) {
  put("a", records(700, 1, '\n'));
  put("b", records(300, 2, '\n', false));  // no final newline: GNU sort adds one
  put("c", records(5, 3, '\n', false));
  put("in", records(200, 4, '\n', false));
  put("za", records(500, 5, 0));
  put("zb", records(100, 6, 0, false));
  for (const Names& opts : {Names{}, Names{"-u"}, Names{"-r"}, Names{"-u", "-r"}}) {
    Names args = opts;
    args.insert(args.end(), {"a", "b", "-", "c"});
    expect_same(args, "in");
  }
  for (const Names& opts : {Names{"-z"}, Names{"-z", "-u"}, Names{"-z", "-r", "-u"}}) {
    Names args = opts;
    args.insert(args.end(), {"za", "zb", "a"});  // newlines inside NUL-terminated records
    expect_same(args);
  }
  expect_same({}, "b");              // standard input when no file is named
  expect_same({"-u", "-"}, "a");     // "-" alone
  expect_same({"--reverse", "--unique", "a", "c"});
}

TEST_F(Sort, EmptyInputsAndEmptyLines) {
  put("empty", {});
  put("newlines", bytes_of("\n\n\n"));
  put("nul", Bytes{0});
  expect_same({"empty"});
  expect_same({});
  expect_same({"empty", "newlines", "empty"});
  expect_same({"-u", "newlines"});
  expect_same({"nul"});
  expect_same({"-z", "nul", "newlines"});
  const RunResult r = ktext({"sort", "empty", "-o", "out"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_file(dir.path("out")).empty());
}

TEST_F(Sort, ChunkedAndSpilledPathsEqualGnuSort) {
  put("a", records(1200, 7, '\n'));
  put("b", records(200, 8, '\n', false));
  ::mkdir(dir.path("tmp").c_str(), 0700);
  // Hundreds of tiny sorts: on the Serial backend, where a launch costs no thread wake-ups.
  const Names serial{"--backend", "serial"};
  for (const Names& opts : {Names{}, Names{"-u"}, Names{"-r"}, Names{"-r", "-u"}}) {
    Names args = opts;
    args.insert(args.end(), {"a", "b"});
    auto with = [&](Names extra) {
      extra.insert(extra.end(), serial.begin(), serial.end());
      return extra;
    };
    expect_same(args, "", with({"--chunk", "2K"}));                        // device chunks merged on the host
    expect_same(args, "", with({"-S", "1K", "-T", "tmp"}));                // runs spilled and merged
    expect_same(args, "", with({"-S", "8K", "-T", "tmp", "--chunk", "1K"}));  // both
    EXPECT_TRUE(entries_of(dir.path("tmp")).empty()) << "temporary files left behind";
  }
  expect_same({"-r", "a", "b"}, "", {"--chunk", "64K", "-S", "128K", "-T", "tmp"});  // the default backend
  // -S 1K reads 1 KiB blocks: records cross block ends, and a 5000-byte one grows the buffer,
  // also as the unterminated last record of a file read from standard input.
  Bytes longer = records(300, 9, '\n');
  longer.insert(longer.begin() + 100, 5000, 'L');
  longer.insert(longer.end(), 4000, 'M');
  put("long", longer);
  // Megabytes of records: read and written by the host threads in pieces at file offsets.
  Bytes many;
  for (std::uint32_t seed = 20; many.size() < (std::size_t(6) << 20); ++seed) {
    const Bytes part = records(4000, seed, '\n');
    many.insert(many.end(), part.begin(), part.end());
  }
  put("many", many);
  for (const Names& opts : {Names{}, Names{"-u"}, Names{"-r"}}) {
    Names gnu = opts;
    gnu.push_back("many");
    Names args{"sort"};
    args.insert(args.end(), gnu.begin(), gnu.end());
    args.insert(args.end(), {"-o", "many.sorted"});
    const RunResult r = ktext(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_file(dir.path("many.sorted")) == gnu_sort(dir.work(), gnu)) << "sort many " << (opts.empty() ? "" : opts[0]);
  }
  for (const Names& opts : {Names{}, Names{"-u"}, Names{"-r"}}) {
    Names args = opts;
    args.insert(args.end(), {"long", "-", "b"});
    expect_same(args, "long", {"-S", "1K", "-T", "tmp", "--backend", "serial"});
    expect_same(args, "long", {"-S", "64K", "-T", "tmp"});
  }
  // The figures say which path ran: over 64 runs take two merge rounds.
  auto j = json_of({"sort", "a", "b", "-S", "1K", "-T", "tmp", "-o", "out", "--json", "--backend", "serial"});
  EXPECT_GT(j["spilled_runs"].get<int>(), 64);
  const Bytes all = gnu_sort(dir.work(), {"a", "b"});
  EXPECT_EQ(j["strings"].get<std::size_t>(), std::size_t(std::count(all.begin(), all.end(), '\n')));
  EXPECT_GT(j["strings_per_s"].get<double>(), 0.0);
  EXPECT_GT(j["bytes_per_s"].get<double>(), 0.0);
  j = json_of({"sort", "a", "--chunk", "4K", "-o", "out", "--json", "--backend", "serial"});
  EXPECT_GT(j["device_chunks"].get<int>(), 10);
  EXPECT_EQ(j["spilled_runs"].get<int>(), 0);
  EXPECT_TRUE(entries_of(dir.path("tmp")).empty());
  // -S accepts GNU sort's suffixes; the default unit is KiB.
  for (const char* size : {"3", "1M", "1G", "50%", "65536b"}) expect_same({"a"}, "", {"-S", size, "-T", "tmp", "--backend", "serial"});
}

TEST_F(Sort, TemporaryFilesAreRemovedAfterAFailure) {
  put("a", records(1000, 9, '\n'));
  ::mkdir(dir.path("tmp").c_str(), 0700);
  // Runs are spilled, then writing the merged output fails: on a private twin of /dev/full
  // (never the real one; containers without CAP_MKNOD skip).
  if (::mknod(dir.path("full").c_str(), S_IFCHR | 0666, ::makedev(1, 7)) != 0) GTEST_SKIP() << "mknod not permitted";
  const RunResult r = ktext({"sort", "a", "-S", "1K", "-T", "tmp", "-o", "full", "--backend", "serial"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(entries_of(dir.path("tmp")).empty()) << "temporary files left behind";
  const RunResult missing_dir = ktext({"sort", "a", "-S", "1K", "-T", "no-such-dir", "-o", "out"});
  EXPECT_EQ(missing_dir.exit_code, 2);
  EXPECT_FALSE(file_exists(dir.path("out")));
}

TEST_F(Sort, SignalsRemoveTheSpilledRuns) {
  // Standard input is a FIFO: ktext spills runs of what was written, then waits for more, and
  // is stopped there by each signal in turn. Its spill directory is named for its pid.
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    SCOPED_TRACE(sig);
    const std::string fifo = dir.path("in.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    ::mkdir(dir.path("tmp").c_str(), 0700);
    bool spilled = false;
    std::thread feeder([&] {
      const int fd = ::open(fifo.c_str(), O_WRONLY);  // waits for ktext to open it
      if (fd < 0) return;
      const Bytes data = records(2000, 20, '\n');
      for (std::size_t at = 0; at < data.size();) {
        const ssize_t put = ::write(fd, data.data() + at, data.size() - at);
        if (put <= 0) break;
        at += std::size_t(put);
      }
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (!spilled && std::chrono::steady_clock::now() < deadline) {
        for (const std::string& name : entries_of(dir.path("tmp"))) {
          long pid = 0;
          if (std::sscanf(name.c_str(), "ktext-sort-%ld-", &pid) == 1 && !entries_of(dir.path("tmp/" + name)).empty()) {
            spilled = true;
            ::kill(pid_t(pid), sig);
          }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      ::close(fd);
    });
    const RunResult r = ktext({"sort", "-S", "1K", "-T", "tmp", "-o", "out", "--backend", "serial"}, fifo);
    feeder.join();
    ASSERT_TRUE(spilled) << "no spilled run appeared: " << r.err;
    EXPECT_EQ(r.exit_code, -1) << "ktext did not die of the signal: " << r.err;
    EXPECT_TRUE(entries_of(dir.path("tmp")).empty()) << "temporary files left behind";
    EXPECT_EQ(dir.list(), (Names{"in.fifo", "tmp"})) << "an output or its temporary was left";
    ::unlink(fifo.c_str());
  }
}

TEST_F(Sort, InputThatShrinksOrDisappearsMidRunIsHandled) {
  // ktext opens every input first, then reads standard input (a FIFO) and only then "b": the
  // feeder changes "b" once ktext has read most of what it wrote, so ktext reads "b" after.
  const Bytes b = records(3000, 21, '\n');
  const Bytes fed = records(20000, 22, '\n');  // past the FIFO's buffer: writing it waits for ktext
  for (const bool truncate : {true, false}) {
    SCOPED_TRACE(truncate ? "truncated" : "unlinked");
    put("b", b);
    const std::string fifo = dir.path("in.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread feeder([&] {
      const int fd = ::open(fifo.c_str(), O_WRONLY);
      if (fd < 0) return;
      for (std::size_t at = 0; at < fed.size();) {
        const ssize_t put = ::write(fd, fed.data() + at, fed.size() - at);
        if (put <= 0) break;
        at += std::size_t(put);
      }
      if (truncate)
        (void)::truncate(dir.path("b").c_str(), off_t(b.size() / 2));
      else
        ::unlink(dir.path("b").c_str());
      ::close(fd);
    });
    const RunResult r = ktext({"sort", "-", "b", "-o", "out", "--backend", "serial"}, fifo);
    feeder.join();
    ::unlink(fifo.c_str());
    if (truncate) {
      // Half a file is not the input: no output, one clear line.
      EXPECT_EQ(r.exit_code, 2) << r.err;
      expect_one_error_line(r);
      EXPECT_NE(r.err.find("shrank while it was read"), std::string::npos) << r.err;
      EXPECT_FALSE(file_exists(dir.path("out")));
    } else {
      // An unlinked file keeps its data while open: the output is complete.
      EXPECT_EQ(r.exit_code, 0) << r.err;
      std::vector<std::string> lines;
      for (const Bytes* part : {&fed, &b}) {
        std::string text(part->begin(), part->end());
        for (std::size_t at = 0; at < text.size();) {
          const std::size_t end = text.find('\n', at);
          lines.push_back(text.substr(at, end - at));  // compared without the terminator
          at = end + 1;
        }
      }
      std::sort(lines.begin(), lines.end());
      std::string want;
      for (const auto& l : lines) want += l + '\n';
      const Bytes got = read_file(dir.path("out"));
      EXPECT_TRUE(std::string(got.begin(), got.end()) == want) << "the output is not the sorted input";
    }
    ::unlink(dir.path("out").c_str());
  }
}

TEST_F(Sort, MissingInputAndBadSizes) {
  put("a", bytes_of("b\na\n"));
  const RunResult r = ktext({"sort", "a", "missing", "-o", "out"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_EQ(dir.list(), Names{"a"});
  for (const char* bad : {"1x", "", "K", "-1", "101%", "1KB", "99999999999999999999"}) {
    const RunResult b = ktext({"sort", "a", "-S", bad});
    EXPECT_EQ(b.exit_code, 1) << bad;
    expect_one_error_line(b, bad);
  }
}

TEST_F(Sort, OutputMayBeAnInputAsInGnuSort) {
  put("f", records(300, 10, '\n', false));
  put("g", read_file(dir.path("f")));
  const Bytes want = gnu_sort(dir.work(), {"g", "f"});
  const RunResult r = ktext({"sort", "-o", "f", "f", "f"});  // read twice, then replaced
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_file(dir.path("f")) == want);
  EXPECT_EQ(dir.list(), (Names{"f", "g"}));  // no temporary left
}

TEST_F(Sort, BackendsAgree) {
  put("a", records(3000, 11, '\n'));
  const Bytes want = gnu_sort(dir.work(), {"a"});
  for (const char* backend : {"serial", KTEXT_CLI_HAS_OPENMP ? "openmp" : "serial"}) {
    const RunResult r = ktext({"sort", "--backend", backend, "a"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(bytes_of(r.out) == want) << backend;
  }
}

}  // namespace
}  // namespace ktext::cli_test
