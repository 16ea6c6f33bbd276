// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file gather_scatter.hpp
/// \brief dst[i] = src[idx[i]] (gather) and dst[idx[i]] = src[i] (scatter).
///
/// Plain parallel loops on every backend: there is nothing a vendor library does better.
/// Indices are not range-checked on the device (that would cost a pass); callers guarantee them.
/// A scatter of indices at random may run in windows of the destination that the cache holds
/// (cache_window()), or after a partition of the indices by their top bits (scatter_partitioned()).

#include <cstdint>
#include <type_traits>

#include "ktext/core/index_type.hpp"
#include "ktext/core/range.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/impl/ktext_region.hpp"
#include "ktext/primitives/impl/ktext_unmanaged.hpp"
#include "ktext/primitives/sort_pairs.hpp"

namespace ktext {

/// \brief dst[i] = src[idx[i]] for i < idx.extent(0). Does not block.
/// \complexity O(n) work for n = idx.extent(0).
template <class ExecSpace, class SrcView, class IdxView, class DstView>
void gather(const ExecSpace& exec, const SrcView& src, const IdxView& idx, const DstView& dst) {
  static_assert(impl::accessible_from_v<ExecSpace, SrcView> && impl::accessible_from_v<ExecSpace, IdxView> &&
                    impl::accessible_from_v<ExecSpace, DstView>,
                "ktext::gather: views must be accessible from the execution space");
  if (dst.extent(0) < idx.extent(0)) throw InputError("ktext::gather: destination shorter than the indices");
  Kokkos::Profiling::ScopedRegion region("ktext::gather[Kokkos]");
  Kokkos::parallel_for(
      "ktext::gather[Kokkos]", impl::Range<ExecSpace>(exec, 0, idx.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { dst(i) = src(idx(i)); });
}

/// \brief Entries of \p T that half of the last-level cache of \p exec's device holds: the
/// window for scatter() of indices at random. On CUDA half the L2 cache (6.3 M entries of 4 bytes
/// on an H100); 0, one pass, on hosts, where windows were not measured.
template <class T, class ExecSpace>
[[nodiscard]] std::size_t cache_window(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return std::size_t(exec.cuda_device_prop().l2CacheSize) / 2 / sizeof(T);
#endif
  (void)exec;
  return 0;
}

/// \brief dst[idx[i]] = src[i] for i < idx.extent(0). Does not block.
///
/// With \p window > 0 and shorter than \p dst, in passes over windows dst[lo, lo + window): each
/// pass reads all of \p idx and \p src and writes only the entries of its window. Indices at
/// random then write their window while the cache holds it, and it reaches memory in whole
/// sectors instead of one partial sector per entry. A random permutation of 33.3 M 4-byte
/// entries took 0.98 ms on an H100 in windows of 24 MB, 2.26 ms in one pass (perf/README,
/// 2026-11-25). Indices in order gain nothing from windows, and each pass reads \p idx again.
/// \complexity O(n) work per pass for n = idx.extent(0); dst.extent(0) / window passes.
template <class ExecSpace, class SrcView, class IdxView, class DstView>
void scatter(const ExecSpace& exec, const SrcView& src, const IdxView& idx, const DstView& dst,
             std::size_t window = 0) {
  static_assert(impl::accessible_from_v<ExecSpace, SrcView> && impl::accessible_from_v<ExecSpace, IdxView> &&
                    impl::accessible_from_v<ExecSpace, DstView>,
                "ktext::scatter: views must be accessible from the execution space");
  if (src.extent(0) < idx.extent(0)) throw InputError("ktext::scatter: source shorter than the indices");
  const std::uint64_t size = dst.extent(0);
  if (window == 0 || window >= size) {
    Kokkos::Profiling::ScopedRegion region("ktext::scatter[Kokkos]");
    Kokkos::parallel_for(
        "ktext::scatter[Kokkos]", impl::Range<ExecSpace>(exec, 0, idx.extent(0)),
        KOKKOS_LAMBDA(std::size_t i) { dst(idx(i)) = src(i); });
    return;
  }
  Kokkos::Profiling::ScopedRegion region("ktext::scatter[Kokkos windows]");
  for (std::uint64_t lo = 0; lo < size; lo += window) {
    const std::uint64_t width = size - lo < window ? size - lo : window;
    Kokkos::parallel_for(
        "ktext::scatter_window[Kokkos]", impl::Range<ExecSpace>(exec, 0, idx.extent(0)), KOKKOS_LAMBDA(std::size_t i) {
          // Unsigned: an index below lo wraps past the window too.
          const std::uint64_t at = static_cast<std::uint64_t>(idx(i));
          if (at - lo < width) dst(at) = src(i);
        });
  }
}

/// \brief dst[idx[i]] = src[i] for i < idx.extent(0), through a partition of (idx, src) by the
/// top \p bits (1 to 8) of the indices into \p idx_tmp and \p src_tmp: one stable radix pass,
/// which reads \p idx and \p src and leaves them as they were. The writes of each of the 2^bits
/// parts then fall within that part of \p dst, which the cache holds while they land, so they
/// reach memory in whole sectors. A random permutation of 66.7 M 4-byte entries took 1.65 ms on
/// an H100 with 8 bits (the partition 0.63 of it) against 4.82 ms in one pass, 33.3 M entries
/// 0.85 ms against 2.31 (0.98 in windows of 24 MB), 16.7 M 0.45 against 1.01 (0.43 in windows)
/// (perf/README, 2026-11-26). \p dst may be \p src's memory: the partition has read \p src
/// before the first write to \p dst. Indices are distinct (no two writes to one entry) and below
/// dst.extent(0); the index type is an unsigned integer of 4 or 8 bytes, the values are 4- or
/// 8-byte integers. Does not block.
/// \complexity O(n) work for n = idx.extent(0): one radix pass and one pass of writes; the
/// scratch \p idx_tmp and \p src_tmp, of at least n entries each.
template <class ExecSpace, class SrcView, class IdxView, class DstView, class SrcTmp, class IdxTmp>
void scatter_partitioned(const ExecSpace& exec, const SrcView& src, const IdxView& idx, const DstView& dst,
                         const SrcTmp& src_tmp, const IdxTmp& idx_tmp, int bits) {
  static_assert(impl::accessible_from_v<ExecSpace, SrcView> && impl::accessible_from_v<ExecSpace, IdxView> &&
                    impl::accessible_from_v<ExecSpace, DstView> && impl::accessible_from_v<ExecSpace, SrcTmp> &&
                    impl::accessible_from_v<ExecSpace, IdxTmp>,
                "ktext::scatter_partitioned: views must be accessible from the execution space");
  using I = typename IdxView::non_const_value_type;
  using V = typename SrcView::non_const_value_type;
  static_assert(std::is_same_v<I, std::uint32_t> || std::is_same_v<I, std::uint64_t>,
                "ktext::scatter_partitioned: indices must be uint32_t or uint64_t");
  static_assert(std::is_same_v<typename IdxTmp::value_type, I> && std::is_same_v<typename SrcTmp::value_type, V>,
                "ktext::scatter_partitioned: scratch buffers must have the index and value types");
  const std::size_t n = idx.extent(0);
  if (src.extent(0) < n) throw InputError("ktext::scatter_partitioned: source shorter than the indices");
  if (src_tmp.extent(0) < n || idx_tmp.extent(0) < n)
    throw InputError("ktext::scatter_partitioned: scratch buffers shorter than the indices");
  if (bits < 1 || bits > 8) throw InputError("ktext::scatter_partitioned: bits must be 1 to 8 (one radix pass)");
  Kokkos::Profiling::ScopedRegion region("ktext::scatter[Kokkos partitioned]");
  if (n == 0) return;
  const impl::Unmanaged<I, ExecSpace> keys(const_cast<I*>(impl::unmanaged<ExecSpace>(idx, "ktext::scatter_partitioned").data()), n);
  const impl::Unmanaged<V, ExecSpace> vals(const_cast<V*>(impl::unmanaged<ExecSpace>(src, "ktext::scatter_partitioned").data()), n);
  const impl::Unmanaged<I, ExecSpace> keys_tmp(impl::unmanaged<ExecSpace>(idx_tmp, "ktext::scatter_partitioned").data(), n);
  const impl::Unmanaged<V, ExecSpace> vals_tmp(impl::unmanaged<ExecSpace>(src_tmp, "ktext::scatter_partitioned").data(), n);
  const std::uint64_t size = dst.extent(0);
  const int top = size > 1 ? bit_width(size - 1) : 0;
  const int begin = top > bits ? top - bits : 0;
  // One pass of at most 8 bits writes the _tmp buffers and only reads the inputs (none with a
  // single entry, or a destination of one entry).
  const bool moved = impl::sort_pairs_in_either(exec, keys, vals, keys_tmp, vals_tmp, begin, top);
  const impl::Unmanaged<I, ExecSpace> at = moved ? keys_tmp : keys;
  const impl::Unmanaged<V, ExecSpace> from = moved ? vals_tmp : vals;
  Kokkos::parallel_for(
      "ktext::scatter_partitioned[Kokkos]", impl::Range<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(std::size_t i) { dst(at(i)) = from(i); });
}

}  // namespace ktext
