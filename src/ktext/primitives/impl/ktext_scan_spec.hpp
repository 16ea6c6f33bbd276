// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Portable scans (Kokkos::parallel_scan), the availability trait for vendor versions, and the
// host scan in one pass of inclusive_scan_apply (ktext_host_scan.hpp).

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "ktext/core/range.hpp"
#include "ktext/primitives/impl/ktext_host_scan.hpp"
#include "ktext/primitives/impl/ktext_unmanaged.hpp"

namespace ktext::impl {

enum class ScanOp { Sum, Max };

template <class Exec, class T>
struct scan_cub_avail : std::false_type {};

template <class Exec, class In, class Out, ScanOp Op>
struct InclusiveScanFunctor {
  In in;
  Out out;
  using value_type = typename std::remove_const_t<typename Out::value_type>;
  KOKKOS_FUNCTION void init(value_type& v) const { v = value_type(0); }
  KOKKOS_FUNCTION void join(value_type& dst, const value_type& src) const {
    if constexpr (Op == ScanOp::Sum) dst += src;
    else dst = dst < src ? src : dst;
  }
  KOKKOS_FUNCTION void operator()(std::size_t i, value_type& update, bool final) const {
    const value_type x = in(i);
    join(update, x);
    if (final) out(i) = update;
  }
};

template <class Exec, class In, class Out>
struct ExclusiveSumFunctor {
  In in;
  Out out;
  using value_type = typename std::remove_const_t<typename Out::value_type>;
  KOKKOS_FUNCTION void operator()(std::size_t i, value_type& update, bool final) const {
    const value_type x = in(i);  // read before the write: in and out may alias
    if (final) out(i) = update;
    update += x;
  }
};

template <class T, class Make, class Join, class Apply>
struct ScanApplyFunctor {
  Make make;
  Join op;
  Apply apply;
  using value_type = T;
  KOKKOS_FUNCTION void init(T& v) const { v = op.identity(); }
  KOKKOS_FUNCTION void join(T& dst, const T& src) const { dst = op(dst, src); }
  KOKKOS_FUNCTION void operator()(std::size_t i, T& update, bool final) const {
    update = op(update, make(i));
    if (final) apply(i, update);
  }
};

template <class Exec, bool UseCub = scan_cub_avail<Exec, void>::value, bool UseHost = scan_host_avail<Exec>::value>
struct ScanApply {
  static constexpr char path[] = "[Kokkos]";
  template <class T, class Make, class Join, class Apply>
  static void apply(const Exec& exec, std::size_t n, Make make, Join join, Apply out) {
    Kokkos::parallel_scan("ktext::inclusive_scan_apply[Kokkos]", impl::Range<Exec>(exec, 0, n),
                          ScanApplyFunctor<T, Make, Join, Apply>{make, join, out});
  }
};

/// Hosts: each input evaluated once (host_single_pass_scan) where several threads share two
/// blocks or more; one thread scans in one pass with Kokkos' scan already.
template <class Exec>
struct ScanApply<Exec, false, true> {
  static constexpr char path[] = "[host]";
  template <class T, class Make, class Join, class Apply>
  static void apply(const Exec& exec, std::size_t n, Make make, Join join, Apply out) {
    if (host_single_pass_pays<T>(exec, n))
      host_single_pass_scan<T>(exec, "ktext::inclusive_scan_apply[host]", n, make, join, out);
    else
      ScanApply<Exec, false, false>::template apply<T>(exec, n, make, join, out);
  }
};

template <class Exec, class T, class U, bool UseCub = scan_cub_avail<Exec, U>::value>
struct Scan {
  static constexpr char path[] = "[Kokkos]";
  using In = Unmanaged<const T, Exec>;
  using Out = Unmanaged<U, Exec>;
  static U exclusive_sum(const Exec& exec, In in, Out out) {
    U total = 0;
    Kokkos::parallel_scan("ktext::exclusive_scan[Kokkos]", impl::Range<Exec>(exec, 0, in.extent(0)),
                          ExclusiveSumFunctor<Exec, In, Out>{in, out}, total);
    return total;
  }
  template <ScanOp Op>
  static void inclusive(const Exec& exec, In in, Out out) {
    Kokkos::parallel_scan(Op == ScanOp::Sum ? "ktext::inclusive_scan[Kokkos]" : "ktext::inclusive_scan_max[Kokkos]",
                          impl::Range<Exec>(exec, 0, in.extent(0)), InclusiveScanFunctor<Exec, In, Out, Op>{in, out});
  }
};

}  // namespace ktext::impl
