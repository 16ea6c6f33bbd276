// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Portable histogram: atomic increments into the bins. Good enough on hosts, where threads are
// few; the CUDA backend uses cub::DeviceHistogram (privatized in shared memory).

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
    // Not deep_copy(exec, bins, 0): on OpenMP that runs Kokkos' fill kernel, whose label
    // ("Kokkos::ViewFill-1D") would not say it belongs to ktext.
    Kokkos::parallel_for(
        "ktext::histogram::clear[Kokkos]", impl::Range<Exec>(exec, 0, nbins),
        KOKKOS_LAMBDA(std::size_t b) { bins(b) = 0; });
    Kokkos::parallel_for(
        "ktext::histogram[Kokkos]", impl::Range<Exec>(exec, 0, in.extent(0)), KOKKOS_LAMBDA(std::size_t i) {
          const std::uint64_t v = in(i);
          if (v < nbins) Kokkos::atomic_inc(&bins(v));
        });
  }
};

}  // namespace ktext::impl
