#pragma once
// Scans on CUDA: cub::DeviceScan on the instance's stream (in-place allowed).

#include <cub/device/device_scan.cuh>
#include <cuda/functional>

#include "cuda/ktext_cuda_check.hpp"
#include "ktext/primitives/impl/ktext_scan_spec.hpp"

namespace ktext::impl {

template <class T>
struct scan_cub_avail<Kokkos::Cuda, T> : std::true_type {};

template <class T, class U>
struct Scan<Kokkos::Cuda, T, U, true> {
  using In = Unmanaged<const T, Kokkos::Cuda>;
  using Out = Unmanaged<U, Kokkos::Cuda>;

  static U exclusive_sum(const Kokkos::Cuda& exec, In in, Out out) {
    Kokkos::Profiling::ScopedRegion region("ktext::exclusive_scan[CUB]");
    const auto n = static_cast<std::int64_t>(in.extent(0));
    // The total is last input + last output; read the input first since out may alias in.
    T last_in = 0;
    U last_out = 0;
    Kokkos::deep_copy(exec, Kokkos::View<T, Kokkos::HostSpace>(&last_in),
                      Kokkos::View<const T, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>(in.data() + (n - 1)));
    if constexpr (std::is_same_v<T, U>) {
      run(exec, "ktext::exclusive_scan[CUB]", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::ExclusiveSum(t, b, in.data(), out.data(), n, exec.cuda_stream());
      });
    } else {
      run(exec, "ktext::exclusive_scan[CUB]", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::ExclusiveScan(t, b, in.data(), out.data(), ::cuda::std::plus<U>{}, U(0), n,
                                              exec.cuda_stream());
      });
    }
    Kokkos::deep_copy(exec, Kokkos::View<U, Kokkos::HostSpace>(&last_out),
                      Kokkos::View<const U, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>(out.data() + (n - 1)));
    exec.fence("ktext::exclusive_scan[CUB]: total");
    return static_cast<U>(last_in + last_out);
  }

  template <ScanOp Op>
  static void inclusive(const Kokkos::Cuda& exec, In in, Out out) {
    const auto n = static_cast<std::int64_t>(in.extent(0));
    if constexpr (Op == ScanOp::Sum) {
      run(exec, "ktext::inclusive_scan[CUB]", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::InclusiveScan(t, b, in.data(), out.data(), ::cuda::std::plus<U>{}, n, exec.cuda_stream());
      });
    } else {
      run(exec, "ktext::inclusive_scan_max[CUB]", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::InclusiveScan(t, b, in.data(), out.data(), ::cuda::maximum<U>{}, n, exec.cuda_stream());
      });
    }
  }

 private:
  template <class Call>
  static void run(const Kokkos::Cuda& exec, const char* label, Call call) {
    Kokkos::Profiling::ScopedRegion region(label);
    std::size_t bytes = 0;
    cuda::check(call(nullptr, bytes), label);
    auto temp = cuda::temp_storage(exec, label, bytes);
    cuda::check(call(temp.data(), bytes), label);
  }
};

}  // namespace ktext::impl
