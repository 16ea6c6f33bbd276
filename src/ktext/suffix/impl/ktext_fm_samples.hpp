// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_fm_samples.hpp
/// \brief The FM-index's suffix-array samples: the rows whose text position is a multiple of
/// the sample rate s are marked in a bit vector with the library's rank directory
/// (succinct/rank_select.hpp), and their positions are stored in row order. Sampling by text
/// position bounds a locate at s - 1 LF steps.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/succinct/rank_select.hpp"

namespace ktext::impl {

template <class MemorySpace, class Index>
struct SampledPositions {
  RankSelect<MemorySpace> marks;                   ///< bit r: row r is sampled
  Kokkos::View<const Index*, MemorySpace> values;  ///< positions of the sampled rows, by row
  std::uint32_t rate = 1;

  KOKKOS_INLINE_FUNCTION bool is_marked(std::uint64_t r) const { return marks.access(r); }
  /// Marked rows before row r (r <= rows).
  KOKKOS_INLINE_FUNCTION std::uint64_t rank(std::uint64_t r) const { return marks.rank1(r); }

  [[nodiscard]] std::size_t bytes() const { return marks.space_bytes() + values.span() * sizeof(Index); }
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

/// Samples of the suffix array \p sa (n entries, of the text without the empty suffix): row 0
/// of the FM-index is the empty suffix at position n, row r > 0 is sa[r - 1]. Waits.
template <class MemorySpace, class Index, class ExecSpace, class SAView>
SampledPositions<MemorySpace, Index> sample_suffix_array(const ExecSpace& exec, const SAView& sa, std::uint32_t rate) {
  SampledPositions<MemorySpace, Index> s;
  const std::uint64_t n = sa.extent(0);
  const std::uint64_t rows = n + 1;
  s.rate = rate;
  s.marks = RankSelect<MemorySpace>(
      exec, BitVector<MemorySpace>::from_predicate(exec, rows, SampledRow<SAView>{sa, n, rate}));
  const std::uint64_t total = s.marks.count_ones();
  const auto values = uninitialized_view<Index, MemorySpace>(exec, "ktext::FMIndex::samples", total);
  const auto marks = s.marks;
  Kokkos::parallel_for(
      "ktext::FMIndex::samples", impl::Range<ExecSpace>(exec, 0, rows), KOKKOS_LAMBDA(std::uint64_t r) {
        if (marks.access(r)) values(marks.rank1(r)) = r == 0 ? Index(n) : Index(sa(r - 1));
      });
  s.values = values;
  exec.fence("ktext::FMIndex::samples");
  return s;
}

}  // namespace ktext::impl
