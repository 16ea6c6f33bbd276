// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Suffix sorting by the difference cover {1, 2} mod 3 (DC3, Kärkkäinen–Sanders–Burkhardt) with
// the sample sorted by prefix doubling (the GPU formulation of Wang, Baxter and Owens):
//
// 1. The sample, the suffixes at positions i mod 3 != 0 (2n/3 of them), is sorted by the
//    doubling of ktext_prefix_doubling.hpp over SampleSuffixes: an initial prefix and every h
//    a multiple of 3, so a suffix h further on is again in the sample. This leaves the sample's
//    order and its ranks (ISA12).
// 2. The other suffixes, i = 3q, in the order of (T[i], rank of i + 1): the sample's order
//    restricted to class 1 gives them by the rank of i + 1 (suffix n - 1 first when it has no
//    i + 1), and one stable radix sort by the symbol code finishes.
// 3. One merge of the two orders (ktext_difference_cover_merge.hpp). Suffix i = 0 (mod 3)
//    against a sample suffix j compares one symbol and the ranks of i + 1 and j + 1 when
//    j = 1 (mod 3), else two symbols and the ranks of i + 2 and j + 2: in both cases both are
//    sample positions (or the end).
//
// Against doubling every suffix: the rounds sort two thirds of the suffixes, and the ranks need
// 32 bits up to 1.5 (2^32 - 1) symbols, where 64-bit work indices doubled the memory. The merge
// reads both orders once and writes the output once; its comparisons read the text and ISA12.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "ktext/core/allocate.hpp"
#include "ktext/core/alphabet.hpp"
#include "ktext/core/footprint.hpp"
#include "ktext/core/range.hpp"
#include "ktext/primitives/select.hpp"
#include "ktext/primitives/sort_pairs.hpp"
#include "ktext/suffix/impl/ktext_difference_cover_merge.hpp"
#include "ktext/suffix/impl/ktext_prefix_doubling.hpp"
#include "ktext/suffix/suffix_array_types.hpp"

namespace ktext::impl {

/// Whether the sample can be sorted: an initial key of at least 3 codes, so alphabets of up to
/// 2^21 symbols.
inline bool difference_cover_applies(int alphabet_bits) { return 64 / alphabet_bits >= 3; }

/// The suffix array of \p text_in into \p sa_in by DC3, the sample held with work indices \p I
/// (elements and ranks below 2^32 - 1 for 32 bits). \p alphabet is the text's, with
/// difference_cover_applies(alphabet.bits). \p mem holds the text, the output and the alphabet.
template <class I, class ExecSpace, class TextView, class SAView>
SuffixArrayStats difference_cover_as(const ExecSpace& exec, const TextView& text_in, const SAView& sa_in,
                                     const AlphabetMap<typename ExecSpace::memory_space>& alphabet,
                                     const SuffixArrayOptions& options, Footprint& mem) {
  using O = typename SAView::non_const_value_type;
  using S = typename TextView::non_const_value_type;
  using Mem = typename ExecSpace::memory_space;
  using Policy = Range<ExecSpace>;
  using U = Unmanaged<I, ExecSpace>;
  const std::uint64_t n = text_in.extent(0);
  const SampleSuffixes<I> sample{n, static_cast<I>((n + 1) / 3), static_cast<I>(n / 3)};
  const I n_sample = sample.count(), n_rest = static_cast<I>((n + 2) / 3);
  const Unmanaged<const S, ExecSpace> text(text_in.data(), n);
  const Unmanaged<O, ExecSpace> sa(sa_in.data(), n);
  // The output is not written before the merge: until then it is scratch.
  const Spare spare{sa.data(), std::size_t(n) * sizeof(O)};

  // 1. The sample.
  auto sample_order = counted_view<I>(exec, mem, "ktext::suffix_array::sample_order", n_sample);
  Kokkos::View<I*, Mem> isa12;
  SuffixArrayStats stats = doubling(exec, text_in, sample, alphabet, U(sample_order.data(), n_sample), options, mem,
                                    spare, &isa12);
  if (options.progress) options.progress(SuffixArrayProgress{"merge", stats.rounds, 0, n, n});

  // 2. The rest: by the rank of i + 1 (the sample's class 1 in its order), then by T[i].
  auto rest_order = counted_view<I>(exec, mem, "ktext::suffix_array::rest_order", n_rest);
  const I no_next = n % 3 == 1 ? 1 : 0;  // suffix n - 1 = 3 n1 has no i + 1: first of its symbol
  {
    // Scratch: the order before the sort (first, so that 8-byte entries stay aligned), the keys.
    using KS = std::conditional_t<sizeof(S) <= 2, std::uint16_t, std::uint32_t>;  // holds a code
    const std::size_t need = std::size_t(n_rest) * (sizeof(I) + 2 * sizeof(KS));
    Kokkos::View<char*, Mem> scratch_store;
    char* scratch = static_cast<char*>(spare.data);
    if (need > spare.bytes) {
      scratch_store = counted_view<char>(exec, mem, "ktext::suffix_array::rest_scratch", need);
      scratch = scratch_store.data();
    }
    const U vals(reinterpret_cast<I*>(scratch), n_rest);
    const Unmanaged<KS, ExecSpace> keys(reinterpret_cast<KS*>(vals.data() + n_rest), n_rest);
    const Unmanaged<KS, ExecSpace> keys_tmp(keys.data() + n_rest, n_rest);
    const U sample_view(sample_order.data(), n_sample);
    const I n1 = sample.n1;
    ktext::select_by_index(exec, sample_view, U(vals.data() + no_next, n_rest - no_next),
                           KOKKOS_LAMBDA(std::size_t a) { return sample_view(a) < n1; });
    if (no_next)
      Kokkos::parallel_for(
          "ktext::suffix_array::rest_last", Policy(exec, 0, 1), KOKKOS_LAMBDA(I) { vals(0) = n1; });
    const auto codes = alphabet;
    Kokkos::parallel_for(
        "ktext::suffix_array::rest_keys", Policy(exec, 0, n_rest), KOKKOS_LAMBDA(I b) {
          keys(b) = KS(codes(text(3 * std::uint64_t(vals(b)))));
        });
    // One pass for byte alphabets: the result then lands in rest_order, with no copy.
    const U sorted(rest_order.data(), n_rest);
    if (!ktext::impl::sort_pairs_in_either(exec, keys, vals, keys_tmp, sorted, 0, alphabet.bits))
      Kokkos::deep_copy(exec, sorted, vals);
    release_counted(mem, scratch_store);
  }

  // 3. The merge into the output.
  merge_difference_cover(exec, CompareRestSample<decltype(text), U, I>{text, U(isa12.data(), n_sample), sample},
                         U(sample_order.data(), n_sample), U(rest_order.data(), n_rest), sa, mem);
  exec.fence("ktext::suffix_array: merged");
  release_counted(mem, isa12);
  release_counted(mem, rest_order);
  release_counted(mem, sample_order);
  if (options.progress) options.progress(SuffixArrayProgress{"done", stats.rounds, 0, 0, n});
  stats.peak_bytes = mem.peak();
  return stats;
}

}  // namespace ktext::impl
