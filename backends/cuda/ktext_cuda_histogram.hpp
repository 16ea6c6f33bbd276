// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Histogram on CUDA: cub::DeviceHistogram::HistogramEven (shared-memory privatized bins) for
// byte and 16-bit symbols. 32-bit symbols keep the portable atomic version.

#include <cub/device/device_histogram.cuh>

#include "ktext/cuda/ktext_cuda_check.hpp"
#include "ktext/primitives/impl/ktext_histogram_spec.hpp"

namespace ktext::impl {

template <>
struct histogram_cub_avail<Kokkos::Cuda, std::uint8_t> : std::true_type {};
template <>
struct histogram_cub_avail<Kokkos::Cuda, std::uint16_t> : std::true_type {};

template <class T>
struct Histogram<Kokkos::Cuda, T, true> {
  static constexpr char path[] = "[CUB]";
  static void apply(const Kokkos::Cuda& exec, Unmanaged<const T, Kokkos::Cuda> in,
                    Unmanaged<std::uint64_t, Kokkos::Cuda> bins) {
    // Values at or above bins.extent(0) fall outside [0, nbins) and are not counted, as in the
    // portable version; bins beyond the symbol range stay zero.
    const int symbol_bins = 1 << (8 * sizeof(T));
    const int nbins = bins.extent(0) < std::size_t(symbol_bins) ? int(bins.extent(0)) : symbol_bins;
    Kokkos::deep_copy(exec, bins, std::uint64_t(0));
    auto* counters = reinterpret_cast<unsigned long long*>(bins.data());
    const auto n = static_cast<std::int64_t>(in.extent(0));
    cuda::cub_call(exec, "ktext::histogram[CUB]", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceHistogram::HistogramEven(temp, bytes, in.data(), counters, nbins + 1, 0, nbins, n,
                                                 exec.cuda_stream());
    });
  }
};

}  // namespace ktext::impl
