// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file inverse_suffix_array.hpp
/// \brief ISA[SA[i]] = i: the rank of each suffix.

#include "ktext/core/range.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/view_checks.hpp"

namespace ktext {

/// \brief Writes the inverse of the permutation \p sa into \p isa (same length). \p sa must be
/// a permutation of [0, n) (check_suffix_array verifies that). Does not block.
/// \complexity O(n) work, one scatter.
template <class ExecSpace, class SAView, class ISAView>
void inverse_suffix_array(const ExecSpace& exec, const SAView& sa, const ISAView& isa) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>,
                "ktext::inverse_suffix_array: first argument must be an execution space");
  static_assert(impl::is_rank1_view_v<SAView> && impl::is_rank1_view_v<ISAView>, "ktext::inverse_suffix_array: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, SAView> && impl::accessible_from_v<ExecSpace, ISAView>,
                "ktext::inverse_suffix_array: views must be accessible from the execution space");
  using I = typename ISAView::non_const_value_type;
  if (isa.extent(0) != sa.extent(0)) throw InputError("ktext::inverse_suffix_array: sa and isa differ in length");
  Kokkos::parallel_for(
      "ktext::inverse_suffix_array", impl::Range<ExecSpace>(exec, 0, sa.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { isa(sa(i)) = static_cast<I>(i); });
}

/// \brief As above on the default instance of the isa view's execution space; waits for the result.
template <class SAView, class ISAView>
void inverse_suffix_array(const SAView& sa, const ISAView& isa) {
  using Exec = typename ISAView::execution_space;
  inverse_suffix_array(Exec{}, sa, isa);
  Exec{}.fence("ktext::inverse_suffix_array");
}

}  // namespace ktext
