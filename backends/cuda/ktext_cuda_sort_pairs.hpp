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
  static constexpr char path[] = "[CUB]";
  static bool apply(const Kokkos::Cuda& exec, Unmanaged<K, Kokkos::Cuda> keys, Unmanaged<V, Kokkos::Cuda> vals,
                    Unmanaged<K, Kokkos::Cuda> keys_tmp, Unmanaged<V, Kokkos::Cuda> vals_tmp, int begin_bit,
                    int end_bit) {
    const auto n = static_cast<std::int64_t>(keys.extent(0));
    cub::DoubleBuffer<K> k(keys.data(), keys_tmp.data());
    cub::DoubleBuffer<V> v(vals.data(), vals_tmp.data());
    cuda::cub_call(exec, "ktext::sort_pairs[CUB]", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, n, begin_bit, end_bit, exec.cuda_stream());
    });
    return k.selector != 0;
  }
};

}  // namespace ktext::impl
