// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Scans on CUDA: cub::DeviceScan on the instance's stream (in-place allowed).

#include <cub/device/device_scan.cuh>
#include <cub/version.cuh>
#if CUB_MAJOR_VERSION >= 3
#include <cub/device/dispatch/dispatch_scan.cuh>
#endif
#include <cuda/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "ktext/cuda/ktext_cuda_check.hpp"
#include "ktext/primitives/impl/ktext_scan_spec.hpp"

namespace ktext::impl {

template <class T>
struct scan_cub_avail<Kokkos::Cuda, T> : std::true_type {};

template <class T, class U>
struct Scan<Kokkos::Cuda, T, U, true> {
  static constexpr char path[] = "[CUB]";
  using In = Unmanaged<const T, Kokkos::Cuda>;
  using Out = Unmanaged<U, Kokkos::Cuda>;

  static U exclusive_sum(const Kokkos::Cuda& exec, In in, Out out) {
    const auto n = static_cast<std::int64_t>(in.extent(0));
    // The total is last input + last output; read the input first since out may alias in.
    T last_in = 0;
    U last_out = 0;
    Kokkos::deep_copy(exec, Kokkos::View<T, Kokkos::HostSpace>(&last_in),
                      Kokkos::View<const T, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>(in.data() + (n - 1)));
    if constexpr (std::is_same_v<T, U>) {
      cuda::cub_call(exec, "ktext::exclusive_scan[CUB]", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::ExclusiveSum(t, b, in.data(), out.data(), n, exec.cuda_stream());
      });
    } else {
      cuda::cub_call(exec, "ktext::exclusive_scan[CUB]", [&](void* t, std::size_t& b) {
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
      cuda::cub_call(exec, "ktext::inclusive_scan[CUB]", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::InclusiveScan(t, b, in.data(), out.data(), ::cuda::std::plus<U>{}, n, exec.cuda_stream());
      });
    } else {
      cuda::cub_call(exec, "ktext::inclusive_scan_max[CUB]", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::InclusiveScan(t, b, in.data(), out.data(), ::cuda::maximum<U>{}, n, exec.cuda_stream());
      });
    }
  }
};

namespace cuda {
template <class Make, class T>
struct Generate {
  Make make;
  __host__ __device__ T operator()(std::int64_t i) const { return make(static_cast<std::size_t>(i)); }
};
template <class Apply>
struct Consume {
  Apply apply;
  template <class Index, class T>
  __host__ __device__ void operator()(Index i, const T& v) const { apply(static_cast<std::size_t>(i), v); }
};
template <class Join>
struct Op {
  Join join;
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const { return join(a, b); }
};

/// Whether the scan of \p T takes WideScanPolicy: values over 8 bytes (the suffix array rounds'
/// StartHead, the string sort's PassMarks and SegmentMin), which CUB never treats as primitive,
/// where CCCL 3 has the tuning types.
template <class T>
inline constexpr bool wide_scan_value = CUB_MAJOR_VERSION >= 3 && sizeof(T) > 8;

#if CUB_MAJOR_VERSION >= 3
/// The single-pass scan's tiles for wide values: 256 threads of 120 bytes each (10 items of 12
/// bytes, 5 of 24). CUB's default for a value it does not know scales 128 threads of 15 4-byte
/// items down by size, to 5 items of 12 bytes or 2 of 24, and its many small tiles then wait on
/// each other's look-back. The suffix array rounds' marks over 16 M entries, compacted, took
/// 0.180 ms this way against 0.286 with the default tiles on an H200, 24-byte ones 0.345 against
/// 0.701 (ktext_bench_primitives_cuda, inclusive_scan_apply_Cuda/marks_*; perf/README,
/// 2026-11-28). With the rounds' scattered ISA writes behind it the scan gains 2-7%: those
/// writes, not the scan, then set its time.
template <class T>
struct WideScanPolicy {
  struct Tile {
    static constexpr int BLOCK_THREADS = 256;
    static constexpr int ITEMS_PER_THREAD = sizeof(T) >= 120 ? 1 : int(120 / sizeof(T));
  };
  struct Policy : cub::ChainedPolicy<600, Policy, Policy> {
    using ScanPolicyT = cub::AgentScanPolicy<Tile::BLOCK_THREADS, Tile::ITEMS_PER_THREAD, T, cub::BLOCK_LOAD_WARP_TRANSPOSE,
                                             cub::LOAD_DEFAULT, cub::BLOCK_STORE_WARP_TRANSPOSE,
                                             cub::BLOCK_SCAN_WARP_SCANS, Tile>;
  };
  using MaxPolicy = Policy;
};
#endif
}  // namespace cuda

/// Single-pass decoupled look-back scan (CUB) reading a generated sequence and writing through
/// a tabulate output iterator: the scanned values never touch memory.
template <>
struct ScanApply<Kokkos::Cuda, true> {
  static constexpr char path[] = "[CUB]";
  /// \p Wide picks WideScanPolicy's tiles over CUB's default (the benchmark times both).
  template <class T, class Make, class Join, class Apply, bool Wide = cuda::wide_scan_value<T>>
  static void apply(const Kokkos::Cuda& exec, std::size_t n, Make make, Join join, Apply out) {
    thrust::counting_iterator<std::int64_t> index(0);
    auto in = thrust::make_transform_iterator(index, cuda::Generate<Make, T>{make});
    auto sink = thrust::make_tabulate_output_iterator(cuda::Consume<Apply>{out});
    const auto count = static_cast<std::int64_t>(n);
#if CUB_MAJOR_VERSION >= 3
    if constexpr (Wide) {
      // DeviceScan::InclusiveScan's own dispatch (64-bit offsets, no initial value), with the
      // wide values' tiles.
      using Dispatch = cub::DispatchScan<decltype(in), decltype(sink), cuda::Op<Join>, cub::NullType, std::uint64_t, T,
                                         cub::ForceInclusive::No, cuda::WideScanPolicy<T>>;
      cuda::cub_call(exec, "ktext::inclusive_scan_apply[CUB]", [&](void* temp, std::size_t& bytes) {
        return Dispatch::Dispatch(temp, bytes, in, sink, cuda::Op<Join>{join}, cub::NullType{}, std::uint64_t(count),
                                  exec.cuda_stream());
      });
      return;
    }
#endif
    cuda::cub_call(exec, "ktext::inclusive_scan_apply[CUB]", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::InclusiveScan(temp, bytes, in, sink, cuda::Op<Join>{join}, count, exec.cuda_stream());
    });
  }
};

}  // namespace ktext::impl
