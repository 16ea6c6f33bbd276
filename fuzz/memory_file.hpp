// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The CLI reads its inputs through ktext::cli::InputFile, which opens a path and asks fstat()
// whether the size is known (a regular file) or not (a pipe). The fuzz targets give it both
// kinds without touching the disk: a memfd (a regular file in memory) or a pipe filled
// beforehand, each opened again by its /proc/self/fd path so that InputFile owns a descriptor
// of its own, positioned at the start.

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"

namespace ktext_fuzz {

/// A descriptor that holds some bytes until it goes; path() opens them afresh.
class MemoryFile {
 public:
  /// A regular in-memory file holding \p size bytes of \p data.
  static MemoryFile regular(const std::uint8_t* data, std::size_t size) {
    const int fd = ::memfd_create("ktext-fuzz", MFD_CLOEXEC);
    FUZZ_CHECK(fd >= 0, "memfd_create failed");
    write_all(fd, data, size);
    return MemoryFile(fd);
  }
  /// A pipe whose read end holds the bytes, the write end closed (so readers see the end).
  /// \p size must fit the pipe's buffer (64 KiB on Linux): the fuzz inputs are far smaller.
  static MemoryFile pipe(const std::uint8_t* data, std::size_t size) {
    int fds[2];
    FUZZ_CHECK(::pipe2(fds, O_CLOEXEC) == 0, "pipe2 failed");
    FUZZ_CHECK(size <= 65536, "input too large for a pipe");
    write_all(fds[1], data, size);
    // A FIFO opened for reading waits for a writer: keep the write end until the path has been
    // opened (open_path), then close it.
    return MemoryFile(fds[0], fds[1]);
  }
  MemoryFile(MemoryFile&& o) noexcept : fd_(o.fd_), writer_(o.writer_) { o.fd_ = o.writer_ = -1; }
  MemoryFile& operator=(MemoryFile&&) = delete;
  ~MemoryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (writer_ >= 0) ::close(writer_);
  }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }
  /// Opens path() with \p open (a function of the path, e.g. InputFile::open) and then lets a
  /// pipe end: its write end is closed once the reader exists.
  template <class Open>
  auto open_path(Open&& open) {
    auto opened = open(path());
    if (writer_ >= 0) {
      ::close(writer_);
      writer_ = -1;
    }
    return opened;
  }

 private:
  explicit MemoryFile(int fd, int writer = -1) : fd_(fd), writer_(writer) {}
  static void write_all(int fd, const std::uint8_t* data, std::size_t size) {
    while (size > 0) {
      const ssize_t put = ::write(fd, data, size);
      FUZZ_CHECK(put > 0, "write to a memory file failed");
      data += put;
      size -= std::size_t(put);
    }
  }
  int fd_;
  int writer_;
};

}  // namespace ktext_fuzz
