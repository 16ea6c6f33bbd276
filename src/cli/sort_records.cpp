// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "sort_records.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <queue>

#include "errors.hpp"
#include "io.hpp"

namespace ktext::cli {

namespace {

constexpr std::size_t kBlock = std::size_t(1) << 20;
/// Output gathered at a time by write_sorted: large enough that the threads' start is noise,
/// small enough to stay a fraction of the batch.
constexpr std::size_t kGatherBytes = std::size_t(1) << 25;
constexpr std::size_t kGatherRecords = std::size_t(1) << 20;

using HostExec = Kokkos::DefaultHostExecutionSpace;

/// Whether two records are the same bytes (what -u drops).
bool same_record(const std::uint8_t* a, std::size_t la, const std::uint8_t* b, std::size_t lb) {
  return la == lb && (la == 0 || std::memcmp(a, b, la) == 0);
}

int compare(const RecordCursor& a, const RecordCursor& b) {
  const std::size_t la = a.length(), lb = b.length(), l = std::min(la, lb);
  const int c = l == 0 ? 0 : std::memcmp(a.data(), b.data(), l);
  if (c != 0) return c;
  return la < lb ? -1 : (la > lb ? 1 : 0);
}

/// A run file read back a block at a time; a record longer than the block grows the buffer.
class RunReader : public RecordCursor {
 public:
  RunReader(const std::string& path, std::uint8_t delimiter) : delimiter_(delimiter), buffer_(kBlock) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw io_error(with_errno("cannot open the temporary file " + quote(path), errno));
    next();
  }
  ~RunReader() override { ::close(fd_); }
  RunReader(const RunReader&) = delete;
  RunReader& operator=(const RunReader&) = delete;
  bool valid() const override { return valid_; }
  const std::uint8_t* data() const override { return buffer_.data() + start_; }
  std::size_t length() const override { return length_; }
  void next() override {
    start_ = pos_;
    for (;;) {
      const void* hit = pos_ < end_ ? std::memchr(buffer_.data() + pos_, delimiter_, end_ - pos_) : nullptr;
      if (hit != nullptr) {
        const std::size_t at = std::size_t(static_cast<const std::uint8_t*>(hit) - buffer_.data());
        length_ = at - start_;
        pos_ = at + 1;
        valid_ = true;
        return;
      }
      // Move the partial record to the front, grow if it fills the buffer, and read more.
      std::memmove(buffer_.data(), buffer_.data() + start_, end_ - start_);
      end_ -= start_;
      pos_ = end_;
      start_ = 0;
      if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
      const ssize_t got = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
      if (got < 0) {
        if (errno == EINTR) continue;
        throw io_error(with_errno("cannot read a temporary file", errno));
      }
      if (got == 0) {  // runs end with a terminator: nothing is left
        valid_ = false;
        return;
      }
      end_ += std::size_t(got);
    }
  }

 private:
  int fd_ = -1;
  std::uint8_t delimiter_;
  std::vector<std::uint8_t> buffer_;
  std::size_t pos_ = 0, end_ = 0, start_ = 0, length_ = 0;
  bool valid_ = false;
};

void write_output(void* target, const void* data, std::size_t count) { static_cast<OutputFile*>(target)->write(data, count); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// RecordReader

RecordReader::RecordReader(std::vector<InputFile*> inputs, std::uint8_t delimiter, std::size_t block)
    : inputs_(std::move(inputs)), delimiter_(delimiter) {
  buffer_.resize(std::max<std::size_t>(block, 1));
  for (const InputFile* in : inputs_) {
    if (!in->size()) {
      known_bytes_ = 0;
      break;
    }
    known_bytes_ += *in->size();
  }
}

void RecordReader::reserve(RecordBatch& batch, std::uint64_t budget) const {
  // A batch holds less than the budget plus one block, and no more than the inputs have left:
  // reserving that once spares the copies of a doubling vector.
  const std::uint64_t left = known_bytes_ > bytes_read_ ? known_bytes_ - bytes_read_ : 0;
  const std::uint64_t want = batch.chars.size() + std::min(budget, left + (end_ - pos_));
  if (want > batch.chars.capacity() && want <= std::uint64_t(batch.chars.max_size())) batch.chars.reserve(std::size_t(want));
}

bool RecordReader::ready() {
  while (next_ == ends_.size()) {
    if (current_ == inputs_.size()) return false;
    if (at_end_) {  // every record of this input is taken: on to the next
      ++current_;
      at_end_ = false;
      pos_ = end_ = 0;
      continue;
    }
    // Keep the partial record, at the front; a record as long as the buffer doubles it.
    std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
    const std::size_t scanned = end_;  // holds no terminator
    if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
    const std::size_t got = inputs_[current_]->read_fill(buffer_.data() + end_, buffer_.size() - end_);
    end_ += got;
    bytes_read_ += got;
    at_end_ = end_ < buffer_.size();
    // Terminators of [scanned, end_), found by the threads in parts: count, then place.
    const std::size_t bytes = end_ - scanned;
    const std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(bytes >> 12, 16 * std::size_t(HostExec().concurrency())));
    std::vector<std::size_t> counts(parts + 1, 0);
    const std::uint8_t* data = buffer_.data();
    const std::uint8_t d = delimiter_;
    const std::size_t stop = end_;
    // f(position) for each terminator of part p, in order.
    auto each_end = [=](std::size_t p, auto&& f) {
      const std::uint8_t* at = data + scanned + bytes / parts * p;
      const std::uint8_t* last = p + 1 == parts ? data + stop : data + scanned + bytes / parts * (p + 1);
      while (at < last && (at = static_cast<const std::uint8_t*>(std::memchr(at, d, std::size_t(last - at)))) != nullptr)
        f(std::size_t(at++ - data));
    };
    host_for("ktext_cli::sort::count_records", parts, [&](std::size_t p) {
      std::size_t c = 0;
      each_end(p, [&](std::size_t) { ++c; });
      counts[p + 1] = c;
    });
    for (std::size_t p = 0; p < parts; ++p) counts[p + 1] += counts[p];
    ends_.resize(counts[parts]);
    next_ = 0;
    std::size_t* ends = ends_.data();
    host_for("ktext_cli::sort::find_records", parts, [&](std::size_t p) {
      std::size_t k = counts[p];
      each_end(p, [&](std::size_t at) { ends[k++] = at; });
    });
    // A last record without its terminator ends with its input.
    if (at_end_ && end_ > (ends_.empty() ? pos_ : ends_.back() + 1)) ends_.push_back(end_);
  }
  return true;
}

std::uint64_t RecordReader::pending_bytes(std::size_t m) const {
  // Every record but the last ends at a terminator: m - 1 of them lie in between.
  return m == 0 ? 0 : std::uint64_t(ends_[next_ + m - 1] - pos_) - (m - 1);
}

void RecordReader::take(RecordBatch& batch, std::size_t m) {
  const std::size_t base = batch.chars.size(), first = batch.size();
  batch.chars.resize(base + std::size_t(pending_bytes(m)));
  batch.offsets.resize(first + 1 + m);
  const std::uint8_t* from = buffer_.data();
  std::uint8_t* to = batch.chars.data();
  std::int64_t* offsets = batch.offsets.data() + first + 1;
  const std::size_t* ends = ends_.data() + next_;
  const std::size_t pos = pos_;
  // Record j starts after the j-th terminator and lands j bytes further left.
  host_for("ktext_cli::sort::take_records", m, [=](std::size_t j) {
    const std::size_t start = j == 0 ? pos : ends[j - 1] + 1, stop = ends[j];
    const std::size_t at = base + (start - pos) - j;
    if (stop > start) std::memcpy(to + at, from + start, stop - start);
    offsets[j] = std::int64_t(at + (stop - start));
  });
  pos_ = std::min(ends[m - 1] + 1, end_);
  next_ += m;
}

// ---------------------------------------------------------------------------------------------
// RecordWriter

RecordWriter::RecordWriter(Sink sink, void* target, std::uint8_t delimiter, bool unique)
    : sink_(sink), target_(target), delimiter_(delimiter), unique_(unique) {
  buffer_.reserve(kBlock);
}

void RecordWriter::write(const std::uint8_t* data, std::size_t length) {
  if (unique_) {
    if (has_last_ && same_record(last_.data(), last_.size(), data, length)) return;
    last_.assign(data, data + length);
    has_last_ = true;
  }
  ++records_;
  if (buffer_.size() + length + 1 > kBlock) {
    flush();
    if (length + 1 > kBlock) {  // a long record goes straight through
      sink_(target_, data, length);
      sink_(target_, &delimiter_, 1);
      return;
    }
  }
  buffer_.insert(buffer_.end(), data, data + length);
  buffer_.push_back(delimiter_);
}

void RecordWriter::write_sorted(const RecordBatch& batch, const std::int64_t* order, std::size_t n, bool reverse) {
  flush();
  auto at = [=](std::size_t r) { return std::size_t(order[reverse ? n - 1 - r : r]); };
  HostVector<std::uint64_t> place(std::min(n, kGatherRecords) + 1);
  std::uint64_t* places = place.data();
  for (std::size_t first = 0; first < n;) {
    // Each record's place in the block (0 bytes for a duplicate under -u), as a running sum.
    std::size_t count = std::min(n - first, kGatherRecords);
    const bool unique = unique_;
    std::uint64_t total = 0;
    Kokkos::parallel_scan(
        "ktext_cli::sort::place_records", Kokkos::RangePolicy<HostExec, Kokkos::IndexType<std::size_t>>(0, count),
        [&](std::size_t r, std::uint64_t& sum, bool final) {
          const std::size_t i = at(first + r);
          bool keep = true;
          if (unique && first + r > 0) {
            const std::size_t before = at(first + r - 1);
            keep = !same_record(batch.data(before), batch.length(before), batch.data(i), batch.length(i));
          } else if (unique) {
            keep = !(has_last_ && same_record(last_.data(), last_.size(), batch.data(i), batch.length(i)));
          }
          if (final) places[r] = sum;
          sum += keep ? batch.length(i) + 1 : 0;
          if (final && r + 1 == count) places[count] = sum;
        },
        total);
    // A block of at most kGatherBytes (one longer record alone), gathered by the threads.
    if (total > kGatherBytes) {
      count = std::size_t(std::upper_bound(places + 1, places + count + 1, std::uint64_t(kGatherBytes)) - (places + 1));
      count = std::max<std::size_t>(count, 1);
      total = places[count];
    }
    buffer_.resize(std::size_t(total));
    std::uint8_t* out = buffer_.data();
    const std::uint8_t d = delimiter_;
    host_for("ktext_cli::sort::gather_records", count, [&](std::size_t r) {
      const std::size_t l = std::size_t(places[r + 1] - places[r]);
      if (l == 0) return;
      if (l > 1) std::memcpy(out + places[r], batch.data(at(first + r)), l - 1);
      out[places[r] + l - 1] = d;
    });
    for (std::size_t r = 0; r < count; ++r) records_ += places[r + 1] != places[r];
    if (total > 0) sink_(target_, out, std::size_t(total));
    buffer_.clear();
    first += count;
  }
  if (unique_ && n > 0) {
    const std::size_t i = at(n - 1);
    last_.assign(batch.data(i), batch.data(i) + batch.length(i));
    has_last_ = true;
  }
}

void RecordWriter::flush() {
  if (!buffer_.empty()) sink_(target_, buffer_.data(), buffer_.size());
  buffer_.clear();
}

RecordWriter writer_to(OutputFile& out, std::uint8_t delimiter, bool unique) {
  return RecordWriter(&write_output, &out, delimiter, unique);
}

// ---------------------------------------------------------------------------------------------
// Merge

void merge_records(const std::vector<RecordCursor*>& sources, bool reverse, RecordWriter& out) {
  // The heap's top is the record that comes first; equal records are the same bytes, so ties
  // need no rule.
  auto after = [reverse](const RecordCursor* a, const RecordCursor* b) {
    const int c = compare(*a, *b);
    return reverse ? c < 0 : c > 0;
  };
  std::priority_queue<RecordCursor*, std::vector<RecordCursor*>, decltype(after)> heap(after);
  for (RecordCursor* s : sources)
    if (s->valid()) heap.push(s);
  while (!heap.empty()) {
    RecordCursor* top = heap.top();
    heap.pop();
    out.write(top->data(), top->length());
    top->next();
    if (top->valid()) heap.push(top);
  }
}

// ---------------------------------------------------------------------------------------------
// SpilledRuns

SpilledRuns::SpilledRuns(std::string directory, std::uint8_t delimiter)
    : directory_(std::move(directory)), delimiter_(delimiter) {}

SpilledRuns::~SpilledRuns() {
  for (int fd : fds_) ::close(fd);
  for (const std::string& p : paths_) ::unlink(p.c_str());
  if (!private_.empty()) {
    ::rmdir(private_.c_str());
    clear_spill_directory();
  }
}

int SpilledRuns::create() {
  if (private_.empty()) {
    std::string pattern = directory_ + "/ktext-sort-" + std::to_string(::getpid()) + "-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw io_error(with_errno("cannot create a temporary directory in " + quote(directory_), errno));
    private_ = pattern;
    if (!set_spill_directory(private_)) {
      ::rmdir(private_.c_str());
      private_.clear();
      throw io_error("the temporary directory path in " + quote(directory_) + " is too long");
    }
  }
  const std::string path = private_ + "/run-" + std::to_string(created_);
  note_spill_runs(++created_);  // before the file exists: a signal from here on removes it
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw io_error(with_errno("cannot create a temporary file in " + quote(private_), errno));
  paths_.push_back(path);
  fds_.push_back(fd);
  return fd;
}

void SpilledRuns::close_last(int fd) {
  fds_.pop_back();
  if (::close(fd) != 0) throw io_error(with_errno("cannot write a temporary file in " + quote(directory_), errno));
}

void SpilledRuns::write_fd(void* target, const void* data, std::size_t count) {
  const int fd = *static_cast<int*>(target);
  const auto* p = static_cast<const std::uint8_t*>(data);
  while (count > 0) {
    const ssize_t put = ::write(fd, p, count);
    if (put < 0) {
      if (errno == EINTR) continue;
      throw io_error(with_errno("cannot write a temporary file", errno));
    }
    p += put;
    count -= std::size_t(put);
  }
}

void SpilledRuns::merge_into(RecordWriter& out, bool reverse, bool unique, std::size_t fan_in) {
  auto merge_group = [&](std::size_t first, std::size_t last, RecordWriter& writer) {
    std::vector<std::unique_ptr<RunReader>> readers;
    std::vector<RecordCursor*> cursors;
    for (std::size_t r = first; r < last; ++r) {
      readers.push_back(std::make_unique<RunReader>(paths_[r], delimiter_));
      cursors.push_back(readers.back().get());
    }
    merge_records(cursors, reverse, writer);
  };
  while (paths_.size() > fan_in) {
    const std::size_t last = std::min(fan_in, paths_.size());
    add(unique, [&](RecordWriter& w) { merge_group(0, last, w); });
    for (std::size_t r = 0; r < last; ++r) ::unlink(paths_[r].c_str());
    paths_.erase(paths_.begin(), paths_.begin() + std::ptrdiff_t(last));
  }
  merge_group(0, paths_.size(), out);
  out.flush();
}

// ---------------------------------------------------------------------------------------------
// Sizes

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

std::uint64_t parse_buffer_size(const std::string& option, const std::string& text) {
  auto refuse = [&]() {
    return usage_error(option + " expects a size: digits and an optional suffix b, K, M, G, T, P, E (KiB by "
                                "default) or %, not " + quote(text));
  };
  std::size_t digits = 0;
  std::uint64_t value = 0;
  for (; digits < text.size() && text[digits] >= '0' && text[digits] <= '9'; ++digits) {
    const std::uint64_t d = std::uint64_t(text[digits] - '0');
    if (value > (~std::uint64_t(0) - d) / 10) throw refuse();
    value = value * 10 + d;
  }
  if (digits == 0 || text.size() > digits + 1) throw refuse();
  const char suffix = digits < text.size() ? text[digits] : 'K';
  if (suffix == '%') {
    if (value > 100) throw refuse();
    return physical_memory_bytes() / 100 * value;
  }
  static const char units[] = "bKMGTPE";
  const char* at = std::strchr(units, suffix == 'k' ? 'K' : suffix);
  if (at == nullptr || suffix == '\0') throw refuse();
  for (std::ptrdiff_t p = at - units; p > 0; --p) {
    if (value > (~std::uint64_t(0) >> 10)) throw refuse();
    value <<= 10;
  }
  return value;
}

}  // namespace ktext::cli
