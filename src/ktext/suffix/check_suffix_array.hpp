// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file check_suffix_array.hpp
/// \brief Verification of a suffix array in linear time \cite BurkhardtKarkkainen2003.
///
/// SA is the suffix array of T iff (1) SA is a permutation of [0, n), (2) the first symbols
/// T[SA[i]] are non-decreasing, and (3) where two neighbours share their first symbol, the
/// suffixes one further are in the same order: ISA[SA[i-1]+1] < ISA[SA[i]+1], with the empty
/// suffix smallest.
///
/// On host spaces with byte or 16-bit symbols the check takes O(sigma) extra memory: after (2),
/// each bucket of first symbols is refilled in order by scanning SA (the suffix SA[i]-1 must
/// be the next one in the bucket of T[SA[i]-1]); with the buckets' bounds enforced this also
/// proves (1). Elsewhere (devices, 32-bit alphabets) the three conditions are checked in
/// parallel with an n-element inverse array.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/range.hpp"
#include "ktext/core/view_checks.hpp"

namespace ktext {

/// \brief Outcome of check_suffix_array.
struct SuffixArrayCheck {
  bool valid = true;
  std::int64_t bad_index = -1;  ///< an index of SA at which the array is wrong (-1 when valid)
  std::string reason;           ///< what is wrong there
  explicit operator bool() const { return valid; }
};

namespace impl {

inline SuffixArrayCheck bad(std::int64_t i, std::string why) { return SuffixArrayCheck{false, i, std::move(why)}; }

template <class TextView, class SAView>
SuffixArrayCheck check_suffix_array_buckets(const TextView& text, const SAView& sa) {
  using I = typename SAView::non_const_value_type;
  using S = typename TextView::non_const_value_type;
  const I n = static_cast<I>(text.extent(0));
  for (I i = 0; i < n; ++i)
    if (sa(i) < 0 || sa(i) >= n) return bad(i, "value " + std::to_string(sa(i)) + " out of range");
  for (I i = 1; i < n; ++i)
    if (text(sa(i - 1)) > text(sa(i))) return bad(i, "first symbols out of order");
  if (n == 0) return {};
  const std::size_t sigma = std::size_t(1) << (8 * sizeof(S));
  std::vector<std::int64_t> next(sigma, 0), end(sigma, 0);
  for (I i = 0; i < n; ++i) ++end[text(i)];
  std::int64_t sum = 0;
  for (std::size_t c = 0; c < sigma; ++c) {
    next[c] = sum;
    sum += end[c];
    end[c] = sum;
  }
  // The last suffix (one symbol, then the end) is the first of its bucket.
  const S last = text(n - 1);
  if (sa(next[last]) != n - 1) return bad(next[last], "the last suffix is not first in its bucket");
  ++next[last];
  for (I i = 0; i < n; ++i) {
    const I j = sa(i) - 1;
    if (j < 0) continue;
    const S c = text(j);
    if (next[c] >= end[c]) return bad(i, "suffix " + std::to_string(j) + " overflows its bucket (duplicates)");
    if (sa(next[c]) != j) return bad(next[c], "suffixes out of order or repeated");
    ++next[c];
  }
  return {};
}

template <class ExecSpace, class TextView, class SAView>
SuffixArrayCheck check_suffix_array_parallel(const ExecSpace& exec, const TextView& text, const SAView& sa) {
  using I = typename SAView::non_const_value_type;
  using Policy = impl::Range<ExecSpace>;  // 64-bit: the grid of a 32-bit policy overflows near 2^31
  const I n = static_cast<I>(text.extent(0));
  I first = n;
  Kokkos::parallel_reduce(
      "ktext::check_suffix_array::range", Policy(exec, 0, n),
      KOKKOS_LAMBDA(I i, I & f) {
        if ((sa(i) < 0 || sa(i) >= n) && i < f) f = i;
      },
      Kokkos::Min<I>(first));
  if (first < n) return bad(first, "value out of range");
  const auto isa = zeroed_view<I>(exec, "ktext::check_suffix_array::isa", std::size_t(n));
  Kokkos::parallel_for(
      "ktext::check_suffix_array::count", Policy(exec, 0, n), KOKKOS_LAMBDA(I i) { Kokkos::atomic_inc(&isa(sa(i))); });
  Kokkos::parallel_reduce(
      "ktext::check_suffix_array::repeats", Policy(exec, 0, n),
      KOKKOS_LAMBDA(I i, I & f) {
        if (isa(sa(i)) != 1 && i < f) f = i;
      },
      Kokkos::Min<I>(first));
  if (first < n) return bad(first, "value repeated");
  Kokkos::parallel_for(
      "ktext::check_suffix_array::inverse", Policy(exec, 0, n), KOKKOS_LAMBDA(I i) { isa(sa(i)) = i; });
  Kokkos::parallel_reduce(
      "ktext::check_suffix_array::order", Policy(exec, 1, n > 0 ? n : 1),
      KOKKOS_LAMBDA(I i, I & f) {
        const I a = sa(i - 1), b = sa(i);
        bool ok = text(a) < text(b);
        if (text(a) == text(b)) {
          const I ra = a + 1 < n ? isa(a + 1) : I(-1);
          const I rb = b + 1 < n ? isa(b + 1) : I(-1);
          ok = ra < rb;
        }
        if (!ok && i < f) f = i;
      },
      Kokkos::Min<I>(first));
  if (first < n) return bad(first, "suffixes out of order");
  return {};
}

}  // namespace impl

/// \brief Checks that \p sa is the suffix array of \p text (libdivsufsort semantics).
/// \return valid, or the index of SA where it is wrong and why. Waits for the result.
/// \complexity O(n) time; O(sigma) extra memory on hosts for byte/16-bit symbols, else O(n).
template <class ExecSpace, class TextView, class SAView>
SuffixArrayCheck check_suffix_array(const ExecSpace& exec, const TextView& text, const SAView& sa) {
  static_assert(impl::is_rank1_view_v<TextView> && impl::is_rank1_view_v<SAView>, "ktext::check_suffix_array: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, TextView> && impl::accessible_from_v<ExecSpace, SAView>,
                "ktext::check_suffix_array: views must be accessible from the execution space");
  static_assert(is_symbol_type_v<typename TextView::non_const_value_type>,
                "ktext::check_suffix_array: symbols must be uint8_t, uint16_t or uint32_t");
  static_assert(is_index_type_v<typename SAView::non_const_value_type>,
                "ktext::check_suffix_array: sa must hold int32_t or int64_t");
  if (sa.extent(0) != text.extent(0))
    return impl::bad(std::int64_t(std::min(sa.extent(0), text.extent(0))),
                     "length " + std::to_string(sa.extent(0)) + " differs from the text's " + std::to_string(text.extent(0)));
  require_index_fits<typename SAView::non_const_value_type>(text.extent(0), "ktext::check_suffix_array");
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  return impl::translate_out_of_memory("ktext::check_suffix_array", [&] {
    if constexpr (host && sizeof(typename TextView::non_const_value_type) <= 2) {
      exec.fence("ktext::check_suffix_array: inputs ready");
      return impl::check_suffix_array_buckets(text, sa);
    } else {
      return impl::check_suffix_array_parallel(exec, text, sa);
    }
  });
}

/// \brief As above on the default instance of the sa view's execution space; waits for the result.
template <class TextView, class SAView>
SuffixArrayCheck check_suffix_array(const TextView& text, const SAView& sa) {
  using Exec = typename SAView::execution_space;
  auto result = check_suffix_array(Exec{}, text, sa);
  Exec{}.fence("ktext::check_suffix_array");
  return result;
}

}  // namespace ktext
