// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The contract every command shares: how outputs are written (through devices, FIFOs and
// symlinks, keeping permission bits, refusing to overwrite an input, long names), failed writes
// to stdout and to a full device or file system, strict integer options, escaped names, and the
// empty file as a text.

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "cli_fixture.hpp"

namespace ktext::cli_test {
namespace {

class CliContract : public CliTest {};

Bytes banana_sa() { return encode_le(naive_suffix_array(bytes_of("banana")), 4); }

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode;
}

TEST_F(CliContract, DevicesAreWrittenThroughNeverReplaced) {
  put("in", bytes_of("banana"));
  auto r = ktext({"sa", "in", "-o", "/dev/null"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(S_ISCHR(mode_of("/dev/null")));
  // /dev/stdout is the data channel: the summary moves to stderr, the array arrives intact.
  r = ktext({"sa", "in", "-o", "/dev/stdout"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(bytes_of(r.out), banana_sa());
  EXPECT_NE(r.err.find("sa: n = 6"), std::string::npos) << r.err;
  EXPECT_EQ(ktext({"--json", "sa", "in", "-o", "/dev/stdout"}).exit_code, 1);
  EXPECT_EQ(dir.list(), Names{"in"});
}

TEST_F(CliContract, FifoIsWrittenThrough) {
  put("in", bytes_of("banana"));
  ASSERT_EQ(::mkfifo(dir.path("pipe").c_str(), 0644), 0);
  Bytes received;
  std::atomic<bool> done{false};
  std::thread reader([&] {
    received = read_file(dir.path("pipe"));
    done = true;
  });
  const auto r = ktext({"sa", "in", "-o", "pipe"});
  // A ktext that failed before opening the FIFO leaves the reader waiting in open(): a writer
  // opened and closed here (ktext has exited, so it is the only one) gives it the end of the
  // data, and the test fails on the exit code below instead of hanging.
  while (!done) {
    const int fd = ::open(dir.path("pipe").c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  reader.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(received, banana_sa());
  EXPECT_TRUE(S_ISFIFO(mode_of(dir.path("pipe"))));
  EXPECT_EQ(dir.list(), (Names{"in", "pipe"}));
}

TEST_F(CliContract, SymlinksAreFollowedAndPermissionsKept) {
  put("in", bytes_of("banana"));
  put("target", bytes_of("old"));
  ASSERT_EQ(::chmod(dir.path("target").c_str(), 0640), 0);
  ASSERT_EQ(::symlink("target", dir.path("link").c_str()), 0);
  const auto r = ktext({"sa", "in", "-o", "link"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(S_ISLNK(mode_of(dir.path("link"))));
  EXPECT_EQ(read_file(dir.path("target")), banana_sa());
  EXPECT_EQ(mode_of(dir.path("target")) & 07777, mode_t(0640));
  // A dangling link gets its target created.
  ASSERT_EQ(::symlink("fresh", dir.path("dangling").c_str()), 0);
  ASSERT_EQ(ktext({"sa", "in", "-o", "dangling"}).exit_code, 0);
  EXPECT_EQ(read_file(dir.path("fresh")), banana_sa());
  // An executable output stays executable.
  put("script", bytes_of("x"));
  ASSERT_EQ(::chmod(dir.path("script").c_str(), 0751), 0);
  ASSERT_EQ(ktext({"sa", "in", "-o", "script"}).exit_code, 0);
  EXPECT_EQ(mode_of(dir.path("script")) & 07777, mode_t(0751));
  EXPECT_EQ(dir.list(), (Names{"dangling", "fresh", "in", "link", "script", "target"}));
}

TEST_F(CliContract, OutputThatIsAnInputIsRefusedBeforeAnyWork) {
  put("in", bytes_of("banana"));
  ASSERT_EQ(::symlink("in", dir.path("alias").c_str()), 0);
  ASSERT_EQ(::link(dir.path("in").c_str(), dir.path("hard").c_str()), 0);
  for (const Names& args : {Names{"sa", "in", "-o", "in"}, Names{"bwt", "in", "-o", "alias"},
                            Names{"lcp", "in", "-o", "hard"}, Names{"index", "in", "-o", "./in"}}) {
    const auto r = ktext(args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << " " << args[3];
    expect_one_error_line(r, args[3]);
    EXPECT_NE(r.err.find("one of the inputs"), std::string::npos) << r.err;
  }
  // Standard input redirected from the output file is the same file too.
  EXPECT_EQ(ktext({"sa", "-", "-o", "in"}, dir.path("in")).exit_code, 1);
  EXPECT_EQ(read_file(dir.path("in")), bytes_of("banana"));
  EXPECT_EQ(dir.list(), (Names{"alias", "hard", "in"}));
}

TEST_F(CliContract, LongestFileNamesWork) {
  put("in", bytes_of("banana"));
  const std::string name(255, 'n');
  const auto r = ktext({"sa", "in", "-o", name});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.path(name)), banana_sa());
  EXPECT_EQ(dir.list(), (Names{"in", name}));
}

TEST_F(CliContract, FailedWritesToStdoutAreErrors) {
  put("in", bytes_of("banana"));
  for (const Names& args : {Names{"--json", "sa", "in", "-o", "out"}, Names{"sa", "in", "-o", "out"},
                            Names{"bwt", "in", "-o", "raw", "--raw"}, Names{"-q", "bwt", "in", "-o", "raw", "--raw"},
                            Names{"sa", "in", "-o", "-"}, Names{"crosscheck"}}) {
    const auto r = ktext(args, "", kClosedPipe);
    EXPECT_EQ(r.exit_code, 2) << joined(args);
    expect_one_error_line(r, joined(args));
    EXPECT_NE(r.err.find("standard output"), std::string::npos) << r.err;
  }
}

TEST_F(CliContract, FullDeviceIsAnError) {
  // A private twin of /dev/full (never the real one); containers without CAP_MKNOD skip.
  if (::mknod(dir.path("full").c_str(), S_IFCHR | 0666, ::makedev(1, 7)) != 0) GTEST_SKIP() << "mknod not permitted";
  put("in", bytes_of("banana"));
  auto r = ktext({"sa", "in", "-o", "full"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_TRUE(S_ISCHR(mode_of(dir.path("full"))));
  r = ktext({"--json", "sa", "in", "-o", "out"}, "", dir.path("full"));
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
}

/// Runs ktext with \p args (in the test's directory) inside a private mount namespace where
/// "full" is a 64 KiB tmpfs; returns {exit code, stderr, what "full" held afterwards}, or
/// nothing where mount namespaces are not permitted (root or a user namespace is needed).
std::optional<std::array<std::string, 3>> run_on_small_tmpfs(const ScratchDir& dir, const Names& args) {
  ::mkdir(dir.path("full").c_str(), 0700);
  std::string command = "cd '" + dir.work() + "' && unshare -m sh -c 'mount -t tmpfs -o size=64k ktext-test full || exit 99; \"" +
                        ktext_path() + "\"";
  for (const std::string& a : args) command += " \"" + a + "\"";
  command += " 2>err; echo $? >rc; ls -A full >left' 2>/dev/null";
  const int status = std::system(command.c_str());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  auto text = [&](const char* name) {
    const Bytes b = read_file(dir.path(name));
    return std::string(b.begin(), b.end());
  };
  std::array<std::string, 3> out{text("rc"), text("err"), text("left")};
  for (const char* name : {"rc", "err", "left"}) ::unlink(dir.path(name).c_str());
  return out;
}

TEST_F(CliContract, FullFileSystemLeavesNothingBehind) {
  // Outputs, temporaries and spilled runs on a file system that fills up: exit 2 with one line
  // naming the error, and nothing left there (the tmpfs lives only in a private namespace).
  Bytes text(100000);
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = std::uint8_t("acgt"[(i * 2654435761u >> 7) % 4]);
  text.push_back('\n');
  put("in", text);
  Bytes lines;
  for (int k = 0; k < 20000; ++k) {
    const std::string l = std::to_string((k * 7919) % 20000) + "\n";
    lines.insert(lines.end(), l.begin(), l.end());
  }
  put("lines", lines);
  for (const Names& args : {Names{"sa", "in", "-o", "full/out"}, Names{"bwt", "in", "-o", "full/out"},
                            Names{"index", "in", "-o", "full/out", "--sample-rate", "1"},
                            Names{"sort", "lines", "-o", "full/out"},
                            Names{"sort", "lines", "-S", "1K", "-T", "full", "-o", "sorted"}}) {
    const auto r = run_on_small_tmpfs(dir, args);
    if (!r) GTEST_SKIP() << "mount namespaces are not permitted here";
    EXPECT_EQ((*r)[0], "2\n") << args[0] << ": " << (*r)[1];
    EXPECT_EQ(std::count((*r)[1].begin(), (*r)[1].end(), '\n'), 1) << (*r)[1];
    EXPECT_NE((*r)[1].find("No space left on device"), std::string::npos) << (*r)[1];
    EXPECT_EQ((*r)[2], "") << args[0] << " left files behind";
    EXPECT_FALSE(file_exists(dir.path("sorted")));
  }
}

/// The pid of a ktext process whose working directory is \p cwd, or 0.
pid_t ktext_running_in(const std::string& cwd) {
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return 0;
  pid_t found = 0;
  char target[4096];
  while (const dirent* e = ::readdir(proc)) {
    const pid_t pid = pid_t(std::atol(e->d_name));
    if (pid <= 0) continue;
    const std::string base = std::string("/proc/") + e->d_name;
    const ssize_t len = ::readlink((base + "/cwd").c_str(), target, sizeof(target) - 1);
    if (len <= 0 || std::string(target, std::size_t(len)) != cwd) continue;
    const ssize_t exe = ::readlink((base + "/exe").c_str(), target, sizeof(target) - 1);
    if (exe > 0 && std::string(target, std::size_t(exe)).find("ktext") != std::string::npos &&
        std::string(target, std::size_t(exe)).find("ktext_test") == std::string::npos) {
      found = pid;
      break;
    }
  }
  ::closedir(proc);
  return found;
}

TEST_F(CliContract, SignalsLeaveNoOutputAndKillLeavesAFindableTemporary) {
  // ktext reads a FIFO on standard input after creating its output's temporary beside "out",
  // and is stopped there by each signal.
  put("in", bytes_of("banana"));
  for (const int sig : {SIGTERM, SIGINT, SIGHUP, SIGKILL}) {
    SCOPED_TRACE(sig);
    const std::string fifo = dir.path("in.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    bool signalled = false;
    std::thread feeder([&] {
      const int fd = ::open(fifo.c_str(), O_WRONLY);  // waits for ktext to open it
      if (fd < 0) return;
      (void)::write(fd, "ban", 3);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (!signalled && std::chrono::steady_clock::now() < deadline) {
        for (const std::string& name : dir.list())
          if (name.rfind(".out.ktext-", 0) == 0)
            if (const pid_t pid = ktext_running_in(dir.work())) {
              ::kill(pid, sig);
              signalled = true;
            }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      ::close(fd);
    });
    const auto r = ktext({"sa", "-", "-o", "out"}, fifo);
    feeder.join();
    ::unlink(fifo.c_str());
    ASSERT_TRUE(signalled) << "no temporary appeared: " << r.err;
    EXPECT_EQ(r.exit_code, -1) << "ktext did not die of the signal: " << r.err;
    std::vector<std::string> left;
    for (const std::string& name : dir.list())
      if (name != "in") left.push_back(name);
    if (sig != SIGKILL) {
      EXPECT_TRUE(left.empty()) << left.front();
      continue;
    }
    // Only SIGKILL leaves the temporary, named as documented (.<name>.ktext-XXXXXX), and a
    // later run neither trips over it nor touches it.
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].size(), std::string(".out.ktext-XXXXXX").size()) << left[0];
    EXPECT_EQ(ktext({"sa", "in", "-o", "out"}).exit_code, 0);
    EXPECT_EQ(read_file(dir.path("out")), banana_sa());
    EXPECT_TRUE(file_exists(dir.path(left[0])));
  }
}

TEST_F(CliContract, IntegerOptionsAreStrict) {
  put("raw", bytes_of("annbaa"));
  put("in", bytes_of("banana"));
  const std::string max64 = "18446744073709551615";
  for (const Names& args :
       {Names{"unbwt", "raw", "-o", "o", "--primary", "-1"}, Names{"unbwt", "raw", "-o", "o", "--primary", ""},
        Names{"unbwt", "raw", "-o", "o", "--primary", "18446744073709551616"},
        Names{"unbwt", "raw", "-o", "o", "--primary", "99999999999999999999"},
        Names{"unbwt", "raw", "-o", "o", "--primary", "0x4"}, Names{"unbwt", "raw", "-o", "o", "--primary", " 4"}}) {
    const auto r = ktext(args);
    EXPECT_EQ(r.exit_code, 1) << args[5];
    EXPECT_NE(r.err.find("from 0 to " + max64), std::string::npos) << r.err;
  }
  for (const char* rate : {"0", "4294967296", "-3", "1e3"}) {
    const auto r = ktext({"index", "in", "-o", "i", "--sample-rate", rate});
    EXPECT_EQ(r.exit_code, 1) << rate;
    EXPECT_NE(r.err.find("from 1 to 4294967295"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("e+"), std::string::npos) << r.err;
  }
  for (const Names& args : {Names{"sa", "in", "-o", "o", "--width", "5"}, Names{"--threads", "0", "sa", "in", "-o", "o"},
                            Names{"--threads", "-2", "sa", "in", "-o", "o"},
                            Names{"--threads", "99999999", "sa", "in", "-o", "o"},
                            Names{"--device", "-1", "sa", "in", "-o", "o"}})
    EXPECT_EQ(ktext(args).exit_code, 1) << args[1];
  // More threads than processors: clamped with a word, never a crash.
  const auto r = ktext({"--threads", "100000", "--backend", "serial", "sa", "in", "-o", "o"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("processors"), std::string::npos) << r.err;
  EXPECT_EQ(ktext({"unbwt", "raw", "-o", "o", "--primary", "4"}).exit_code, 0);
  EXPECT_EQ(read_file(dir.path("o")), bytes_of("banana"));
}

TEST_F(CliContract, NamesAreEscapedInMessagesAndJson) {
  const auto missing = ktext({"sa", "no\nsuch\x1b[31m", "-o", "out"});
  EXPECT_EQ(missing.exit_code, 2);
  expect_one_error_line(missing);
  EXPECT_NE(missing.err.find("no\\nsuch\\x1b[31m"), std::string::npos) << missing.err;
  const std::string latin1 = "caf\xe9";
  put(latin1, bytes_of("banana"));
  const auto r = ktext({"--json", "sa", latin1, "-o", latin1 + ".sa"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report.at("input"), "caf\\xe9");
  EXPECT_EQ(read_file(dir.path(latin1 + ".sa")), banana_sa());
}

TEST_F(CliContract, EmptyTextThroughBwtIndexAndSearch) {
  put("empty", {});
  ASSERT_EQ(ktext({"bwt", "empty", "-o", "e.bwt"}).exit_code, 0);
  const auto info = ktext({"--json", "info", "e.bwt"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(nlohmann::json::parse(info.out).at("metadata").at("n"), 0);
  ASSERT_EQ(ktext({"unbwt", "e.bwt", "-o", "back"}).exit_code, 0);
  EXPECT_TRUE(read_file(dir.path("back")).empty());
  const auto raw = ktext({"bwt", "empty", "-o", "e.raw", "--raw"});
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_NE(raw.out.find("primary index: 0"), std::string::npos) << raw.out;
  EXPECT_TRUE(read_file(dir.path("e.raw")).empty());
  ASSERT_EQ(ktext({"unbwt", "e.raw", "--primary", "0", "-o", "back2"}).exit_code, 0);
  EXPECT_TRUE(read_file(dir.path("back2")).empty());
  EXPECT_EQ(ktext({"unbwt", "e.raw", "--primary", "1", "-o", "back3"}).exit_code, 3);
  ASSERT_EQ(ktext({"index", "empty", "-o", "e.idx"}).exit_code, 0);
  EXPECT_EQ(ktext({"search", "e.idx", "", "a"}).out, "1\n0\n");
  EXPECT_EQ(ktext({"search", "e.idx", "--locate", ""}).out, "1\t0\n");
  EXPECT_EQ(dir.list(), (Names{"back", "back2", "e.bwt", "e.idx", "e.raw", "empty"}));
}

}  // namespace
}  // namespace ktext::cli_test
