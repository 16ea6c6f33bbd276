// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The host side of `ktext sort` (src/cli/sort_records.hpp): record splitting by RecordReader,
// the k-way merge, RecordWriter's terminators and -u filter, spilled runs, and -S sizes.
// Input: one control byte, then the bytes of up to three input files.
//   bit 0:    -z (records end with NUL, not '\n')
//   bit 1:    -r;  bit 2: -u
//   bits 3-4: number of input files (1-3; 0 counts as 1), cut at the first bytes 0xFE/0xFF
//             found (the cut bytes stay out of the files)
//   bit 5:    inputs through pipes instead of regular files
//   bit 6:    spill the sorted parts as runs and merge them from disk (fan-in 2)
//   bit 7:    also parse the first line as a -S size
// The reader's block is 1..61 bytes (from the input's length), so records cross block ends and
// outgrow the block. Checked against references: records split per file as GNU sort does (a last record without
// its terminator counts, in every file), batches that hold whole records in order, and merged
// output equal to std::sort (+ std::unique) of the records with terminators added.

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "errors.hpp"
#include "fuzz_check.hpp"
#include "io.hpp"
#include "kokkos_once.hpp"
#include "memory_file.hpp"
#include "sort_records.hpp"

namespace {

using Record = std::vector<std::uint8_t>;

std::vector<Record> reference_records(const std::vector<Record>& files, std::uint8_t delimiter) {
  std::vector<Record> out;
  for (const Record& f : files) {
    Record current;
    bool open = false;
    for (std::uint8_t c : f) {
      if (c == delimiter) {
        out.push_back(current);
        current.clear();
        open = false;
      } else {
        current.push_back(c);
        open = true;
      }
    }
    if (open) out.push_back(current);
  }
  return out;
}

void append_to(void* target, const void* data, std::size_t count) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(target);
  const auto* p = static_cast<const std::uint8_t*>(data);
  out->insert(out->end(), p, p + count);
}

// GNU sort's -S grammar, written from its documentation: digits, then nothing (KiB) or one of
// b K k M G T P E (powers of 1024) or %; anything that overflows 64 bits is refused.
bool reference_size(const std::string& text, std::uint64_t& value) {
  std::size_t digits = text.find_first_not_of("0123456789");
  if (digits == std::string::npos) digits = text.size();
  if (digits == 0 || text.size() > digits + 1) return false;
  unsigned __int128 v = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    v = v * 10 + unsigned(text[i] - '0');
    if (v > ~std::uint64_t(0)) return false;
  }
  const char suffix = digits < text.size() ? text[digits] : 'K';
  if (suffix == '%') {
    if (v > 100) return false;
    value = ktext::cli::physical_memory_bytes() / 100 * std::uint64_t(v);
    return true;
  }
  const std::string units = "bKMGTPE";
  const auto at = units.find(suffix == 'k' ? 'K' : suffix);
  if (at == std::string::npos) return false;
  for (std::size_t p = 0; p < at; ++p) {
    v <<= 10;
    if (v > ~std::uint64_t(0)) return false;
  }
  value = std::uint64_t(v);
  return true;
}

void check_buffer_size(const std::uint8_t* data, std::size_t size) {
  std::size_t end = 0;
  while (end < size && data[end] != '\n') ++end;
  const std::string text(reinterpret_cast<const char*>(data), end);
  std::uint64_t want = 0, got = 0;
  const bool ok = reference_size(text, want);
  bool parsed = true;
  try {
    got = ktext::cli::parse_buffer_size("-S", text);
  } catch (const ktext::cli::CliError& e) {
    parsed = false;
    FUZZ_CHECK(e.code() == ktext::cli::kExitUsage, "a bad -S size is not a usage error");
  }
  FUZZ_CHECK(parsed == ok, parsed ? "-S accepts a size the reference refuses" : "-S refuses a size the reference accepts");
  if (ok) FUZZ_CHECK(got == want, "-S size differs from the reference");
}

}  // namespace

// RecordReader and RecordWriter::write_sorted split and gather on the host execution space.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ktext_fuzz::initialize_kokkos_once();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t control = data[0];
  ++data, --size;
  const std::uint8_t delimiter = (control & 1) ? '\0' : '\n';
  const bool reverse = (control & 2) != 0, unique = (control & 4) != 0;
  const int file_count = std::max(1, (control >> 3) & 3);
  const bool pipes = (control & 32) != 0, spill = (control & 64) != 0;
  if (control & 128) check_buffer_size(data, size);

  // The files: cut at the first file_count - 1 bytes >= 0xFE.
  std::vector<Record> files(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] >= 0xFE && int(files.size()) < file_count) files.emplace_back();
    else files.back().push_back(data[i]);
  }
  const std::vector<Record> expected = reference_records(files, delimiter);

  std::vector<ktext_fuzz::MemoryFile> memory;
  std::vector<ktext::cli::InputFile> inputs;
  memory.reserve(files.size());
  inputs.reserve(files.size());
  for (const Record& f : files) {
    memory.push_back(pipes ? ktext_fuzz::MemoryFile::pipe(f.data(), f.size())
                           : ktext_fuzz::MemoryFile::regular(f.data(), f.size()));
    inputs.push_back(memory.back().open_path([](const std::string& p) { return ktext::cli::InputFile::open(p); }));
  }
  std::vector<ktext::cli::InputFile*> pointers;
  for (auto& in : inputs) pointers.push_back(&in);

  // Small budgets (records, from the control byte's complement) make many batches.
  ktext::cli::RecordReader reader(pointers, delimiter, 1 + size % 61);
  const std::uint64_t budget = 1 + (~control & 7);
  std::vector<ktext::cli::RecordBatch> batches;
  std::vector<Record> got;
  for (bool more = true; more;) {
    ktext::cli::RecordBatch batch;
    more = reader.fill(batch, budget, [](std::uint64_t records, std::uint64_t) { return records; });
    FUZZ_CHECK(batch.size() <= budget || batch.size() == 0, "a batch holds more records than its budget");
    FUZZ_CHECK(!more || batch.size() == budget, "a batch stops early while records are left");
    FUZZ_CHECK(std::uint64_t(batch.offsets.back()) == batch.chars.size(), "batch offsets do not end at its bytes");
    for (std::size_t i = 0; i < batch.size(); ++i) got.emplace_back(batch.data(i), batch.data(i) + batch.length(i));
    if (batch.size() > 0) batches.push_back(std::move(batch));
  }
  FUZZ_CHECK(got == expected, "RecordReader's records differ from the reference split");
  std::uint64_t total = 0;
  for (const Record& f : files) total += f.size();
  FUZZ_CHECK(reader.bytes_read() == total, "bytes_read differs from the input size");

  // Reference output: sorted (descending with -r), -u keeps one of equal records.
  std::vector<Record> sorted = expected;
  std::sort(sorted.begin(), sorted.end());
  if (reverse) std::reverse(sorted.begin(), sorted.end());
  if (unique) sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<std::uint8_t> want;
  for (const Record& r : sorted) {
    want.insert(want.end(), r.begin(), r.end());
    want.push_back(delimiter);
  }

  // Each batch sorted on its own (what the backend does), then merged.
  std::vector<std::vector<std::int64_t>> orders;
  for (const auto& b : batches) {
    std::vector<std::int64_t> order(b.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = std::int64_t(i);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
      const Record a(b.data(std::size_t(x)), b.data(std::size_t(x)) + b.length(std::size_t(x)));
      const Record c(b.data(std::size_t(y)), b.data(std::size_t(y)) + b.length(std::size_t(y)));
      return reverse ? c < a : a < c;
    });
    orders.push_back(std::move(order));
  }
  std::vector<std::uint8_t> out;
  ktext::cli::RecordWriter writer(&append_to, &out, delimiter, unique);
  if (!spill && batches.size() == 1) {
    // One batch is written in its sorted order, gathered in parallel.
    writer.write_sorted(batches[0], orders[0].data(), orders[0].size(), false);
    writer.flush();
  } else if (!spill) {
    std::vector<ktext::cli::BatchCursor> cursors;
    for (std::size_t k = 0; k < batches.size(); ++k)
      cursors.emplace_back(batches[k], orders[k].data(), orders[k].data() + orders[k].size());
    std::vector<ktext::cli::RecordCursor*> sources;
    for (auto& c : cursors) sources.push_back(&c);
    ktext::cli::merge_records(sources, reverse, writer);
    writer.flush();
  } else {
    const char* tmp = std::getenv("TMPDIR");
    ktext::cli::SpilledRuns runs(tmp && *tmp ? tmp : "/tmp", delimiter);
    for (std::size_t k = 0; k < batches.size(); ++k)
      runs.add(unique, [&](ktext::cli::RecordWriter& w) {
        ktext::cli::BatchCursor cursor(batches[k], orders[k].data(), orders[k].data() + orders[k].size());
        ktext::cli::merge_records({&cursor}, reverse, w);
      });
    runs.merge_into(writer, reverse, unique, 2);
  }
  FUZZ_CHECK(out == want, "merged output differs from std::sort of the records");
  FUZZ_CHECK(writer.records() == sorted.size(), "RecordWriter counts a different number of records");
  return 0;
}
