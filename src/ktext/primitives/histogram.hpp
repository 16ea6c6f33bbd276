// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file histogram.hpp
/// \brief Counts of each value of an unsigned integer view (symbol frequencies).

#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/impl/ktext_histogram_spec.hpp"
#include "ktext/primitives/impl/ktext_region.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "ktext/cuda/ktext_cuda_histogram.hpp"
#endif

namespace ktext {

/// \brief bins[v] = number of i with in[i] == v, for v < bins.extent(0); values at or above
/// bins.extent(0) are not counted. Does not block.
/// \tparam InView rank-1 view of uint8_t, uint16_t or uint32_t. \p bins holds uint64_t counts.
/// \complexity O(n + bins.extent(0)) work.
template <class ExecSpace, class InView, class BinView>
void histogram(const ExecSpace& exec, const InView& in, const BinView& bins) {
  static_assert(impl::is_rank1_view_v<InView> && impl::is_rank1_view_v<BinView>, "ktext::histogram: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, InView> && impl::accessible_from_v<ExecSpace, BinView>,
                "ktext::histogram: views must be accessible from the execution space");
  using T = typename InView::non_const_value_type;
  static_assert(std::is_unsigned_v<T> && sizeof(T) <= 4, "ktext::histogram: values must be 8-, 16- or 32-bit unsigned");
  static_assert(std::is_same_v<typename BinView::value_type, std::uint64_t>, "ktext::histogram: bins must be uint64_t");
  using Impl = impl::Histogram<ExecSpace, T>;
  Kokkos::Profiling::ScopedRegion region(impl::region_name<Impl>("ktext::histogram"));
  if (bins.extent(0) == 0) return;
  Impl::apply(exec, impl::unmanaged<ExecSpace>(in, "ktext::histogram"),
              impl::unmanaged<ExecSpace>(bins, "ktext::histogram"));
}

}  // namespace ktext
