// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file bwt.hpp
/// \brief Burrows–Wheeler transform from a suffix array, in the libsais/libcubwt convention.
///
/// The full transform of T$ has n+1 symbols: row 0 (the empty suffix) contributes T[n-1], row
/// 1+i contributes T[SA[i]-1], and the row of suffix 0 contributes the sentinel $. ktext, like
/// libsais, writes the n symbols without the sentinel and returns its row, the primary index p
/// (1 <= p <= n for n > 0; 0 for the empty text). unbwt inverts this.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/suffix/suffix_array.hpp"
#include "ktext/suffix/impl/ktext_suffix_sort.hpp"

namespace ktext {

/// \brief Writes the BWT of \p text into \p out (n symbols, sentinel row omitted) given its
/// suffix array \p sa, and returns the primary index. Waits for the result.
/// \complexity O(n) work: one reduction and one gather.
template <class ExecSpace, class TextView, class SAView, class OutView>
std::uint64_t bwt_from_suffix_array(const ExecSpace& exec, const TextView& text, const SAView& sa, const OutView& out) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::bwt: first argument must be an execution space");
  static_assert(impl::is_rank1_view_v<TextView> && impl::is_rank1_view_v<SAView> && impl::is_rank1_view_v<OutView>,
                "ktext::bwt: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, TextView> && impl::accessible_from_v<ExecSpace, SAView> &&
                    impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::bwt: views must be accessible from the execution space");
  static_assert(std::is_same_v<typename TextView::non_const_value_type, typename OutView::value_type>,
                "ktext::bwt: out must hold the text's symbol type");
  static_assert(is_index_type_v<typename SAView::non_const_value_type>, "ktext::bwt: sa must hold int32_t or int64_t");
  using I = typename SAView::non_const_value_type;
  const std::size_t n = text.extent(0);
  if (sa.extent(0) != n || out.extent(0) != n)
    throw InputError("ktext::bwt: text, sa and out must have the same length");
  if (n == 0) return 0;
  // Row of suffix 0 among the n non-empty suffixes; the sentinel sits one row lower in T$.
  I zero_row = I(n);
  Kokkos::parallel_reduce(
      "ktext::bwt::primary", impl::Range<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(std::size_t i, I & r) {
        if (sa(i) == 0 && I(i) < r) r = I(i);
      },
      Kokkos::Min<I>(zero_row));
  if (zero_row == I(n)) throw InputError("ktext::bwt: sa does not contain suffix 0");
  const std::size_t last = n - 1;
  Kokkos::parallel_for(
      "ktext::bwt", impl::Range<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(std::size_t i) {
        if (i == 0) out(0) = text(last);  // row 0 of T$: the empty suffix, preceded by T[n-1]
        if (I(i) == zero_row) return;     // the sentinel: omitted
        out(I(i) < zero_row ? i + 1 : i) = text(sa(i) - 1);
      });
  exec.fence("ktext::bwt");  // as documented: out is complete on return, like the primary index
  return std::uint64_t(zero_row) + 1;
}

/// \brief As above on the default instance of the out view's execution space; waits for the result.
template <class TextView, class SAView, class OutView>
std::uint64_t bwt_from_suffix_array(const TextView& text, const SAView& sa, const OutView& out) {
  using Exec = typename OutView::execution_space;
  const std::uint64_t primary = bwt_from_suffix_array(Exec{}, text, sa, out);
  Exec{}.fence("ktext::bwt_from_suffix_array");
  return primary;
}

/// \brief BWT of \p text into \p out; builds the suffix array on the way (32-bit indices when
/// they fit, else 64-bit). Returns the primary index; peak memory is that of suffix_array plus
/// its w n-byte suffix array, and \p stats, when given, receives suffix_array's statistics
/// (peak_bytes counts the text and that suffix array, not \p out). Where suffix_array runs DC3
/// (SuffixArrayAlgorithm) and \p out is contiguous, its last step, the merge, writes the BWT
/// itself: the suffix array's memory is then only scratch, and no pass reads it back. Waits for
/// the result.
/// \complexity that of suffix_array(), then O(n) work.
/// \throws InputError as suffix_array, or when \p out's length differs from the text's;
/// OutOfMemoryError when the suffix array does not fit.
template <class ExecSpace, class TextView, class OutView>
std::uint64_t bwt(const ExecSpace& exec, const TextView& text, const OutView& out, const SuffixArrayOptions& options = {},
                  SuffixArrayStats* stats = nullptr) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::bwt: first argument must be an execution space");
  static_assert(impl::is_rank1_view_v<TextView> && impl::is_rank1_view_v<OutView>, "ktext::bwt: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, TextView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::bwt: views must be accessible from the execution space");
  using S = typename TextView::non_const_value_type;
  static_assert(is_symbol_type_v<S>, "ktext::bwt: symbols must be uint8_t, uint16_t or uint32_t");
  static_assert(std::is_same_v<S, typename OutView::value_type>, "ktext::bwt: out must hold the text's symbol type");
  const std::size_t n = text.extent(0);
  if (out.extent(0) != n) throw InputError("ktext::bwt: text and out must have the same length");
  if (!text.span_is_contiguous()) throw InputError("ktext::bwt: text must be a contiguous view");
  auto run = [&](auto index) {
    using I = decltype(index);
    const auto sa = impl::uninitialized_view<I>(exec, "ktext::bwt::sa", n);
    impl::BwtOutputOf<ExecSpace, TextView> direct{impl::Unmanaged<S, ExecSpace>(out.data(), n)};
    const SuffixArrayStats s =
        impl::suffix_sort(exec, text, sa, options, out.span_is_contiguous() ? &direct : nullptr);
    if (stats) *stats = s;
    if (direct.written) return direct.primary;
    return bwt_from_suffix_array(exec, text, sa, out);
  };
  const std::uint64_t primary = impl::translate_out_of_memory(
      "ktext::bwt", [&] { return index_fits<std::int32_t>(n) ? run(std::int32_t{}) : run(std::int64_t{}); });
  exec.fence("ktext::bwt");  // out is complete on return, like the primary index
  return primary;
}

/// \brief As above on the default instance of the out view's execution space; waits for the result.
template <class TextView, class OutView>
std::uint64_t bwt(const TextView& text, const OutView& out, const SuffixArrayOptions& options = {}) {
  using Exec = typename OutView::execution_space;
  const std::uint64_t primary = bwt(Exec{}, text, out, options);
  Exec{}.fence("ktext::bwt");
  return primary;
}

}  // namespace ktext
