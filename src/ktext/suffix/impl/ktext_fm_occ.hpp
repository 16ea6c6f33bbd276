// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_fm_occ.hpp
/// \brief Occurrence counts over a byte sequence B[0, n): rank(c, i) = number of c in B[0, i),
/// in O(1) with at most four word scans, for the FM-index's backward search.
///
/// Layout. Symbols are mapped to codes 0..σ-1 of the bytes present (order kept), so each
/// position takes p = ceil(log2 σ) bits (0 for a unary text, 2 for DNA, 7 or 8 for text). The
/// codes are stored bit-sliced: for every 64 positions, p words whose bit k is bit b of the
/// code at that position, so matching a code over 64 positions is p AND/NOT operations and a
/// popcount. Counts are sampled in two levels, for every code: 64-bit counts per 2^16
/// positions and 16-bit counts relative to them per 256 positions. Bytes per position:
/// p/8 + 2σ/256 + 8σ/65536 (0.28 for DNA, 3.03 for 256 symbols).
///
/// The sampled-count layout follows the two-level rank directories of \cite Jacobson1989 and
/// \cite GonzalezGrabowskiMakinenNavarro2005. Bit slicing keeps a rank query inside one
/// 256-position block (p * 32 bytes) instead of scanning up to 255 bytes.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/alphabet.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/histogram.hpp"
#include "ktext/succinct/wavelet_matrix.hpp"

namespace ktext::impl {

template <class MemorySpace>
struct ByteOccTable {
  static constexpr int kBlockShift = 8;   // 256 positions per relative count
  static constexpr int kSuperShift = 16;  // 65536 positions per absolute count
  static constexpr int kWordsPerBlock = (1 << kBlockShift) / 64;

  Kokkos::View<const std::uint64_t*, MemorySpace> words;   ///< [word * planes + bit]
  Kokkos::View<const std::uint16_t*, MemorySpace> blocks;  ///< [block * sigma + code], relative
  Kokkos::View<const std::uint64_t*, MemorySpace> supers;  ///< [superblock * sigma + code]
  AlphabetMap<MemorySpace> alphabet;  ///< the bytes present: a code table of 256 entries and its inverse
  std::uint64_t n = 0;
  int sigma = 0;
  int planes = 0;

  /// Code of byte \p c, or -1 when it does not occur.
  KOKKOS_INLINE_FUNCTION int code_of(std::uint8_t c) const {
    const std::uint32_t code = alphabet.codes(c);
    return code == AlphabetMap<MemorySpace>::absent ? -1 : int(code);
  }
  /// Byte of code \p code < sigma.
  KOKKOS_INLINE_FUNCTION std::uint8_t symbol_of(int code) const { return std::uint8_t(alphabet.symbols(code)); }

  /// Bit k set where position 64 w + k holds \p code (padding past n reads as code 0).
  KOKKOS_INLINE_FUNCTION std::uint64_t match(std::uint64_t w, int code) const {
    std::uint64_t m = ~std::uint64_t(0);
    for (int b = 0; b < planes; ++b) {
      const std::uint64_t x = words(w * std::uint64_t(planes) + b);
      m &= ((code >> b) & 1) ? x : ~x;
    }
    return m;
  }

  /// Occurrences of \p code in B[0, i), for 0 <= i <= n and 0 <= code < sigma.
  KOKKOS_INLINE_FUNCTION std::uint64_t rank(int code, std::uint64_t i) const {
    const std::uint64_t block = i >> kBlockShift;
    std::uint64_t r = supers((i >> kSuperShift) * sigma + code) + blocks(block * sigma + code);
    const std::uint64_t last = i >> 6;
    for (std::uint64_t w = block * kWordsPerBlock; w < last; ++w)
      r += popcount64(match(w, code));
    const unsigned rem = unsigned(i & 63);
    if (rem != 0) r += popcount64(match(last, code) & ((std::uint64_t(1) << rem) - 1));
    return r;
  }

  /// Code at position i < n.
  KOKKOS_INLINE_FUNCTION int code_at(std::uint64_t i) const {
    const std::uint64_t w = i >> 6;
    const unsigned bit = unsigned(i & 63);
    int c = 0;
    for (int b = 0; b < planes; ++b) c |= int((words(w * std::uint64_t(planes) + b) >> bit) & 1) << b;
    return c;
  }

  [[nodiscard]] std::size_t bytes() const {
    return words.span() * 8 + blocks.span() * 2 + supers.span() * 8 + alphabet.bytes();
  }
};

/// Builds the table of \p seq (bytes, accessible from \p exec). Waits for the result.
/// \p histogram receives the count of every byte value (256 entries, host).
template <class MemorySpace, class ExecSpace, class SeqView>
ByteOccTable<MemorySpace> build_byte_occ_table(const ExecSpace& exec, const SeqView& seq, std::uint64_t* histogram) {
  using Table = ByteOccTable<MemorySpace>;
  using U64 = Kokkos::View<std::uint64_t*, MemorySpace>;
  const std::uint64_t n = seq.extent(0);
  Table t;
  t.n = n;

  const U64 hist = zeroed_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::histogram", 256);
  ktext::histogram(exec, seq, hist);
  const auto h_hist = host_copy(exec, hist, "ktext::FMIndex::histogram");
  t.alphabet = alphabet_from_counts<MemorySpace>(exec, hist, "ktext::FMIndex", true);
  exec.fence("ktext::FMIndex::histogram");  // h_hist is complete
  for (int c = 0; c < 256; ++c) histogram[c] = h_hist(c);
  const int sigma = int(t.alphabet.sigma);
  int planes = 0;
  while ((1 << planes) < sigma) ++planes;
  t.sigma = sigma;
  t.planes = planes;

  // One block more than n / 256 so that rank(c, n) has its counts when 256 divides n.
  const std::uint64_t num_blocks = (n >> Table::kBlockShift) + 1;
  const std::uint64_t num_supers = (n >> Table::kSuperShift) + 1;
  const std::uint64_t num_words = num_blocks * Table::kWordsPerBlock;
  const U64 words =
      uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::occ_words", num_words * planes);
  const auto blocks =
      uninitialized_view<std::uint16_t, MemorySpace>(exec, "ktext::FMIndex::occ_blocks", num_blocks * sigma);
  const U64 supers =
      uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::occ_supers", num_supers * sigma);

  if (planes > 0) {
    const auto code_of = t.alphabet.codes;
    Kokkos::parallel_for(
        "ktext::FMIndex::occ_planes", impl::Range<ExecSpace>(exec, 0, num_words), KOKKOS_LAMBDA(std::uint64_t w) {
          std::uint64_t x[8] = {0, 0, 0, 0, 0, 0, 0, 0};
          const std::uint64_t begin = w * 64;
          const std::uint64_t end = begin + 64 < n ? begin + 64 : n;
          for (std::uint64_t i = begin; i < end; ++i) {
            const int code = code_of(seq(i));
            for (int b = 0; b < planes; ++b) x[b] |= std::uint64_t((code >> b) & 1) << (i - begin);
          }
          for (int b = 0; b < planes; ++b) words(w * planes + b) = x[b];
        });
  }
  t.words = words;
  if (sigma == 0) return t;

  // Per block and code: the count inside the block; then running sums inside each superblock
  // (relative counts, at most 65280, fit 16 bits); then running sums over superblocks.
  const Table probe = t;
  Kokkos::parallel_for(
      "ktext::FMIndex::occ_block_counts", impl::Range<ExecSpace>(exec, 0, num_blocks * sigma),
      KOKKOS_LAMBDA(std::uint64_t k) {
        const std::uint64_t block = k / sigma;
        const int code = int(k % sigma);
        std::uint64_t count = 0;
        for (int j = 0; j < Table::kWordsPerBlock; ++j) {
          const std::uint64_t w = block * Table::kWordsPerBlock + j;
          if (w * 64 >= n) break;
          std::uint64_t m = probe.match(w, code);
          if (n - w * 64 < 64) m &= (std::uint64_t(1) << (n - w * 64)) - 1;
          count += popcount64(m);
        }
        blocks(k) = std::uint16_t(count);
      });
  constexpr std::uint64_t blocks_per_super = std::uint64_t(1) << (Table::kSuperShift - Table::kBlockShift);
  Kokkos::parallel_for(
      "ktext::FMIndex::occ_relative_counts", impl::Range<ExecSpace>(exec, 0, num_supers * sigma),
      KOKKOS_LAMBDA(std::uint64_t k) {
        const std::uint64_t super = k / sigma;
        const std::uint64_t code = k % sigma;
        const std::uint64_t end = (super + 1) * blocks_per_super < num_blocks ? (super + 1) * blocks_per_super : num_blocks;
        std::uint64_t running = 0;
        for (std::uint64_t b = super * blocks_per_super; b < end; ++b) {
          const std::uint64_t here = blocks(b * sigma + code);
          blocks(b * sigma + code) = std::uint16_t(running);
          running += here;
        }
        supers(k) = running;
      });
  Kokkos::parallel_for(
      "ktext::FMIndex::occ_absolute_counts", impl::Range<ExecSpace>(exec, 0, sigma), KOKKOS_LAMBDA(int code) {
        std::uint64_t running = 0;
        for (std::uint64_t s = 0; s < num_supers; ++s) {
          const std::uint64_t here = supers(s * sigma + code);
          supers(s * sigma + code) = running;
          running += here;
        }
      });
  t.blocks = blocks;
  t.supers = supers;
  exec.fence("ktext::FMIndex::occ");
  return t;
}

}  // namespace ktext::impl

namespace ktext {
/// \brief How an FM-index stores the occurrence counts of its BWT.
enum class FMOccurrences : std::uint32_t {
  /// Bit-sliced codes with sampled counts per symbol (impl/ktext_fm_occ.hpp): the fastest
  /// counts, 0.28 bytes per symbol for DNA, 1.66 for English text, 3.03 with 256 byte values.
  table = 1,
  /// A wavelet matrix (succinct/wavelet_matrix.hpp): ceil(log2 sigma) bits per symbol plus 4.8%
  /// (0.91 bytes per symbol for English text), one rank per level and step.
  wavelet_matrix = 2
};
}  // namespace ktext

namespace ktext::impl {

/// The FM-index's occurrence counts over the BWT symbols: a table or a wavelet matrix, with
/// the same dense codes (the bytes present, in order).
template <class MemorySpace>
struct FMOccurrenceCounts {
  ByteOccTable<MemorySpace> table;
  WaveletMatrix<MemorySpace, std::uint8_t> matrix;
  FMOccurrences kind = FMOccurrences::table;
  std::uint64_t n = 0;
  int sigma = 0;

  /// Code of byte \p c, or -1 when it does not occur.
  KOKKOS_INLINE_FUNCTION int code_of(std::uint8_t c) const {
    if (kind == FMOccurrences::table) return table.code_of(c);
    const std::uint64_t code = matrix.code_of(c);
    return code < std::uint64_t(sigma) ? int(code) : -1;
  }
  KOKKOS_INLINE_FUNCTION std::uint8_t symbol_of(int code) const {
    return kind == FMOccurrences::table ? table.symbol_of(code) : matrix.symbol_of(std::uint64_t(code));
  }
  /// Occurrences of \p code in B[0, i).
  KOKKOS_INLINE_FUNCTION std::uint64_t rank(int code, std::uint64_t i) const {
    return kind == FMOccurrences::table ? table.rank(code, i) : matrix.rank_code(std::uint64_t(code), i);
  }
  /// Code at position i < n.
  KOKKOS_INLINE_FUNCTION int code_at(std::uint64_t i) const {
    return kind == FMOccurrences::table ? table.code_at(i) : int(matrix.access_code(i));
  }
  [[nodiscard]] std::size_t bytes() const {
    return kind == FMOccurrences::table ? table.bytes() : matrix.space_bytes();
  }
};

/// Builds the counts of \p bwt (bytes, accessible from \p exec) as \p kind. Waits.
/// \p histogram receives the count of every byte value (256 entries, host).
template <class MemorySpace, class ExecSpace, class SeqView>
FMOccurrenceCounts<MemorySpace> build_fm_occurrences(const ExecSpace& exec, const SeqView& bwt, FMOccurrences kind,
                                                      std::uint64_t* histogram) {
  FMOccurrenceCounts<MemorySpace> occ;
  occ.kind = kind;
  occ.n = bwt.extent(0);
  if (kind == FMOccurrences::table) {
    occ.table = build_byte_occ_table<MemorySpace>(exec, bwt, histogram);
    occ.sigma = occ.table.sigma;
    return occ;
  }
  if (kind != FMOccurrences::wavelet_matrix) throw InputError("ktext::FMIndex: unknown occurrence structure");
  const auto hist = zeroed_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::histogram", 256);
  ktext::histogram(exec, bwt, hist);
  const auto h_hist = host_copy(exec, hist, "ktext::FMIndex::histogram");
  occ.matrix = WaveletMatrix<MemorySpace, std::uint8_t>(exec, bwt);
  exec.fence("ktext::FMIndex::histogram");
  for (int c = 0; c < 256; ++c) histogram[c] = h_hist(c);
  occ.sigma = int(occ.matrix.alphabet_size());
  return occ;
}

}  // namespace ktext::impl
