// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Histogram on CUDA. Bytes: ktext's own kernel (below), because cub::DeviceHistogram slows down
// as the bytes repeat: on an H100, 2^28 bytes of 4 distinct values took it 6.5 ms (random bytes
// 1.1 ms), as its shared-memory atomics from a warp all hit the same few bins. 16-bit symbols:
// cub::DeviceHistogram::HistogramEven (shared-memory privatized bins). 32-bit symbols keep the
// portable atomic version.

#include <cstdint>
#include <cub/device/device_histogram.cuh>

#include "ktext/cuda/ktext_cuda_check.hpp"
#include "ktext/primitives/impl/ktext_histogram_spec.hpp"

namespace ktext::impl {

namespace cuda {

/// Bytes below \p nbins (at most 256) counted into \p bins (added to). Each warp takes 512-byte
/// chunks, 16 bytes a lane (one 16-byte load when \p Aligned). A lane adds each run of equal
/// bytes among its 16 once, into one of 4 shared-memory copies of its warp's bins (lane % 4),
/// so the lanes of a warp seldom hit one counter together even when the bytes repeat; the
/// copies are summed at the end. Counts stay below 2^32 because a launch covers at most 2^32
/// bytes.
template <bool Aligned>
__global__ void __launch_bounds__(256)
    byte_histogram(const std::uint8_t* in, std::uint64_t n, unsigned nbins, unsigned long long* bins) {
  constexpr int warps = 8, copies = 4;
  __shared__ unsigned int counts[warps * copies][256];
  for (int i = threadIdx.x; i < warps * copies * 256; i += blockDim.x) counts[i / 256][i % 256] = 0;
  __syncthreads();
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned* const mine = counts[warp * copies + lane % copies];
  const std::uint64_t chunks = (n + 511) / 512;
  for (std::uint64_t c = std::uint64_t(blockIdx.x) * warps + warp; c < chunks; c += std::uint64_t(gridDim.x) * warps) {
    const std::uint64_t base = c * 512 + lane * 16;
    unsigned keys[16];
    if (Aligned && base + 16 <= n) {
      const uint4 q = *reinterpret_cast<const uint4*>(in + base);
      const unsigned words[4] = {q.x, q.y, q.z, q.w};
      for (int k = 0; k < 16; ++k) keys[k] = (words[k / 4] >> (8 * (k % 4))) & 0xff;
    } else {
      for (int k = 0; k < 16; ++k) keys[k] = base + k < n ? in[base + k] : 0x100u;  // 0x100: not counted
    }
    unsigned run = 1;
    for (int k = 0; k < 16; ++k) {
      if (k + 1 < 16 && keys[k + 1] == keys[k]) {
        ++run;
        continue;
      }
      if (keys[k] < nbins) atomicAdd(&mine[keys[k]], run);
      run = 1;
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < nbins; b += blockDim.x) {
    unsigned long long sum = 0;
    for (int w = 0; w < warps * copies; ++w) sum += counts[w][b];
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}

}  // namespace cuda

template <>
struct histogram_cub_avail<Kokkos::Cuda, std::uint8_t> : std::true_type {};
template <>
struct histogram_cub_avail<Kokkos::Cuda, std::uint16_t> : std::true_type {};

template <>
struct Histogram<Kokkos::Cuda, std::uint8_t, true> {
  static constexpr char path[] = "[CUDA]";
  static void apply(const Kokkos::Cuda& exec, Unmanaged<const std::uint8_t, Kokkos::Cuda> in,
                    Unmanaged<std::uint64_t, Kokkos::Cuda> bins) {
    // Values at or above bins.extent(0) are not counted, as in the portable version; bins
    // beyond the byte range stay zero.
    const unsigned nbins = bins.extent(0) < 256 ? unsigned(bins.extent(0)) : 256u;
    // Cleared by the driver: Kokkos' deep_copy would run its fill kernel, whose label
    // ("Kokkos::ViewFill-1D") does not say it belongs to ktext.
    cuda::check(cudaMemsetAsync(bins.data(), 0, bins.extent(0) * sizeof(std::uint64_t), exec.cuda_stream()),
                "ktext::histogram[CUDA]");
    int sms = 0;
    cuda::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, exec.cuda_device()),
                "ktext::histogram[CUDA]");
    auto* counters = reinterpret_cast<unsigned long long*>(bins.data());
    const bool aligned = reinterpret_cast<std::uintptr_t>(in.data()) % 16 == 0;
    constexpr std::uint64_t slice = std::uint64_t(1) << 32;
    for (std::uint64_t begin = 0; begin < in.extent(0); begin += slice) {
      const std::uint64_t n = in.extent(0) - begin < slice ? in.extent(0) - begin : slice;
      const std::uint64_t warp_chunks = (n + 511) / 512, needed = (warp_chunks + 7) / 8;
      const unsigned blocks = unsigned(needed < std::uint64_t(8) * sms ? needed : std::uint64_t(8) * sms);
      if (aligned)
        cuda::byte_histogram<true><<<blocks, 256, 0, exec.cuda_stream()>>>(in.data() + begin, n, nbins, counters);
      else
        cuda::byte_histogram<false><<<blocks, 256, 0, exec.cuda_stream()>>>(in.data() + begin, n, nbins, counters);
      cuda::check(cudaGetLastError(), "ktext::histogram[CUDA]");
    }
  }
};

template <>
struct Histogram<Kokkos::Cuda, std::uint16_t, true> {
  static constexpr char path[] = "[CUB]";
  static void apply(const Kokkos::Cuda& exec, Unmanaged<const std::uint16_t, Kokkos::Cuda> in,
                    Unmanaged<std::uint64_t, Kokkos::Cuda> bins) {
    // Values at or above bins.extent(0) fall outside [0, nbins) and are not counted, as in the
    // portable version; bins beyond the symbol range stay zero.
    const int nbins = bins.extent(0) < std::size_t(65536) ? int(bins.extent(0)) : 65536;
    cuda::check(cudaMemsetAsync(bins.data(), 0, bins.extent(0) * sizeof(std::uint64_t), exec.cuda_stream()),
                "ktext::histogram[CUB]");  // see the byte histogram
    auto* counters = reinterpret_cast<unsigned long long*>(bins.data());
    const auto n = static_cast<std::int64_t>(in.extent(0));
    cuda::cub_call(exec, "ktext::histogram[CUB]", [&](void* temp, std::size_t& bytes) {
      return cub::DeviceHistogram::HistogramEven(temp, bytes, in.data(), counters, nbins + 1, 0, nbins, n,
                                                 exec.cuda_stream());
    });
  }
};

}  // namespace ktext::impl
