// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file sort_pairs.hpp
/// \brief Stable key-value radix sort on a bit range.
///
/// Keys are uint8_t, uint16_t, uint32_t or uint64_t; values any 4- or 8-byte integer. Only bits
/// [begin_bit, end_bit) of the keys are compared, so callers that know their keys are small sort
/// only the bits that matter (each 8 bits fewer saves a full pass over the data). Portable LSD
/// radix sort on every backend; cub::DeviceRadixSort (onesweep) on CUDA.

#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/impl/ktext_region.hpp"
#include "ktext/primitives/impl/ktext_sort_pairs_spec.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "ktext/cuda/ktext_cuda_sort_pairs.hpp"
#endif

namespace ktext {

namespace impl {
template <class ExecSpace, class KeyView, class ValView>
void check_sort_pairs_args(const KeyView& keys, const ValView& vals, int begin_bit, int end_bit) {
  static_assert(is_rank1_view_v<KeyView> && is_rank1_view_v<ValView>, "ktext::sort_pairs: keys and values must be rank-1 views");
  static_assert(accessible_from_v<ExecSpace, KeyView> && accessible_from_v<ExecSpace, ValView>,
                "ktext::sort_pairs: views must be accessible from the execution space");
  static_assert(is_writable_view_v<KeyView> && is_writable_view_v<ValView>, "ktext::sort_pairs: views must not be const");
  using K = typename KeyView::value_type;
  using V = typename ValView::value_type;
  static_assert(std::is_same_v<K, std::uint8_t> || std::is_same_v<K, std::uint16_t> || std::is_same_v<K, std::uint32_t> ||
                    std::is_same_v<K, std::uint64_t>,
                "ktext::sort_pairs: keys must be uint8_t, uint16_t, uint32_t or uint64_t");
  static_assert(std::is_integral_v<V> && (sizeof(V) == 4 || sizeof(V) == 8),
                "ktext::sort_pairs: values must be 4- or 8-byte integers");
  if (vals.extent(0) != keys.extent(0)) throw InputError("ktext::sort_pairs: keys and values differ in length");
  if (begin_bit < 0 || end_bit > int(8 * sizeof(K)) || begin_bit > end_bit)
    throw InputError("ktext::sort_pairs: bit range out of the key's bits");
}

/// The sort after the argument checks, inside the caller's profiling region.
template <class ExecSpace, class KeyView, class ValView, class KeyTmp, class ValTmp>
void sort_pairs_checked(const ExecSpace& exec, const KeyView& keys, const ValView& vals, const KeyTmp& keys_tmp,
                        const ValTmp& vals_tmp, int begin_bit, int end_bit) {
  using K = typename KeyView::value_type;
  using V = typename ValView::value_type;
  const std::size_t n = keys.extent(0);
  auto k = unmanaged<ExecSpace>(keys, "ktext::sort_pairs");
  auto v = unmanaged<ExecSpace>(vals, "ktext::sort_pairs");
  Unmanaged<K, ExecSpace> kt(keys_tmp.data(), n);  // only the first n elements are used
  Unmanaged<V, ExecSpace> vt(vals_tmp.data(), n);
  if (SortPairs<ExecSpace, K, V>::apply(exec, k, v, kt, vt, begin_bit, end_bit)) {
    Kokkos::deep_copy(exec, k, kt);
    Kokkos::deep_copy(exec, v, vt);
  }
}

/// As ktext::sort_pairs with scratch buffers of the same length, but the result stays where the
/// last radix pass wrote it: returns true when that is \p keys_tmp / \p vals_tmp. For callers
/// that alternate buffers anyway (an odd digit count otherwise costs two copies). Does not block.
template <class ExecSpace, class K, class V>
bool sort_pairs_in_either(const ExecSpace& exec, const Unmanaged<K, ExecSpace>& keys, const Unmanaged<V, ExecSpace>& vals,
                          const Unmanaged<K, ExecSpace>& keys_tmp, const Unmanaged<V, ExecSpace>& vals_tmp, int begin_bit,
                          int end_bit) {
  check_sort_pairs_args<ExecSpace>(keys, vals, begin_bit, end_bit);
  if (keys_tmp.extent(0) != keys.extent(0) || vals_tmp.extent(0) != keys.extent(0))
    throw InputError("ktext::sort_pairs: scratch buffers differ in length from the keys");
  using Impl = SortPairs<ExecSpace, K, V>;
  Kokkos::Profiling::ScopedRegion region(region_name<Impl>("ktext::sort_pairs"));
  if (keys.extent(0) <= 1 || begin_bit == end_bit) return false;
  return Impl::apply(exec, keys, vals, keys_tmp, vals_tmp, begin_bit, end_bit);
}

/// Readies sorts of up to \p n pairs of \p K keys and \p V values by bits [0, end_bit) on
/// \p exec: where the backend keeps storage between sorts (CUB's temporary storage on CUDA), it
/// is grown now, once, to what the largest of them needs. Does not block.
template <class K, class V, class ExecSpace>
void reserve_sort_pairs(const ExecSpace& exec, std::size_t n, int end_bit = int(8 * sizeof(K))) {
  SortPairs<ExecSpace, K, V>::reserve(exec, n, end_bit);
}
}  // namespace impl

/// \brief Sorts \p keys (and \p vals alongside) by bits [begin_bit, end_bit), stable, using the
/// caller's scratch buffers \p keys_tmp and \p vals_tmp (same length). The result is always in
/// \p keys / \p vals. Does not block.
/// \complexity O(n * ceil((end_bit - begin_bit) / 8)) work, 2n extra pairs of memory (the scratch).
template <class ExecSpace, class KeyView, class ValView, class KeyTmp, class ValTmp>
void sort_pairs(const ExecSpace& exec, const KeyView& keys, const ValView& vals, const KeyTmp& keys_tmp,
                const ValTmp& vals_tmp, int begin_bit, int end_bit) {
  static_assert(impl::is_rank1_view_v<KeyTmp> && impl::is_rank1_view_v<ValTmp>,
                "ktext::sort_pairs: scratch buffers must be rank-1 views");
  static_assert(impl::accessible_from_v<ExecSpace, KeyTmp> && impl::accessible_from_v<ExecSpace, ValTmp>,
                "ktext::sort_pairs: scratch buffers must be accessible from the execution space");
  static_assert(std::is_same_v<typename KeyTmp::value_type, typename KeyView::value_type> &&
                    std::is_same_v<typename ValTmp::value_type, typename ValView::value_type>,
                "ktext::sort_pairs: scratch buffers must have the key and value types");
  impl::check_sort_pairs_args<ExecSpace>(keys, vals, begin_bit, end_bit);
  if (keys_tmp.extent(0) < keys.extent(0) || vals_tmp.extent(0) < keys.extent(0))
    throw InputError("ktext::sort_pairs: scratch buffers shorter than the keys");
  using Impl = impl::SortPairs<ExecSpace, typename KeyView::value_type, typename ValView::value_type>;
  Kokkos::Profiling::ScopedRegion region(impl::region_name<Impl>("ktext::sort_pairs"));
  if (keys.extent(0) <= 1 || begin_bit == end_bit) return;
  impl::sort_pairs_checked(exec, keys, vals, keys_tmp, vals_tmp, begin_bit, end_bit);
}

/// \brief As above, allocating the scratch buffers on the execution space.
template <class ExecSpace, class KeyView, class ValView>
void sort_pairs(const ExecSpace& exec, const KeyView& keys, const ValView& vals, int begin_bit = 0,
                int end_bit = 8 * sizeof(typename KeyView::value_type)) {
  impl::check_sort_pairs_args<ExecSpace>(keys, vals, begin_bit, end_bit);
  using Impl = impl::SortPairs<ExecSpace, typename KeyView::value_type, typename ValView::value_type>;
  Kokkos::Profiling::ScopedRegion region(impl::region_name<Impl>("ktext::sort_pairs"));
  if (keys.extent(0) <= 1 || begin_bit == end_bit) return;
  auto kt = impl::alloc<typename KeyView::value_type>(exec, "ktext::sort_pairs::keys_tmp", keys.extent(0));
  auto vt = impl::alloc<typename ValView::value_type>(exec, "ktext::sort_pairs::vals_tmp", keys.extent(0));
  impl::sort_pairs_checked(exec, keys, vals, kt, vt, begin_bit, end_bit);
  exec.fence("ktext::sort_pairs: scratch released");
}

}  // namespace ktext
