// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The suffix array algorithm and work-index width for a text: DC3 (its sample sorted by
// doubling) where the alphabet allows a key of 3 codes, else doubling every suffix; positions
// and ranks held in 32 bits wherever they fit, whatever the output's width. For ktext::bwt,
// DC3's merge writes the BWT itself.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "ktext/core/alphabet.hpp"
#include "ktext/core/footprint.hpp"
#include "ktext/suffix/impl/ktext_difference_cover.hpp"
#include "ktext/suffix/impl/ktext_prefix_doubling.hpp"
#include "ktext/suffix/suffix_array_types.hpp"

namespace ktext::impl {

/// Whether DC3's sample (2n/3 suffixes) and its ranks fit 32-bit work indices.
inline bool sample_fits_32_bits(std::uint64_t n) { return (n + 1) / 3 + n / 3 < (std::uint64_t(1) << 32); }

/// Whether \p options and the alphabet make suffix_array use DC3: wherever it applies unless
/// doubling is asked for. Against doubling every suffix (perf/README): on 2 cores xml 4.3 against
/// 5.0 s, sources 4.1 against 4.8, english 3.1 against 3.5, proteins 3.5 against 3.7, dna 3.5
/// against 3.2; on an H100 (ktext bwt, ms) dna 21.1 / 21.8, english 26.2 / 33.2, proteins
/// 15.0 / 18.1, sources 41.9 / 51.9, xml 46.1 / 54.0, Thue-Morse 270 / 384, Fibonacci 414 / 550,
/// random bytes 38.1 / 36.7, random ACGT 40.7 / 38.8; and 11.67n bytes then (13.0n since its
/// initial sort takes 32-bit key pieces) against 13-14n.
inline bool uses_difference_cover(const SuffixArrayOptions& options, int alphabet_bits) {
  return difference_cover_applies(alphabet_bits) && options.algorithm != SuffixArrayAlgorithm::doubling;
}

/// The text's alphabet, with the text, output and alphabet counted in \p mem (n > 0).
template <class ExecSpace, class TextView, class SAView>
AlphabetMap<typename ExecSpace::memory_space> prepare_suffix_sort(const ExecSpace& exec, const TextView& text_in,
                                                                  const SuffixArrayOptions& options, Footprint& mem) {
  using Mem = typename ExecSpace::memory_space;
  using S = typename TextView::non_const_value_type;
  const std::uint64_t n = text_in.extent(0);
  if (options.progress) options.progress(SuffixArrayProgress{"alphabet", 0, 0, n, n});
  const Unmanaged<const S, ExecSpace> text(text_in.data(), n);
  const AlphabetMap<Mem> alphabet = text_alphabet<Mem>(exec, text, "ktext::suffix_array", false);
  mem.add(alphabet.bytes());
  return alphabet;
}

/// The text's BWT output, when a caller wants that instead of the suffix array (DC3 writes it).
template <class ExecSpace, class TextView>
using BwtOutputOf = BwtOutput<typename TextView::non_const_value_type, ExecSpace>;

/// The suffix array with work indices \p I (unsigned; n < 2^32 for 32 bits, or a sample below
/// 2^32 - 1 with DC3); with \p bwt, DC3 writes the BWT there instead (doubling still writes
/// the suffix array, and leaves bwt->written false).
template <class I, class ExecSpace, class TextView, class SAView>
SuffixArrayStats suffix_sort_with(const ExecSpace& exec, const TextView& text_in, const SAView& sa_in,
                                  const SuffixArrayOptions& options,
                                  const AlphabetMap<typename ExecSpace::memory_space>& alphabet, Footprint& mem,
                                  BwtOutputOf<ExecSpace, TextView>* bwt) {
  if (uses_difference_cover(options, alphabet.bits))
    return difference_cover_as<I>(exec, text_in, sa_in, alphabet, options, mem, Spare{}, bwt);
  return doubling(exec, text_in, AllSuffixes<I>{static_cast<I>(text_in.extent(0))}, alphabet, sa_in, options, mem);
}

/// The suffix array of \p text_in into \p sa_in, with the work indices \p I (tests run 64-bit
/// ones on small texts) or, for void, 32-bit ones wherever they fit; or, with \p bwt, the BWT
/// where DC3 runs (suffix_sort_with).
template <class I, class ExecSpace, class TextView, class SAView>
SuffixArrayStats suffix_sort_as(const ExecSpace& exec, const TextView& text_in, const SAView& sa_in,
                                const SuffixArrayOptions& options, BwtOutputOf<ExecSpace, TextView>* bwt = nullptr) {
  using O = typename SAView::non_const_value_type;
  const std::uint64_t n = text_in.extent(0);
  Footprint mem;
  mem.add(std::size_t(n) * (sizeof(typename TextView::non_const_value_type) + sizeof(O)));
  if (n == 0) {
    SuffixArrayStats stats;
    stats.peak_bytes = mem.peak();
    return stats;
  }
  const auto alphabet = prepare_suffix_sort<ExecSpace, TextView, SAView>(exec, text_in, options, mem);
  if constexpr (!std::is_void_v<I>) {
    return suffix_sort_with<I>(exec, text_in, sa_in, options, alphabet, mem, bwt);
  } else {
    if constexpr (sizeof(O) > 4) {
      const bool dc3 = uses_difference_cover(options, alphabet.bits);
      if (dc3 ? !sample_fits_32_bits(n) : n >= (std::uint64_t(1) << 32))
        return suffix_sort_with<std::uint64_t>(exec, text_in, sa_in, options, alphabet, mem, bwt);
    }
    return suffix_sort_with<std::uint32_t>(exec, text_in, sa_in, options, alphabet, mem, bwt);
  }
}

template <class ExecSpace, class TextView, class SAView>
SuffixArrayStats suffix_sort(const ExecSpace& exec, const TextView& text_in, const SAView& sa_in,
                             const SuffixArrayOptions& options, BwtOutputOf<ExecSpace, TextView>* bwt = nullptr) {
  return suffix_sort_as<void>(exec, text_in, sa_in, options, bwt);
}

}  // namespace ktext::impl
