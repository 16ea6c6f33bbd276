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
//    A group of at most small_group strings is finished too, by comparison beyond the window
//    (SmallSort: each string counts the strings of its group that precede it). On real string
//    sets most groups left after a pass are that small (dictionary words after the first pass:
//    840 k of 1.33 M strings), so they cost no further radix pass.
//    The other groups become the next pass's segments: the same scan writes their entries,
//    compacted, and the pass's two counts, so a pass waits for the device once. The per-entry
//    tests the scan needs (PassFlags) and the skip's comparisons run in kernels of their own.
//
// Every work buffer comes from one allocation. On the H100, 1.33 M dictionary words (the words
// set of shared/corpus.md) went from 2.65 ms to 1.13 ms with the small groups, the single wait per
// pass, the separate kernels and the one allocation (perf/README.md).

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
#include "ktext/core/popcount.hpp"
#include "ktext/primitives/scan.hpp"
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
    // Eight independent byte loads per step: a byte-at-a-time loop waits for each load before
    // issuing the next, and long shared prefixes made it the slowest kernel of a pass.
    for (; l + 8 <= limit; l += 8) {
      std::uint64_t x = 0;
      for (int t = 0; t < 8; ++t) x |= std::uint64_t(chars(a + l + t) ^ chars(b + l + t)) << (8 * t);
      if (x != 0) return l + std::uint64_t(countr_zero64(x) >> 3);
    }
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

/// Step 1: the prefix each segment's strings share beyond its depth. The common prefix of each
/// entry with the one before it, in a kernel of its own (~0 where a segment begins): inside the
/// scan these comparisons ran a few items per thread at the scan's low occupancy and took
/// longer than the radix sort's passes.
template <class Strings, class Idx, class Seg, class Depth, class Out>
struct SkipCommon {
  Strings strings;
  Idx idx;
  Seg sid;
  Depth depth;
  Out common;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j) const {
    common(j) = j == 0 || sid(j) != sid(j - 1)
                    ? ~std::uint64_t(0)
                    : strings.common_from(std::uint64_t(idx(j - 1)), std::uint64_t(idx(j)), depth(sid(j)));
  }
};
template <class Common>
struct SkipMake {
  Common common;
  KOKKOS_INLINE_FUNCTION SegmentMin operator()(std::size_t j) const {
    const std::uint64_t c = common(j);
    return {c == ~std::uint64_t(0) ? 1 : 0, c};
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

/// Groups of at most this many strings are sorted by comparison (SmallSort) instead of going to
/// the next radix pass: each string's thread compares it with the others of its group, so a
/// string is read at most small_group - 1 times. 16 finished 840 k of the 1.33 M dictionary
/// words after the first pass (32: 982 k) for half the comparisons.
inline constexpr int small_group = 16;

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
  /// Written to the output directly: equal strings or a singleton.
  KOKKOS_INLINE_FUNCTION bool finished(std::size_t j) const {
    return ended(j) || (head(j) && (j + 1 == m || head(j + 1)));
  }
  /// Whether j's group [h, e) holds at most small_group entries; h and e are set when it does.
  /// A group is a run of equal keys, so each end is a binary search within small_group of j
  /// (about 2 log2(small_group) keys read, not a walk of up to 2 small_group).
  KOKKOS_INLINE_FUNCTION bool small_bounds(std::size_t j, std::size_t& h, std::size_t& e) const {
    const std::uint64_t key = keys(j);
    std::size_t lo = j >= std::size_t(small_group) ? j - std::size_t(small_group) : 0, hi = j;  // first equal in [lo, j]
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (keys(mid) == key) hi = mid;
      else lo = mid + 1;
    }
    h = lo;
    lo = j + 1;  // first different in [j + 1, limit], limit meaning none before it
    hi = j + std::size_t(small_group) + 1 < m ? j + std::size_t(small_group) + 1 : m;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (keys(mid) != key) hi = mid;
      else lo = mid + 1;
    }
    e = lo;
    // Clipped at j - small_group or j + small_group + 1 the span exceeds small_group anyway.
    return e - h <= std::size_t(small_group);
  }
};

/// Per entry of one pass' sorted keys, computed once in parallel (the scan after it reads one
/// word per entry: computed inside the scan, these tests ran at its low occupancy).
namespace pass_flag {
inline constexpr std::uint64_t segment_start = 1, head = 2, finished = 4, small = 8, next_pass = 16;
}
template <class Groups, class Flags>
struct PassFlags {
  Groups groups;
  Flags flags;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j) const {
    std::uint64_t f = 0;
    if (groups.segment_start(j)) f |= pass_flag::segment_start;
    if (groups.head(j)) f |= pass_flag::head;
    if (groups.finished(j)) {
      f |= pass_flag::finished;
    } else {
      std::size_t h = 0, e = 0;
      f |= groups.small_bounds(j, h, e) ? pass_flag::small : pass_flag::next_pass;
    }
    flags(j) = f;
  }
};

/// The scanned marks of one pass: where the entry's segment begins, and how many groups and
/// entries go on to the next pass.
template <class I>
struct PassMarks {
  I segment_first, kept_groups, kept_entries;
};
template <class I>
struct PassMarksJoin {
  KOKKOS_INLINE_FUNCTION PassMarks<I> identity() const { return {0, 0, 0}; }
  KOKKOS_INLINE_FUNCTION PassMarks<I> operator()(const PassMarks<I>& a, const PassMarks<I>& b) const {
    return {a.segment_first < b.segment_first ? b.segment_first : a.segment_first, I(a.kept_groups + b.kept_groups),
            I(a.kept_entries + b.kept_entries)};
  }
};
template <class Flags, class I>
struct PassMake {
  Flags flags;
  KOKKOS_INLINE_FUNCTION PassMarks<I> operator()(std::size_t j) const {
    const std::uint64_t f = flags(j);
    const bool next = (f & pass_flag::next_pass) != 0;
    return {(f & pass_flag::segment_start) ? I(j) : I(0), I(next && (f & pass_flag::head) ? 1 : 0), I(next ? 1 : 0)};
  }
};
template <class Groups, class Idx, class Order, class Lcp, class Start, class Depth, class Counts, class Slots, class I,
          bool WithLcp>
struct PassApply {
  Groups groups;
  Idx idx;       // the entries, sorted by key
  Idx next_idx;  // the entries that go on, compacted
  Idx next_sid;  // and their new segments
  Order order;
  Lcp lcp;
  Start start, next_start;
  Depth depth, next_depth;
  Counts counts;  // [entries, segments] of the next pass, written by the last entry
  Slots slots;    // PassFlags' flags; each entry of a small group replaces its own by its slot
  std::size_t m;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j, const PassMarks<I>& at) const {
    const std::uint64_t f = slots(j);
    const std::uint64_t key = groups.keys(j);
    const std::uint64_t s = groups.layout.segment(key);
    const I base = start(s);
    const std::uint64_t d = depth(s);
    const I slot = I(base + (I(j) - at.segment_first));
    const bool head = (f & pass_flag::head) != 0;
    if (j + 1 == m) {
      counts(0) = std::uint64_t(at.kept_entries);
      counts(1) = std::uint64_t(at.kept_groups);
    }
    if constexpr (WithLcp) {
      // A small group's first slot may receive another of its strings: they share the window,
      // so the LCP with the slot before is the same.
      if (head && I(j) != at.segment_first)
        lcp(slot) = d + std::uint64_t(groups.layout.common(groups.keys(j - 1), key));
      else if (!head && (f & pass_flag::finished))  // not a singleton: a group of equal strings
        lcp(slot) = d + std::uint64_t(groups.layout.count(key));
    }
    if (f & pass_flag::finished) {
      order(slot) = idx(j);
      return;
    }
    if (f & pass_flag::small) {
      slots(j) = std::uint64_t(slot);  // read by this entry only, and already read
      return;
    }
    const I s_new = I(at.kept_groups - 1);
    next_idx(at.kept_entries - 1) = idx(j);
    next_sid(at.kept_entries - 1) = s_new;
    if (head) {
      next_start(s_new) = slot;
      next_depth(s_new) = d + std::uint64_t(groups.layout.k);
    }
  }
};

/// Step 4b: the strings of small groups to their slots. A thread per string counts the strings
/// of its group that precede it (smaller, or equal and earlier: stable) and, for the LCP, keeps
/// the longest prefix it shares with one of them, which is the prefix it shares with its
/// sorted predecessor.
template <class Groups, class Strings, class Idx, class Slots, class Order, class Lcp, class Depth, class I, bool WithLcp>
struct SmallSort {
  Groups groups;
  Strings strings;
  Idx idx;  // sorted by key
  Slots slots;
  Order order;
  Lcp lcp;
  Depth depth;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j) const {
    std::size_t h = 0, e = 0;
    if (groups.finished(j) || !groups.small_bounds(j, h, e)) return;
    // Every string of the group has the whole window: they agree on their first d bytes.
    const std::uint64_t d = depth(groups.layout.segment(groups.keys(j))) + std::uint64_t(groups.layout.k);
    const std::uint64_t me = std::uint64_t(idx(j)), mine = strings.length(me) - d;
    std::uint64_t rank = 0, longest = 0;
    for (std::size_t t = h; t < e; ++t) {
      if (t == j) continue;
      const std::uint64_t other = std::uint64_t(idx(t)), theirs = strings.length(other) - d;
      const std::uint64_t l = strings.common_from(me, other, d);
      bool before;
      if (l == mine || l == theirs)
        before = theirs != mine ? theirs < mine : t < j;  // a proper prefix first; equal: input order
      else
        before = strings.chars(strings.begin(other) + d + l) < strings.chars(strings.begin(me) + d + l);
      if (before) {
        ++rank;
        longest = l > longest ? l : longest;
      }
    }
    const I slot = I(std::uint64_t(slots(j)) - (j - h) + rank);
    order(slot) = I(me);
    if constexpr (WithLcp) {
      if (rank > 0) lcp(slot) = d + longest;
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
  // The functors below hold views by value: naming the parameters' types with decltype would
  // make them hold references to the host's copies.
  using Strings = ByteStrings<Unmanaged<const std::uint8_t, ExecSpace>, Unmanaged<const O, ExecSpace>>;
  using IView = Unmanaged<I, ExecSpace>;
  using Keys = Unmanaged<U64, ExecSpace>;
  const Strings strings{chars, offsets};

  StringSortStats stats;
  Footprint mem;
  mem.add(chars.extent(0) + offsets.extent(0) * sizeof(O) + n * sizeof(I) + (with_lcp ? n * sizeof(L) : 0));
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

  // One allocation for every work buffer (a device allocation and its synchronizing release
  // cost more than a pass over a million strings), 8-byte pieces first so that every piece is
  // aligned to its type. Every segment holds at least two strings (the first pass' one segment
  // aside), so n/2 + 1 entries hold any pass's segments.
  const std::size_t seg_capacity = n / 2 + 1;
  const std::size_t words = 2 * n + 2 * seg_capacity + 3;
  const std::size_t i_items = 3 * n + 2 * seg_capacity;
  const auto store = uninitialized_view<U64, Mem>(exec, "ktext::string_sort::work", words + (i_items * sizeof(I) + 7) / 8);
  mem.add(words * 8 + i_items * sizeof(I));
  U64* next_word = store.data();
  I* next_item = reinterpret_cast<I*>(store.data() + words);
  auto take_u64 = [&](std::size_t count) {
    const Unmanaged<U64, ExecSpace> v(next_word, count);
    next_word += count;
    return v;
  };
  auto take_i = [&](std::size_t count) {
    const Unmanaged<I, ExecSpace> v(next_item, count);
    next_item += count;
    return v;
  };
  const Keys keys = take_u64(n), keys_tmp = take_u64(n);
  const std::array<Keys, 2> seg_depth{take_u64(seg_capacity), take_u64(seg_capacity)};
  // [entries, segments] of the next pass, and the bytes this pass skipped: read once a pass.
  const Keys counts = take_u64(3);
  const IView idx_a = take_i(n), idx_b = take_i(n), sid = take_i(n);
  const std::array<IView, 2> seg_start{take_i(seg_capacity), take_i(seg_capacity)};
  const Kokkos::View<U64, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> skipped_here(counts.data() + 2);

  const IView start0 = seg_start[0];
  const Keys depth0 = seg_depth[0];
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

  IView idx = idx_a, idx_tmp = idx_b;
  std::size_t m = n, segments = 1;
  int cur = 0;
  while (m > 0) {
    ++stats.passes;
    const int next = 1 - cur;
    const IView active(idx.data(), m), active_tmp(idx_tmp.data(), m), seg(sid.data(), m);
    const Keys k_m(keys.data(), m), kt_m(keys_tmp.data(), m);
    const IView start = seg_start[cur], next_start = seg_start[next];
    const Keys depth = seg_depth[cur], next_depth = seg_depth[next];

    // 1. Skip the prefix each segment shares; the keys and next_depth are free until steps 2
    // and 4.
    Kokkos::parallel_for("ktext::string_sort::skip_common", Policy(exec, 0, m),
                         SkipCommon<Strings, IView, IView, Keys, Keys>{strings, active, seg, depth, k_m});
    ktext::inclusive_scan_apply<SegmentMin>(exec, m, SkipMake<Keys>{k_m}, SegmentMinJoin{},
                                            SkipApply<IView, Keys>{seg, next_depth, m});
    Kokkos::parallel_reduce(
        "ktext::string_sort::skip", Policy(exec, 0, segments),
        KOKKOS_LAMBDA(std::size_t s, U64 & sum) {
          depth(s) += next_depth(s);
          sum += next_depth(s);
        },
        Kokkos::Sum<U64, Mem>(skipped_here));  // into device memory: does not wait

    // 2. Keys, 3. the stable sort of the bits that matter (left in whichever buffer it ends).
    const StringKeyLayout layout = string_key_layout(segments);
    Kokkos::parallel_for(
        "ktext::string_sort::keys", Policy(exec, 0, m), KOKKOS_LAMBDA(std::size_t j) {
          const U64 s = U64(seg(j));
          const U64 high = layout.seg_bits == 0 ? 0 : s << layout.seg_shift();
          k_m(j) = high | strings.window(U64(active(j)), depth(s), layout);
        });
    const bool in_tmp = sort_pairs_in_either(exec, k_m, active, kt_m, active_tmp, 0, layout.total_bits());
    const IView sorted = in_tmp ? active_tmp : active, free_idx = in_tmp ? active : active_tmp;
    const Keys sorted_keys = in_tmp ? kt_m : k_m, free_keys = in_tmp ? k_m : kt_m;

    // 4. Finished groups to the output, small groups' slots noted, the others compacted into
    // the next pass' entries and segments; 4b. small groups sorted by comparison.
    const PassGroups<Keys> groups{sorted_keys, m, layout};
    Kokkos::parallel_for("ktext::string_sort::groups", Policy(exec, 0, m), PassFlags<PassGroups<Keys>, Keys>{groups, free_keys});
    ktext::inclusive_scan_apply<PassMarks<I>>(
        exec, m, PassMake<Keys, I>{free_keys}, PassMarksJoin<I>{},
        PassApply<PassGroups<Keys>, IView, IView, Unmanaged<L, ExecSpace>, IView, Keys, Keys, Keys, I, with_lcp>{
            groups, sorted, free_idx, seg, order, lcp, start, next_start, depth, next_depth, counts, free_keys, m});
    Kokkos::parallel_for(
        "ktext::string_sort::small_groups", Policy(exec, 0, m),
        SmallSort<PassGroups<Keys>, Strings, IView, Keys, IView, Unmanaged<L, ExecSpace>, Keys, I, with_lcp>{
            groups, strings, sorted, free_keys, order, lcp, depth});
    U64 host_counts[3] = {0, 0, 0};
    Kokkos::deep_copy(exec, Kokkos::View<U64*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host_counts, 3), counts);
    exec.fence("ktext::string_sort: pass counted");
    stats.skipped_bytes += host_counts[2];
    m = std::size_t(host_counts[0]);
    segments = std::size_t(host_counts[1]);
    if (free_idx.data() != idx.data()) std::swap(idx, idx_tmp);
    cur = next;
  }
  exec.fence("ktext::string_sort: done");
  stats.peak_bytes = mem.peak();
  return stats;
}

}  // namespace ktext::impl
