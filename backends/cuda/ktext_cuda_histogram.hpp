// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Histogram on CUDA: cub::DeviceHistogram::HistogramEven (shared-memory privatized bins) for
// byte and 16-bit symbols. 32-bit symbols keep the portable atomic version.

#include <cub/device/device_histogram.cuh>

#include "ktext/core/range.hpp"
#include "ktext/cuda/ktext_cuda_check.hpp"
#include "ktext/primitives/impl/ktext_histogram_spec.hpp"

namespace ktext::impl {

template <>
struct histogram_cub_avail<Kokkos::Cuda, std::uint8_t> : std::true_type {};
template <>
struct histogram_cub_avail<Kokkos::Cuda, std::uint16_t> : std::true_type {};

namespace cuda {
/// bins(b) += part(b): the counts of one chunk added to the total.
struct AddBins {
  Kokkos::View<std::uint64_t*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged> bins;
  Kokkos::View<const std::uint64_t*, Kokkos::CudaSpace> part;
  KOKKOS_FUNCTION void operator()(std::size_t b) const { bins(b) += part(b); }
};
}  // namespace cuda

template <class T>
struct Histogram<Kokkos::Cuda, T, true> {
  static constexpr char path[] = "[CUB]";
  /// Samples per cub::DeviceHistogram call. With 2^32 + 7 samples in one call (CUDA 13.0) the
  /// counts came out as those of the first 7: the sample count wraps at 32 bits, so longer
  /// inputs go in chunks (2^31 + 1 samples in one call were counted right).
  static constexpr std::int64_t max_samples = std::int64_t(1) << 31;

  static void apply(const Kokkos::Cuda& exec, Unmanaged<const T, Kokkos::Cuda> in,
                    Unmanaged<std::uint64_t, Kokkos::Cuda> bins) {
    // Values at or above bins.extent(0) fall outside [0, nbins) and are not counted, as in the
    // portable version; bins beyond the symbol range stay zero.
    const int symbol_bins = 1 << (8 * sizeof(T));
    const int nbins = bins.extent(0) < std::size_t(symbol_bins) ? int(bins.extent(0)) : symbol_bins;
    Kokkos::deep_copy(exec, bins, std::uint64_t(0));
    const auto n = static_cast<std::int64_t>(in.extent(0));
    auto count = [&](std::int64_t begin, std::int64_t len, std::uint64_t* out) {
      auto* counters = reinterpret_cast<unsigned long long*>(out);
      cuda::cub_call(exec, "ktext::histogram[CUB]", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceHistogram::HistogramEven(temp, bytes, in.data() + begin, counters, nbins + 1, 0, nbins, len,
                                                   exec.cuda_stream());
      });
    };
    if (n <= max_samples) {
      count(0, n, bins.data());
      return;
    }
    const auto part = uninitialized_view<std::uint64_t, Kokkos::CudaSpace>(exec, "ktext::histogram[CUB]::chunk", std::size_t(nbins));
    for (std::int64_t begin = 0; begin < n; begin += max_samples) {
      count(begin, n - begin < max_samples ? n - begin : max_samples, part.data());
      Kokkos::parallel_for("ktext::histogram[CUB]::add_chunk", impl::Range<Kokkos::Cuda>(exec, 0, std::size_t(nbins)),
                           cuda::AddBins{bins, part});
    }
    exec.fence("ktext::histogram[CUB]: chunks");
  }
};

}  // namespace ktext::impl
