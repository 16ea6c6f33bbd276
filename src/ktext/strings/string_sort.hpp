// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file string_sort.hpp
/// \brief Stable sort of a set of byte strings, and the LCP of neighbours in the sorted order.
///
/// The strings are given as one byte buffer and n + 1 offsets: string i is
/// chars[offsets[i], offsets[i+1]). Order is that of memcmp on the bytes with a proper prefix
/// first (the order of `LC_ALL=C sort`); every byte value, 0 included, is ordinary.
///
/// Algorithm: MSD radix passes over fixed-width key prefixes that move only string indices
/// \cite DeshpandeNarayanan2013. Each pass packs a string's segment id (its bucket from earlier
/// passes, in the fewest bits that hold the number of segments) with the next bytes, radix sorts
/// (key, index) with ktext::sort_pairs, and one scan drops finished groups and renumbers and
/// compacts the others; groups of at most 16 strings are finished by comparison instead of
/// another pass. Before each pass every segment steps over the prefix its strings share, so
/// copies of one string and long common prefixes cost one comparison per byte instead of one
/// pass per 7 bytes. The same code runs on every Kokkos backend; only the
/// primitives are specialized (CUB on CUDA).

#include <cstdint>
#include <string>
#include <type_traits>

#include "ktext/core/range.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/memory_info.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/strings/impl/ktext_prefix_radix.hpp"
#include "ktext/strings/string_sort_types.hpp"

namespace ktext {

namespace impl {

template <class ExecSpace, class CharsView, class OffsetsView, class OrderView>
void check_string_sort_views() {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::string_sort: first argument must be an execution space");
  static_assert(is_rank1_view_v<CharsView> && is_rank1_view_v<OffsetsView> && is_rank1_view_v<OrderView>,
                "ktext::string_sort: chars, offsets and order must be rank-1 Kokkos views");
  static_assert(accessible_from_v<ExecSpace, CharsView> && accessible_from_v<ExecSpace, OffsetsView> &&
                    accessible_from_v<ExecSpace, OrderView>,
                "ktext::string_sort: views must be accessible from the execution space");
  static_assert(std::is_same_v<typename CharsView::non_const_value_type, std::uint8_t>,
                "ktext::string_sort: chars must hold uint8_t");
  using O = typename OffsetsView::non_const_value_type;
  static_assert(std::is_same_v<O, std::int64_t> || std::is_same_v<O, std::uint64_t>,
                "ktext::string_sort: offsets must be int64_t or uint64_t");
  static_assert(is_index_type_v<typename OrderView::value_type>, "ktext::string_sort: order must hold int32_t or int64_t");
}

/// Sizes, offsets (non-decreasing, within chars) and index widths; returns the longest length.
template <class ExecSpace, class CharsView, class OffsetsView, class OrderView>
std::uint64_t check_string_sort_args(const ExecSpace& exec, const CharsView& chars, const OffsetsView& offsets,
                                     const OrderView& order) {
  using O = typename OffsetsView::non_const_value_type;
  using I = typename OrderView::value_type;
  const std::size_t n = order.extent(0);
  if (offsets.extent(0) != n + 1)
    throw InputError("ktext::string_sort: offsets has " + std::to_string(offsets.extent(0)) +
                     " elements, n + 1 = " + std::to_string(n + 1) + " expected");
  require_index_fits<I>(n, "ktext::string_sort");
  if (!chars.span_is_contiguous() || !offsets.span_is_contiguous() || !order.span_is_contiguous())
    throw InputError("ktext::string_sort: views must be contiguous");
  const auto o = unmanaged<ExecSpace>(offsets, "ktext::string_sort");
  const std::uint64_t size = chars.extent(0);
  // One pass for both answers: each reduction into a host scalar waits for the device.
  std::size_t bad = 0;
  std::uint64_t longest = 0;
  Kokkos::parallel_reduce(
      "ktext::string_sort::check_offsets", impl::Range<ExecSpace>(exec, 0, n + 1),
      KOKKOS_LAMBDA(std::size_t i, std::size_t & b, std::uint64_t & l) {
        const O v = o(i);
        if constexpr (std::is_signed_v<O>) {
          if (v < 0) {
            ++b;
            return;
          }
        }
        if (std::uint64_t(v) > size || (i > 0 && v < o(i - 1))) {
          ++b;
          return;
        }
        if (i < n) {
          const O w = o(i + 1);  // a bad next offset is counted by its own index
          if (w >= v) {
            const std::uint64_t len = std::uint64_t(w) - std::uint64_t(v);
            if (len > l) l = len;
          }
        }
      },
      Kokkos::Sum<std::size_t>(bad), Kokkos::Max<std::uint64_t>(longest));
  if (bad > 0)
    throw InputError("ktext::string_sort: offsets must be non-decreasing and within the " + std::to_string(size) +
                     " bytes of chars (" + std::to_string(bad) + " are not)");
  return longest;
}

/// Refuses, before allocating, work buffers the memory space cannot hold (where it can say).
template <class ExecSpace, class I>
void require_string_sort_memory(const ExecSpace& exec, std::uint64_t n) {
  const std::uint64_t work = string_sort_peak_bytes_bound<I>(n, 0) - 8 * (n + 1) - sizeof(I) * n;
  const auto free_bytes = free_memory_bytes(exec);
  if (free_bytes && work > *free_bytes)
    throw OutOfMemoryError("ktext::string_sort: out of memory: " + std::to_string(n) + " strings need " +
                               std::to_string(work) + " bytes of work buffers, " + std::to_string(*free_bytes) +
                               " are free in " + ExecSpace::memory_space::name(),
                           "ktext::string_sort", work);
}

template <class ExecSpace, class CharsView, class OffsetsView, class OrderView, class LcpView>
StringSortStats string_sort_checked(const ExecSpace& exec, const CharsView& chars, const OffsetsView& offsets,
                                    const OrderView& order, const LcpView* lcp) {
  using I = typename OrderView::value_type;
  using O = typename OffsetsView::non_const_value_type;
  const std::uint64_t longest = check_string_sort_args(exec, chars, offsets, order);
  if constexpr (!std::is_same_v<LcpView, void>) {
    if (!index_fits<typename LcpView::value_type>(longest))
      throw InputError("ktext::string_sort: a string of " + std::to_string(longest) +
                       " bytes does not fit the lcp type; use int64_t");
  }
  require_string_sort_memory<ExecSpace, I>(exec, order.extent(0));
  const Unmanaged<const std::uint8_t, ExecSpace> c(chars.data(), chars.extent(0));
  const Unmanaged<const O, ExecSpace> o(offsets.data(), offsets.extent(0));
  const Unmanaged<I, ExecSpace> out(order.data(), order.extent(0));
  try {
    if constexpr (std::is_same_v<LcpView, void>) {
      return prefix_radix_sort<false>(exec, c, o, out, Unmanaged<I, ExecSpace>());
    } else {
      using L = typename LcpView::value_type;
      return prefix_radix_sort<true>(exec, c, o, out, Unmanaged<L, ExecSpace>(lcp->data(), lcp->extent(0)));
    }
  } catch (const std::bad_alloc& e) {
    throw_out_of_memory("ktext::string_sort", e);
  }
}

}  // namespace impl

/// \brief Sorts the strings of \p chars and \p offsets stably: order[r] is the index of the
/// string of rank r, equal strings in input order.
/// \tparam ExecSpace Kokkos execution space; every view must be accessible from it.
/// \param exec the execution space instance.
/// \param chars rank-1 view of uint8_t: the strings back to back (any byte, NUL included).
/// \param offsets rank-1 view of n + 1 int64_t or uint64_t: string i is chars[offsets[i],
///        offsets[i+1]); non-decreasing, the last at most chars.extent(0).
/// \param order rank-1 view of n int32_t or int64_t (int64_t for n >= 2^31).
/// \return peak memory, passes and skipped prefix bytes. The call waits for the result (the
///         passes depend on counts computed on the device).
/// \throws InputError for inconsistent offsets or sizes; OutOfMemoryError when the memory space
///         cannot hold the work buffers (string_sort_peak_bytes_bound()), before they are allocated
///         where the backend says how much memory is free (CUDA).
/// \complexity O(n + D) work for D the sum of the distinguishing prefixes (the bytes that
/// decide each string's place, whole strings for duplicates): each pass reads k <= 7 bytes per
/// string still tied and sorts them with ceil(bits / 8) radix digits; common prefixes of a
/// bucket are stepped over by direct comparison; a bucket of at most 16 strings compares each
/// with the others (at most 15 reads of its distinguishing prefix). Memory:
/// string_sort_peak_bytes_bound().
template <class ExecSpace, class CharsView, class OffsetsView, class OrderView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
StringSortStats string_sort(const ExecSpace& exec, const CharsView& chars, const OffsetsView& offsets,
                            const OrderView& order) {
  impl::check_string_sort_views<ExecSpace, CharsView, OffsetsView, OrderView>();
  static_assert(impl::is_writable_view_v<OrderView>, "ktext::string_sort: order must not be const");
  return impl::string_sort_checked<ExecSpace, CharsView, OffsetsView, OrderView, void>(exec, chars, offsets, order,
                                                                                       nullptr);
}

/// \brief As above, and \p lcp[r] receives the length of the longest common prefix of the
/// strings of ranks r - 1 and r (lcp[0] = 0): equal neighbours have lcp[r] equal to their
/// length, which is what `sort -u` and a merge of sorted runs need.
/// \param exec the execution space instance.
/// \param chars the strings back to back, as above.
/// \param offsets n + 1 offsets, as above.
/// \param order the permutation, as above.
/// \param lcp rank-1 view of n int32_t or int64_t; the longest string must fit its type.
/// \throws InputError also when lcp has the wrong length or the longest string does not fit it.
template <class ExecSpace, class CharsView, class OffsetsView, class OrderView, class LcpView,
          std::enable_if_t<Kokkos::is_execution_space_v<ExecSpace>, int> = 0>
StringSortStats string_sort(const ExecSpace& exec, const CharsView& chars, const OffsetsView& offsets,
                            const OrderView& order, const LcpView& lcp) {
  impl::check_string_sort_views<ExecSpace, CharsView, OffsetsView, OrderView>();
  static_assert(impl::is_writable_view_v<OrderView> && impl::is_writable_view_v<LcpView>,
                "ktext::string_sort: order and lcp must not be const");
  static_assert(impl::is_rank1_view_v<LcpView> && impl::accessible_from_v<ExecSpace, LcpView>,
                "ktext::string_sort: lcp must be a rank-1 view accessible from the execution space");
  static_assert(is_index_type_v<typename LcpView::value_type>, "ktext::string_sort: lcp must hold int32_t or int64_t");
  if (lcp.extent(0) != order.extent(0))
    throw InputError("ktext::string_sort: lcp has " + std::to_string(lcp.extent(0)) + " elements, order " +
                     std::to_string(order.extent(0)));
  if (!lcp.span_is_contiguous()) throw InputError("ktext::string_sort: views must be contiguous");
  return impl::string_sort_checked<ExecSpace, CharsView, OffsetsView, OrderView, LcpView>(exec, chars, offsets, order,
                                                                                          &lcp);
}

/// \brief As above on the default instance of the order view's execution space; waits.
template <class CharsView, class OffsetsView, class OrderView, std::enable_if_t<Kokkos::is_view_v<CharsView>, int> = 0>
StringSortStats string_sort(const CharsView& chars, const OffsetsView& offsets, const OrderView& order) {
  using Exec = typename OrderView::execution_space;
  auto stats = string_sort(Exec{}, chars, offsets, order);
  Exec{}.fence("ktext::string_sort");
  return stats;
}

/// \brief As above with the LCP array, on the default instance of the order view's execution
/// space; waits.
template <class CharsView, class OffsetsView, class OrderView, class LcpView,
          std::enable_if_t<Kokkos::is_view_v<CharsView>, int> = 0>
StringSortStats string_sort(const CharsView& chars, const OffsetsView& offsets, const OrderView& order,
                            const LcpView& lcp) {
  using Exec = typename OrderView::execution_space;
  auto stats = string_sort(Exec{}, chars, offsets, order, lcp);
  Exec{}.fence("ktext::string_sort");
  return stats;
}

}  // namespace ktext
