// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file select.hpp
/// \brief Stream compaction: keep the elements (or indices) that satisfy a predicate, in order.
///
/// Returns the number kept, which means waiting for the result. Portable single-pass
/// Kokkos::parallel_scan; cub::DeviceSelect on CUDA.
///
/// The output needs room for every kept element. Sized for the worst case (every element
/// kept) it is always enough; a caller that knows the count (from a reduction, say) may pass a
/// shorter one: nothing is written past its end, and InputError is thrown, after the work, when
/// more elements were kept than it holds.

#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/impl/ktext_region.hpp"
#include "ktext/primitives/impl/ktext_select_spec.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "ktext/cuda/ktext_cuda_select.hpp"
#endif

namespace ktext {

namespace impl {
/// Runs the selection under the primitive's region and checks the count against the output.
template <class ExecSpace, class Keep, class Get, class Out>
std::size_t select_checked(const ExecSpace& exec, const char* name, std::size_t n, Keep keep, Get get, const Out& out) {
  using Impl = Select<ExecSpace>;
  Kokkos::Profiling::ScopedRegion region(region_name<Impl>(name));
  if (n == 0) return 0;
  const std::size_t count = Impl::apply(exec, n, keep, get, out);
  if (count > out.extent(0))
    throw InputError(std::string(name) + ": " + std::to_string(count) + " elements kept, the output holds " +
                     std::to_string(out.extent(0)));
  return count;
}
}  // namespace impl

/// \brief out receives, in order, every in[i] with flags[i] != 0; returns how many.
/// \p out must not alias \p in; see above for its length.
/// \complexity O(n) work, one pass.
template <class ExecSpace, class InView, class FlagView, class OutView>
std::size_t select_flagged(const ExecSpace& exec, const InView& in, const FlagView& flags, const OutView& out) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<FlagView> && impl::is_rank1_view_v<OutView>,
                "ktext::select_flagged: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, FlagView> &&
                    impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::select_flagged: views must be accessible from the execution space");
  static_assert(impl::is_writable_view_v<OutView>, "ktext::select_flagged: out must not be const");
  const std::size_t n = in.extent(0);
  if (flags.extent(0) != n) throw InputError("ktext::select_flagged: in and flags differ in length");
  auto i_ = impl::unmanaged<ExecSpace>(in, "ktext::select_flagged");
  auto f_ = impl::unmanaged<ExecSpace>(flags, "ktext::select_flagged");
  auto o_ = impl::unmanaged<ExecSpace>(out, "ktext::select_flagged");
  return impl::select_checked(
      exec, "ktext::select_flagged", n, KOKKOS_LAMBDA(std::size_t i) { return f_(i) != 0; },
      KOKKOS_LAMBDA(std::size_t i) { return i_(i); }, o_);
}

/// \brief out receives, in order, every in[i] with pred(in[i]); returns how many.
/// \p pred is a copyable functor callable on the device (KOKKOS_FUNCTION / KOKKOS_LAMBDA).
/// \p out must not alias \p in; see above for its length.
/// \complexity O(n) work, one pass.
template <class ExecSpace, class InView, class OutView, class Pred>
std::size_t select_if(const ExecSpace& exec, const InView& in, const OutView& out, Pred pred) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<OutView>, "ktext::select_if: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::select_if: views must be accessible from the execution space");
  static_assert(impl::is_writable_view_v<OutView>, "ktext::select_if: out must not be const");
  auto i_ = impl::unmanaged<ExecSpace>(in, "ktext::select_if");
  auto o_ = impl::unmanaged<ExecSpace>(out, "ktext::select_if");
  return impl::select_checked(
      exec, "ktext::select_if", in.extent(0), KOKKOS_LAMBDA(std::size_t i) { return pred(i_(i)); },
      KOKKOS_LAMBDA(std::size_t i) { return i_(i); }, o_);
}

/// \brief out receives, in order, every in[i] with pred(i): the predicate sees the index, so it
/// can look at neighbours or other arrays (keep the members of non-singleton groups, say).
/// Returns how many. \p pred is a copyable device functor taking a std::size_t index.
/// \p out must not alias \p in; see above for its length.
/// \complexity O(n) work, one pass.
template <class ExecSpace, class InView, class OutView, class Pred>
std::size_t select_by_index(const ExecSpace& exec, const InView& in, const OutView& out, Pred pred) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<OutView>,
                "ktext::select_by_index: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::select_by_index: views must be accessible from the execution space");
  static_assert(impl::is_writable_view_v<OutView>, "ktext::select_by_index: out must not be const");
  auto i_ = impl::unmanaged<ExecSpace>(in, "ktext::select_by_index");
  auto o_ = impl::unmanaged<ExecSpace>(out, "ktext::select_by_index");
  return impl::select_checked(
      exec, "ktext::select_by_index", in.extent(0), pred, KOKKOS_LAMBDA(std::size_t i) { return i_(i); }, o_);
}

/// \brief out receives, in increasing order, every index i in [0, n) with pred(i); returns how
/// many. See above for the length of \p out.
/// \complexity O(n) work, one pass.
template <class ExecSpace, class OutView, class Pred>
std::size_t select_indices(const ExecSpace& exec, std::size_t n, const OutView& out, Pred pred) {
  static_assert(impl::is_rank1_view_v<OutView> && impl::accessible_from_v<ExecSpace, OutView>,
                "ktext::select_indices: out must be a rank-1 view accessible from the execution space");
  static_assert(impl::is_writable_view_v<OutView>, "ktext::select_indices: out must not be const");
  static_assert(std::is_integral_v<typename OutView::value_type>, "ktext::select_indices: out must hold integers");
  using T = typename OutView::non_const_value_type;
  auto o_ = impl::unmanaged<ExecSpace>(out, "ktext::select_indices");
  return impl::select_checked(
      exec, "ktext::select_indices", n, pred, KOKKOS_LAMBDA(std::size_t i) { return static_cast<T>(i); }, o_);
}

}  // namespace ktext
