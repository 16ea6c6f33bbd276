// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "io.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>

#include "errors.hpp"
#include "host_for.hpp"

namespace ktext::cli {

namespace {

// Linux transfers at most 0x7ffff000 bytes per read/write call; staying below keeps counts exact.
constexpr std::size_t kMaxIo = std::size_t(1) << 30;
/// Reads and writes of at least kParallelIo bytes of a regular file go in kIoPiece pieces to
/// the host threads: one thread copying from or into the page cache runs at 1-2 GB/s.
constexpr std::size_t kIoPiece = std::size_t(1) << 20;
constexpr std::size_t kParallelIo = 4 * kIoPiece;

/// f(piece offset, piece bytes) for the kIoPiece pieces of [0, count) on the host threads; the
/// first errno a piece returns, or 0.
template <class F>
int for_io_pieces(const char* label, std::size_t count, F f) {
  std::atomic<int> error{0};
  auto piece = [&](std::size_t k) {
    const int e = f(k * kIoPiece, std::min(kIoPiece, count - k * kIoPiece));
    int none = 0;
    if (e != 0) error.compare_exchange_strong(none, e);
  };
  const std::size_t pieces = (count + kIoPiece - 1) / kIoPiece;
  if (Kokkos::is_initialized()) {
    host_for(label, pieces, piece);
  } else {  // before a command starts its backend, or after it ends
    for (std::size_t k = 0; k < pieces; ++k) piece(k);
  }
  return error.load();
}
// The temporary's suffix: findable (and removable) as `.*.ktext-??????` after a SIGKILL.
constexpr const char kTempSuffix[] = ".ktext-XXXXXX";
constexpr int kMaxSymlinks = 40;

// The temporary a signal handler must remove. A fixed buffer: handlers may not allocate.
char g_pending_temp[PATH_MAX];
volatile std::sig_atomic_t g_has_pending_temp = 0;

void set_pending_temp(const std::string& path) {
  g_has_pending_temp = 0;
  if (path.size() >= sizeof(g_pending_temp)) return;
  std::memcpy(g_pending_temp, path.c_str(), path.size() + 1);
  g_has_pending_temp = 1;
}

void clear_pending_temp() { g_has_pending_temp = 0; }

// The directory of sort's spilled runs: run-0 .. run-(g_spill_runs - 1) inside it.
char g_spill_dir[PATH_MAX];
volatile std::sig_atomic_t g_has_spill_dir = 0;
volatile std::sig_atomic_t g_spill_runs = 0;

// Removes the spill directory's runs and the directory; async-signal-safe (no allocation).
void remove_spill_directory() {
  if (!g_has_spill_dir) return;
  char path[PATH_MAX + 32];
  const std::size_t dir = std::strlen(g_spill_dir);
  std::memcpy(path, g_spill_dir, dir);
  std::memcpy(path + dir, "/run-", 5);
  for (std::sig_atomic_t r = 0; r < g_spill_runs; ++r) {
    char digits[24];
    int k = 0;
    for (unsigned long v = static_cast<unsigned long>(r); k == 0 || v > 0; v /= 10) digits[k++] = char('0' + v % 10);
    std::size_t at = dir + 5;
    while (k > 0) path[at++] = digits[--k];
    path[at] = '\0';
    ::unlink(path);
  }
  ::rmdir(g_spill_dir);
}

extern "C" void remove_temp_and_die(int sig) {
  if (g_has_pending_temp) ::unlink(g_pending_temp);
  remove_spill_directory();
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

std::optional<FileId> id_of(const struct stat& st) { return FileId{st.st_dev, st.st_ino}; }

// The file a chain of symlinks ends at (it may not exist yet); the path itself when it is none.
std::string follow_links(std::string path) {
  for (int hops = 0; hops < kMaxSymlinks; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::vector<char> target(PATH_MAX + 1);
    const ssize_t len = ::readlink(path.c_str(), target.data(), PATH_MAX);
    if (len < 0) throw io_error(with_errno("cannot read the link " + quote(path), errno));
    std::string next(target.data(), std::size_t(len));
    path = next.front() == '/' ? next : directory_of(path) + "/" + next;
  }
  throw io_error("cannot write " + quote(path) + ": too many levels of symbolic links");
}

bool is_special_path(const std::string& path) {
  return path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
}

bool same_as_stdout(int fd) {
  struct stat a {}, b {};
  return ::fstat(fd, &a) == 0 && ::fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

bool set_spill_directory(const std::string& path) {
  g_has_spill_dir = 0;
  g_spill_runs = 0;
  if (path.size() >= sizeof(g_spill_dir)) return false;
  std::memcpy(g_spill_dir, path.c_str(), path.size() + 1);
  g_has_spill_dir = 1;
  return true;
}

void note_spill_runs(std::uint64_t runs) {
  if (runs > static_cast<std::uint64_t>(g_spill_runs)) g_spill_runs = static_cast<std::sig_atomic_t>(runs);
}

void clear_spill_directory() { g_has_spill_dir = 0; }

void install_signal_handlers() {
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGINT, remove_temp_and_die);
  std::signal(SIGTERM, remove_temp_and_die);
  std::signal(SIGHUP, remove_temp_and_die);
}

// ---------------------------------------------------------------------------------------------
// InputFile

InputFile::InputFile(int fd, std::string name) : fd_(fd), name_(std::move(name)) {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw io_error(with_errno("cannot stat " + name_, errno));
  if (S_ISDIR(st.st_mode)) throw io_error(name_ + " is a directory, not a file");
  id_ = id_of(st);
  if (S_ISREG(st.st_mode) && st.st_size >= 0) {
    // Standard input may be a file that another process has already read part of.
    const off_t at = ::lseek(fd_, 0, SEEK_CUR);
    if (at >= 0 && at <= st.st_size) size_ = static_cast<std::uint64_t>(st.st_size - at);
  }
}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(other.fd_), name_(std::move(other.name_)), size_(other.size_), id_(other.id_), consumed_(other.consumed_) {
  other.fd_ = -1;
}

InputFile::~InputFile() {
  if (fd_ > STDIN_FILENO) ::close(fd_);
}

InputFile InputFile::open(const std::string& path) {
  if (path.empty()) throw usage_error("an input path is empty");
  if (path == "-") return InputFile(STDIN_FILENO, "standard input");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw io_error(with_errno("cannot open " + quote(path), errno));
  try {
    return InputFile(fd, quote(path));
  } catch (...) {
    ::close(fd);
    throw;
  }
}

std::size_t InputFile::read_some(void* dst, std::size_t count) {
  if (count > kMaxIo) count = kMaxIo;
  for (;;) {
    const ssize_t got = ::read(fd_, dst, count);
    if (got > 0) {
      consumed_ += static_cast<std::uint64_t>(got);
      return static_cast<std::size_t>(got);
    }
    if (got == 0) {
      // Truncated under us (a file that disappears keeps its data while open; one that grows is
      // read to its new end).
      if (size_ && consumed_ < *size_)
        throw io_error(name_ + " shrank while it was read (" + std::to_string(consumed_) + " of " +
                       std::to_string(*size_) + " bytes)");
      return 0;
    }
    if (errno != EINTR) throw io_error(with_errno("cannot read " + name_, errno));
  }
}

std::size_t InputFile::read_fill(void* dst, std::size_t count) {
  auto* p = static_cast<unsigned char*>(dst);
  std::size_t filled = 0;
  const off_t at = size_ && count >= kParallelIo ? ::lseek(fd_, 0, SEEK_CUR) : -1;
  if (at >= 0 && *size_ > consumed_) {
    const std::size_t want = std::size_t(std::min<std::uint64_t>(count, *size_ - consumed_));
    // A piece that meets the end early: the file shrank under us (ESPIPE stands for it).
    const int error = for_io_pieces("ktext_cli::read_pieces", want, [&](std::size_t from, std::size_t bytes) {
      while (bytes > 0) {
        const ssize_t got = ::pread(fd_, p + from, bytes, at + off_t(from));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return errno;
        if (got == 0) return ESPIPE;
        from += std::size_t(got);
        bytes -= std::size_t(got);
      }
      return 0;
    });
    if (error == ESPIPE)
      throw io_error(name_ + " shrank while it was read (fewer than " + std::to_string(*size_) + " bytes)");
    if (error != 0) throw io_error(with_errno("cannot read " + name_, error));
    if (::lseek(fd_, at + off_t(want), SEEK_SET) < 0) throw io_error(with_errno("cannot read " + name_, errno));
    consumed_ += want;
    filled = want;
  }
  // Pipes, small reads, and files that grew since fstat: read() to the end.
  while (filled < count) {
    const std::size_t got = read_some(p + filled, count - filled);
    if (got == 0) break;
    filled += got;
  }
  return filled;
}

bool InputFile::read_exact(void* dst, std::uint64_t count) {
  auto* p = static_cast<unsigned char*>(dst);
  while (count > 0) {
    const std::size_t got = read_some(p, count > kMaxIo ? kMaxIo : static_cast<std::size_t>(count));
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
    // read_some() throws when the file ends before its size.
    for (std::size_t filled = 0; filled < data.size();) filled += read_some(data.data() + filled, data.size() - filled);
  }
  // Pipes, terminals, and files that grew since fstat: read until the end.
  std::vector<unsigned char> chunk(std::size_t(1) << 20);
  for (;;) {
    const std::size_t got = read_some(chunk.data(), chunk.size());
    if (got == 0) break;
    data.insert(data.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got));
  }
  return data;
}

// ---------------------------------------------------------------------------------------------
// LineReader

LineReader::LineReader(InputFile& in) : in_(in), buffer_(std::size_t(1) << 20) {}

bool LineReader::next(std::vector<std::uint8_t>& line) {
  line.clear();
  bool any = false;
  for (;;) {
    if (pos_ == end_) {
      if (eof_) return any;
      end_ = in_.read_some(buffer_.data(), buffer_.size());
      pos_ = 0;
      if (end_ == 0) {
        eof_ = true;
        return any;
      }
    }
    any = true;
    const std::uint8_t* start = buffer_.data() + pos_;
    const auto* newline = static_cast<const std::uint8_t*>(std::memchr(start, '\n', end_ - pos_));
    if (newline != nullptr) {
      line.insert(line.end(), start, newline);
      pos_ += std::size_t(newline - start) + 1;
      return true;
    }
    line.insert(line.end(), start, static_cast<const std::uint8_t*>(buffer_.data() + end_));
    pos_ = end_;
  }
}

// ---------------------------------------------------------------------------------------------
// OutputFile

OutputFile::OutputFile(int fd, std::string path, std::string temp, std::string name)
    : fd_(fd), path_(std::move(path)), temp_(std::move(temp)), name_(std::move(name)) {
  owns_stdout_ = fd_ == STDOUT_FILENO || same_as_stdout(fd_);
  struct stat st {};
  const int flags = ::fcntl(fd_, F_GETFL);
  positional_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && flags >= 0 && (flags & O_APPEND) == 0;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)), temp_(std::move(other.temp_)), name_(std::move(other.name_)),
      committed_(other.committed_), owns_stdout_(other.owns_stdout_), positional_(other.positional_),
      written_(other.written_) {
  other.fd_ = -1;
  other.temp_.clear();
  other.committed_ = true;
}

OutputFile::~OutputFile() {
  if (!committed_) discard();
}

void OutputFile::discard() noexcept {
  if (fd_ > STDERR_FILENO) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    clear_pending_temp();
  }
}

OutputFile OutputFile::create(const std::string& path, const std::vector<FileId>& inputs) {
  if (path.empty()) throw usage_error("the output path is empty");
  if (path == "-") return OutputFile(STDOUT_FILENO, "", "", "standard output");
  const std::string target = is_special_path(path) ? path : follow_links(path);
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists) {
    for (const FileId& in : inputs)
      if (in == FileId{st.st_dev, st.st_ino})
        throw usage_error("the output " + quote(path) + " is one of the inputs; write to another file");
    if (S_ISDIR(st.st_mode)) throw io_error("cannot write " + quote(path) + ": it is a directory");
  }
  if (is_special_path(path) || (exists && !S_ISREG(st.st_mode))) {
    // Devices, FIFOs, /dev/stdout: written through; replacing them would be wrong or harmful.
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) throw io_error(with_errno("cannot open " + quote(path) + " for writing", errno));
    return OutputFile(fd, "", "", quote(path));
  }
  if (!target.empty() && target.back() == '/') throw io_error("cannot write " + quote(path) + ": not a file name");
  const std::string dir = directory_of(target);
  // ".<name>.ktext-XXXXXX" within NAME_MAX, whatever the length of the name.
  const std::string base = base_of(target).substr(0, NAME_MAX - 1 - (sizeof(kTempSuffix) - 1));
  std::string temp = dir + "/." + base + kTempSuffix;
  std::vector<char> buf(temp.begin(), temp.end());
  buf.push_back('\0');
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) throw io_error(with_errno("cannot create a file in " + quote(dir) + " for " + quote(path), errno));
  temp.assign(buf.data());
  OutputFile out(fd, target, temp, quote(path));
  set_pending_temp(temp);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  // mkstemp makes 0600: an existing file keeps its bits (and owner, where allowed), a new one
  // gets what an ordinary create would give.
  mode_t mode;
  if (exists) {
    mode = st.st_mode & 07777;
    if (::fchown(fd, st.st_uid, st.st_gid) != 0) mode &= 0777;  // no set-id bits for another owner
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) throw io_error(with_errno("cannot set the mode of " + quote(temp), errno));
  return out;
}

void OutputFile::write(const void* data, std::size_t count) {
  written_ += count;
  const auto* p = static_cast<const unsigned char*>(data);
  const off_t at = positional_ && count >= kParallelIo ? ::lseek(fd_, 0, SEEK_CUR) : -1;
  if (at >= 0) {
    const int error = for_io_pieces("ktext_cli::write_pieces", count, [&](std::size_t from, std::size_t bytes) {
      while (bytes > 0) {
        const ssize_t put = ::pwrite(fd_, p + from, bytes, at + off_t(from));
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) return errno;
        from += std::size_t(put);
        bytes -= std::size_t(put);
      }
      return 0;
    });
    if (error != 0) throw io_error(with_errno("cannot write " + name_, error));
    if (::lseek(fd_, at + off_t(count), SEEK_SET) < 0) throw io_error(with_errno("cannot write " + name_, errno));
    return;
  }
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
  if (temp_.empty()) {
    // Written through: a close error (NFS, a full pipe buffer flushed late) is still a failure.
    if (fd_ > STDERR_FILENO && ::close(fd_) != 0) {
      fd_ = -1;
      throw io_error(with_errno("cannot close " + name_, errno));
    }
    fd_ = -1;
    committed_ = true;
    return;
  }
  if (::fsync(fd_) != 0) throw io_error(with_errno("cannot flush " + name_, errno));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw io_error(with_errno("cannot close " + name_, errno));
  if (::rename(temp_.c_str(), path_.c_str()) != 0) throw io_error(with_errno("cannot rename onto " + name_, errno));
  clear_pending_temp();
  temp_.clear();
  committed_ = true;
  // The rename itself is durable only once the directory is flushed; failing that is harmless.
  const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace ktext::cli
