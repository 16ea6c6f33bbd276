// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext container files, read the way `ktext info`, `unbwt`, `search` and `wt query` read them:
// read_container() of any kind, then the kind's check and loader (bwt_file_check and unbwt,
// read_fm_index<int32_t> and <int64_t> and queries, read_wavelet of a tree or matrix of 1-, 2-
// or 4-byte symbols and queries), on the default host execution space.
//
// Every input is tried twice: as it is, and with its checksums and file size recomputed.
// Mutations almost never keep the CRC-32s right, so the second form is what lets the fuzzer
// reach the kind-specific checks and the loaders behind read_container().
//
// Checked, beyond "no crash, only ktext::Error refusals":
// - bwt: unbwt succeeds exactly when a naive LF walk inverts the transform, with its text;
// - fm_index: single-symbol counts equal the BWT's symbol frequencies, the empty pattern
//   counts n + 1 rows, locate returns count() positions; and when the file is a genuine index
//   (the BWT inverts, the marks and samples are those of the text's suffix array) count and
//   locate equal a naive search of the text, with both index widths;
// - wavelet tree/matrix: access, rank and select agree with one another on every position
//   (up to 1024), rank over the alphabet sums to n, batched queries equal single ones, and a
//   position out of range is an InputError.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#include <ktext/core/container.hpp>
#include <ktext/core/crc32.hpp>
#include <ktext/core/error.hpp>
#include <ktext/core/little_endian.hpp>
#include <ktext/succinct/wavelet_file.hpp>
#include <ktext/succinct/wavelet_matrix.hpp>
#include <ktext/succinct/wavelet_tree.hpp>
#include <ktext/suffix/bwt_file.hpp>
#include <ktext/suffix/fm_index_file.hpp>
#include <ktext/suffix/unbwt.hpp>

#include "fuzz_check.hpp"
#include "kokkos_once.hpp"

namespace {

namespace kc = ktext::container;
namespace le = ktext::little_endian;
using Exec = Kokkos::DefaultHostExecutionSpace;
using Host = Kokkos::HostSpace;
using U64 = Kokkos::View<std::uint64_t*, Host, Kokkos::MemoryUnmanaged>;
using Bytes = std::vector<std::uint8_t>;

// Recomputes the section CRCs, the table CRC, the file size and the header CRC wherever the
// layout lets them be found; anything else stays as the fuzzer made it.
Bytes with_checksums(Bytes b) {
  if (b.size() < kc::kHeaderSize) return b;
  const std::uint64_t count = le::load(b.data() + 12, 4);
  if (count <= kc::kMaxSections && kc::kHeaderSize + count * kc::kEntrySize <= b.size()) {
    for (std::uint64_t i = 0; i < count; ++i) {
      std::uint8_t* e = b.data() + kc::kHeaderSize + i * kc::kEntrySize;
      const std::uint64_t offset = le::load(e + 8, 8), size = le::load(e + 16, 8);
      if (offset <= b.size() && size <= b.size() - offset) le::store(e + 4, kc::crc32_of(b.data() + offset, size), 4);
    }
    le::store(b.data() + 16, kc::crc32_of(b.data() + kc::kHeaderSize, count * kc::kEntrySize), 4);
  }
  le::store(b.data() + 24, b.size(), 8);
  le::store(b.data() + 20, 0, 4);
  le::store(b.data() + 20, kc::crc32_of(b.data(), kc::kHeaderSize), 4);
  return b;
}

// ---------------------------------------------------------------------------------------------
// A naive inverse BWT (libsais convention, bwt.hpp): rows 0..n of the full transform, row 0
// the empty suffix, the sentinel in row `primary`. The pair is a transform exactly when the LF
// walk from row 0 reaches the primary row after n steps; the walk gives every row's position.

struct Inverted {
  Bytes text;
  std::vector<std::uint64_t> position;  // of each row 0..n
};

std::optional<Inverted> naive_unbwt(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary) {
  if (n == 0) return primary == 0 ? std::optional<Inverted>(Inverted{{}, {0}}) : std::nullopt;
  if (primary < 1 || primary > n) return std::nullopt;
  auto symbol = [&](std::uint64_t r) { return r < primary ? int(bwt[r]) : r == primary ? -1 : int(bwt[r - 1]); };
  std::vector<std::uint64_t> c(257, 0), lf(n + 1), seen(257, 0);
  for (std::uint64_t r = 0; r <= n; ++r) ++c[std::size_t(symbol(r) + 1)];
  for (std::size_t s = 1; s < c.size(); ++s) c[s] += c[s - 1];
  for (std::uint64_t r = 0; r <= n; ++r) {
    const std::size_t s = std::size_t(symbol(r) + 1);
    lf[r] = (s == 0 ? 0 : c[s - 1]) + seen[s]++;
  }
  Inverted out{Bytes(n), std::vector<std::uint64_t>(n + 1, ~std::uint64_t(0))};
  std::uint64_t row = 0;
  out.position[0] = n;
  for (std::uint64_t k = 1; k <= n; ++k) {
    if (row == primary) return std::nullopt;  // the sentinel before the walk is complete
    out.text[n - k] = std::uint8_t(symbol(row));
    row = lf[row];
    if (out.position[row] != ~std::uint64_t(0)) return std::nullopt;
    out.position[row] = n - k;
  }
  if (row != primary) return std::nullopt;
  return out;
}

// ---------------------------------------------------------------------------------------------
// bwt

void check_bwt(const kc::Container& c) {
  ktext::BwtFileInfo info;
  try {
    info = ktext::bwt_file_check(c);
  } catch (const ktext::FormatError&) {
    return;
  }
  const std::optional<Inverted> expected = naive_unbwt(info.data, info.n, info.primary);
  const Kokkos::View<const std::uint8_t*, Host, Kokkos::MemoryUnmanaged> bwt(info.n ? info.data : nullptr, info.n);
  Kokkos::View<std::uint8_t*, Host> text("fuzz::text", info.n);
  bool inverted = true;
  try {
    ktext::unbwt(Exec{}, bwt, info.primary, text);
  } catch (const ktext::InputError&) {
    inverted = false;
  }
  FUZZ_CHECK(inverted == expected.has_value(),
             inverted ? "unbwt inverts a pair that is no transform" : "unbwt refuses a valid transform");
  if (inverted)
    for (std::uint64_t i = 0; i < info.n; ++i) FUZZ_CHECK(text(i) == expected->text[i], "unbwt's text differs");
}

// ---------------------------------------------------------------------------------------------
// fm_index

struct Patterns {
  Bytes symbols;
  std::vector<std::uint64_t> offsets{0};
  void add(const std::uint8_t* p, std::size_t m) {
    symbols.insert(symbols.end(), p, p + m);
    offsets.push_back(symbols.size());
  }
  std::size_t size() const { return offsets.size() - 1; }
};

std::vector<std::uint64_t> naive_locate(const Bytes& text, const std::uint8_t* p, std::size_t m) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i + m <= text.size(); ++i)
    if (std::equal(p, p + m, text.begin() + std::ptrdiff_t(i))) out.push_back(i);
  return out;
}

template <class Index>
void check_fm_index(const kc::Container& c, const ktext::FMIndexFileInfo& info, const std::optional<Inverted>& genuine) {
  ktext::FMIndex<Host, Index> index;
  try {
    index = ktext::read_fm_index<Index>(Exec{}, c);
  } catch (const ktext::FormatError&) {
    return;
  } catch (const ktext::InputError&) {
    return;  // n does not fit Index
  }
  const std::uint64_t n = info.n;
  FUZZ_CHECK(index.size() == n && index.primary_index() == info.primary && index.sample_rate() == info.sample_rate,
             "the loaded index differs from its file's metadata");
  const std::uint8_t* bwt = c.require(kc::kSectionBwt).data;

  Patterns patterns;
  patterns.add(nullptr, 0);
  std::vector<std::uint64_t> frequency(256, 0);
  for (std::uint64_t i = 0; i < n; ++i) ++frequency[bwt[i]];
  std::vector<std::uint8_t> present;
  for (int s = 0; s < 256; ++s)
    if (frequency[std::size_t(s)] > 0) present.push_back(std::uint8_t(s));
  for (std::uint8_t s : present) patterns.add(&s, 1);
  const std::uint8_t absent[2] = {present.empty() ? std::uint8_t(0) : present.front(), 0xff};
  patterns.add(absent, 2);
  // Longer patterns: pieces of the text when it is genuine, else of the BWT.
  const Bytes& source = genuine ? genuine->text : Bytes(bwt, bwt + n);
  for (std::uint64_t k = 0; k < 8 && n > 0; ++k) {
    const std::uint64_t at = (k * 2654435761u) % n, m = std::min<std::uint64_t>(1 + k % 5, n - at);
    patterns.add(source.data() + at, std::size_t(m));
  }

  const Kokkos::View<const std::uint8_t*, Host, Kokkos::MemoryUnmanaged> symbols(patterns.symbols.data(),
                                                                                 patterns.symbols.size());
  const Kokkos::View<const std::uint64_t*, Host, Kokkos::MemoryUnmanaged> offsets(patterns.offsets.data(),
                                                                                  patterns.offsets.size());
  std::vector<std::uint64_t> counts(patterns.size());
  index.count(Exec{}, symbols, offsets, U64(counts.data(), counts.size()));
  Exec{}.fence();
  FUZZ_CHECK(counts[0] == n + 1, "the empty pattern does not count every row");
  for (std::size_t k = 0; k < present.size(); ++k)
    FUZZ_CHECK(counts[1 + k] == frequency[present[k]], "a single symbol's count differs from its BWT frequency");

  const auto found = index.locate(Exec{}, symbols, offsets);
  Exec{}.fence();
  const auto located = Kokkos::create_mirror_view_and_copy(Host{}, found.positions);
  const auto located_offsets = Kokkos::create_mirror_view_and_copy(Host{}, found.offsets);
  FUZZ_CHECK(located_offsets.extent(0) == patterns.size() + 1, "locate's offsets have the wrong length");
  for (std::size_t i = 0; i < patterns.size(); ++i)
    FUZZ_CHECK(std::uint64_t(located_offsets(i + 1) - located_offsets(i)) == counts[i], "locate and count disagree");

  if (!genuine) return;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const std::uint64_t b = patterns.offsets[i], m = patterns.offsets[i + 1] - b;
    if (m == 0) continue;  // every row, the sentinel's included: no text positions to compare
    const std::vector<std::uint64_t> want = naive_locate(genuine->text, patterns.symbols.data() + b, std::size_t(m));
    FUZZ_CHECK(counts[i] == want.size(), "count differs from a naive search of a genuine index's text");
    for (std::size_t k = 0; k < want.size(); ++k)
      FUZZ_CHECK(std::uint64_t(located(std::size_t(located_offsets(i)) + k)) == want[k],
                 "locate differs from a naive search of a genuine index's text");
  }
}

// The text of the file's BWT, when the marks and samples are exactly its suffix array's.
std::optional<Inverted> genuine_index(const kc::Container& c, const ktext::FMIndexFileInfo& info) {
  std::optional<Inverted> inv = naive_unbwt(c.require(kc::kSectionBwt).data, info.n, info.primary);
  if (!inv) return std::nullopt;
  const kc::Section& marks = c.require(kc::kSectionSampleMarks);
  const kc::Section& samples = c.require(kc::kSectionSamples);
  std::uint64_t k = 0;
  for (std::uint64_t r = 0; r < marks.size * 8; ++r) {
    const bool marked = (marks.data[r / 8] >> (r % 8)) & 1;
    const bool should = r <= info.n && inv->position[r] % info.sample_rate == 0;
    if (marked != should) return std::nullopt;
    if (!marked) continue;
    if (k >= info.samples || le::load(samples.data + k * info.sample_width, int(info.sample_width)) != inv->position[r])
      return std::nullopt;
    ++k;
  }
  return k == info.samples ? inv : std::nullopt;
}

void check_fm(const kc::Container& c) {
  ktext::FMIndexFileInfo info;
  try {
    info = ktext::fm_index_file_check(c);
  } catch (const ktext::FormatError&) {
    return;
  }
  const std::optional<Inverted> genuine = genuine_index(c, info);
  check_fm_index<std::int32_t>(c, info, genuine);
  check_fm_index<std::int64_t>(c, info, genuine);
}

// ---------------------------------------------------------------------------------------------
// wavelet tree and matrix

template <class S>
void check_queries(const S& s) {
  const std::uint64_t n = s.size(), sigma = s.alphabet_size(), limit = std::min<std::uint64_t>(n, 1024);
  if constexpr (ktext::impl::wavelet_kind<S>::value == kc::Kind::wavelet_matrix) {
    // A matrix whose alphabet size is not a power of two has level bits that could spell codes
    // >= sigma; read_wavelet must refuse those (regressions/container/wm_code_beyond_alphabet).
    // A matrix's n is bounded by its levels section, so every position is cheap to decode.
    for (std::uint64_t i = 0; i < n && sigma > 1; ++i)
      FUZZ_CHECK(s.access_code(i) < sigma, "a loaded wavelet matrix holds a code >= sigma");
  }
  std::vector<std::uint64_t> pos(limit), sym(limit), rank(limit), next(limit);
  for (std::uint64_t i = 0; i < limit; ++i) {
    pos[i] = i;
    sym[i] = std::uint64_t(s.access(i));
    FUZZ_CHECK(s.code_of(sym[i]) < sigma, "access returns a symbol outside the alphabet");
    rank[i] = s.rank(sym[i], i);
    FUZZ_CHECK(s.rank(sym[i], i + 1) == rank[i] + 1, "rank does not count the symbol at i");
    next[i] = rank[i] + 1;
    FUZZ_CHECK(s.select(sym[i], next[i]) == i, "select does not find the symbol at i");
  }
  if (sigma <= 4096) {
    std::uint64_t total = 0;
    for (std::uint64_t code = 0; code < sigma; ++code) total += s.rank(std::uint64_t(s.symbol_of(code)), n);
    FUZZ_CHECK(total == n, "rank over the alphabet does not sum to n");
  }
  // The batched entry the CLI uses gives the single queries' answers.
  std::vector<std::uint64_t> out(limit);
  s.query(Exec{}, ktext::WaveletQuery::access, U64(pos.data(), limit), U64(pos.data(), limit), U64(out.data(), limit));
  FUZZ_CHECK(out == sym, "batched access differs");
  s.query(Exec{}, ktext::WaveletQuery::rank, U64(sym.data(), limit), U64(pos.data(), limit), U64(out.data(), limit));
  FUZZ_CHECK(out == rank, "batched rank differs");
  s.query(Exec{}, ktext::WaveletQuery::select, U64(sym.data(), limit), U64(next.data(), limit), U64(out.data(), limit));
  FUZZ_CHECK(out == pos, "batched select differs");
  // Out of range: an InputError, never a read outside the structure.
  std::uint64_t past[2] = {n, n + 1}, result[2];
  bool refused = false;
  try {
    s.query(Exec{}, ktext::WaveletQuery::access, U64(past, 2), U64(past, 2), U64(result, 2));
  } catch (const ktext::InputError&) {
    refused = true;
  }
  FUZZ_CHECK(refused, "access at n is not refused");
}

template <class S>
void check_wavelet(const kc::Container& c) {
  S s;
  try {
    s = ktext::read_wavelet<S>(Exec{}, c);
  } catch (const ktext::FormatError&) {
    return;
  }
  check_queries(s);
}

template <template <class, class> class Structure>
void check_wavelet_any_width(const kc::Container& c, std::uint32_t width) {
  if (width == 1) check_wavelet<Structure<Host, std::uint8_t>>(c);
  if (width == 2) check_wavelet<Structure<Host, std::uint16_t>>(c);
  if (width == 4) check_wavelet<Structure<Host, std::uint32_t>>(c);
}

void check_wavelets(const kc::Container& c) {
  ktext::WaveletFileInfo info;
  try {
    info = ktext::wavelet_file_check(c);
  } catch (const ktext::FormatError&) {
    return;
  }
  if (c.kind == kc::Kind::wavelet_tree)
    check_wavelet_any_width<ktext::WaveletTree>(c, info.symbol_width);
  else
    check_wavelet_any_width<ktext::WaveletMatrix>(c, info.symbol_width);
}

void check_file(const Bytes& bytes) {
  kc::Container c;
  try {
    c = kc::read_container(bytes);
  } catch (const ktext::FormatError&) {
    return;
  }
  switch (c.kind) {
    case kc::Kind::bwt: check_bwt(c); break;
    case kc::Kind::fm_index: check_fm(c); break;
    case kc::Kind::wavelet_tree:
    case kc::Kind::wavelet_matrix: check_wavelets(c); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ktext_fuzz::initialize_kokkos_once();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Bytes bytes(data, data + size);
  check_file(bytes);
  const Bytes fixed = with_checksums(bytes);
  if (fixed != bytes) check_file(fixed);
  return 0;
}
