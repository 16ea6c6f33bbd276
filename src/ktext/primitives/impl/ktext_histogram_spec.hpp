// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Portable histogram. On hosts each of a few chunks of the input counts into its own row of bins
// and the rows are summed: atomic increments from every thread into the same few bins cost 17 ns
// per value with 2 threads on 256 bins (2^24 random bytes), the rows under 1 ns. Elsewhere, and
// where the rows would outweigh the input, atomic increments into the bins; the CUDA backend
// uses cub::DeviceHistogram (privatized in shared memory).

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "ktext/core/range.hpp"
#include "ktext/primitives/impl/ktext_unmanaged.hpp"

namespace ktext::impl {

template <class Exec, class T>
struct histogram_cub_avail : std::false_type {};

template <class Exec, class T, bool UseCub = histogram_cub_avail<Exec, T>::value>
struct Histogram {
  static constexpr char path[] = "[Kokkos]";
  static void apply(const Exec& exec, Unmanaged<const T, Exec> in, Unmanaged<std::uint64_t, Exec> bins) {
    const std::uint64_t nbins = bins.extent(0);
    const std::uint64_t n = in.extent(0);
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible) {
      // Rows of at most 2^19 counts in all (4 MiB), and no more counts than values.
      const std::uint64_t by_size = n / 4096, by_threads = 4 * std::uint64_t(exec.concurrency());
      const std::uint64_t by_memory = (std::uint64_t(1) << 19) / nbins;
      std::uint64_t chunks = by_size < by_threads ? by_size : by_threads;
      chunks = chunks < by_memory ? chunks : by_memory;
      if (chunks >= 2 && nbins * chunks <= n) {
        const Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, typename Exec::memory_space> rows(
            Kokkos::view_alloc(exec, "ktext::histogram::rows[Kokkos]"), chunks, nbins);
        Kokkos::parallel_for(
            "ktext::histogram::chunks[Kokkos]", impl::Range<Exec>(exec, 0, chunks), KOKKOS_LAMBDA(std::uint64_t c) {
              const std::uint64_t end = n / chunks * (c + 1) + (c + 1 == chunks ? n % chunks : 0);
              for (std::uint64_t i = n / chunks * c; i < end; ++i) {
                const std::uint64_t v = in(i);
                if (v < nbins) ++rows(c, v);
              }
            });
        Kokkos::parallel_for(
            "ktext::histogram::sum[Kokkos]", impl::Range<Exec>(exec, 0, nbins), KOKKOS_LAMBDA(std::uint64_t b) {
              std::uint64_t sum = 0;
              for (std::uint64_t c = 0; c < chunks; ++c) sum += rows(c, b);
              bins(b) = sum;
            });
        return;
      }
    }
    // Bins cleared by a kernel, not deep_copy(exec, bins, 0): on OpenMP that runs Kokkos' fill
    // kernel, whose label ("Kokkos::ViewFill-1D") would not say it belongs to ktext.
    Kokkos::parallel_for(
        "ktext::histogram::clear[Kokkos]", impl::Range<Exec>(exec, 0, nbins),
        KOKKOS_LAMBDA(std::size_t b) { bins(b) = 0; });
    Kokkos::parallel_for(
        "ktext::histogram[Kokkos]", impl::Range<Exec>(exec, 0, n), KOKKOS_LAMBDA(std::size_t i) {
          const std::uint64_t v = in(i);
          if (v < nbins) Kokkos::atomic_inc(&bins(v));
        });
  }
};

}  // namespace ktext::impl
