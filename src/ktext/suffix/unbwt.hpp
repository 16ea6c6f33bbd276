// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file unbwt.hpp
/// \brief Inverse Burrows–Wheeler transform (libsais/libcubwt convention, see bwt.hpp), in
/// parallel on every backend.
///
/// A stable sort of the rows of L = BWT(T$) by symbol ($ first) lists them in the order of the
/// first column, so the sorted position of row r is LF(r). Walking LF from row 0 (the empty
/// suffix) visits the suffixes n-1, n-2, ..., 0, ending at the primary row; instead of that
/// sequential walk, pointer jumping (list ranking by doubling, as libcubwt's inverse does on the
/// GPU) gives every row its distance to the primary row, which is its suffix position, and each
/// row then writes its own symbol: T[pos(r) - 1] = L[r].

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/range.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/sort_pairs.hpp"

namespace ktext {

namespace impl {

template <class ExecSpace, class I, class BwtView, class OutView>
void unbwt_with(const ExecSpace& exec, const BwtView& bwt, std::uint64_t primary, const OutView& out) {
  using S = typename BwtView::non_const_value_type;
  using K = std::conditional_t<sizeof(S) <= 2, std::uint32_t, std::uint64_t>;
  using Mem = typename ExecSpace::memory_space;
  using Policy = impl::Range<ExecSpace>;  // 64-bit: the grid of a 32-bit policy overflows near 2^31
  const I n = static_cast<I>(bwt.extent(0));
  const I rows = n + 1, p = static_cast<I>(primary);
  auto next = uninitialized_view<I, Mem>(exec, "ktext::unbwt::next", rows);
  auto dist = uninitialized_view<I, Mem>(exec, "ktext::unbwt::dist", rows);
  {
    const auto keys = uninitialized_view<K, Mem>(exec, "ktext::unbwt::keys", rows);
    const auto keys_tmp = uninitialized_view<K, Mem>(exec, "ktext::unbwt::keys_tmp", rows);
    const auto order = uninitialized_view<I, Mem>(exec, "ktext::unbwt::order", rows);
    Kokkos::parallel_for(
        "ktext::unbwt::rows", Policy(exec, 0, rows), KOKKOS_LAMBDA(I r) {
          keys(r) = r == p ? K(0) : K(bwt(r < p ? r : r - 1)) + 1;  // the sentinel sorts first
          order(r) = r;
        });
    // next and dist serve as the value scratch of the sort; they are rewritten below.
    sort_pairs(exec, keys, order, keys_tmp, next, 0, bit_width(std::uint64_t(1) << (8 * sizeof(S))));
    Kokkos::parallel_for(
        "ktext::unbwt::lf", Policy(exec, 0, rows), KOKKOS_LAMBDA(I j) {
          const I r = order(j);
          next(r) = r == p ? r : j;  // LF, with the primary row (suffix 0) as the end of the list
          dist(r) = r == p ? 0 : 1;
        });
  }
  // Pointer jumping: after k rounds dist(r) sums 2^k links (or reaches the end of the list).
  auto next2 = uninitialized_view<I, Mem>(exec, "ktext::unbwt::next2", rows);
  auto dist2 = uninitialized_view<I, Mem>(exec, "ktext::unbwt::dist2", rows);
  for (std::uint64_t span = 1; span < std::uint64_t(rows); span *= 2) {
    Kokkos::parallel_for(
        "ktext::unbwt::jump", Policy(exec, 0, rows), KOKKOS_LAMBDA(I r) {
          const I s = next(r);
          dist2(r) = dist(r) + dist(s);
          next2(r) = next(s);
        });
    std::swap(next, next2);
    std::swap(dist, dist2);
  }
  // A valid transform has one LF cycle: every row then reaches the primary row. Anything else
  // (a corrupt transform or primary index) is refused before a single symbol is written.
  std::size_t stray = 0;
  Kokkos::parallel_reduce(
      "ktext::unbwt::validate", Policy(exec, 0, rows),
      KOKKOS_LAMBDA(I r, std::size_t & c) { c += (next(r) != p || dist(r) > n) ? 1 : 0; }, stray);
  if (stray != 0)
    throw InputError("ktext::unbwt: not a Burrows-Wheeler transform with primary index " + std::to_string(primary) +
                     " (" + std::to_string(stray) + " rows are not on the text's cycle)");
  Kokkos::parallel_for(
      "ktext::unbwt::emit", Policy(exec, 0, rows), KOKKOS_LAMBDA(I r) {
        if (r != p) out(dist(r) - 1) = bwt(r < p ? r : r - 1);
      });
}

}  // namespace impl

/// \brief Inverts bwt(): writes the text whose transform (n symbols, sentinel omitted) is
/// \p bwt with primary index \p primary into \p out. Waits for the result.
/// \throws InputError when the lengths differ, \p primary is not in [1, n] (0 for n = 0), or
/// the pair is not the transform of any text (detected before \p out is written).
/// \complexity O(n log n) work, O(log n) depth (ceil(log2(n + 1)) pointer-jumping rounds after
/// one radix sort). Memory beyond the input and output, for w-byte indices (w = 4 below 2^31
/// rows): max(3w + 2k, 4w) (n + 1) bytes, with k = 4 for 8- and 16-bit symbols and 8 for 32-bit
/// ones (the sort keys), plus the radix sort's temporary storage.
template <class ExecSpace, class BwtView, class OutView>
void unbwt(const ExecSpace& exec, const BwtView& bwt, std::uint64_t primary, const OutView& out) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::unbwt: first argument must be an execution space");
  static_assert(impl::is_rank1_view_v<BwtView> && impl::is_rank1_view_v<OutView>, "ktext::unbwt: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, BwtView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::unbwt: views must be accessible from the execution space");
  static_assert(is_symbol_type_v<typename BwtView::non_const_value_type>,
                "ktext::unbwt: symbols must be uint8_t, uint16_t or uint32_t");
  static_assert(std::is_same_v<typename BwtView::non_const_value_type, typename OutView::value_type>,
                "ktext::unbwt: out must hold the transform's symbol type");
  const std::uint64_t n = bwt.extent(0);
  if (out.extent(0) != n) throw InputError("ktext::unbwt: bwt and out differ in length");
  if (n == 0) {
    if (primary != 0) throw InputError("ktext::unbwt: the primary index of an empty transform is 0");
    return;
  }
  if (primary < 1 || primary > n)
    throw InputError("ktext::unbwt: primary index " + std::to_string(primary) + " is not in [1, " + std::to_string(n) + "]");
  impl::translate_out_of_memory("ktext::unbwt", [&] {
    if (index_fits<std::int32_t>(n + 1))
      impl::unbwt_with<ExecSpace, std::int32_t>(exec, bwt, primary, out);
    else
      impl::unbwt_with<ExecSpace, std::int64_t>(exec, bwt, primary, out);
  });
  exec.fence("ktext::unbwt");
}

/// \brief As above on the default instance of the out view's execution space; waits for the result.
template <class BwtView, class OutView>
void unbwt(const BwtView& bwt, std::uint64_t primary, const OutView& out) {
  using Exec = typename OutView::execution_space;
  unbwt(Exec{}, bwt, primary, out);
  Exec{}.fence("ktext::unbwt");
}

}  // namespace ktext
