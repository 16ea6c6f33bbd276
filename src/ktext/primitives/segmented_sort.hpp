// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file segmented_sort.hpp
/// \brief Key-value sort inside segments: each [offsets[s], offsets[s+1]) is sorted by key on
/// its own. Not stable: values of equal keys within a segment may come out in any order.
///
/// Portable: KokkosSparse::sort_crs_matrix (Kokkos Kernels). CUDA: cub::DeviceSegmentedSort where it
/// measured faster (the sizes are in segmented_sort_pairs).

#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/impl/ktext_region.hpp"
#include "ktext/primitives/impl/ktext_segmented_sort_spec.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "ktext/cuda/ktext_cuda_segmented_sort.hpp"
#endif

namespace ktext {

namespace impl {

/// The offset, key and value types segmented_sort_pairs takes.
template <class O, class K, class V>
constexpr void check_segmented_types() {
  static_assert(std::is_same_v<O, std::int32_t> || std::is_same_v<O, std::int64_t>,
                "ktext::segmented_sort_pairs: offsets must be int32_t or int64_t");
  static_assert(std::is_same_v<K, std::uint32_t> || std::is_same_v<K, std::uint64_t>,
                "ktext::segmented_sort_pairs: keys must be uint32_t or uint64_t");
  static_assert(std::is_integral_v<V> && (sizeof(V) == 4 || sizeof(V) == 8),
                "ktext::segmented_sort_pairs: values must be 4- or 8-byte integers");
}

/// Whether the backend has a vendor segmented sort (CUB on CUDA).
template <class ExecSpace, class O, class K, class V>
inline constexpr bool has_vendor_segmented_sort =
    !std::is_same_v<SegmentedSort<ExecSpace, O, K, V>, SegmentedSort<ExecSpace, O, K, V, false>>;

/// Whether the vendor segmented sort takes \p n elements in \p offsets_len - 1 segments.
/// It wins only in parts of the range (perf/bench_primitives, H100, CUDA 13.0, ms CUB vs Kokkos
/// Kernels): short segments (mean 32) 0.082 vs 0.045 at 2^16, 0.36 vs 0.18 at 2^21, 0.69 vs 1.15
/// at 2^24; 8 long segments 0.11 vs 0.53 at 2^16, 1.8 vs 1.5 at 2^21, 14.3 vs 4.6 at 2^24. So
/// CUB takes large inputs of short segments and small inputs of long ones; Kokkos Kernels the
/// rest.
template <class ExecSpace, class O, class K, class V>
bool segmented_sort_by_vendor(std::uint64_t n, std::uint64_t offsets_len) {
  if constexpr (!has_vendor_segmented_sort<ExecSpace, O, K, V>) {
    return false;
  } else {
    const std::uint64_t segments = offsets_len > 1 ? offsets_len - 1 : 1;
    const bool short_segments = n / segments <= 256;
    return short_segments ? n >= (std::uint64_t(1) << 23) : n < (std::uint64_t(1) << 20);
  }
}

/// As ktext::segmented_sort_pairs over short segments that cover every element (offsets[0] = 0,
/// offsets[last] = n), with the caller's scratch of the same length: returns true when the
/// result is in \p keys_tmp / \p vals_tmp. The vendor sort where there is one (it alternates
/// between the buffers); else one thread per segment, in place, the scratch left untouched
/// (has_vendor_segmented_sort says which). Does not block.
template <class ExecSpace, class O, class K, class V>
bool segmented_sort_pairs_in_either(const ExecSpace& exec, const Unmanaged<const O, ExecSpace>& offsets,
                                    const Unmanaged<K, ExecSpace>& keys, const Unmanaged<V, ExecSpace>& vals,
                                    const Unmanaged<K, ExecSpace>& keys_tmp, const Unmanaged<V, ExecSpace>& vals_tmp) {
  check_segmented_types<O, K, V>();
  const std::size_t n = keys.extent(0);
  if (vals.extent(0) != n || keys_tmp.extent(0) != n || vals_tmp.extent(0) != n)
    throw InputError("ktext::segmented_sort_pairs: keys, values and scratch differ in length");
  if (offsets.extent(0) < 2 || n < 2) return false;
  using Impl = SegmentedSort<ExecSpace, O, K, V>;
  Kokkos::Profiling::ScopedRegion region(std::string("ktext::segmented_sort_pairs") + Impl::in_either_path);
  return Impl::apply_in_either(exec, offsets, keys, vals, keys_tmp, vals_tmp);
}

}  // namespace impl

/// \brief Sorts \p keys (and \p vals alongside) within each segment of \p offsets.
/// Elements outside [offsets[0], offsets[num_segments]) are left as they are. Does not block.
/// \param exec the execution space instance; the views must be accessible from it.
/// \param offsets num_segments + 1 non-decreasing offsets into keys (int32_t or int64_t).
/// \param keys uint32_t or uint64_t keys.
/// \param vals 4- or 8-byte integer values.
template <class ExecSpace, class OffsetView, class KeyView, class ValView>
void segmented_sort_pairs(const ExecSpace& exec, const OffsetView& offsets, const KeyView& keys, const ValView& vals) {
  static_assert(impl::is_rank1_view_v<OffsetView> && impl::is_rank1_view_v<KeyView> && impl::is_rank1_view_v<ValView>,
                "ktext::segmented_sort_pairs: rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, OffsetView> && impl::accessible_from_v<ExecSpace, KeyView> &&
                    impl::accessible_from_v<ExecSpace, ValView>,
                "ktext::segmented_sort_pairs: views must be accessible from the execution space");
  using O = typename OffsetView::non_const_value_type;
  using K = typename KeyView::value_type;
  using V = typename ValView::value_type;
  impl::check_segmented_types<O, K, V>();
  if (vals.extent(0) != keys.extent(0)) throw InputError("ktext::segmented_sort_pairs: keys and values differ in length");
  auto run = [&](auto impl_tag) {
    using Impl = decltype(impl_tag);
    Kokkos::Profiling::ScopedRegion region(impl::region_name<Impl>("ktext::segmented_sort_pairs"));
    if (offsets.extent(0) < 2 || keys.extent(0) < 2) return;
    Impl::apply(exec, impl::unmanaged<ExecSpace>(offsets, "ktext::segmented_sort_pairs"),
                impl::unmanaged<ExecSpace>(keys, "ktext::segmented_sort_pairs"),
                impl::unmanaged<ExecSpace>(vals, "ktext::segmented_sort_pairs"));
  };
  if (impl::segmented_sort_by_vendor<ExecSpace, O, K, V>(keys.extent(0), offsets.extent(0)))
    run(impl::SegmentedSort<ExecSpace, O, K, V>{});
  else
    run(impl::SegmentedSort<ExecSpace, O, K, V, false>{});
}

}  // namespace ktext
