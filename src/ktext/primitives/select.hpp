// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file select.hpp
/// \brief Stream compaction: keep the elements (or indices) that satisfy a predicate, in order.
///
/// Returns the number kept, which means waiting for the result. Portable single-pass
/// Kokkos::parallel_scan; cub::DeviceSelect on CUDA.

#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/impl/ktext_select_spec.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "ktext/cuda/ktext_cuda_select.hpp"
#endif

namespace ktext {

/// \brief out receives, in order, every in[i] with flags[i] != 0; returns how many.
/// \p out must hold in.extent(0) elements (the worst case) and must not alias \p in.
/// \complexity O(n) work, one pass.
template <class ExecSpace, class InView, class FlagView, class OutView>
std::size_t select_flagged(const ExecSpace& exec, const InView& in, const FlagView& flags, const OutView& out) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<FlagView> && impl::is_rank1_view_v<OutView>,
                "ktext::select_flagged: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, FlagView> &&
                    impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::select_flagged: views must be accessible from the execution space");
  const std::size_t n = in.extent(0);
  if (flags.extent(0) != n || out.extent(0) < n) throw InputError("ktext::select_flagged: view lengths differ");
  if (n == 0) return 0;
  auto i_ = impl::unmanaged<ExecSpace>(in, "ktext::select_flagged");
  auto f_ = impl::unmanaged<ExecSpace>(flags, "ktext::select_flagged");
  auto o_ = impl::unmanaged<ExecSpace>(out, "ktext::select_flagged");
  return impl::Select<ExecSpace>::apply(
      exec, n, KOKKOS_LAMBDA(std::size_t i) { return f_(i) != 0; }, KOKKOS_LAMBDA(std::size_t i) { return i_(i); }, o_);
}

/// \brief out receives, in order, every in[i] with pred(in[i]); returns how many.
/// \p pred is a copyable functor callable on the device (KOKKOS_FUNCTION / KOKKOS_LAMBDA).
/// \complexity O(n) work, one pass.
template <class ExecSpace, class InView, class OutView, class Pred>
std::size_t select_if(const ExecSpace& exec, const InView& in, const OutView& out, Pred pred) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<OutView>, "ktext::select_if: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::select_if: views must be accessible from the execution space");
  const std::size_t n = in.extent(0);
  if (out.extent(0) < n) throw InputError("ktext::select_if: output shorter than input");
  if (n == 0) return 0;
  auto i_ = impl::unmanaged<ExecSpace>(in, "ktext::select_if");
  auto o_ = impl::unmanaged<ExecSpace>(out, "ktext::select_if");
  return impl::Select<ExecSpace>::apply(
      exec, n, KOKKOS_LAMBDA(std::size_t i) { return pred(i_(i)); }, KOKKOS_LAMBDA(std::size_t i) { return i_(i); }, o_);
}

/// \brief out receives, in increasing order, every index i in [0, n) with pred(i); returns how many.
/// \complexity O(n) work, one pass.
template <class ExecSpace, class OutView, class Pred>
std::size_t select_indices(const ExecSpace& exec, std::size_t n, const OutView& out, Pred pred) {
  static_assert(impl::is_rank1_view_v<OutView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::select_indices: out must be a rank-1 view accessible from the execution space");
  using T = typename OutView::non_const_value_type;
  if (out.extent(0) < n) throw InputError("ktext::select_indices: output shorter than n");
  if (n == 0) return 0;
  auto o_ = impl::unmanaged<ExecSpace>(out, "ktext::select_indices");
  return impl::Select<ExecSpace>::apply(
      exec, n, pred, KOKKOS_LAMBDA(std::size_t i) { return static_cast<T>(i); }, o_);
}

}  // namespace ktext
