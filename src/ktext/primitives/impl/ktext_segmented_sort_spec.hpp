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

template <class Exec, class K, class V>
struct segmented_sort_cub_avail : std::false_type {};

template <class Exec, class O, class K, class V, bool UseCub = segmented_sort_cub_avail<Exec, K, V>::value>
struct SegmentedSort {
  static constexpr char path[] = "[KokkosKernels]";
  static void apply(const Exec& exec, Unmanaged<const O, Exec> offsets, Unmanaged<K, Exec> keys,
                    Unmanaged<V, Exec> vals) {
    KokkosSparse::sort_crs_matrix(exec, offsets, keys, vals);
  }
};

}  // namespace ktext::impl
