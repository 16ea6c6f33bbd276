// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_fm_samples.hpp
/// \brief The FM-index's suffix-array samples: the rows whose text position is a multiple of
/// the sample rate s, and their positions divided by s, in row order, packed in
/// ceil(log2(n / s + 1)) bits each. Sampling by text position bounds a locate at s - 1 LF
/// steps, each of which asks whether its row is sampled.
///
/// Two forms of the marks. Dense (with the occurrence table, the fast index): a bit per row and
/// the library's rank directory, one word read per step. Sparse (with the wavelet matrix, the
/// compact index): Elias–Fano coded (succinct/elias_fano.hpp), 2 + log2 s bits per sampled row
/// instead of s, about three word reads per step. On a 16 MB English prefix on this 2-core
/// host, sparse marks located 0.75 M occurrences/s against 1.0-1.1 M with dense ones, with the
/// table (ktext_bench_fm_index_openmp, fm_locate m:16 P:10^4); with the wavelet matrix the LF
/// steps themselves dominate.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/packed_ints.hpp"
#include "ktext/core/range.hpp"
#include "ktext/succinct/elias_fano.hpp"
#include "ktext/succinct/rank_select.hpp"

namespace ktext::impl {

template <class MemorySpace, class Index>
struct SampledPositions {
  RankSelect<MemorySpace> dense;                           ///< dense marks: bit r, row r is sampled
  EliasFano<MemorySpace> sparse;                           ///< sparse marks: the sampled rows
  Kokkos::View<const std::uint64_t*, MemorySpace> values;  ///< position / rate of each, by row, packed
  int value_bits = 0;
  std::uint32_t rate = 1;
  bool is_sparse = false;

  /// Whether row \p r is sampled; if so, \p k receives the sampled rows before it.
  KOKKOS_INLINE_FUNCTION bool find(std::uint64_t r, std::uint64_t& k) const {
    if (is_sparse) return sparse.find(r, k);
    if (!dense.access(r)) return false;
    k = dense.rank1(r);
    return true;
  }
  /// Position of the \p k-th sampled row (from 0).
  KOKKOS_INLINE_FUNCTION Index position(std::uint64_t k) const {
    return Index(packed_get(values, k, value_bits) * rate);
  }
  [[nodiscard]] std::uint64_t count() const { return is_sparse ? sparse.count_ones() : dense.count_ones(); }

  /// The marks as BitVector words of the rows, on \p exec; may not wait.
  template <class ExecSpace>
  [[nodiscard]] Kokkos::View<const std::uint64_t*, MemorySpace> mark_words(const ExecSpace& exec) const {
    if (is_sparse) return sparse.to_words(exec);
    return dense.bits().words();
  }

  [[nodiscard]] std::size_t bytes() const {
    return (is_sparse ? sparse.space_bytes() : dense.space_bytes()) + values.span() * 8;
  }
};

/// Words of the mark bit vector stored in index files for \p rows rows: one spare, so the
/// file format's rank(rows) reads a real word.
inline std::uint64_t sample_mark_words(std::uint64_t rows) { return (rows >> 6) + 1; }

/// Number of sampled rows of a text of n symbols: positions 0, s, 2s, ... <= n.
inline std::uint64_t sample_count(std::uint64_t n, std::uint32_t rate) { return n / rate + 1; }

/// The rank directory over \p words (at least sample_mark_words(rows) words, bits past the rows
/// zero), padded to the BitVector layout when shorter. Waits.
template <class MemorySpace, class ExecSpace, class WordsView>
RankSelect<MemorySpace> sample_mark_directory(const ExecSpace& exec, const WordsView& words, std::uint64_t rows) {
  const std::uint64_t need = BitVector<MemorySpace>::word_count(rows);
  Kokkos::View<const std::uint64_t*, MemorySpace> padded = words;
  if (words.extent(0) < need) {
    const auto p = zeroed_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::sample_marks", need);
    Kokkos::deep_copy(exec, Kokkos::subview(p, Kokkos::make_pair(std::size_t(0), words.extent(0))), words);
    padded = p;
  }
  return RankSelect<MemorySpace>(exec, BitVector<MemorySpace>::from_words(padded, rows));
}

/// Row r of T$ holds a position that is a multiple of the rate (row 0: position n).
template <class SAView>
struct SampledRow {
  SAView sa;
  std::uint64_t n;
  std::uint32_t rate;
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint64_t r) const {
    return (r == 0 ? n : std::uint64_t(sa(r - 1))) % rate == 0;
  }
};

/// The samples of a text of \p n symbols from the dense marks \p dense of its n + 1 rows and
/// \p position(r, k), the position of marked row r, the k-th marked one; the marks kept sparse
/// or dense. Waits.
template <class MemorySpace, class Index, class ExecSpace, class Position>
SampledPositions<MemorySpace, Index> sampled_positions(const ExecSpace& exec, const RankSelect<MemorySpace>& dense,
                                                       std::uint64_t n, std::uint32_t rate, const Position& position,
                                                       bool sparse) {
  SampledPositions<MemorySpace, Index> s;
  s.rate = rate;
  s.is_sparse = sparse;
  s.value_bits = packed_width(n / rate);
  const auto values = zeroed_view<std::uint64_t, MemorySpace>(
      exec, "ktext::FMIndex::samples", packed_words(dense.count_ones(), s.value_bits, "ktext::FMIndex"));
  const int bits = s.value_bits;
  for_each_one(
      exec, "ktext::FMIndex::samples", dense, KOKKOS_LAMBDA(std::uint64_t r, std::uint64_t k) {
        packed_atomic_set(values, k, bits, std::uint64_t(position(r, k)) / rate);
      });
  s.values = values;
  if (sparse) {
    s.sparse = EliasFano<MemorySpace>(exec, dense);  // waits
  } else {
    s.dense = dense;
    exec.fence("ktext::FMIndex::samples");
  }
  return s;
}

/// position(r, k) of a suffix array: row 0 is the empty suffix at n, row r > 0 is sa[r - 1].
template <class SAView>
struct SuffixArrayPosition {
  SAView sa;
  std::uint64_t n;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t r, std::uint64_t) const {
    return r == 0 ? n : std::uint64_t(sa(r - 1));
  }
};

/// position(r, k) of stored samples: the k-th value.
template <class SamplesView>
struct StoredPosition {
  SamplesView samples;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t, std::uint64_t k) const {
    return std::uint64_t(samples(k));
  }
};

/// Samples of the suffix array \p sa (n entries, of the text without the empty suffix). Waits.
template <class MemorySpace, class Index, class ExecSpace, class SAView>
SampledPositions<MemorySpace, Index> sample_suffix_array(const ExecSpace& exec, const SAView& sa, std::uint32_t rate,
                                                         bool sparse) {
  const std::uint64_t n = sa.extent(0);
  const RankSelect<MemorySpace> dense(
      exec, BitVector<MemorySpace>::from_predicate(exec, n + 1, SampledRow<SAView>{sa, n, rate}));
  return sampled_positions<MemorySpace, Index>(exec, dense, n, rate, SuffixArrayPosition<SAView>{sa, n}, sparse);
}

/// Samples from their stored form: mark words of the n + 1 rows (at least
/// sample_mark_words(n + 1)) and the positions in row order, multiples of \p rate. Waits.
template <class MemorySpace, class Index, class ExecSpace, class MarksView, class SamplesView>
SampledPositions<MemorySpace, Index> stored_samples(const ExecSpace& exec, const MarksView& marks,
                                                    const SamplesView& samples, std::uint64_t n, std::uint32_t rate,
                                                    bool sparse) {
  const RankSelect<MemorySpace> dense = sample_mark_directory<MemorySpace>(exec, marks, n + 1);
  if (dense.count_ones() != samples.extent(0))
    throw InputError("ktext::FMIndex::from_parts: the marks name " + std::to_string(dense.count_ones()) +
                     " sampled rows, but there are " + std::to_string(samples.extent(0)) + " samples");
  return sampled_positions<MemorySpace, Index>(exec, dense, n, rate, StoredPosition<SamplesView>{samples}, sparse);
}

}  // namespace ktext::impl
