// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Portable segmented sort: Kokkos Kernels' KokkosSparse::sort_crs_matrix sorts the entries of
// each CRS row by column and permutes the values alike, which is exactly a key-value sort
// inside segments given by an offsets array (per-row radix sort on hosts, bitonic or bulk sort
// on GPUs).

#include <KokkosSparse_SortCrs.hpp>
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "ktext/primitives/impl/ktext_unmanaged.hpp"

namespace ktext::impl {

/// Sorts segment s of (keys, vals) by key in place, serially.
template <class O, class K, class V, class Exec>
struct SortEachSegment {
  Unmanaged<const O, Exec> offsets;
  Unmanaged<K, Exec> keys;
  Unmanaged<V, Exec> vals;
  KOKKOS_INLINE_FUNCTION void swap(O a, O b) const {
    const K k = keys(a);
    keys(a) = keys(b);
    keys(b) = k;
    const V v = vals(a);
    vals(a) = vals(b);
    vals(b) = v;
  }
  /// Restores the max-heap below \p root of the heap keys[lo, lo + len).
  KOKKOS_INLINE_FUNCTION void sift_down(O lo, O root, O len) const {
    for (O child = 2 * root + 1; child < len; child = 2 * root + 1) {
      if (child + 1 < len && keys(lo + child) < keys(lo + child + 1)) ++child;
      if (!(keys(lo + root) < keys(lo + child))) return;
      swap(lo + root, lo + child);
      root = child;
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    const O lo = offsets(s), len = offsets(s + 1) - lo;
    if (len <= 16) {
      for (O i = 1; i < len; ++i) {
        const K k = keys(lo + i);
        const V v = vals(lo + i);
        O j = i;
        for (; j > 0 && k < keys(lo + j - 1); --j) {
          keys(lo + j) = keys(lo + j - 1);
          vals(lo + j) = vals(lo + j - 1);
        }
        keys(lo + j) = k;
        vals(lo + j) = v;
      }
      return;
    }
    for (O root = len / 2; root-- > 0;) sift_down(lo, root, len);
    for (O end = len - 1; end > 0; --end) {
      swap(lo, lo + end);
      sift_down(lo, 0, end);
    }
  }
};

template <class Exec, class K, class V>
struct segmented_sort_cub_avail : std::false_type {};

template <class Exec, class O, class K, class V, bool UseCub = segmented_sort_cub_avail<Exec, K, V>::value>
struct SegmentedSort {
  static constexpr char path[] = "[KokkosKernels]";
  static constexpr char in_either_path[] = "[per segment]";
  static void apply(const Exec& exec, Unmanaged<const O, Exec> offsets, Unmanaged<K, Exec> keys,
                    Unmanaged<V, Exec> vals) {
    KokkosSparse::sort_crs_matrix(exec, offsets, keys, vals);
  }
  /// For short segments: each sorted in place by one thread (insertion sort up to 16 elements,
  /// heapsort above), so the scratch buffers are left untouched and nothing is allocated;
  /// returns false (the result is in \p keys / \p vals). Kokkos Kernels' host path radix
  /// sorts every row through 256 buckets and allocates a copy of the input, which costs
  /// groups of 2 or 3 entries (the usual suffix-array case) more than the sort itself.
  static bool apply_in_either(const Exec& exec, Unmanaged<const O, Exec> offsets, Unmanaged<K, Exec> keys,
                              Unmanaged<V, Exec> vals, Unmanaged<K, Exec>, Unmanaged<V, Exec>) {
    Kokkos::parallel_for("ktext::segmented_sort_pairs::per_segment",
                         Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<std::int64_t>>(
                             exec, 0, std::int64_t(offsets.extent(0)) - 1),
                         SortEachSegment<O, K, V, Exec>{offsets, keys, vals});
    return false;
  }
};

}  // namespace ktext::impl
