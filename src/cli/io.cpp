// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>

#include "errors.hpp"

namespace ktext::cli {

namespace {

// Linux transfers at most 0x7ffff000 bytes per read/write call; staying below keeps counts exact.
constexpr std::size_t kMaxIo = std::size_t(1) << 30;

// The temporary a signal handler must remove. A fixed buffer: handlers may not allocate.
char g_pending_temp[4096];
volatile std::sig_atomic_t g_has_pending_temp = 0;

void set_pending_temp(const std::string& path) {
  if (path.size() >= sizeof(g_pending_temp)) return;
  g_has_pending_temp = 0;
  std::memcpy(g_pending_temp, path.c_str(), path.size() + 1);
  g_has_pending_temp = 1;
}

void clear_pending_temp() { g_has_pending_temp = 0; }

extern "C" void remove_temp_and_die(int sig) {
  if (g_has_pending_temp) ::unlink(g_pending_temp);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void install_signal_handlers() {
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGINT, remove_temp_and_die);
  std::signal(SIGTERM, remove_temp_and_die);
  std::signal(SIGHUP, remove_temp_and_die);
}

// ---------------------------------------------------------------------------------------------
// InputFile

InputFile::InputFile(int fd, std::string name, std::optional<std::uint64_t> size)
    : fd_(fd), name_(std::move(name)), size_(size) {}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(other.fd_), name_(std::move(other.name_)), size_(other.size_) {
  other.fd_ = -1;
}

InputFile::~InputFile() {
  if (fd_ > STDIN_FILENO) ::close(fd_);
}

InputFile InputFile::open(const std::string& path) {
  if (path.empty()) throw io_error("empty input path");
  if (path == "-") return InputFile(STDIN_FILENO, "standard input", std::nullopt);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw io_error(with_errno("cannot open " + quoted(path), errno));
  InputFile in(fd, quoted(path), std::nullopt);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw io_error(with_errno("cannot stat " + quoted(path), errno));
  if (S_ISDIR(st.st_mode)) throw io_error(quoted(path) + " is a directory, not a file");
  if (S_ISREG(st.st_mode)) {
    if (st.st_size < 0) throw io_error(quoted(path) + " reports a negative size");
    in.size_ = static_cast<std::uint64_t>(st.st_size);
  }
  return in;
}

std::size_t InputFile::read_some(void* dst, std::size_t count) {
  if (count > kMaxIo) count = kMaxIo;
  for (;;) {
    const ssize_t got = ::read(fd_, dst, count);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) throw io_error(with_errno("cannot read " + name_, errno));
  }
}

bool InputFile::read_exact(void* dst, std::uint64_t count) {
  auto* p = static_cast<unsigned char*>(dst);
  while (count > 0) {
    const std::size_t chunk = count > kMaxIo ? kMaxIo : static_cast<std::size_t>(count);
    const std::size_t got = read_some(p, chunk);
    if (got == 0) return false;
    p += got;
    count -= got;
  }
  return true;
}

std::vector<std::uint8_t> InputFile::read_rest() {
  std::vector<std::uint8_t> data;
  if (size_) {
    // Read the size fstat reported straight into place; growing a vector past it would copy
    // (and transiently double) a multi-gigabyte text.
    if (*size_ > std::numeric_limits<std::size_t>::max() || *size_ > data.max_size())
      throw io_error(name_ + " is too large for this machine's address space");
    data.resize(static_cast<std::size_t>(*size_));
    std::size_t filled = 0;
    while (filled < data.size()) {
      const std::size_t got = read_some(data.data() + filled, data.size() - filled);
      if (got == 0) break;  // the file shrank since fstat: keep what is there
      filled += got;
    }
    data.resize(filled);
    if (filled < static_cast<std::size_t>(*size_)) return data;
    unsigned char probe[4096];
    const std::size_t more = read_some(probe, sizeof probe);
    if (more == 0) return data;
    data.insert(data.end(), probe, probe + more);
  }
  // Pipes, terminals, and files that grew since fstat: read until the end. Pipes deliver at
  // most 64 KiB per read, so a bounce buffer avoids zero-filling spare capacity on every call.
  std::vector<unsigned char> chunk(std::size_t(1) << 20);
  for (;;) {
    const std::size_t got = read_some(chunk.data(), chunk.size());
    if (got == 0) break;
    data.insert(data.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got));
  }
  return data;
}

std::vector<std::uint8_t> read_text(InputFile& in) {
  auto text = in.read_rest();
  if (text.empty()) throw io_error(in.name() + " is empty: there is nothing to index");
  return text;
}

// ---------------------------------------------------------------------------------------------
// OutputFile

OutputFile::OutputFile(int fd, std::string path, std::string temp, std::string name)
    : fd_(fd), path_(std::move(path)), temp_(std::move(temp)), name_(std::move(name)) {}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)), temp_(std::move(other.temp_)), name_(std::move(other.name_)),
      committed_(other.committed_) {
  other.fd_ = -1;
  other.temp_.clear();
  other.committed_ = true;
}

OutputFile::~OutputFile() {
  if (!committed_) discard();
}

void OutputFile::discard() noexcept {
  if (fd_ > STDOUT_FILENO) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    clear_pending_temp();
  }
}

OutputFile OutputFile::create(const std::string& path) {
  if (path.empty()) throw io_error("empty output path");
  if (path == "-") return OutputFile(STDOUT_FILENO, "", "", "standard output");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw io_error("cannot write " + quoted(path) + ": it is a directory");
  if (!path.empty() && path.back() == '/') throw io_error("cannot write " + quoted(path) + ": not a file name");
  const std::string dir = directory_of(path);
  std::string temp = dir + "/." + base_of(path) + ".XXXXXX";
  std::vector<char> buf(temp.begin(), temp.end());
  buf.push_back('\0');
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) throw io_error(with_errno("cannot create a file in " + quoted(dir) + " for " + quoted(path), errno));
  temp.assign(buf.data());
  OutputFile out(fd, path, temp, quoted(path));
  set_pending_temp(temp);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  // mkstemp makes 0600; a finished output gets the permissions an ordinary create would give.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0) throw io_error(with_errno("cannot set the mode of " + quoted(temp), errno));
  return out;
}

void OutputFile::write(const void* data, std::size_t count) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (count > 0) {
    const ssize_t put = ::write(fd_, p, count > kMaxIo ? kMaxIo : count);
    if (put < 0) {
      if (errno == EINTR) continue;
      throw io_error(with_errno("cannot write " + name_, errno));
    }
    p += put;
    count -= static_cast<std::size_t>(put);
  }
}

void OutputFile::commit() {
  if (is_stdout()) {
    committed_ = true;
    return;
  }
  if (::fsync(fd_) != 0) throw io_error(with_errno("cannot flush " + name_, errno));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw io_error(with_errno("cannot close " + name_, errno));
  if (::rename(temp_.c_str(), path_.c_str()) != 0) throw io_error(with_errno("cannot rename onto " + name_, errno));
  clear_pending_temp();
  committed_ = true;
  // The rename itself is durable only once the directory is flushed; failing that is harmless.
  const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace ktext::cli
