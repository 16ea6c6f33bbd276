// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file scan.hpp
/// \brief Prefix sums and prefix maxima over rank-1 views.
///
/// Portable versions use Kokkos::parallel_scan; on CUDA they call cub::DeviceScan on the
/// instance's stream. Input and output may be the same view (in-place scan).

#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/impl/ktext_region.hpp"
#include "ktext/primitives/impl/ktext_scan_spec.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "ktext/cuda/ktext_cuda_scan.hpp"
#endif

namespace ktext {

/// \brief out[i] = in[0] + ... + in[i-1]; returns the sum of all inputs (this waits for the
/// result, like Kokkos::parallel_scan with a return value).
/// \tparam ExecSpace Kokkos execution space; both views must be accessible from it.
/// \complexity O(n) work.
template <class ExecSpace, class InView, class OutView>
typename OutView::non_const_value_type exclusive_scan(const ExecSpace& exec, const InView& in, const OutView& out) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<OutView>, "ktext::exclusive_scan: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::exclusive_scan: views must be accessible from the execution space");
  using T = typename InView::non_const_value_type;
  using U = typename OutView::non_const_value_type;
  if (out.extent(0) < in.extent(0)) throw InputError("ktext::exclusive_scan: output shorter than input");
  using Impl = impl::Scan<ExecSpace, T, U>;
  Kokkos::Profiling::ScopedRegion region(impl::region_name<Impl>("ktext::exclusive_scan"));
  if (in.extent(0) == 0) return U(0);
  return Impl::exclusive_sum(exec, impl::unmanaged<ExecSpace>(in, "ktext::exclusive_scan"),
                             impl::unmanaged<ExecSpace>(out, "ktext::exclusive_scan"));
}

/// \brief out[i] = in[0] + ... + in[i]. Does not block.
/// \complexity O(n) work.
template <class ExecSpace, class InView, class OutView>
void inclusive_scan(const ExecSpace& exec, const InView& in, const OutView& out) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<OutView>, "ktext::inclusive_scan: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::inclusive_scan: views must be accessible from the execution space");
  if (out.extent(0) < in.extent(0)) throw InputError("ktext::inclusive_scan: output shorter than input");
  using Impl = impl::Scan<ExecSpace, typename InView::non_const_value_type, typename OutView::non_const_value_type>;
  Kokkos::Profiling::ScopedRegion region(impl::region_name<Impl>("ktext::inclusive_scan"));
  if (in.extent(0) == 0) return;
  Impl::template inclusive<impl::ScanOp::Sum>(exec, impl::unmanaged<ExecSpace>(in, "ktext::inclusive_scan"),
                                              impl::unmanaged<ExecSpace>(out, "ktext::inclusive_scan"));
}

/// \brief out[i] = max(in[0], ..., in[i]) for non-negative inputs (0 is the identity). Does not block.
/// \complexity O(n) work.
template <class ExecSpace, class InView, class OutView>
void inclusive_scan_max(const ExecSpace& exec, const InView& in, const OutView& out) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<OutView>, "ktext::inclusive_scan_max: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::inclusive_scan_max: views must be accessible from the execution space");
  if (out.extent(0) < in.extent(0)) throw InputError("ktext::inclusive_scan_max: output shorter than input");
  using Impl = impl::Scan<ExecSpace, typename InView::non_const_value_type, typename OutView::non_const_value_type>;
  Kokkos::Profiling::ScopedRegion region(impl::region_name<Impl>("ktext::inclusive_scan_max"));
  if (in.extent(0) == 0) return;
  Impl::template inclusive<impl::ScanOp::Max>(exec, impl::unmanaged<ExecSpace>(in, "ktext::inclusive_scan_max"),
                                              impl::unmanaged<ExecSpace>(out, "ktext::inclusive_scan_max"));
}

/// \brief Generated inclusive scan with a consumer: for i in [0, n), s_i = make(0) op ... op
/// make(i), and apply(i, s_i) is called once per i. Nothing is materialized, so a scan that
/// feeds a scatter (ranks into an inverse array, say) is one pass over the data. Does not block.
/// \tparam T trivially copyable value.
/// \param exec the execution space instance.
/// \param n number of elements.
/// \param make device functor, make(i) for i in [0, n); it must not read what \p apply writes:
///        calls interleave across the range.
/// \param join associative functor with `T operator()(T, T)` and `T identity()`, both callable
///        on the device. It need not be commutative (a segmented operator may be): CUB's scan
///        and Kokkos' host scans keep the order. Kokkos' own scan on CUDA does not (it joins a
///        later partial into an earlier one), which only the tests' portable path takes there.
/// \param apply device functor, called as apply(i, s_i) once per i.
/// \complexity O(n) work, one pass.
template <class T, class ExecSpace, class Make, class Join, class Apply>
void inclusive_scan_apply(const ExecSpace& exec, std::size_t n, Make make, Join join, Apply apply) {
  static_assert(std::is_trivially_copyable_v<T>, "ktext::inclusive_scan_apply: T must be trivially copyable");
  using Impl = impl::ScanApply<ExecSpace>;
  Kokkos::Profiling::ScopedRegion region(impl::region_name<Impl>("ktext::inclusive_scan_apply"));
  if (n == 0) return;
  Impl::template apply<T>(exec, n, make, join, apply);
}

}  // namespace ktext
