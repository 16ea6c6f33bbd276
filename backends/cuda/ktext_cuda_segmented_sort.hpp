// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Segmented sort on CUDA: cub::DeviceSegmentedSort::SortPairs, which sizes its work per segment
// (small segments in warps, large ones with a radix sort) on the instance's stream.

#include <cub/device/device_segmented_sort.cuh>

#include "ktext/core/allocate.hpp"
#include "ktext/cuda/ktext_cuda_check.hpp"
#include "ktext/primitives/impl/ktext_segmented_sort_spec.hpp"

namespace ktext::impl {

template <class K, class V>
struct segmented_sort_cub_avail<Kokkos::Cuda, K, V> : std::true_type {};

template <class O, class K, class V>
struct SegmentedSort<Kokkos::Cuda, O, K, V, true> {
  static constexpr char path[] = "[CUB]";
  static constexpr char in_either_path[] = "[CUB]";
  static void apply(const Kokkos::Cuda& exec, Unmanaged<const O, Kokkos::Cuda> offsets, Unmanaged<K, Kokkos::Cuda> keys,
                    Unmanaged<V, Kokkos::Cuda> vals) {
    const auto n = static_cast<std::int64_t>(keys.extent(0));
    const auto segments = static_cast<std::int64_t>(offsets.extent(0) - 1);
    const auto kt = uninitialized_view<K>(exec, "ktext::segmented_sort_pairs::keys_tmp[CUB]", std::size_t(n));
    const auto vt = uninitialized_view<V>(exec, "ktext::segmented_sort_pairs::vals_tmp[CUB]", std::size_t(n));
    // Elements outside the segments must keep their values in whichever buffer CUB picks; when
    // the segments cover every element (the usual case) there is nothing to carry over.
    O bounds[2] = {0, 0};
    Kokkos::deep_copy(exec, Kokkos::View<O, Kokkos::HostSpace>(&bounds[0]),
                      Kokkos::View<const O, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>(offsets.data()));
    Kokkos::deep_copy(exec, Kokkos::View<O, Kokkos::HostSpace>(&bounds[1]),
                      Kokkos::View<const O, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>(offsets.data() + segments));
    exec.fence("ktext::segmented_sort_pairs[CUB]: bounds");
    if (bounds[0] != 0 || std::int64_t(bounds[1]) != n) {
      Kokkos::deep_copy(exec, kt, keys);
      Kokkos::deep_copy(exec, vt, vals);
    }
    cub::DoubleBuffer<K> k(keys.data(), kt.data());
    cub::DoubleBuffer<V> v(vals.data(), vt.data());
    cuda::cub_call(exec, "ktext::segmented_sort_pairs[CUB]", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceSegmentedSort::SortPairs(temp, bytes, k, v, n, segments, offsets.data(), offsets.data() + 1,
                                                 exec.cuda_stream());
    });
    if (k.selector != 0) Kokkos::deep_copy(exec, keys, Unmanaged<K, Kokkos::Cuda>(kt.data(), n));
    if (v.selector != 0) Kokkos::deep_copy(exec, vals, Unmanaged<V, Kokkos::Cuda>(vt.data(), n));
    exec.fence("ktext::segmented_sort_pairs[CUB]: scratch released");
  }
  /// With the caller's scratch as the alternate buffers, every element inside a segment (the
  /// segments cover all): returns true when the result is in \p keys_tmp / \p vals_tmp. Does
  /// not block.
  static bool apply_in_either(const Kokkos::Cuda& exec, Unmanaged<const O, Kokkos::Cuda> offsets,
                              Unmanaged<K, Kokkos::Cuda> keys, Unmanaged<V, Kokkos::Cuda> vals,
                              Unmanaged<K, Kokkos::Cuda> keys_tmp, Unmanaged<V, Kokkos::Cuda> vals_tmp) {
    const auto n = static_cast<std::int64_t>(keys.extent(0));
    const auto segments = static_cast<std::int64_t>(offsets.extent(0) - 1);
    cub::DoubleBuffer<K> k(keys.data(), keys_tmp.data());
    cub::DoubleBuffer<V> v(vals.data(), vals_tmp.data());
    cuda::cub_call(exec, "ktext::segmented_sort_pairs[CUB]", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceSegmentedSort::SortPairs(temp, bytes, k, v, n, segments, offsets.data(), offsets.data() + 1,
                                                 exec.cuda_stream());
    });
    return k.selector != 0;  // CUB sets both selectors from the same pass count
  }
};

}  // namespace ktext::impl
