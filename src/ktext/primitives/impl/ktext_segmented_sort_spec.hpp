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

/// Sorts segment s of (keys, vals) by key in place, serially, touching nothing outside it:
/// insertion sort up to 16 entries; a longer segment is split in place by the highest bits in
/// which its keys differ (about one part per entry, at most 256), each part of more than 16
/// entries by the bits below (American flag sort, two levels), and what parts remain unsorted by
/// insertion sort or, over 16 entries, heapsort. A heapsort of every group took most of a
/// suffix-array round on XML and source code, whose groups run to hundreds of thousands.
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
  KOKKOS_INLINE_FUNCTION void comparison_sort(O lo, O len) const {
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
  /// Permutes [lo, lo + len) in place so that bits [shift, shift + width) of the keys ascend
  /// (width <= 8), and returns the parts: part d is [start[d], start[d + 1]), d < 2^width.
  KOKKOS_INLINE_FUNCTION void split_by_bits(O lo, O len, int shift, int width, O* start) const {
    const int parts = 1 << width;
    const K mask = K(parts - 1);
    O next[256];
    for (int d = 0; d <= parts; ++d) start[d] = 0;
    for (O i = lo; i < lo + len; ++i) ++start[((keys(i) >> shift) & mask) + 1];
    start[0] = lo;
    for (int d = 0; d < parts; ++d) {
      start[d + 1] += start[d];
      next[d] = start[d];
    }
    for (int d = 0; d < parts; ++d) {
      while (next[d] < start[d + 1]) {  // the entry at next[d] goes to its part, cycle by cycle
        K k = keys(next[d]);
        V v = vals(next[d]);
        for (int e = int((k >> shift) & mask); e != d; e = int((k >> shift) & mask)) {
          const O to = next[e]++;
          const K k2 = keys(to);
          const V v2 = vals(to);
          keys(to) = k, vals(to) = v;
          k = k2, v = v2;
        }
        keys(next[d]) = k, vals(next[d]) = v;
        ++next[d];
      }
    }
  }
  /// How many of the \p bits low bits that still differ to split \p len entries by: about one
  /// part per entry, at most 256 parts.
  KOKKOS_INLINE_FUNCTION static int split_width(O len, int bits) {
    int width = 0;
    while (width < 8 && width < bits && (O(2) << width) <= len) ++width;
    return width;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    const O lo = offsets(s), len = offsets(s + 1) - lo;
    if (len <= 16) {
      comparison_sort(lo, len);
      return;
    }
    K differ = 0;  // bits in which some key differs from the first
    for (O i = lo + 1; i < lo + len; ++i) differ |= keys(i) ^ keys(lo);
    int bits = 0;  // keys agree from this bit on
    while (bits < int(8 * sizeof(K)) && (differ >> bits) != 0) ++bits;
    // The highest differing bits, then the ones below them for parts of more than 16 entries;
    // parts still agreeing on fewer bits than all are sorted by comparisons.
    O outer[257], inner[257];
    const int top = bits - split_width(len, bits);
    split_by_bits(lo, len, top, bits - top, outer);
    for (int d = 0; d < (1 << (bits - top)); ++d) {
      const O part = outer[d + 1] - outer[d];
      if (top == 0 || part <= 1) continue;
      if (part <= 16) {
        comparison_sort(outer[d], part);
        continue;
      }
      const int low = top - split_width(part, top);
      split_by_bits(outer[d], part, low, top - low, inner);
      for (int e = 0; low > 0 && e < (1 << (top - low)); ++e)
        if (inner[e + 1] - inner[e] > 1) comparison_sort(inner[e], inner[e + 1] - inner[e]);
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
  /// Each segment sorted in place by one thread (SortEachSegment), so the scratch buffers are
  /// left untouched (callers rely on it) and nothing is allocated;
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
