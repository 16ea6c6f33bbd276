// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Inputs read with checked POSIX calls, and the one output writer of every command:
// - a regular file (new, existing, or behind symlinks, which are followed) is written under a
//   temporary name in its directory and renamed onto it by commit(), keeping an existing file's
//   permission bits, so no failure or signal leaves a partial file;
// - anything else (a character device such as /dev/null or /dev/stdout, a FIFO) and every path
//   under /dev and /proc is written through, never replaced;
// - "-" is standard output; a failed write is an I/O error (exit 2) wherever it goes.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktext::cli {

/// Device and inode: what makes two names the same file.
struct FileId {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const FileId& o) const { return dev == o.dev && ino == o.ino; }
};

/// An open input: a file, or standard input for "-". Missing, unreadable and directory
/// inputs fail in open() with an I/O error (exit 2).
class InputFile {
 public:
  static InputFile open(const std::string& path);
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&&) = delete;
  ~InputFile();

  /// Bytes a regular file holds past the offset it was opened at, known before reading; nullopt
  /// for pipes and terminals.
  std::optional<std::uint64_t> size() const { return size_; }
  /// For messages: the quoted path, or "standard input".
  const std::string& name() const { return name_; }
  /// The file behind the descriptor (standard input included).
  std::optional<FileId> id() const { return id_; }

  /// Up to \p count bytes; 0 only at the end. A regular file that ends before size() bytes were
  /// read shrank while ktext read it: an I/O error, so that no output is made of part of it.
  std::size_t read_some(void* dst, std::size_t count);
  /// Up to \p count bytes, fewer only at the end. A regular file's large reads are split
  /// among the host threads (pread at offsets), which a single read() from the page cache
  /// cannot match.
  std::size_t read_fill(void* dst, std::size_t count);
  /// Exactly \p count bytes; false (and a partial buffer) when the input ends first.
  bool read_exact(void* dst, std::uint64_t count);
  /// Everything left (possibly nothing: the empty file is a valid text).
  std::vector<std::uint8_t> read_rest();

 private:
  InputFile(int fd, std::string name);
  int fd_ = -1;
  std::string name_;
  std::optional<std::uint64_t> size_;
  std::optional<FileId> id_;
  std::uint64_t consumed_ = 0;  ///< bytes read so far
};

/// Lines of an input without their '\n' (a last line without one counts; an empty input has
/// none), read in 1 MiB blocks.
class LineReader {
 public:
  explicit LineReader(InputFile& in);
  bool next(std::vector<std::uint8_t>& line);

 private:
  InputFile& in_;
  std::vector<std::uint8_t> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
};

class OutputFile {
 public:
  /// Opens \p path for writing now, so an unwritable destination fails before any work. An
  /// existing output that is the same file as one of \p inputs is a usage error (exit 1).
  static OutputFile create(const std::string& path, const std::vector<FileId>& inputs = {});
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  ~OutputFile();

  /// Writes everything; large writes to a regular file (not opened for appending) are split
  /// among the host threads (pwrite at offsets).
  void write(const void* data, std::size_t count);
  /// write() as a sink(const void*, std::size_t), the form the library's file writers take.
  auto sink() {
    return [this](const void* data, std::size_t count) { write(data, count); };
  }
  /// Bytes written so far.
  std::uint64_t bytes_written() const { return written_; }
  /// Flushes and, for a regular file, renames it into place.
  void commit();
  /// True when the data reaches standard output ("-", /dev/stdout, or the file stdout is): then
  /// reports go to standard error.
  bool owns_stdout() const { return owns_stdout_; }
  const std::string& name() const { return name_; }

 private:
  OutputFile(int fd, std::string path, std::string temp, std::string name);
  void discard() noexcept;
  int fd_ = -1;
  std::string path_;  ///< destination of the rename; empty when written through
  std::string temp_;  ///< temporary being written; empty when written through
  std::string name_;
  bool committed_ = false;
  bool owns_stdout_ = false;
  bool positional_ = false;  ///< a regular file without O_APPEND: pwrite may place the bytes
  std::uint64_t written_ = 0;
};

/// Ignores SIGPIPE (write errors become messages) and, on SIGINT/SIGTERM/SIGHUP, removes the
/// pending temporary and the spill directory before dying of the signal.
void install_signal_handlers();

/// Registers the directory of sort's spilled runs (files run-0, run-1, ... inside it) for the
/// signal handlers; false when the path is too long for them.
bool set_spill_directory(const std::string& path);
/// The runs run-0 .. run-(runs - 1) may exist.
void note_spill_runs(std::uint64_t runs);
/// The directory is gone (or no longer the handlers' business).
void clear_spill_directory();

}  // namespace ktext::cli
