// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file string_sort.hpp
/// \brief Stable sort of a set of byte strings, and the LCP of neighbours in the sorted order.
///
/// The strings are given as one byte buffer and n + 1 offsets: string i is
/// chars[offsets[i], offsets[i+1]). Order is that of memcmp on the bytes with a proper prefix
/// first (the order of `LC_ALL=C sort`); every byte value, 0 included, is ordinary.
///
/// Algorithm on devices: MSD radix passes over fixed-width key prefixes that move only string
/// indices \cite DeshpandeNarayanan2013. The byte values present are numbered (codes of
/// bit_width(sigma) bits, 0 past a string's end), so that a 64-bit key holds as many symbols as
/// the alphabet allows: 9 of dictionary words, 21 of DNA, 7 of arbitrary bytes. Each pass packs
/// a string's segment id (its bucket from earlier passes, in the fewest bits that hold the
/// number of segments) with the next symbols, radix sorts (key, index) with ktext::sort_pairs,
/// and one scan drops finished groups and renumbers and compacts the others. On GPUs a group the
/// first pass leaves that fits a team's scratch (up to 1024 strings, most of them in tiles of
/// the sorted entries) is sorted there to the end instead of going to another pass. Before a
/// pass every segment, and in a team every run that did not split, steps over the prefix its
/// strings share, so copies of one string and long common prefixes cost one comparison per byte
/// instead of one pass per window. This code runs on every Kokkos backend, its primitives
/// specialized on CUDA (CUB).
///
/// On host execution spaces (Serial, OpenMP) string_sort runs a caching MSD radix sort instead
/// \cite KarkkainenRantala2008, which measured 1.3 to 3.4 times as fast there on 2 cores
/// (ktext_string_sort_host.hpp): each string caches its next 7 bytes and whether it ends within
/// them, groups are split a byte at a time by stable counting sorts (the large ones by all
/// threads, then each smaller one by one thread in its cache), and a group of equal windows
/// steps over its strings' shared prefix first.

#include <cstdint>
#include <string>
#include <type_traits>

#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/memory_info.hpp"
#include "ktext/core/range.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/core/work_cache.hpp"
#include "ktext/primitives/histogram.hpp"
#include "ktext/strings/impl/ktext_prefix_radix.hpp"
#include "ktext/strings/impl/ktext_string_sort_host.hpp"
#include "ktext/strings/string_sort_types.hpp"

namespace ktext {

namespace impl {

template <class ExecSpace, class CharsView, class OffsetsView, class OrderView>
void check_string_sort_views() {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>,
                "ktext::string_sort: first argument must be an execution space");
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
  static_assert(is_index_type_v<typename OrderView::value_type>,
                "ktext::string_sort: order must hold int32_t or int64_t");
}

/// Whether offsets [from, to) lie in order within \p size bytes.
template <class O>
KOKKOS_INLINE_FUNCTION bool string_within(O from, O to, std::uint64_t size) {
  if constexpr (std::is_signed_v<O>) {
    if (from < 0) return false;
  }
  return from <= to && std::uint64_t(to) <= size;
}

/// The argument check's answers on the device: offsets out of order or bounds, the longest
/// string, the prefix every string shares with the first.
struct OffsetCheck {
  std::uint64_t bad, longest, common;
};
/// Their reduction (a Kokkos reducer) into a view of \p Space.
template <class Space>
struct OffsetCheckReducer {
  using reducer = OffsetCheckReducer;
  using value_type = OffsetCheck;
  using result_view_type = Kokkos::View<value_type, Space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  result_view_type value;
  KOKKOS_INLINE_FUNCTION explicit OffsetCheckReducer(const result_view_type& v) : value(v) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    dst.bad += src.bad;
    if (src.longest > dst.longest) dst.longest = src.longest;
    if (src.common < dst.common) dst.common = src.common;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.bad = 0;
    v.longest = 0;
    v.common = ~std::uint64_t(0);
  }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *value.data(); }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return value; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return false; }
};

/// What the argument check measured: the longest string, the prefix every string shares and
/// the byte values chars holds.
struct StringSetShape {
  std::uint64_t longest = 0;
  std::uint64_t common = 0;
  std::uint64_t used[4] = {0, 0, 0, 0};
};

/// Sizes and index widths, on the host.
template <class CharsView, class OffsetsView, class OrderView>
void check_string_sort_sizes(const CharsView& chars, const OffsetsView& offsets, const OrderView& order) {
  using I = typename OrderView::value_type;
  const std::size_t n = order.extent(0);
  if (offsets.extent(0) != n + 1)
    throw InputError("ktext::string_sort: offsets has " + std::to_string(offsets.extent(0)) +
                     " elements, n + 1 = " + std::to_string(n + 1) + " expected");
  require_index_fits<I>(n, "ktext::string_sort");
  if (!chars.span_is_contiguous() || !offsets.span_is_contiguous() || !order.span_is_contiguous())
    throw InputError("ktext::string_sort: views must be contiguous");
}

/// Offsets (non-decreasing, within chars), on the device; measures the set's shape, with the
/// byte values present where \p with_alphabet. \p probe holds string_check_probe_words words of
/// the device's memory.
template <class ExecSpace, class CharsView, class OffsetsView>
StringSetShape check_string_sort_args(const ExecSpace& exec, const CharsView& chars, const OffsetsView& offsets,
                                      std::uint64_t* probe, bool with_alphabet = true) {
  using O = typename OffsetsView::non_const_value_type;
  using Mem = typename ExecSpace::memory_space;
  const std::size_t n = offsets.extent(0) - 1;
  const auto o = unmanaged<ExecSpace>(offsets, "ktext::string_sort");
  const auto c = unmanaged<ExecSpace>(chars, "ktext::string_sort");
  const std::uint64_t size = chars.extent(0);
  // The answers land in one small buffer that is copied once (each copy waits for the device):
  // [bad offsets, longest string, shared prefix, 256 byte counts]. The prefix every string
  // shares with the first is the prefix the whole set shares, which the sort's first pass steps
  // over (paths under one directory, identifiers with one tag); it is read only where both
  // strings lie within chars, and used only when every offset is valid. The byte values present
  // number the sort's symbols (StringAlphabet).
  const Unmanaged<std::uint64_t, ExecSpace> bins(probe + 3, 256);
  if (with_alphabet) {
    histogram(exec, c, bins);
  } else {
    Kokkos::parallel_for(
        "ktext::string_sort::no_alphabet", impl::Range<ExecSpace>(exec, 0, 256),
        KOKKOS_LAMBDA(std::size_t v) { bins(v) = 0; });
  }
  // One reducer of the three answers into the probe: Kokkos combines several reducers by
  // writing each result back with a deep_copy, which waits and runs a fill kernel of its own.
  using Check = OffsetCheckReducer<Mem>;
  Kokkos::parallel_reduce(
      "ktext::string_sort::check_offsets", impl::Range<ExecSpace>(exec, 0, n + 1),
      KOKKOS_LAMBDA(std::size_t i, OffsetCheck & r) {
        std::uint64_t &b = r.bad, &l = r.longest, &shared = r.common;
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
            const O f = o(0), g = o(1);
            if (string_within(v, w, size) && string_within(f, g, size)) {
              const std::uint64_t lf = std::uint64_t(g) - std::uint64_t(f);
              std::uint64_t most = lf < len ? lf : len;
              if (most > shared) most = shared;
              const std::uint64_t t = common_prefix(c, std::uint64_t(f), std::uint64_t(v), most);
              if (t < shared) shared = t;
            }
          }
        }
      },
      Check(typename Check::result_view_type(reinterpret_cast<OffsetCheck*>(probe))));
  std::uint64_t got[string_check_probe_words];
  Kokkos::deep_copy(
      exec, Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(got, string_check_probe_words),
      Unmanaged<std::uint64_t, ExecSpace>(probe, string_check_probe_words));
  exec.fence("ktext::string_sort: arguments checked");
  if (got[0] > 0)
    throw InputError("ktext::string_sort: offsets must be non-decreasing and within the " + std::to_string(size) +
                     " bytes of chars (" + std::to_string(got[0]) + " are not)");
  StringSetShape shape;
  shape.longest = got[1];
  shape.common = n == 0 ? 0 : got[2];
  for (int v = 0; v < 256; ++v)
    if (got[3 + v] > 0) shape.used[v / 64] |= std::uint64_t(1) << (v % 64);
  return shape;
}

/// Refuses, before allocating, \p work bytes of work buffers the memory space cannot hold
/// (where it can say; KTEXT_MEMORY_LIMIT caps that answer, also where a kept buffer would do).
template <class ExecSpace>
void require_string_sort_memory(const ExecSpace& exec, std::uint64_t n, std::uint64_t work) {
  const auto free_bytes = free_memory_bytes(exec);
  if (free_bytes && work > *free_bytes)
    throw OutOfMemoryError("ktext::string_sort: out of memory: " + std::to_string(n) + " strings need " +
                               std::to_string(work) + " bytes of work buffers, " + std::to_string(*free_bytes) +
                               " are free in " + ExecSpace::memory_space::name(),
                           "ktext::string_sort", work);
}

/// The sort of checked views: the host sort (ktext_string_sort_host.hpp) where \p UseHost, else
/// the portable prefix-radix passes, whose teams \p team_limit and \p team_passes set.
template <class ExecSpace, class CharsView, class OffsetsView, class OrderView, class LcpView,
          bool UseHost = string_sort_host_avail<ExecSpace>::value>
StringSortStats string_sort_checked(const ExecSpace& exec, const CharsView& chars, const OffsetsView& offsets,
                                    const OrderView& order, const LcpView* lcp,
                                    std::size_t team_limit = team_limit_automatic,
                                    int team_passes = team_passes_automatic) {
  using I = typename OrderView::value_type;
  using O = typename OffsetsView::non_const_value_type;
  constexpr bool with_lcp = !std::is_same_v<LcpView, void>;
  check_string_sort_sizes(chars, offsets, order);
  const std::size_t n = order.extent(0);
  using L = typename std::conditional_t<with_lcp, LcpView, OrderView>::value_type;
  const Unmanaged<const std::uint8_t, ExecSpace> c(chars.data(), chars.extent(0));
  const Unmanaged<const O, ExecSpace> o(offsets.data(), offsets.extent(0));
  const Unmanaged<I, ExecSpace> out(order.data(), order.extent(0));
  Unmanaged<L, ExecSpace> lcp_out;
  if constexpr (with_lcp) lcp_out = Unmanaged<L, ExecSpace>(lcp->data(), lcp->extent(0));
  auto check_lcp_type = [](const StringSetShape& shape) {
    if (with_lcp && !index_fits<L>(shape.longest))
      throw InputError("ktext::string_sort: a string of " + std::to_string(shape.longest) +
                       " bytes does not fit the lcp type; use int64_t");
  };
  try {
    if constexpr (UseHost) {
      static_assert(string_sort_host_avail<ExecSpace>::value, "ktext::string_sort: the host sort runs on hosts");
      require_string_sort_memory(exec, n, host_string_sort_work_bytes(n, sizeof(I)));
      std::uint64_t probe[string_check_probe_words];
      const StringSetShape shape = check_string_sort_args(exec, chars, offsets, probe, false);
      check_lcp_type(shape);
      return host_string_sort<with_lcp>(exec, c, o, out, lcp_out, shape.common);
    } else {
      const StringSortPlan plan = string_sort_plan<ExecSpace, I, with_lcp>(n, team_limit, team_passes);
      require_string_sort_memory(exec, n, plan.bytes);
      // One store for the argument check's probe and then every work buffer.
      const WorkLease<ExecSpace> work(exec, "ktext::string_sort::work", plan.words);
      const StringSetShape shape = check_string_sort_args(exec, chars, offsets, work.data());
      check_lcp_type(shape);
      const StringAlphabet alphabet = StringAlphabet::of(shape.used);
      return prefix_radix_sort<with_lcp>(exec, c, o, out, lcp_out, shape.common, alphabet, plan, work.data());
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
/// \complexity O(n + D) reads of the strings for D the sum of the distinguishing prefixes (the
/// bytes that decide each string's place, whole strings for duplicates): each pass reads a
/// window of k symbols per string still tied and sorts them with ceil(bits / 8) radix digits,
/// and common prefixes are stepped over by direct comparison. A group of g strings sorted in a
/// team takes O(g log^2 g) key comparisons in scratch per window it reads, for a tile the
/// tile's whole span. On hosts each window read costs at most 8 counting passes over the
/// entries still tied (one per byte), and groups of up to 32 entries are insertion sorted.
/// Memory: string_sort_peak_bytes_bound().
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
