// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file suffix_array.hpp
/// \brief Suffix array construction by DC3 over prefix doubling.
///
/// Semantics of libdivsufsort: SA lists the starting positions of the suffixes of the text in
/// lexicographic order, where the implicit end of the text is smaller than every symbol and
/// every symbol value (byte 0 included) is ordinary.
///
/// Algorithm: the difference cover {1, 2} mod 3 \cite KarkkainenSanders2003 (DC3). The two
/// thirds of the suffixes at positions i mod 3 != 0 are sorted by prefix doubling with
/// discarding of sorted groups \cite LarssonSadakane2007, in the GPU formulation of
/// \cite WangBaxterOwens2016 and \cite DeoKeely2013 (an initial stable radix sort of packed
/// multi-symbol keys, alphabet reduced to the symbols present, then rounds that sort the unsorted
/// groups by the rank h positions further, split them and drop singletons); the other third is
/// ordered by its first symbol and the sample rank that follows, and one merge gives the array.
/// Where the sample's groups stay large (repetitive text), the doubling stops and the sample is
/// sorted as the suffixes of its reduced text of group names, by DC3 again, as in the recursion
/// of \cite KarkkainenSanders2003 (SampleReduction).
/// Alphabets past 2^21 symbols, or SuffixArrayAlgorithm::doubling, double every suffix instead.
/// The same code runs on every Kokkos backend; only the primitives are specialized (CUB on CUDA).

#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/suffix/impl/ktext_suffix_sort.hpp"
#include "ktext/suffix/suffix_array_types.hpp"

namespace ktext {

/// \brief Upper bound of the peak bytes suffix_array holds in the execution space's memory with
/// the default batch size and SuffixArrayAlgorithm::doubling, the text and the output included,
/// with s = sizeof(Symbol), w = sizeof(Index) and v the width of the positions and ranks held
/// while sorting: 4 bytes when n < 2^32, whatever w, else 8.
/// - initial sort: text, SA, ISA and two 16-bit key buffers, (s + 2w + 4) n, or (s + w + v) n
///   when v < w (the keys and the order then sit in the output's memory);
/// - the unsorted list: (s + w + 2v + 1) n at most (head flags still held);
/// - doubling rounds: (s + w + 2v) n + the sort scratch: 3v per entry of a batch of the groups
///   starting in one stretch of max(m/d, min(2^20, n/d)) + 1 entries (d = 12, or 24 when v < w),
///   or 2 bytes per entry of a group larger than a stretch, sorted alone in its own SA slots
///   (inside those slots when v < w).
/// That is 15n (+ 24 bytes) for bytes and 32-bit indices, 18n for 64-bit indices below 2^32
/// symbols and 29n from there, whatever the input (A^n, one group spanning the text, included),
/// plus the alphabet tables. CUB's temporary storage on CUDA (a few bytes per 100 entries
/// sorted) is not counted.
template <class Symbol, class Index>
constexpr std::uint64_t doubling_peak_bytes_bound(std::uint64_t n) noexcept {
  const std::uint64_t s = sizeof(Symbol), w = sizeof(Index);
  const std::uint64_t v = n < (std::uint64_t(1) << 32) ? 4 : w;
  const bool narrow = v < w;
  const std::uint64_t initial = narrow ? n * (s + w + v) : n * (s + 2 * w + 4);
  const std::uint64_t unsorted_list = n * (s + w + 2 * v + 1);
  const std::uint64_t parts = narrow ? 24 : 12;
  const std::uint64_t batch_scratch = 6 * v * (n / parts + 1), group_scratch = narrow ? 0 : 2 * n;
  const std::uint64_t rounds = n * (s + w + 2 * v) + (batch_scratch > group_scratch ? batch_scratch : group_scratch);
  const std::uint64_t table = (std::uint64_t(1) << 20) * 12;  // histogram + codes, worst case
  const std::uint64_t most = initial > unsorted_list ? initial : unsorted_list;
  return (most > rounds ? most : rounds) + table;
}

namespace impl {
/// difference_cover_peak_bytes_bound for s-byte symbols and a w-byte output, with work indices
/// of at least \p v_least bytes; a \p reduced text keeps its parent's and has the radix sort's
/// scratch in two more entries of its output.
constexpr std::uint64_t difference_cover_peak_bytes(std::uint64_t n, std::uint64_t s, std::uint64_t w,
                                                    std::uint64_t v_least, bool reduced) noexcept {
  const std::uint64_t sample = (n + 1) / 3 + n / 3, rest = (n + 2) / 3;
  const std::uint64_t v_fit = sample < (std::uint64_t(1) << 32) ? 4 : 8;
  const std::uint64_t v = v_fit > v_least ? v_fit : v_least;
  // ISA12's tail holds the head flags, then the rounds' scratch, then the rest's order.
  const std::uint64_t tail_entries = held_tail_entries(sample, rest, v, reduced ? 0 : n * w);
  const std::uint64_t tail = v * tail_entries;
  // The radix sort's scratch sits in the output from 4 symbols on, except with 32-bit keys.
  const std::uint64_t rest_scratch = reduced ? 0 : s > 2 ? (8 + v) * rest : n < 4 ? (4 + v) * rest : 0;
  // The merge's tile boundaries (devices: 1024 outputs a tile), unless the tail holds them past
  // the rest's order.
  const std::uint64_t split_entries = merge_split_entries(n);
  const std::uint64_t splits = tail_entries - rest >= split_entries ? 0 : v * split_entries;
  const std::uint64_t most = tail + (rest_scratch > splits ? rest_scratch : splits);
  const std::uint64_t table = (std::uint64_t(1) << 20) * 12;
  const std::uint64_t level = n * (s + w) + v * (2 * sample + 3) + most + table;
  if (n < 4) return level;
  // The reduced text (sample + 1 symbols of 4 bytes) sits in the output and its suffix array in
  // the sample's order; the sample's ranks are freed meanwhile.
  const std::uint64_t length = sample + 1;
  const std::uint64_t below = n * (s + w) + 2 * v + difference_cover_peak_bytes(length, 4, v, v, true) - 4 * length;
  return level > below ? level : below;
}
}  // namespace impl

/// \brief Upper bound of the peak bytes of DC3 (SuffixArrayAlgorithm::automatic where the
/// alphabet allows it: always for 8- and 16-bit symbols), the text and the output included, with
/// N = (n + 1) / 3 + n / 3 sample suffixes, n0 = (n + 2) / 3 others, and v = 4 while N < 2^32
/// (n up to 6.4e9), else 8. Text and output (s + w) n, the sample's order and ranks 2vN, held
/// with max(n0, N / 2 + 8) more entries of v bytes that take in turn the head flags (N bytes),
/// the round scratch (as for doubling, over N entries) and the other suffixes' order (v n0),
/// plus its radix sort ((8 + v) n0 for 32-bit symbols, whose keys do not fit the output) or the
/// merge's tile boundaries (v n / 1024 on devices). Where the output holds one buffer of the
/// initial sort's 32-bit key pieces (4N bytes) but not two, the held entries are at least 4N / v
/// so that they hold the other (and the tile boundaries past the other suffixes' order), and
/// where the output's entries are v bytes wide, 2 n0 + n / 256 + 3 so that they hold the merged
/// rows over the ranks with the tile boundaries (held_tail_entries).
/// The initial keys and the unsorted list sit in the output's memory, unused until the merge.
/// That is 13.02n for bytes and 32-bit indices, 15.67n for 64-bit indices up to 6.4e9 symbols
/// (a 4 GiB text needs 67 GB), plus the alphabet tables. Where the sample is sorted through its
/// reduced text (SampleReduction), the text, the output (holding the reduced text) and the
/// sample's order (holding its suffix array) stay while the same bound, for 32-bit symbols,
/// holds for the level below; the sample orders of the levels add up to 3vN: at most 13n for
/// bytes and 32-bit indices, 17n for 64-bit ones.
template <class Symbol, class Index>
constexpr std::uint64_t difference_cover_peak_bytes_bound(std::uint64_t n) noexcept {
  return impl::difference_cover_peak_bytes(n, sizeof(Symbol), sizeof(Index), 4, false);
}

/// \brief Upper bound of the peak bytes suffix_array holds with \p algorithm on any backend, the
/// text and the output included (see the two bounds above): doubling's when asked for; DC3's
/// otherwise for 8- and 16-bit symbols; the larger of both for 32-bit symbols, whose alphabets
/// past 2^21 symbols are doubled.
template <class Symbol, class Index>
constexpr std::uint64_t suffix_array_peak_bytes_bound(std::uint64_t n,
                                                      SuffixArrayAlgorithm algorithm = SuffixArrayAlgorithm::automatic) noexcept {
  const std::uint64_t doubled = doubling_peak_bytes_bound<Symbol, Index>(n);
  if (algorithm == SuffixArrayAlgorithm::doubling) return doubled;
  const std::uint64_t dc3 = difference_cover_peak_bytes_bound<Symbol, Index>(n);
  return sizeof(Symbol) <= 2 || dc3 > doubled ? dc3 : doubled;
}

/// \brief Builds the suffix array of \p text into \p sa.
/// \tparam ExecSpace Kokkos execution space; both views must be accessible from it.
/// \param exec the execution space instance.
/// \param text rank-1 view of uint8_t, uint16_t or uint32_t symbols.
/// \param sa rank-1 view of int32_t or int64_t, text.extent(0) long; int64_t is required for
///        n >= 2^31 and works for any n.
/// \param options progress callback.
/// \return peak memory and round counts. The call waits for the result (rounds depend on
///         counts computed on the device).
/// \throws InputError for mismatched lengths or n too large for the index type;
///         OutOfMemoryError when the memory space cannot hold the work buffers.
/// \complexity O(n log n) work in the worst case (A^n): at most ceil(log2(n / k)) doubling rounds
/// after the initial sort by the first k symbols, each radix-sorting the suffixes still unsorted
/// (two thirds of them with DC3), then O(n) for the merge; far less on ordinary text, where the
/// first rounds resolve most groups. Memory: see suffix_array_peak_bytes_bound().
template <class ExecSpace, class TextView, class SAView>
SuffixArrayStats suffix_array(const ExecSpace& exec, const TextView& text, const SAView& sa,
                              const SuffixArrayOptions& options = {}) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::suffix_array: first argument must be an execution space");
  static_assert(impl::is_rank1_view_v<TextView> && impl::is_rank1_view_v<SAView>,
                "ktext::suffix_array: text and sa must be rank-1 Kokkos views");
  static_assert(impl::accessible_from_v<ExecSpace, TextView> && impl::accessible_from_v<ExecSpace, SAView>,
                "ktext::suffix_array: text and sa must be accessible from the execution space");
  static_assert(is_symbol_type_v<typename TextView::non_const_value_type>,
                "ktext::suffix_array: symbols must be uint8_t, uint16_t or uint32_t");
  static_assert(is_index_type_v<typename SAView::value_type>, "ktext::suffix_array: sa must hold int32_t or int64_t");
  if (sa.extent(0) != text.extent(0))
    throw InputError("ktext::suffix_array: sa has " + std::to_string(sa.extent(0)) + " elements, the text " +
                     std::to_string(text.extent(0)));
  require_index_fits<typename SAView::value_type>(text.extent(0), "ktext::suffix_array");
  if (!text.span_is_contiguous() || !sa.span_is_contiguous())
    throw InputError("ktext::suffix_array: text and sa must be contiguous views");
  return impl::translate_out_of_memory("ktext::suffix_array",
                                       [&] { return impl::suffix_sort(exec, text, sa, options); });
}

/// \brief As above on the default instance of the sa view's execution space; waits for the result.
template <class TextView, class SAView>
SuffixArrayStats suffix_array(const TextView& text, const SAView& sa, const SuffixArrayOptions& options = {}) {
  using Exec = typename SAView::execution_space;
  auto stats = suffix_array(Exec{}, text, sa, options);
  Exec{}.fence("ktext::suffix_array");
  return stats;
}

}  // namespace ktext
