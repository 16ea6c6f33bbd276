// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file lcp.hpp
/// \brief Longest-common-prefix array from a suffix array: lcp[i] = LCP of the suffixes SA[i-1]
/// and SA[i], lcp[0] = 0.
///
/// Parallel PLCP through irreducible values \cite KarkkainenManziniPuglisi2009. With
/// Phi(SA[i]) = SA[i-1], position i is reducible when T[i-1] = T[Phi(i)-1], and then
/// PLCP[i] = PLCP[i-1] - 1. Only irreducible positions compare symbols, each on its own thread
/// (their values sum to O(n log n)); PLCP[i] + i never decreases, so a running maximum of
/// PLCP[j] + j over the irreducible j fills in the rest, and a gather orders it by SA.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/range.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/scan.hpp"

namespace ktext {

/// \brief Writes the LCP array of \p text with suffix array \p sa into \p lcp (same length,
/// same index type as \p sa). Does not check \p sa (see check_suffix_array). Waits for the
/// result (its n-entry scratch array is released on return).
/// \complexity O(n log n) work in the worst case, O(n) memory beyond the output (w n bytes for
/// w-byte indices). One irreducible comparison can be long (a single thread compares n - 1
/// symbols for A^n).
template <class ExecSpace, class TextView, class SAView, class LcpView>
void lcp(const ExecSpace& exec, const TextView& text, const SAView& sa, const LcpView& lcp) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::lcp: first argument must be an execution space");
  static_assert(impl::is_rank1_view_v<TextView> && impl::is_rank1_view_v<SAView> && impl::is_rank1_view_v<LcpView>,
                "ktext::lcp: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, TextView> && impl::accessible_from_v<ExecSpace, SAView> &&
                    impl::accessible_from_v<ExecSpace, LcpView>,
                "ktext::lcp: views must be accessible from the execution space");
  static_assert(is_index_type_v<typename SAView::non_const_value_type>, "ktext::lcp: sa must hold int32_t or int64_t");
  static_assert(std::is_same_v<typename SAView::non_const_value_type, typename LcpView::value_type>,
                "ktext::lcp: lcp must have the index type of sa");
  using I = typename SAView::non_const_value_type;
  using Policy = impl::Range<ExecSpace>;  // 64-bit: the grid of a 32-bit policy overflows near 2^31
  const std::size_t size = text.extent(0);
  if (sa.extent(0) != size || lcp.extent(0) != size) throw InputError("ktext::lcp: text, sa and lcp differ in length");
  if (size == 0) return;
  const I n = static_cast<I>(size);
  try {
    const auto plcp = impl::uninitialized_view<I>(exec, "ktext::lcp::plcp", size);
    Kokkos::parallel_for(
        "ktext::lcp::phi", Policy(exec, 0, n), KOKKOS_LAMBDA(I i) { plcp(sa(i)) = i == 0 ? I(-1) : sa(i - 1); });
    // In place: position i reads only Phi(i) before writing PLCP[i] + i (0 when reducible).
    Kokkos::parallel_for(
        "ktext::lcp::irreducible", Policy(exec, 0, n), KOKKOS_LAMBDA(I i) {
          const I phi = plcp(i);
          if (phi < 0) {
            plcp(i) = i;  // the smallest suffix: lcp 0
            return;
          }
          if (i > 0 && phi > 0 && text(i - 1) == text(phi - 1)) {
            plcp(i) = 0;  // reducible: filled in by the running maximum
            return;
          }
          I l = 0;
          const I limit = n - (i > phi ? i : phi);
          while (l < limit && text(i + l) == text(phi + l)) ++l;
          plcp(i) = l + i;
        });
    inclusive_scan_max(exec, plcp, plcp);
    Kokkos::parallel_for(
        "ktext::lcp::order", Policy(exec, 0, n), KOKKOS_LAMBDA(I k) { lcp(k) = k == 0 ? I(0) : plcp(sa(k)) - sa(k); });
    exec.fence("ktext::lcp: scratch released");
  } catch (const std::bad_alloc& e) {
    impl::throw_out_of_memory("ktext::lcp", e);
  }
}

/// \brief As above on the default instance of the lcp view's execution space; waits for the result.
template <class TextView, class SAView, class LcpView>
void lcp(const TextView& text, const SAView& sa, const LcpView& lcp) {
  using Exec = typename LcpView::execution_space;
  ktext::lcp(Exec{}, text, sa, lcp);
  Exec{}.fence("ktext::lcp");
}

}  // namespace ktext
