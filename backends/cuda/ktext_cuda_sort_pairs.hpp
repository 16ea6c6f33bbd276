// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// sort_pairs on CUDA: cub::DeviceRadixSort::SortPairs (onesweep, stable) on the instance's stream,
// with the caller's scratch buffers as the alternate halves of CUB's double buffers.

#include <cub/device/device_radix_sort.cuh>

#include "ktext/cuda/ktext_cuda_check.hpp"
#include "ktext/primitives/impl/ktext_sort_pairs_spec.hpp"

namespace ktext::impl {

template <class K, class V>
struct sort_pairs_cub_avail<Kokkos::Cuda, K, V> : std::true_type {};

template <class K, class V>
struct SortPairs<Kokkos::Cuda, K, V, true> {
  static bool apply(const Kokkos::Cuda& exec, Unmanaged<K, Kokkos::Cuda> keys, Unmanaged<V, Kokkos::Cuda> vals,
                    Unmanaged<K, Kokkos::Cuda> keys_tmp, Unmanaged<V, Kokkos::Cuda> vals_tmp, int begin_bit, int end_bit) {
    Kokkos::Profiling::ScopedRegion region("ktext::sort_pairs[CUB]");
    const auto n = static_cast<std::int64_t>(keys.extent(0));
    cub::DoubleBuffer<K> k(keys.data(), keys_tmp.data());
    cub::DoubleBuffer<V> v(vals.data(), vals_tmp.data());
    std::size_t bytes = 0;
    cuda::check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, begin_bit, end_bit, exec.cuda_stream()),
                "ktext::sort_pairs[CUB]");
    auto temp = cuda::temp_storage(exec, "ktext::sort_pairs::temp[CUB]", bytes);
    cuda::check(cub::DeviceRadixSort::SortPairs(temp.data(), bytes, k, v, n, begin_bit, end_bit, exec.cuda_stream()),
                "ktext::sort_pairs[CUB]");
    return k.selector != 0;
  }
};

}  // namespace ktext::impl
