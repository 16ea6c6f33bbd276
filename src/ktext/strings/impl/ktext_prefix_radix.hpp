// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// MSD prefix-radix string sort (Deshpande and Narayanan), written once against Kokkos views and
// the ktext primitives.
//
// State between passes: the active strings (those still tied with another) in `idx`, grouped
// into segments of strings known to share a prefix, in sorted segment order; `sid` gives each
// entry its segment (0..S-1, non-decreasing), and per segment `start` is the slot of the output
// order where the segment begins and `depth` the length of the prefix its strings share.
//
// A pass:
// 1. Skip: every segment steps over the longest prefix all its strings share beyond its depth
//    (the minimum LCP of neighbours, a segmented minimum scan). Each byte is read by at most
//    two comparisons, and the pass after a skip splits every segment, so a set of copies of one
//    string or of paths with a 200-byte common prefix costs one comparison per byte, not one
//    radix pass per 7 bytes.
// 2. Keys: [segment id: as few bits as S needs][k bytes from the depth][how many of them exist].
//    The count makes a string that ends sort before any byte, NUL included, and marks finished
//    groups; k = 7 while S < 2^5, fewer beyond.
// 3. A stable radix sort of (key, index) over the key's bits only. Stability keeps tied strings
//    in input order, so equal strings leave in the order they came.
// 4. One scan over the sorted keys: a group (equal keys) that is a singleton, or whose strings
//    all end inside the window (equal strings), is finished and its strings are written to their
//    slots; the LCP with the previous slot is known where a group begins (the depth plus the
//    bytes the two windows share) and inside a finished group of equal strings (their length).
//    The other groups become the next pass's segments.
// 5. Compaction of the active entries and their new segment ids (select).

#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/footprint.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/memory_info.hpp"
#include "ktext/primitives/scan.hpp"
#include "ktext/primitives/select.hpp"
#include "ktext/primitives/sort_pairs.hpp"
#include "ktext/strings/string_sort_types.hpp"

namespace ktext::impl {

/// Bits of one pass's 64-bit keys: [segment id][k window bytes][count of those that exist].
struct StringKeyLayout {
  int k = 7;           // window bytes
  int count_bits = 3;  // bit_width(k)
  int seg_bits = 0;
  KOKKOS_INLINE_FUNCTION int seg_shift() const { return count_bits + 8 * k; }
  [[nodiscard]] int total_bits() const { return seg_bits + 8 * k + count_bits; }
  KOKKOS_INLINE_FUNCTION std::uint64_t segment(std::uint64_t key) const {
    return seg_bits == 0 ? 0 : key >> seg_shift();
  }
  KOKKOS_INLINE_FUNCTION int count(std::uint64_t key) const {
    return int(key & ((std::uint64_t(1) << count_bits) - 1));
  }
  /// Leading bytes two windows of one segment share, at most the shorter count.
  KOKKOS_INLINE_FUNCTION int common(std::uint64_t a, std::uint64_t b) const {
    const int ca = count(a), cb = count(b);
    const int limit = ca < cb ? ca : cb;
    const std::uint64_t diff = (a ^ b) >> count_bits;
    int t = 0;
    while (t < limit && ((diff >> (8 * (k - 1 - t))) & 0xff) == 0) ++t;
    return t;
  }
};

/// The widest window that leaves room for \p segments ids.
inline StringKeyLayout string_key_layout(std::uint64_t segments) {
  const int seg_bits = segments > 1 ? bit_width(segments - 1) : 0;
  for (int k = 7; k >= 1; --k)
    if (seg_bits + 8 * k + bit_width(std::uint64_t(k)) <= 64) return StringKeyLayout{k, bit_width(std::uint64_t(k)), seg_bits};
  throw InputError("ktext::string_sort: " + std::to_string(segments) + " segments do not fit a 64-bit key");
}

/// Strings as bytes and n + 1 offsets.
template <class Chars, class Offsets>
struct ByteStrings {
  Chars chars;
  Offsets offsets;
  KOKKOS_INLINE_FUNCTION std::uint64_t begin(std::uint64_t i) const { return std::uint64_t(offsets(i)); }
  KOKKOS_INLINE_FUNCTION std::uint64_t length(std::uint64_t i) const {
    return std::uint64_t(offsets(i + 1)) - std::uint64_t(offsets(i));
  }
  /// Window bits (bytes, then count) of string i from depth d (d <= its length).
  KOKKOS_INLINE_FUNCTION std::uint64_t window(std::uint64_t i, std::uint64_t d, const StringKeyLayout& layout) const {
    const std::uint64_t at = begin(i) + d, rest = length(i) - d;
    const int c = rest < std::uint64_t(layout.k) ? int(rest) : layout.k;
    std::uint64_t w = 0;
    for (int t = 0; t < layout.k; ++t) w = (w << 8) | (t < c ? std::uint64_t(chars(at + t)) : 0);
    return (w << layout.count_bits) | std::uint64_t(c);
  }
  /// Bytes strings i and j share from depth d on (both at least d long).
  KOKKOS_INLINE_FUNCTION std::uint64_t common_from(std::uint64_t i, std::uint64_t j, std::uint64_t d) const {
    const std::uint64_t li = length(i), lj = length(j);
    const std::uint64_t limit = (li < lj ? li : lj) - d;
    const std::uint64_t a = begin(i) + d, b = begin(j) + d;
    std::uint64_t l = 0;
    while (l < limit && chars(a + l) == chars(b + l)) ++l;
    return l;
  }
};

/// Segmented minimum: `first` marks a segment's first entry.
struct SegmentMin {
  int first;
  std::uint64_t value;
};
struct SegmentMinJoin {
  KOKKOS_INLINE_FUNCTION SegmentMin identity() const { return {0, ~std::uint64_t(0)}; }
  KOKKOS_INLINE_FUNCTION SegmentMin operator()(const SegmentMin& a, const SegmentMin& b) const {
    if (b.first) return b;
    return {a.first, a.value < b.value ? a.value : b.value};
  }
};

/// Step 1: the prefix each segment's strings share beyond its depth.
template <class Strings, class Idx, class Seg, class Depth>
struct SkipMake {
  Strings strings;
  Idx idx;
  Seg sid;
  Depth depth;
  KOKKOS_INLINE_FUNCTION SegmentMin operator()(std::size_t j) const {
    if (j == 0 || sid(j) != sid(j - 1)) return {1, ~std::uint64_t(0)};
    return {0, strings.common_from(std::uint64_t(idx(j - 1)), std::uint64_t(idx(j)), depth(sid(j)))};
  }
};
template <class Seg, class Skip>
struct SkipApply {
  Seg sid;
  Skip skip;
  std::size_t m;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j, const SegmentMin& s) const {
    if (j + 1 == m || sid(j + 1) != sid(j)) skip(sid(j)) = s.value == ~std::uint64_t(0) ? 0 : s.value;
  }
};

/// Step 4: groups of equal keys in the sorted keys of one pass.
template <class Keys>
struct PassGroups {
  Keys keys;
  std::size_t m;
  StringKeyLayout layout;
  KOKKOS_INLINE_FUNCTION bool segment_start(std::size_t j) const {
    return j == 0 || layout.segment(keys(j)) != layout.segment(keys(j - 1));
  }
  KOKKOS_INLINE_FUNCTION bool head(std::size_t j) const { return j == 0 || keys(j) != keys(j - 1); }
  /// Every string of the group ends inside the window: they are equal.
  KOKKOS_INLINE_FUNCTION bool ended(std::size_t j) const { return layout.count(keys(j)) < layout.k; }
  KOKKOS_INLINE_FUNCTION bool finished(std::size_t j) const {
    return ended(j) || (head(j) && (j + 1 == m || head(j + 1)));
  }
  KOKKOS_INLINE_FUNCTION bool operator()(std::size_t j) const { return !finished(j); }  // kept
};

template <class I>
struct PassMarks {
  I segment_first, group_first, kept_groups;
};
template <class I>
struct PassMarksJoin {
  KOKKOS_INLINE_FUNCTION PassMarks<I> identity() const { return {0, 0, 0}; }
  KOKKOS_INLINE_FUNCTION PassMarks<I> operator()(const PassMarks<I>& a, const PassMarks<I>& b) const {
    return {a.segment_first < b.segment_first ? b.segment_first : a.segment_first,
            a.group_first < b.group_first ? b.group_first : a.group_first, I(a.kept_groups + b.kept_groups)};
  }
};
template <class Groups, class I>
struct PassMake {
  Groups groups;
  KOKKOS_INLINE_FUNCTION PassMarks<I> operator()(std::size_t j) const {
    const bool head = groups.head(j);
    return {groups.segment_start(j) ? I(j) : I(0), head ? I(j) : I(0), I(head && !groups.finished(j) ? 1 : 0)};
  }
};
template <class Groups, class Idx, class Order, class Lcp, class Start, class Depth, class I, bool WithLcp>
struct PassApply {
  Groups groups;
  Idx idx;
  Order order;
  Lcp lcp;
  Start start, next_start;
  Depth depth, next_depth;
  Idx next_sid;  // the new segment of each kept entry, compacted afterwards
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j, const PassMarks<I>& at) const {
    const std::uint64_t key = groups.keys(j);
    const std::uint64_t s = groups.layout.segment(key);
    const I base = start(s);
    const std::uint64_t d = depth(s);
    const I slot = I(base + (I(j) - at.segment_first));
    const bool head = groups.head(j);
    if constexpr (WithLcp) {
      if (head && I(j) != at.segment_first)
        lcp(slot) = d + std::uint64_t(groups.layout.common(groups.keys(j - 1), key));
      else if (!head && groups.ended(j))
        lcp(slot) = d + std::uint64_t(groups.layout.count(key));
    }
    if (groups.finished(j)) {
      order(slot) = idx(j);
      return;
    }
    const I s_new = I(at.kept_groups - 1);
    next_sid(j) = s_new;
    if (head) {
      next_start(s_new) = slot;
      next_depth(s_new) = d + std::uint64_t(groups.layout.k);
    }
  }
};

/// The sort; \p lcp is written when \p with_lcp (else it may be empty). Arguments checked by
/// the caller.
template <bool with_lcp, class ExecSpace, class O, class I, class L>
StringSortStats prefix_radix_sort(const ExecSpace& exec, const Unmanaged<const std::uint8_t, ExecSpace>& chars,
                                  const Unmanaged<const O, ExecSpace>& offsets, const Unmanaged<I, ExecSpace>& order,
                                  const Unmanaged<L, ExecSpace>& lcp) {
  using Mem = typename ExecSpace::memory_space;
  using U64 = std::uint64_t;
  const std::size_t n = order.extent(0);
  // By value: decltype of the reference parameters would make the functors hold host references.
  // The functors below hold views by value: naming the parameters' types with decltype would
  // make them hold references to the host's copies.
  using Strings = ByteStrings<Unmanaged<const std::uint8_t, ExecSpace>, Unmanaged<const O, ExecSpace>>;
  using IView = Unmanaged<I, ExecSpace>;
  using Keys = Unmanaged<U64, ExecSpace>;
  const Strings strings{chars, offsets};

  StringSortStats stats;
  Footprint mem;
  mem.add(chars.extent(0) + offsets.extent(0) * sizeof(O) + n * sizeof(I) + (with_lcp ? n * sizeof(L) : 0));
  auto allocate = [&](auto tag, const char* label, std::size_t count) {
    using T = typename decltype(tag)::type;
    auto view = uninitialized_view<T, Mem>(exec, label, count);
    mem.add(count * sizeof(T));
    return view;
  };
  using Policy = impl::Range<ExecSpace>;
  if (n <= 1) {
    if (n == 1)
      Kokkos::parallel_for(
          "ktext::string_sort::single", Policy(exec, 0, 1), KOKKOS_LAMBDA(std::size_t) {
            order(0) = 0;
            if (with_lcp) lcp(0) = 0;  // not constexpr: nvcc forbids a first capture there
          });
    stats.peak_bytes = mem.peak();
    return stats;
  }

  const auto idx_a = allocate(Tag<I>{}, "ktext::string_sort::active", n);
  const auto idx_b = allocate(Tag<I>{}, "ktext::string_sort::active_tmp", n);
  const auto keys = allocate(Tag<U64>{}, "ktext::string_sort::keys", n);
  const auto keys_tmp = allocate(Tag<U64>{}, "ktext::string_sort::keys_tmp", n);
  const auto sid = allocate(Tag<I>{}, "ktext::string_sort::segment", n);
  // Every segment holds at least two strings (the first pass' one segment aside), so n/2 + 1
  // entries hold any pass's segments.
  const std::size_t seg_capacity = n / 2 + 1;
  const std::array<Work<I, ExecSpace>, 2> seg_start{allocate(Tag<I>{}, "ktext::string_sort::segment_start", seg_capacity),
                                                    allocate(Tag<I>{}, "ktext::string_sort::segment_start", seg_capacity)};
  const std::array<Work<U64, ExecSpace>, 2> seg_depth{
      allocate(Tag<U64>{}, "ktext::string_sort::segment_depth", seg_capacity),
      allocate(Tag<U64>{}, "ktext::string_sort::segment_depth", seg_capacity)};

  const Work<I, ExecSpace> start0 = seg_start[0];
  const Work<U64, ExecSpace> depth0 = seg_depth[0];
  Kokkos::parallel_for(
      "ktext::string_sort::init", Policy(exec, 0, n), KOKKOS_LAMBDA(std::size_t j) {
        idx_a(j) = I(j);
        sid(j) = 0;
        if (j == 0) {
          start0(0) = 0;
          depth0(0) = 0;
          if (with_lcp) lcp(0) = 0;
        }
      });

  Work<I, ExecSpace> idx = idx_a, idx_tmp = idx_b;
  std::size_t m = n, segments = 1;
  int cur = 0;
  while (m > 0) {
    ++stats.passes;
    const int next = 1 - cur;
    const Unmanaged<I, ExecSpace> active(idx.data(), m), active_tmp(idx_tmp.data(), m), seg(sid.data(), m);
    const Unmanaged<U64, ExecSpace> k_m(keys.data(), m), kt_m(keys_tmp.data(), m);
    const Work<I, ExecSpace> start = seg_start[cur], next_start = seg_start[next];
    const Work<U64, ExecSpace> depth = seg_depth[cur], next_depth = seg_depth[next];

    // 1. Skip the prefix each segment shares; next_depth is free until step 4.
    ktext::inclusive_scan_apply<SegmentMin>(
        exec, m, SkipMake<Strings, IView, IView, Work<U64, ExecSpace>>{
                     strings, active, seg, depth},
        SegmentMinJoin{}, SkipApply<IView, Work<U64, ExecSpace>>{seg, next_depth, m});
    U64 skipped = 0;
    Kokkos::parallel_reduce(
        "ktext::string_sort::skip", Policy(exec, 0, segments),
        KOKKOS_LAMBDA(std::size_t s, U64 & sum) {
          depth(s) += next_depth(s);
          sum += next_depth(s);
        },
        skipped);
    stats.skipped_bytes += skipped;

    // 2. Keys, 3. the stable sort of the bits that matter.
    const StringKeyLayout layout = string_key_layout(segments);
    Kokkos::parallel_for(
        "ktext::string_sort::keys", Policy(exec, 0, m), KOKKOS_LAMBDA(std::size_t j) {
          const U64 s = U64(seg(j));
          const U64 high = layout.seg_bits == 0 ? 0 : s << layout.seg_shift();
          k_m(j) = high | strings.window(U64(active(j)), depth(s), layout);
        });
    ktext::sort_pairs(exec, k_m, active, kt_m, active_tmp, 0, layout.total_bits());

    // 4. Finished groups to the output, the others to the next pass' segments.
    const PassGroups<Keys> groups{k_m, m, layout};
    const Unmanaged<I, ExecSpace> next_sid(reinterpret_cast<I*>(keys_tmp.data()), m);  // free after the sort
    ktext::inclusive_scan_apply<PassMarks<I>>(
        exec, m, PassMake<PassGroups<Keys>, I>{groups}, PassMarksJoin<I>{},
        PassApply<PassGroups<Keys>, IView, IView, Unmanaged<L, ExecSpace>, Work<I, ExecSpace>, Work<U64, ExecSpace>, I,
                  with_lcp>{groups, active, order, lcp, start, next_start, depth, next_depth, next_sid});

    // 5. Compaction.
    const std::size_t kept = ktext::select_by_index(exec, active, active_tmp, groups);
    ktext::select_by_index(exec, next_sid, seg, groups);
    std::swap(idx, idx_tmp);
    m = kept;
    if (m > 0) {
      I last = 0;
      Kokkos::deep_copy(exec, Kokkos::View<I, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&last), Kokkos::subview(sid, m - 1));
      exec.fence("ktext::string_sort: segments counted");
      segments = std::size_t(last) + 1;
    }
    cur = next;
  }
  exec.fence("ktext::string_sort: done");
  stats.peak_bytes = mem.peak();
  return stats;
}

}  // namespace ktext::impl
