// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Portable stable LSD radix sort of key-value pairs on a bit range, and the availability trait
// that a vendor backend specializes (pattern of Kokkos Kernels' *_tpl_spec_avail.hpp).
//
// Each pass splits the input into chunks that one thread walks in order: a chunk-major digit
// histogram, an exclusive scan over (digit, chunk) in digit-major order, then a scatter in the
// same order, which keeps equal digits in input order (stability). On hosts this uses every
// thread of the instance (Kokkos' own host sort is a serial std::sort).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/primitives/impl/ktext_scan_spec.hpp"
#include "ktext/primitives/impl/ktext_unmanaged.hpp"

namespace ktext::impl {

template <class Exec, class K, class V>
struct sort_pairs_cub_avail : std::false_type {};

inline constexpr int radix_bits = 8;
inline constexpr int radix_buckets = 1 << radix_bits;

template <class Exec, class K, class V, bool UseCub = sort_pairs_cub_avail<Exec, K, V>::value>
struct SortPairs {
  static constexpr char path[] = "[Kokkos]";
  using KV = Unmanaged<K, Exec>;
  using VV = Unmanaged<V, Exec>;
  /// Sorts (keys, vals) by bits [begin_bit, end_bit) of the keys, stable, using keys_tmp and
  /// vals_tmp as the second buffers. Returns true when the result is in the _tmp buffers.
  static bool apply(const Exec& exec, KV keys, VV vals, KV keys_tmp, VV vals_tmp, int begin_bit, int end_bit) {
    const std::size_t n = keys.extent(0);
    const std::size_t chunks = portable_chunks(exec, n, 4096);
    const std::size_t chunk = (n + chunks - 1) / chunks;
    const auto store = uninitialized_view<std::size_t>(exec, "ktext::sort_pairs::counts[Kokkos]", radix_buckets * chunks);
    Unmanaged<std::size_t, Exec> counts(store.data(), store.extent(0));
    bool in_tmp = false;
    for (int shift = begin_bit; shift < end_bit; shift += radix_bits) {
      const int width = end_bit - shift < radix_bits ? end_bit - shift : radix_bits;
      const K mask = static_cast<K>((K(1) << width) - 1);
      KV kin = in_tmp ? keys_tmp : keys, kout = in_tmp ? keys : keys_tmp;
      VV vin = in_tmp ? vals_tmp : vals, vout = in_tmp ? vals : vals_tmp;
      Kokkos::parallel_for(
          "ktext::sort_pairs::histogram[Kokkos]", impl::Range<Exec>(exec, 0, chunks), KOKKOS_LAMBDA(std::size_t c) {
            std::size_t hist[radix_buckets];
            for (int d = 0; d < radix_buckets; ++d) hist[d] = 0;
            const std::size_t lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
            for (std::size_t i = lo; i < hi; ++i) ++hist[(kin(i) >> shift) & mask];
            for (int d = 0; d < radix_buckets; ++d) counts(d * chunks + c) = hist[d];
          });
      // The portable scan, so this path uses no vendor code at all (it is what the CUB path is
      // compared and benchmarked against).
      Scan<Exec, std::size_t, std::size_t, false>::exclusive_sum(exec, counts, counts);
      Kokkos::parallel_for(
          "ktext::sort_pairs::scatter[Kokkos]", impl::Range<Exec>(exec, 0, chunks), KOKKOS_LAMBDA(std::size_t c) {
            std::size_t next[radix_buckets];
            for (int d = 0; d < radix_buckets; ++d) next[d] = counts(d * chunks + c);
            const std::size_t lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
            for (std::size_t i = lo; i < hi; ++i) {
              const K k = kin(i);
              const std::size_t at = next[(k >> shift) & mask]++;
              kout(at) = k;
              vout(at) = vin(i);
            }
          });
      in_tmp = !in_tmp;
    }
    exec.fence("ktext::sort_pairs[Kokkos]: counts released");
    return in_tmp;
  }
  /// Readies the sort of up to \p n pairs by bits [0, end_bit): this path keeps no storage
  /// between calls, so there is nothing to do.
  static void reserve(const Exec&, std::size_t, int) {}
};

}  // namespace ktext::impl
