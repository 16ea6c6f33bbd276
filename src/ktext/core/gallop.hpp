// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file gallop.hpp
/// \brief Galloping searches for the ends of a run (a group of equal keys in sorted order), on
/// host and device: O(log distance) probes, so that a short run costs a few however long the
/// range it lies in.

#include <Kokkos_Core.hpp>
#include <cstddef>

namespace ktext::impl {

/// The first i in [from, to) where same(i) fails, or to, where same holds on a prefix of the
/// range: probes at distances 1, 2, 4, ... then a binary search, O(log distance) probes, so that
/// a short run costs a few however long the range (groups are runs of equal keys, most short).
template <class Same>
KOKKOS_INLINE_FUNCTION std::size_t gallop_to_different(std::size_t from, std::size_t to, const Same& same) {
  std::size_t lo = from, hi = from, step = 1;  // same holds on [from, lo)
  while (hi < to && same(hi)) {
    lo = hi + 1;
    hi = to - lo > step ? lo + step : to;
    step <<= 1;
  }
  while (lo < hi) {  // the first failure in [lo, hi), else hi
    const std::size_t mid = lo + (hi - lo) / 2;
    if (same(mid))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
/// The first i in [floor, from] with same on all of [i, from] (same(from) holds): as above,
/// downwards.
template <class Same>
KOKKOS_INLINE_FUNCTION std::size_t gallop_to_first(std::size_t from, std::size_t floor, const Same& same) {
  return from - gallop_to_different(0, from - floor, [&](std::size_t d) { return same(from - d - 1); });
}

}  // namespace ktext::impl
