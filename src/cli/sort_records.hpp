// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The host side of `ktext sort`, without Kokkos: records read from the inputs in batches (a
// last record without its terminator still counts, in every file, as in GNU sort), written
// with the terminator and `-u`'s filter, sorted runs spilled to temporary files, and the k-way
// merge of sorted sources (in-memory chunks or run files).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io.hpp"

namespace ktext::cli {

/// Records back to back: record i is chars[offsets[i], offsets[i+1]), terminator excluded.
struct RecordBatch {
  std::vector<std::uint8_t> chars;
  std::vector<std::int64_t> offsets{0};
  std::size_t size() const { return offsets.size() - 1; }
  const std::uint8_t* data(std::size_t i) const { return chars.data() + offsets[i]; }
  std::size_t length(std::size_t i) const { return std::size_t(offsets[i + 1] - offsets[i]); }
  void clear() {
    chars.clear();
    offsets.assign(1, 0);
  }
};

/// Reads the records of the inputs in order, a batch at a time.
class RecordReader {
 public:
  RecordReader(std::vector<InputFile*> inputs, std::uint8_t delimiter);
  /// Appends whole records to \p batch (at least one, when any is left) until \p cost(records,
  /// bytes) reaches \p budget; returns false once the inputs are exhausted.
  template <class Cost>
  bool fill(RecordBatch& batch, std::uint64_t budget, Cost cost) {
    while (next(batch))
      if (cost(batch.size(), batch.chars.size()) >= budget) return more();
    return false;
  }
  /// Bytes read so far, terminators included.
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  bool next(RecordBatch& batch);  ///< one record appended; false at the end of the inputs
  bool more();                    ///< whether a record is left (reads ahead)
  bool refill();                  ///< buffer non-empty, moving to the next input at an end
  std::vector<InputFile*> inputs_;
  std::size_t current_ = 0;
  std::uint8_t delimiter_;
  std::vector<std::uint8_t> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t bytes_read_ = 0;
};

/// Where sorted records go: buffered writes of each record and its terminator, and with
/// `unique` only the first of equal neighbours (equal records are the same bytes, so which one
/// is kept does not show).
class RecordWriter {
 public:
  using Sink = void (*)(void* target, const void* data, std::size_t count);
  RecordWriter(Sink sink, void* target, std::uint8_t delimiter, bool unique);
  void write(const std::uint8_t* data, std::size_t length);
  void flush();
  std::uint64_t records() const { return records_; }

 private:
  Sink sink_;
  void* target_;
  std::uint8_t delimiter_;
  bool unique_;
  bool has_last_ = false;
  std::vector<std::uint8_t> last_;
  std::vector<std::uint8_t> buffer_;
  std::uint64_t records_ = 0;
};

/// A writer into an OutputFile.
RecordWriter writer_to(OutputFile& out, std::uint8_t delimiter, bool unique);

/// A sorted source of records for the merge.
class RecordCursor {
 public:
  virtual ~RecordCursor() = default;
  virtual bool valid() const = 0;
  virtual const std::uint8_t* data() const = 0;
  virtual std::size_t length() const = 0;
  virtual void next() = 0;
};

/// The records order[begin..end) of a batch, in that order.
class BatchCursor : public RecordCursor {
 public:
  BatchCursor(const RecordBatch& batch, const std::int64_t* begin, const std::int64_t* end)
      : batch_(batch), at_(begin), end_(end) {}
  bool valid() const override { return at_ != end_; }
  const std::uint8_t* data() const override { return batch_.data(std::size_t(*at_)); }
  std::size_t length() const override { return batch_.length(std::size_t(*at_)); }
  void next() override { ++at_; }

 private:
  const RecordBatch& batch_;
  const std::int64_t* at_;
  const std::int64_t* end_;
};

/// Writes the union of the sorted \p sources to \p out, ascending (descending with \p reverse).
void merge_records(const std::vector<RecordCursor*>& sources, bool reverse, RecordWriter& out);

/// Sorted runs spilled to files run-0, run-1, ... of a private directory
/// `ktext-sort-<pid>-XXXXXX` made in the given directory on the first run; the runs and the
/// directory are removed when the object goes (success or failure alike) and by the signal
/// handlers on SIGINT/SIGTERM/SIGHUP. Only a SIGKILL leaves the directory (named for the pid).
class SpilledRuns {
 public:
  SpilledRuns(std::string directory, std::uint8_t delimiter);
  ~SpilledRuns();
  SpilledRuns(const SpilledRuns&) = delete;
  SpilledRuns& operator=(const SpilledRuns&) = delete;
  /// A new run, written by \p fill(writer) (records in merge order).
  template <class Fill>
  void add(bool unique, Fill fill) {
    const int fd = create();
    RecordWriter writer(&write_fd, &fds_.back(), delimiter_, unique);
    fill(writer);
    writer.flush();
    close_last(fd);
  }
  std::size_t size() const { return paths_.size(); }
  /// Merges every run into \p out, in rounds of at most \p fan_in runs (each round's output a new
  /// run), so the number of open files stays bounded.
  void merge_into(RecordWriter& out, bool reverse, bool unique, std::size_t fan_in = 64);

 private:
  int create();
  void close_last(int fd);
  static void write_fd(void* target, const void* data, std::size_t count);
  std::string directory_;
  std::string private_;  ///< the private directory; empty until the first run
  std::uint64_t created_ = 0;
  std::uint8_t delimiter_;
  std::vector<std::string> paths_;
  std::vector<int> fds_;  ///< the descriptor of the run being written (one at a time)
};

/// GNU sort's -S sizes: a number with an optional suffix b (bytes), K (the default), M, G, T,
/// P, E (powers of 1024) or % (of physical memory). Usage error otherwise.
std::uint64_t parse_buffer_size(const std::string& option, const std::string& text);

/// Bytes of physical memory (sysconf); 0 when unknown.
std::uint64_t physical_memory_bytes();

}  // namespace ktext::cli
