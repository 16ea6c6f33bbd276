// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cli_runner.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace ktext::cli_test {

namespace {

// The tests write into FIFOs that ktext reads: where ktext has failed and closed its end, a
// write fails with EPIPE and the test fails, instead of SIGPIPE ending the whole run. ktext
// itself starts with the default disposition, as from a shell (run_ktext's child).
[[maybe_unused]] const bool sigpipe_ignored = [] {
  std::signal(SIGPIPE, SIG_IGN);
  return true;
}();

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
  ::chmod(path, 0700);  // tests make unreadable files; root of the tree must stay removable
  return ::remove(path);
}

}  // namespace

const std::string& ktext_path() {
  static const std::string path = [] {
    const char* set = std::getenv("KTEXT_CLI");
    return std::string(set && *set ? set : KTEXT_CLI_PATH);
  }();
  return path;
}

RunResult run_ktext(const std::vector<std::string>& args, const std::string& cwd, const std::string& stdin_path,
                    const std::string& stdout_path) {
  const std::string parent = cwd.substr(0, cwd.find_last_of('/'));
  const std::string out_path = parent + "/stdout", err_path = parent + "/stderr";
  std::vector<std::string> argv_storage{ktext_path()};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  // A pipe whose reading end is closed before ktext runs: every write to stdout fails (EPIPE).
  int broken[2] = {-1, -1};
  if (stdout_path == kClosedPipe && ::pipe(broken) != 0) throw std::runtime_error("pipe failed");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    const int in = ::open(stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY);
    const int out = stdout_path == kClosedPipe ? broken[1]
                    : stdout_path.empty()     ? ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644)
                                              : ::open(stdout_path.c_str(), O_WRONLY);
    if (broken[0] >= 0) ::close(broken[0]);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0 || ::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::signal(SIGPIPE, SIG_DFL);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  if (broken[0] >= 0) ::close(broken[0]), ::close(broken[1]);
  // A watchdog thread kills ktext past the limit while this one waits for it. The exit is
  // awaited without reaping (WNOWAIT), so a kill can only reach ktext or its zombie, never a
  // process that took its pid after it.
  static const double limit = [] {
    const char* text = std::getenv("KTEXT_CLI_TEST_TIMEOUT");
    const double seconds = text && *text ? std::atof(text) : 0.0;
    return seconds > 0 ? seconds : 900.0;
  }();
  std::mutex mutex;
  std::condition_variable exited_cv;
  bool exited = false, timed_out = false;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(mutex);
    if (!exited_cv.wait_for(lock, std::chrono::duration<double>(limit), [&] { return exited; })) {
      ::kill(pid, SIGKILL);
      timed_out = true;
    }
  });
  siginfo_t info{};
  while (::waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    exited = true;
  }
  exited_cv.notify_one();
  watchdog.join();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  RunResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_code = timed_out ? kTimedOut : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = stdout_path.empty() ? slurp(out_path) : std::string();
  r.err = slurp(err_path);
  if (timed_out) r.err = "ktext ran past KTEXT_CLI_TEST_TIMEOUT (" + std::to_string(limit) + " s) and was killed\n" + r.err;
  return r;
}

ScratchDir::ScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ktext_cli_test.XXXXXX";
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  root_ = pattern;
  work_ = root_ + "/work";
  if (::mkdir(work_.c_str(), 0755) != 0) throw std::runtime_error("mkdir failed");
}

ScratchDir::~ScratchDir() { ::nftw(root_.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

std::vector<std::string> ScratchDir::list() const {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(work_.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  const std::string s = slurp(path);
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<std::int64_t> naive_suffix_array(const std::vector<std::uint8_t>& text) {
  std::vector<std::int64_t> sa(text.size());
  std::iota(sa.begin(), sa.end(), std::int64_t(0));
  std::sort(sa.begin(), sa.end(), [&](std::int64_t a, std::int64_t b) {
    return std::lexicographical_compare(text.begin() + a, text.end(), text.begin() + b, text.end());
  });
  return sa;
}

std::vector<std::int64_t> decode_le(const std::uint8_t* data, std::size_t bytes, int width) {
  std::vector<std::int64_t> values;
  for (std::size_t at = 0; at + std::size_t(width) <= bytes; at += std::size_t(width)) {
    std::uint64_t v = 0;
    for (int b = 0; b < width; ++b) v |= std::uint64_t(data[at + b]) << (8 * b);
    if (width == 4) values.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
    else values.push_back(static_cast<std::int64_t>(v));
  }
  return values;
}

std::vector<std::uint8_t> encode_le(const std::vector<std::int64_t>& values, int width) {
  std::vector<std::uint8_t> bytes;
  for (std::int64_t v : values)
    for (int b = 0; b < width; ++b) bytes.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * b)));
  return bytes;
}

}  // namespace ktext::cli_test
