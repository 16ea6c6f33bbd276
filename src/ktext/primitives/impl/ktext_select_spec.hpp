// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Portable stream compaction: one Kokkos::parallel_scan whose final pass writes the kept
// elements, so no flag or offset array is materialized.

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "ktext/core/range.hpp"
#include "ktext/primitives/impl/ktext_unmanaged.hpp"

namespace ktext::impl {

template <class Exec>
struct select_cub_avail : std::false_type {};

template <class Exec, bool UseCub = select_cub_avail<Exec>::value>
struct Select {
  static constexpr char path[] = "[Kokkos]";
  /// Writes out[k] = get(i) for the k-th index i in [0, n) with keep(i); returns the count.
  /// Writes past out.extent(0) are dropped (the count still counts them): callers that know
  /// the count may pass a shorter output than the worst case n.
  template <class Keep, class Get, class Out>
  static std::size_t apply(const Exec& exec, std::size_t n, Keep keep, Get get, Out out) {
    std::size_t count = 0;
    const std::size_t capacity = out.extent(0);
    Kokkos::parallel_scan(
        "ktext::select[Kokkos]", impl::Range<Exec>(exec, 0, n),
        KOKKOS_LAMBDA(std::size_t i, std::size_t& at, bool final) {
          if (keep(i)) {
            if (final && at < capacity) out(at) = get(i);
            ++at;
          }
        },
        count);
    return count;
  }
};

}  // namespace ktext::impl
