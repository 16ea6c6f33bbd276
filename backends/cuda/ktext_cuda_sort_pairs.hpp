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
  static constexpr char label[] = "ktext::sort_pairs[CUB]";
  /// The CUB call of a sort of \p n pairs by bits [begin_bit, end_bit), for cuda::cub_call.
  static auto sort(cub::DoubleBuffer<K>& k, cub::DoubleBuffer<V>& v, std::size_t n, int begin_bit, int end_bit,
                   cudaStream_t stream) {
    return [&k, &v, n, begin_bit, end_bit, stream](void* temp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, static_cast<std::int64_t>(n), begin_bit, end_bit, stream);
    };
  }
  static bool apply(const Kokkos::Cuda& exec, Unmanaged<K, Kokkos::Cuda> keys, Unmanaged<V, Kokkos::Cuda> vals,
                    Unmanaged<K, Kokkos::Cuda> keys_tmp, Unmanaged<V, Kokkos::Cuda> vals_tmp, int begin_bit,
                    int end_bit) {
    cub::DoubleBuffer<K> k(keys.data(), keys_tmp.data());
    cub::DoubleBuffer<V> v(vals.data(), vals_tmp.data());
    cuda::cub_call(exec, label, sort(k, v, keys.extent(0), begin_bit, end_bit, exec.cuda_stream()));
    return k.selector != 0;
  }
  /// Grows the stream's CUB storage (cuda::temp_storage) to what a sort of \p n pairs by bits
  /// [0, end_bit) takes, so that the sorts that follow find it large enough: a growth between
  /// two sorts frees the storage the first used, and cudaFree waits for the device. On an H200
  /// the two key pieces of DC3's sample of 50 MB of XML needed 5.2 and 10.5 MB, and growing
  /// between them left the device idle for 0.31 ms (CUPTI trace, 2026-11-27).
  static void reserve(const Kokkos::Cuda& exec, std::size_t n, int end_bit) {
    cub::DoubleBuffer<K> k(nullptr, nullptr);
    cub::DoubleBuffer<V> v(nullptr, nullptr);
    auto size = sort(k, v, n, 0, end_bit, exec.cuda_stream());
    (void)cuda::cub_storage(exec, label, size);
  }
};

}  // namespace ktext::impl
