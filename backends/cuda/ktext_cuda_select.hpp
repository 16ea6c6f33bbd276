// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Stream compaction on CUDA: cub::DeviceSelect::FlaggedIf over a counting iterator, so the
// predicate sees the index and the output value is computed from it (no flag array).

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
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
}  // namespace cuda

template <>
struct Select<Kokkos::Cuda, true> {
  template <class Keep, class Get, class Out>
  static std::size_t apply(const Kokkos::Cuda& exec, std::size_t n, Keep keep, Get get, Out out) {
    Kokkos::Profiling::ScopedRegion region("ktext::select[CUB]");
    using T = typename Out::non_const_value_type;
    const auto count = static_cast<std::int64_t>(n);
    thrust::counting_iterator<std::int64_t> index(0);
    auto values = thrust::make_transform_iterator(index, cuda::ValueOf<Get, T>{get});
    std::size_t bytes = 0;
    std::int64_t* counter = nullptr;
    cuda::check(cub::DeviceSelect::FlaggedIf(nullptr, bytes, values, index, out.data(), counter, count,
                                             cuda::KeepIndex<Keep>{keep}, exec.cuda_stream()),
                "ktext::select[CUB]");
    // The selected count lives in the first 256 bytes of the temporary storage.
    auto temp = cuda::temp_storage(exec, "select", bytes + 256);
    counter = reinterpret_cast<std::int64_t*>(temp.data());
    cuda::check(cub::DeviceSelect::FlaggedIf(temp.data() + 256, bytes, values, index, out.data(), counter, count,
                                             cuda::KeepIndex<Keep>{keep}, exec.cuda_stream()),
                "ktext::select[CUB]");
    Kokkos::View<std::int64_t, Kokkos::CudaSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> selected(counter);
    std::int64_t result = 0;
    Kokkos::deep_copy(exec, Kokkos::View<std::int64_t, Kokkos::HostSpace>(&result), selected);
    exec.fence("ktext::select[CUB]: count");
    return static_cast<std::size_t>(result);
  }

};

}  // namespace ktext::impl
