// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_fm_samples.hpp
/// \brief The FM-index's suffix-array samples: the rows whose text position is a multiple of
/// the sample rate s are marked in a bit vector with rank support, and their positions are
/// stored in row order. Sampling by text position bounds a locate at s - 1 LF steps.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "ktext/core/allocate.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/primitives/scan.hpp"

namespace ktext::impl {

template <class MemorySpace, class Index>
struct SampledPositions {
  static constexpr int kWordsPerCount = 8;  // one cumulative count per 512 rows

  Kokkos::View<const std::uint64_t*, MemorySpace> marks;   ///< bit r: row r is sampled
  Kokkos::View<const std::uint64_t*, MemorySpace> counts;  ///< marks set before word 8k
  Kokkos::View<const Index*, MemorySpace> values;          ///< positions of the sampled rows, by row
  std::uint64_t rows = 0;
  std::uint32_t rate = 1;

  KOKKOS_INLINE_FUNCTION bool is_marked(std::uint64_t r) const { return (marks(r >> 6) >> (r & 63)) & 1; }

  /// Marked rows before row r (r <= rows).
  KOKKOS_INLINE_FUNCTION std::uint64_t rank(std::uint64_t r) const {
    const std::uint64_t last = r >> 6;
    std::uint64_t k = counts(last / kWordsPerCount);
    for (std::uint64_t w = last / kWordsPerCount * kWordsPerCount; w < last; ++w)
      k += popcount64(marks(w));
    const unsigned rem = unsigned(r & 63);
    if (rem != 0) k += popcount64(marks(last) & ((std::uint64_t(1) << rem) - 1));
    return k;
  }

  [[nodiscard]] std::size_t bytes() const { return marks.span() * 8 + counts.span() * 8 + values.span() * sizeof(Index); }
};

/// Words of the mark bit vector for \p rows rows: one spare so rank(rows) reads a real word.
inline std::uint64_t sample_mark_words(std::uint64_t rows) { return (rows >> 6) + 1; }

/// Number of sampled rows of a text of n symbols: positions 0, s, 2s, ... <= n.
inline std::uint64_t sample_count(std::uint64_t n, std::uint32_t rate) { return n / rate + 1; }

/// Fills \p s.counts from \p s.marks (already set, with \p s.rows); returns the marked total.
template <class MemorySpace, class Index, class ExecSpace>
std::uint64_t build_sample_counts(const ExecSpace& exec, SampledPositions<MemorySpace, Index>& s) {
  using S = SampledPositions<MemorySpace, Index>;
  const std::uint64_t words = s.marks.extent(0);
  const std::uint64_t groups = words / S::kWordsPerCount + 1;
  const auto counts = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::sample_counts", groups);
  auto marks = s.marks;
  Kokkos::parallel_for(
      "ktext::FMIndex::sample_group_counts", Kokkos::RangePolicy<ExecSpace>(exec, 0, groups), KOKKOS_LAMBDA(std::uint64_t g) {
        std::uint64_t k = 0;
        for (std::uint64_t w = g * S::kWordsPerCount; w < (g + 1) * S::kWordsPerCount && w < words; ++w)
          k += popcount64(marks(w));
        counts(g) = k;
      });
  const std::uint64_t total = ktext::exclusive_scan(exec, counts, counts);
  s.counts = counts;
  return total;
}

/// Samples of the suffix array \p sa (n entries, of the text without the empty suffix): row 0
/// of the FM-index is the empty suffix at position n, row r > 0 is sa[r - 1]. Waits.
template <class MemorySpace, class Index, class ExecSpace, class SAView>
SampledPositions<MemorySpace, Index> sample_suffix_array(const ExecSpace& exec, const SAView& sa, std::uint32_t rate) {
  SampledPositions<MemorySpace, Index> s;
  const std::uint64_t n = sa.extent(0);
  const std::uint64_t rows = n + 1;
  s.rows = rows;
  s.rate = rate;
  const std::uint64_t words = sample_mark_words(rows);
  const auto marks = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::sample_marks", words);
  Kokkos::parallel_for(
      "ktext::FMIndex::sample_marks", Kokkos::RangePolicy<ExecSpace>(exec, 0, words), KOKKOS_LAMBDA(std::uint64_t w) {
        std::uint64_t x = 0;
        for (std::uint64_t r = w * 64; r < w * 64 + 64 && r < rows; ++r) {
          const std::uint64_t pos = r == 0 ? n : std::uint64_t(sa(r - 1));
          if (pos % rate == 0) x |= std::uint64_t(1) << (r - w * 64);
        }
        marks(w) = x;
      });
  s.marks = marks;
  const std::uint64_t total = build_sample_counts(exec, s);
  const auto values = uninitialized_view<Index, MemorySpace>(exec, "ktext::FMIndex::samples", total);
  const auto probe = s;
  Kokkos::parallel_for(
      "ktext::FMIndex::samples", Kokkos::RangePolicy<ExecSpace>(exec, 0, rows), KOKKOS_LAMBDA(std::uint64_t r) {
        if (probe.is_marked(r)) values(probe.rank(r)) = r == 0 ? Index(n) : Index(sa(r - 1));
      });
  s.values = values;
  exec.fence("ktext::FMIndex::samples");
  return s;
}

}  // namespace ktext::impl
