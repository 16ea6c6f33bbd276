// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Stream compaction on CUDA: cub::DeviceSelect::FlaggedIf over a counting iterator, so the
// predicate sees the index and the output value is computed from it (no flag array).

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "ktext/cuda/ktext_cuda_check.hpp"
#include "ktext/primitives/impl/ktext_select_spec.hpp"

namespace ktext::impl {

template <>
struct select_cub_avail<Kokkos::Cuda> : std::true_type {};

namespace cuda {
// Adapters from the portable index functors to CUB's 64-bit item indices.
template <class Get, class T>
struct ValueOf {
  Get get;
  __host__ __device__ T operator()(std::int64_t i) const { return static_cast<T>(get(static_cast<std::size_t>(i))); }
};
template <class Keep>
struct KeepIndex {
  Keep keep;
  __host__ __device__ bool operator()(std::int64_t i) const { return keep(static_cast<std::size_t>(i)); }
};
template <class T>
struct BoundedStore {
  T* out;
  std::int64_t capacity;
  template <class Index>
  __host__ __device__ void operator()(Index i, const T& v) const {
    if (std::int64_t(i) < capacity) out[i] = v;
  }
};
}  // namespace cuda

template <>
struct Select<Kokkos::Cuda, true> {
  static constexpr char path[] = "[CUB]";
  template <class Keep, class Get, class Out>
  static std::size_t apply(const Kokkos::Cuda& exec, std::size_t n, Keep keep, Get get, Out out) {
    using T = typename Out::non_const_value_type;
    const auto count = static_cast<std::int64_t>(n);
    thrust::counting_iterator<std::int64_t> index(0);
    auto values = thrust::make_transform_iterator(index, cuda::ValueOf<Get, T>{get});
    // The raw pointer when out holds the worst case (CUB's fastest stores); a bounded store
    // otherwise, which drops writes past the end as the portable version does.
    std::int64_t* counter = nullptr;
    auto select = [&](auto sink) {
      cuda::cub_call(exec, "ktext::select[CUB]", [&](void* temp, std::size_t& bytes) {
        // The selected count lives in the first 256 bytes of the temporary storage.
        constexpr std::size_t reserved = 256;
        if (temp == nullptr) {
          const cudaError_t e = cub::DeviceSelect::FlaggedIf(nullptr, bytes, values, index, sink, counter, count,
                                                             cuda::KeepIndex<Keep>{keep}, exec.cuda_stream());
          bytes += reserved;
          return e;
        }
        counter = static_cast<std::int64_t*>(temp);
        std::size_t cub_bytes = bytes - reserved;
        return cub::DeviceSelect::FlaggedIf(static_cast<char*>(temp) + reserved, cub_bytes, values, index, sink,
                                            counter, count, cuda::KeepIndex<Keep>{keep}, exec.cuda_stream());
      });
    };
    if (out.extent(0) >= n)
      select(out.data());
    else
      select(thrust::make_tabulate_output_iterator(cuda::BoundedStore<T>{out.data(), std::int64_t(out.extent(0))}));
    Kokkos::View<std::int64_t, Kokkos::CudaSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> selected(counter);
    std::int64_t result = 0;
    Kokkos::deep_copy(exec, Kokkos::View<std::int64_t, Kokkos::HostSpace>(&result), selected);
    exec.fence("ktext::select[CUB]: count");
    return static_cast<std::size_t>(result);
  }
};

}  // namespace ktext::impl
