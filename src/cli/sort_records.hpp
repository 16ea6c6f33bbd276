// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The host side of `ktext sort`: records read from the inputs in batches (a last record without
// its terminator still counts, in every file, as in GNU sort), written with the terminator and
// `-u`'s filter, sorted runs spilled to temporary files, and the k-way merge of sorted sources
// (in-memory chunks or run files). Splitting a block into records and gathering a sorted batch
// into output blocks run on the host execution space's threads: one thread at memchr speed
// would cap the whole command near 200 MB/s.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host_array.hpp"
#include "host_for.hpp"
#include "io.hpp"

namespace ktext::cli {

/// Records back to back: record i is chars[offsets[i], offsets[i+1]), terminator excluded.
struct RecordBatch {
  HostVector<std::uint8_t> chars;
  HostVector<std::int64_t> offsets{0};
  std::size_t size() const { return offsets.size() - 1; }
  const std::uint8_t* data(std::size_t i) const { return chars.data() + offsets[i]; }
  std::size_t length(std::size_t i) const { return std::size_t(offsets[i + 1] - offsets[i]); }
  void clear() {
    chars.clear();
    offsets.assign(1, 0);
  }
};

/// Reads the records of the inputs in order, a batch at a time: each input is read in blocks,
/// and a block's record ends are found, and its records copied into the batch, in parallel.
class RecordReader {
 public:
  /// \p block: bytes read at a time (a longer record grows the buffer).
  RecordReader(std::vector<InputFile*> inputs, std::uint8_t delimiter, std::size_t block = std::size_t(1) << 26);
  /// Appends whole records to \p batch (at least one, when any is left) until \p cost(records,
  /// bytes) reaches \p budget; returns false once the inputs are exhausted.
  template <class Cost>
  bool fill(RecordBatch& batch, std::uint64_t budget, Cost cost) {
    reserve(batch, budget);
    while (ready()) {
      // The records the block holds, [next_, ends_.size()); take up to the first that reaches
      // the budget (cost grows with both arguments, so a binary search finds it).
      auto reached = [&](std::size_t m) { return cost(batch.size() + m, batch.chars.size() + pending_bytes(m)) >= budget; };
      std::size_t m = ends_.size() - next_;
      const bool full = reached(m);
      if (full) {
        std::size_t lo = 1;
        while (lo < m) {
          const std::size_t mid = lo + (m - lo) / 2;
          if (reached(mid)) m = mid;
          else lo = mid + 1;
        }
      }
      take(batch, m);
      if (full) return ready();
    }
    return false;
  }
  /// Bytes read so far, terminators included.
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  bool ready();  ///< a whole record is pending (reading on, and on to the next input); false at the end
  std::uint64_t pending_bytes(std::size_t m) const;  ///< bytes of the next m records, terminators excluded
  void take(RecordBatch& batch, std::size_t m);      ///< appends the next m records
  void reserve(RecordBatch& batch, std::uint64_t budget) const;
  std::vector<InputFile*> inputs_;
  std::size_t current_ = 0;
  std::uint8_t delimiter_;
  HostVector<std::uint8_t> buffer_;
  std::size_t pos_ = 0, end_ = 0;  ///< the unread part of buffer_: the next record starts at pos_
  HostVector<std::size_t> ends_;   ///< where the block's records end (a terminator, or end_ at a file's end)
  std::size_t next_ = 0;           ///< ends_[next_] ends the record at pos_
  bool at_end_ = false;            ///< the current input has no more bytes
  std::uint64_t bytes_read_ = 0;
  std::uint64_t known_bytes_ = 0;  ///< the inputs' sizes summed, when every input has one
};

/// Where sorted records go: buffered writes of each record and its terminator, and with
/// `unique` only the first of equal neighbours (equal records are the same bytes, so which one
/// is kept does not show).
class RecordWriter {
 public:
  using Sink = void (*)(void* target, const void* data, std::size_t count);
  RecordWriter(Sink sink, void* target, std::uint8_t delimiter, bool unique);
  void write(const std::uint8_t* data, std::size_t length);
  /// write() of the records order[0..n) of \p batch (order[n-1..0] with \p reverse), gathered
  /// into output blocks in parallel.
  void write_sorted(const RecordBatch& batch, const std::int64_t* order, std::size_t n, bool reverse);
  void flush();
  std::uint64_t records() const { return records_; }

 private:
  Sink sink_;
  void* target_;
  std::uint8_t delimiter_;
  bool unique_;
  bool has_last_ = false;
  std::vector<std::uint8_t> last_;
  HostVector<std::uint8_t> buffer_;
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
