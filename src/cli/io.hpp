// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Reading inputs with checked POSIX calls, and outputs written under a temporary name and
// renamed into place, so that no failure (or Ctrl-C) leaves a partial file behind.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktext::cli {

/// An open input: a file, or standard input for "-". Missing, unreadable and directory
/// inputs fail in open() with an I/O error (exit 2).
class InputFile {
 public:
  static InputFile open(const std::string& path);
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&&) = delete;
  ~InputFile();

  /// Size of a regular file, known before reading; nullopt for pipes and terminals.
  std::optional<std::uint64_t> size() const { return size_; }
  /// For messages: 'path' or "standard input".
  const std::string& name() const { return name_; }

  /// Up to \p count bytes; 0 only at the end.
  std::size_t read_some(void* dst, std::size_t count);
  /// Exactly \p count bytes; false (and a partial buffer) when the input ends first.
  bool read_exact(void* dst, std::uint64_t count);
  /// Everything left.
  std::vector<std::uint8_t> read_rest();

 private:
  InputFile(int fd, std::string name, std::optional<std::uint64_t> size);
  int fd_ = -1;
  std::string name_;
  std::optional<std::uint64_t> size_;
};

/// The whole text of \p in; an empty text is an I/O error (nothing to index).
std::vector<std::uint8_t> read_text(InputFile& in);

/// A file created as "<dir>/.<name>.XXXXXX" next to its destination and renamed onto it by
/// commit(); destroyed uncommitted, it removes the temporary. "-" writes to standard output.
class OutputFile {
 public:
  /// Creates the temporary now, so a missing or read-only directory fails before any work.
  static OutputFile create(const std::string& path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  ~OutputFile();

  void write(const void* data, std::size_t count);
  /// Flush to disk and rename into place.
  void commit();
  bool is_stdout() const { return temp_.empty(); }
  const std::string& name() const { return name_; }

 private:
  OutputFile(int fd, std::string path, std::string temp, std::string name);
  void discard() noexcept;
  int fd_ = -1;
  std::string path_;
  std::string temp_;
  std::string name_;
  bool committed_ = false;
};

/// Ignores SIGPIPE (write errors become messages) and removes the pending temporary on SIGINT/SIGTERM/SIGHUP.
void install_signal_handlers();

}  // namespace ktext::cli
