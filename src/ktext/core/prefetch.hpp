// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file prefetch.hpp
/// \brief A read hint for host loops that gather at random places.

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace ktext::impl {

/// How many iterations ahead a host loop over random gathers asks for its next address. A core
/// keeps only a few iterations of such a loop in flight, so without the hint it waits for about
/// one cache miss per element; 32 ahead overlaps them while the lines still fit in L1.
inline constexpr unsigned prefetch_distance = 32;

/// Asks for the cache line at \p p to be loaded (read) ahead of its use. A hint only, so any
/// address may be passed. On devices it does nothing: the many resident warps hide the latency.
/// Force-inline every function that wraps it: GCC counts a prefetch as no side effect, finds a
/// function whose only work is prefetching pure, and drops the calls to it.
KOKKOS_FORCEINLINE_FUNCTION void prefetch(const void* p) {
  KOKKOS_IF_ON_HOST((__builtin_prefetch(p, 0, 3);))
  (void)p;
}

/// In a loop over j that gathers table(v(j) + offset), asks for the element iteration
/// j + prefetch_distance will read, where v has that entry and it lies inside \p table.
template <class Table, class V>
KOKKOS_FORCEINLINE_FUNCTION void prefetch_gather(const Table& table, const V& v, std::uint64_t j,
                                                 std::uint64_t offset = 0) {
  if (prefetch_distance >= v.extent(0) - j) return;
  const std::uint64_t at = std::uint64_t(v(j + prefetch_distance)) + offset;
  if (at < table.extent(0)) prefetch(table.data() + at);
}

}  // namespace ktext::impl
