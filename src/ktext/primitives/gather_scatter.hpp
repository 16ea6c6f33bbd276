// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file gather_scatter.hpp
/// \brief dst[i] = src[idx[i]] (gather) and dst[idx[i]] = src[i] (scatter).
///
/// Plain parallel loops on every backend: there is nothing a vendor library does better.
/// Indices are not range-checked on the device (that would cost a pass); callers guarantee them.

#include "ktext/core/range.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/impl/ktext_region.hpp"

namespace ktext {

/// \brief dst[i] = src[idx[i]] for i < idx.extent(0). Does not block.
/// \complexity O(n) work for n = idx.extent(0).
template <class ExecSpace, class SrcView, class IdxView, class DstView>
void gather(const ExecSpace& exec, const SrcView& src, const IdxView& idx, const DstView& dst) {
  static_assert(impl::accessible_from_v<ExecSpace, SrcView> && impl::accessible_from_v<ExecSpace, IdxView> &&
                    impl::accessible_from_v<ExecSpace, DstView>,
                "ktext::gather: views must be accessible from the execution space");
  if (dst.extent(0) < idx.extent(0)) throw InputError("ktext::gather: destination shorter than the indices");
  Kokkos::Profiling::ScopedRegion region("ktext::gather[Kokkos]");
  Kokkos::parallel_for(
      "ktext::gather[Kokkos]", impl::Range<ExecSpace>(exec, 0, idx.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { dst(i) = src(idx(i)); });
}

/// \brief dst[idx[i]] = src[i] for i < idx.extent(0). Does not block.
/// \complexity O(n) work for n = idx.extent(0).
template <class ExecSpace, class SrcView, class IdxView, class DstView>
void scatter(const ExecSpace& exec, const SrcView& src, const IdxView& idx, const DstView& dst) {
  static_assert(impl::accessible_from_v<ExecSpace, SrcView> && impl::accessible_from_v<ExecSpace, IdxView> &&
                    impl::accessible_from_v<ExecSpace, DstView>,
                "ktext::scatter: views must be accessible from the execution space");
  if (src.extent(0) < idx.extent(0)) throw InputError("ktext::scatter: source shorter than the indices");
  Kokkos::Profiling::ScopedRegion region("ktext::scatter[Kokkos]");
  Kokkos::parallel_for(
      "ktext::scatter[Kokkos]", impl::Range<ExecSpace>(exec, 0, idx.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { dst(idx(i)) = src(i); });
}

}  // namespace ktext
