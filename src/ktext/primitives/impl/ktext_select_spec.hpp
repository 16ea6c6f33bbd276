// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Portable stream compaction: one Kokkos::parallel_scan whose final pass writes the kept
// elements, so no flag or offset array is materialized; on hosts the same in one pass
// (host_single_pass_scan), which tests each element once instead of twice.

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "ktext/core/range.hpp"
#include "ktext/primitives/impl/ktext_host_scan.hpp"
#include "ktext/primitives/impl/ktext_unmanaged.hpp"

namespace ktext::impl {

template <class Exec>
struct select_cub_avail : std::false_type {};

template <class Exec, bool UseCub = select_cub_avail<Exec>::value, bool UseHost = scan_host_avail<Exec>::value>
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

/// The host select's scan value: the kept elements so far, and whether the last one is kept.
struct KeptSoFar {
  std::size_t count;
  bool kept;
};
struct JoinKeptSoFar {
  KOKKOS_INLINE_FUNCTION KeptSoFar identity() const { return {0, false}; }
  KOKKOS_INLINE_FUNCTION KeptSoFar operator()(const KeptSoFar& a, const KeptSoFar& b) const {
    return {a.count + b.count, b.kept};
  }
};

/// Hosts: each element tested once (host_single_pass_scan) where several threads share two
/// blocks or more; one thread selects in one pass with Kokkos' scan already.
template <class Exec>
struct Select<Exec, false, true> {
  static constexpr char path[] = "[host]";
  template <class Keep, class Get, class Out>
  static std::size_t apply(const Exec& exec, std::size_t n, Keep keep, Get get, Out out) {
    if (!host_single_pass_pays<KeptSoFar>(exec, n))
      return Select<Exec, false, false>::apply(exec, n, keep, get, out);
    const std::size_t capacity = out.extent(0);
    return host_single_pass_scan<KeptSoFar>(
               exec, "ktext::select[host]", n,
               [=](std::size_t i) {
                 const bool k = keep(i);
                 return KeptSoFar{k ? std::size_t(1) : std::size_t(0), k};
               },
               JoinKeptSoFar{},
               [=](std::size_t i, const KeptSoFar& at) {
                 if (at.kept && at.count <= capacity) out(at.count - 1) = get(i);
               })
        .count;
  }
};

}  // namespace ktext::impl
