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
// 2. Keys: [segment id: as few bits as S needs][the codes of the next symbols from the depth],
//    codes numbering the byte values present from 1 (StringAlphabet), 0 past a string's end, so
//    that a string that ends sorts before any byte, NUL included, and as many symbols fit as
//    the alphabet allows (9 of dictionary words, 21 of DNA, 7 of arbitrary bytes).
// 3. A stable radix sort of (key, index) over the key's bits only. Stability keeps tied strings
//    in input order, so equal strings leave in the order they came.
// 4. Groups of equal keys: a group that is a singleton, or whose strings all end inside the
//    window (equal strings), is finished and its strings are written to their slots; the LCP
//    with the previous slot is known where a group begins (the depth plus the symbols the two
//    windows share) and inside a finished group of equal strings (their length). In the first
//    pass on GPUs (team_passes_for) a group that fits a team's scratch is sorted there to the
//    end (ktext_team_sort.hpp): most groups, in tiles of the sorted entries, and the few longer
//    ones from a list. The other groups become the next pass's segments: one scan writes their
//    entries, compacted, the slots of every entry and the pass's counts, so a pass waits for
//    the device once. The per-entry tests the scan needs (PassFlags) and the skip's comparisons
//    run in kernels of their own.
//
// Every work buffer comes from one allocation (perf/README.md has the measurements behind each
// step).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "ktext/core/allocate.hpp"
#include "ktext/core/footprint.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/memory_info.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/core/range.hpp"
#include "ktext/primitives/scan.hpp"
#include "ktext/primitives/sort_pairs.hpp"
#include "ktext/strings/impl/ktext_string_keys.hpp"
#include "ktext/strings/impl/ktext_team_sort.hpp"
#include "ktext/strings/string_sort_types.hpp"

namespace ktext::impl {

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
  KOKKOS_INLINE_FUNCTION bool ended(std::size_t j) const { return layout.ended(keys(j)); }
  /// Written to the output directly: equal strings or a singleton.
  KOKKOS_INLINE_FUNCTION bool finished(std::size_t j) const {
    return ended(j) || (head(j) && (j + 1 == m || head(j + 1)));
  }
  /// Whether j's group [h, e) holds at most \p limit entries; h and e are set when it does. A
  /// group is a run of equal keys: each end is a galloping search within limit of j, a few keys
  /// read for a short group.
  KOKKOS_INLINE_FUNCTION bool bounds(std::size_t j, std::size_t limit, std::size_t& h, std::size_t& e) const {
    const std::uint64_t key = keys(j);
    const auto same = [&](std::size_t i) { return keys(i) == key; };
    h = gallop_to_first(j, j >= limit ? j - limit : 0, same);
    e = gallop_to_different(j + 1, j + limit + 1 < m ? j + limit + 1 : m, same);
    // Clipped at j - limit or j + limit + 1 the span exceeds limit anyway.
    return e - h <= limit;
  }
};

/// Per entry of one pass' sorted keys, computed once in parallel (the scan after it reads one
/// word per entry: computed inside the scan, these tests ran at its low occupancy).
namespace pass_flag {
inline constexpr std::uint64_t segment_start = 1, head = 2, finished = 4, in_tile = 8, next_pass = 16, listed = 32;
/// Of an entry in_tile: its distance from its group's first entry and the group's size, 12 bits
/// each from these bits on (PassApply packs them into a TileGroupEntry).
inline constexpr int from_first_shift = 8, size_shift = 20;
}
/// How PassFlags classes the groups that are not finished: up to \p halo entries a team sorts
/// in its tile (SortGroupsInTiles; the tile of \p tile entries where the group begins is marked
/// in \p busy), up to \p capacity a team sorts from the \p list (each counted in \p counter),
/// larger ones go to the next pass.
template <class Keys, class Busy>
struct TeamSortLimits {
  std::size_t halo = 0, capacity = 0, tile = 1;
  Keys list, counter;
  Busy busy;
};
template <class Groups, class Flags, class Limits>
struct PassFlags {
  Groups groups;
  Flags flags;
  Limits teams;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j) const {
    std::uint64_t f = 0;
    if (groups.segment_start(j)) f |= pass_flag::segment_start;
    if (groups.head(j)) f |= pass_flag::head;
    std::size_t h = 0, e = 0;
    if (groups.finished(j)) {
      f |= pass_flag::finished;
    } else if (teams.halo > 0 && groups.bounds(j, teams.halo, h, e)) {
      f |= pass_flag::in_tile | std::uint64_t(j - h) << pass_flag::from_first_shift |
           std::uint64_t(e - h) << pass_flag::size_shift;
      if (j == h) teams.busy(h / teams.tile) = 1;
    } else if (teams.capacity > teams.halo && groups.bounds(j, teams.capacity, h, e)) {
      f |= pass_flag::listed;
      if (j == h) {
        const std::uint64_t q = Kokkos::atomic_fetch_add(&teams.counter(0), std::uint64_t(1));
        teams.list(q) = listed_group_entry(h, e - h);  // the order of the list does not matter
      }
    } else {
      f |= pass_flag::next_pass;
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
  Slots slots;    // PassFlags' flags; each entry of a group sorted in a team replaces its own by its slot
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
      // A group's first slot may receive another of its strings (a team sorts them): they share
      // the window, so the LCP with the slot before is the same.
      if (head && I(j) != at.segment_first)
        lcp(slot) = d + std::uint64_t(groups.layout.common(groups.keys(j - 1), key));
      else if (!head && (f & pass_flag::finished))  // not a singleton: a group of equal strings
        lcp(slot) = d + std::uint64_t(groups.layout.count(key));
    }
    if (f & pass_flag::finished) {
      order(slot) = idx(j);
      return;
    }
    // The team that sorts the group reads these, after this scan.
    if (f & pass_flag::in_tile) {
      const std::uint64_t field = TileGroupEntry::field;
      slots(j) = TileGroupEntry::pack(std::uint64_t(slot), (f >> pass_flag::from_first_shift) & field,
                                      (f >> pass_flag::size_shift) & field);
      return;
    }
    if (f & pass_flag::listed) {
      slots(j) = std::uint64_t(slot);
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

/// Entries a team's scratch holds for TeamRuns on \p ExecSpace (a power of two, at most 4096),
/// or 0 where that is fewer than 32.
template <class ExecSpace, class Runs>
std::size_t team_sort_capacity() {
  const std::size_t most = std::size_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0));
  std::size_t c = 0;
  for (std::size_t t = 32; t <= 4096 && Runs::scratch_bytes(t) <= most; t *= 2) c = t;
  return c;
}

/// Automatic choice of the largest group sorted in a team (prefix_radix_sort's \p team_limit;
/// a smaller limit is rounded down to a power of two, and below 32 means none).
inline constexpr std::size_t team_limit_automatic = ~std::size_t(0);

/// The passes whose groups teams sort unless told otherwise: the first on GPUs, none on hosts
/// (team_passes_for()).
inline constexpr int team_passes_automatic = -1;

/// \p team_passes, or where it is team_passes_automatic the default of \p ExecSpace.
/// - GPUs: the first pass. Later passes hold the groups with the longest shared prefixes,
///   which a team refines a window per step while a pass steps over each group's shared prefix
///   first; on an H200 the names of the taxonomy (6 passes) took 2.38 ms with teams in the
///   first pass only against 2.96 with teams in every pass, and dictionary words (one pass
///   with teams) 0.54 ms either way.
/// - Hosts: none. A team is one thread there, which sorts a whole tile alone while a pass
///   spreads every entry over all threads; with 16 threads of the H200 machine's host, ms with
///   no teams against teams in the first pass: words 25.7 / 28.8, fasta-ids 33.8 / 77.4,
///   taxnames 73.6 / 103, 1 Mi short strings 15.5 / 18.9, 1 Mi duplicates 14.3 / 21.4
///   (perf/README.md).
template <class ExecSpace>
int team_passes_for(int team_passes) {
  if (team_passes != team_passes_automatic) return team_passes;
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible ? 0 : 1;
}

/// The sizes of a sort's work, which one store holds (the argument check's probe first).
struct StringSortPlan {
  std::size_t capacity = 0, halo = 0, tile = 0;  // of the team sorts: scratch entries, tiles
  std::size_t seg_capacity = 0, list_capacity = 0, busy_words = 0;
  std::size_t u64_words = 0, index_items = 0;  // the store's 8-byte words, then its indices
  std::size_t words = 0;                       // 8-byte words in all
  std::uint64_t bytes = 0;
  int team_passes = 0;  // the passes whose groups teams sort (the first ones)
};
/// Words of the argument check's probe: [bad offsets, longest string, shared prefix, 256 byte
/// counts].
inline constexpr std::size_t string_check_probe_words = 3 + 256;

template <class ExecSpace, class I, bool with_lcp>
StringSortPlan string_sort_plan(std::size_t n, std::size_t team_limit, int team_passes) {
  using Runs = TeamRuns<ExecSpace, I, with_lcp>;
  StringSortPlan plan;
  // Groups sorted in teams: tiles of three quarters of the scratch's capacity with a halo of a
  // quarter (at least 16), so that groups up to the halo's length lie in one team's scratch (on
  // words nearly all), and longer ones up to the capacity one by one from a list; every entry
  // of a tile's halo is read twice.
  plan.capacity = team_sort_capacity<ExecSpace, Runs>();
  while (plan.capacity > team_limit) plan.capacity /= 2;  // powers of two: the bitonic sort's spans
  if (plan.capacity < 32) plan.capacity = 0;
  plan.halo = plan.capacity == 0 ? 0 : std::max<std::size_t>(16, plan.capacity / 4);
  plan.tile = plan.capacity - plan.halo;
  // Every segment holds at least two strings (the first pass' one segment aside), so n/2 + 1
  // entries hold any pass's segments; a listed group holds more than the halo's length.
  plan.seg_capacity = n / 2 + 1;
  // A tile's entries carry their slots in TileGroupEntry's bits.
  const bool slots_fit = (std::uint64_t(n) >> TileGroupEntry::slot_bits) == 0;
  plan.team_passes = plan.capacity == 0 || !slots_fit ? 0 : team_passes_for<ExecSpace>(team_passes);
  plan.list_capacity = plan.team_passes <= 0 ? 0 : n / (plan.halo + 1) + 1;
  // A byte per tile (at least 16 entries each): whether a group begins there.
  plan.busy_words = plan.team_passes <= 0 ? 0 : (n / plan.tile + 1 + 7) / 8;
  // Keys twice, the segments' depths twice, four counters, the list, the tiles' marks, the 256
  // symbol codes; indices three times and the segments' starts twice.
  plan.u64_words = 2 * n + 2 * plan.seg_capacity + 4 + plan.list_capacity + plan.busy_words + 64;
  plan.index_items = 3 * n + 2 * plan.seg_capacity;
  plan.words = std::max(plan.u64_words + (plan.index_items * sizeof(I) + 7) / 8, string_check_probe_words);
  plan.bytes = std::uint64_t(plan.words) * 8;
  return plan;
}

/// The sort; \p lcp is written when \p with_lcp (else it may be empty), with the work store
/// of \p plan at \p store. Arguments checked by the caller, who also found the prefix
/// \p common that every string shares and the \p alphabet of the bytes. Groups of up to the
/// plan's capacity left by a pass are sorted in teams (ktext_team_sort.hpp) instead of going
/// to the next pass.
template <bool with_lcp, class ExecSpace, class O, class I, class L>
StringSortStats prefix_radix_sort(const ExecSpace& exec, const Unmanaged<const std::uint8_t, ExecSpace>& chars,
                                  const Unmanaged<const O, ExecSpace>& offsets, const Unmanaged<I, ExecSpace>& order,
                                  const Unmanaged<L, ExecSpace>& lcp, std::uint64_t common,
                                  const StringAlphabet& alphabet, const StringSortPlan& plan, std::uint64_t* store) {
  using Mem = typename ExecSpace::memory_space;
  using U64 = std::uint64_t;
  const std::size_t n = order.extent(0);
  // The functors below hold views by value: naming the parameters' types with decltype would
  // make them hold references to the host's copies.
  using Codes = Unmanaged<std::uint16_t, ExecSpace>;
  using Strings = ByteStrings<Unmanaged<const std::uint8_t, ExecSpace>, Unmanaged<const O, ExecSpace>, Codes>;
  using IView = Unmanaged<I, ExecSpace>;
  using Keys = Unmanaged<U64, ExecSpace>;
  using LView = Unmanaged<L, ExecSpace>;
  using Tiles = SortGroupsInTiles<ExecSpace, Strings, IView, Keys, IView, LView, Unmanaged<std::uint8_t, ExecSpace>, I,
                                  with_lcp>;
  using Listed = SortListedGroups<ExecSpace, Strings, IView, Keys, IView, LView, I, with_lcp>;
  using Runs = TeamRuns<ExecSpace, I, with_lcp>;

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

  // On GPUs a team of 256 threads; on hosts one thread, which makes a tile a sequential sort.
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  const int team_width = host ? 1 : 256;
  const std::size_t capacity = plan.capacity, halo = plan.halo, tile = plan.tile;
  const std::size_t seg_capacity = plan.seg_capacity, list_capacity = plan.list_capacity;
  mem.add(plan.bytes);
  U64* next_word = store;
  I* next_item = reinterpret_cast<I*>(store + plan.u64_words);
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
  // [entries, segments] of the next pass, the bytes this pass skipped (read once a pass), and
  // the groups listed for teams.
  const Keys counts = take_u64(4);
  const Keys team_list = take_u64(list_capacity);
  const IView idx_a = take_i(n), idx_b = take_i(n), sid = take_i(n);
  const std::array<IView, 2> seg_start{take_i(seg_capacity), take_i(seg_capacity)};
  const Kokkos::View<U64, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> skipped_here(counts.data() + 2);
  const Keys listed(counts.data() + 3, 1);
  using Busy = Unmanaged<std::uint8_t, ExecSpace>;
  const Busy busy(reinterpret_cast<std::uint8_t*>(take_u64(plan.busy_words).data()), plan.busy_words * 8);
  const TeamSortLimits<Keys, Busy> limits{halo, capacity, std::max<std::size_t>(tile, 1), team_list, listed, busy};
  const Codes codes(reinterpret_cast<std::uint16_t*>(take_u64(64).data()), 256);
  Kokkos::parallel_for(
      "ktext::string_sort::codes", Policy(exec, 0, 256),
      KOKKOS_LAMBDA(std::size_t c) { codes(c) = std::uint16_t(alphabet.code(std::uint8_t(c))); });
  const Strings strings{chars, offsets, codes};

  IView idx = idx_a, idx_tmp = idx_b;
  std::size_t m = n, segments = 1;
  int cur = 0;
  stats.skipped_bytes = common;
  while (m > 0) {
    ++stats.passes;
    const int next = 1 - cur;
    const IView active(idx.data(), m), active_tmp(idx_tmp.data(), m), seg(sid.data(), m);
    const Keys k_m(keys.data(), m), kt_m(keys_tmp.data(), m);
    const IView start = seg_start[cur], next_start = seg_start[next];
    const Keys depth = seg_depth[cur], next_depth = seg_depth[next];
    const StringKeyLayout layout = string_key_layout(segments, alphabet);
    // Whether teams sort this pass' groups; the keys kernel then clears the tiles' marks.
    const bool teams = stats.passes <= plan.team_passes;
    const std::size_t tiles = teams ? (m + tile - 1) / tile : 0;

    if (stats.passes == 1) {
      // The first pass: one segment, whose shared prefix the argument check measured; every
      // string in input order.
      Kokkos::parallel_for(
          "ktext::string_sort::first_keys", Policy(exec, 0, m), KOKKOS_LAMBDA(std::size_t j) {
            active(j) = I(j);
            k_m(j) = strings.window(U64(j), common, layout);
            if (j < tiles) busy(j) = 0;
            if (j == 0) {
              start(0) = 0;
              depth(0) = common;
              listed(0) = 0;
              if (with_lcp) lcp(0) = 0;
            }
          });
    } else {
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
      // 2. Keys.
      Kokkos::parallel_for(
          "ktext::string_sort::keys", Policy(exec, 0, m), KOKKOS_LAMBDA(std::size_t j) {
            const U64 s = U64(seg(j));
            const U64 high = layout.seg_bits == 0 ? 0 : s << layout.seg_shift();
            k_m(j) = high | strings.window(U64(active(j)), depth(s), layout);
            if (j < tiles) busy(j) = 0;
            if (j == 0) listed(0) = 0;
          });
    }
    // 3. The stable sort of the bits that matter (left in whichever buffer it ends).
    const bool in_tmp = sort_pairs_in_either(exec, k_m, active, kt_m, active_tmp, 0, layout.total_bits());
    const IView sorted = in_tmp ? active_tmp : active, free_idx = in_tmp ? active : active_tmp;
    const Keys sorted_keys = in_tmp ? kt_m : k_m, free_keys = in_tmp ? k_m : kt_m;

    // 4. Finished groups to the output, the slots of the groups sorted in teams noted (and the
    // longer ones listed), the others compacted into the next pass' entries and segments; 4b.
    // the groups sorted in teams.
    const PassGroups<Keys> groups{sorted_keys, m, layout};
    Kokkos::parallel_for("ktext::string_sort::groups", Policy(exec, 0, m),
                         PassFlags<PassGroups<Keys>, Keys, TeamSortLimits<Keys, Busy>>{
                             groups, free_keys, teams ? limits : TeamSortLimits<Keys, Busy>{}});
    ktext::inclusive_scan_apply<PassMarks<I>>(
        exec, m, PassMake<Keys, I>{free_keys}, PassMarksJoin<I>{},
        PassApply<PassGroups<Keys>, IView, IView, LView, IView, Keys, Keys, Keys, I, with_lcp>{
            groups, sorted, free_idx, seg, order, lcp, start, next_start, depth, next_depth, counts, free_keys, m});
    if (teams) {
      const std::size_t bytes = Runs::scratch_bytes(capacity);
      Kokkos::parallel_for(
          "ktext::string_sort::groups_in_tiles",
          Kokkos::TeamPolicy<ExecSpace>(exec, int(tiles), team_width).set_scratch_size(0, Kokkos::PerTeam(bytes)),
          Tiles{strings, sorted, sorted_keys, free_keys, depth, order, lcp, busy, layout, m, std::uint32_t(tile),
                std::uint32_t(halo)});
      // As many teams as run at once (or as there can be groups); each takes groups in turn, so
      // the launch need not wait for their count.
      const std::size_t resident = std::max<std::size_t>(1, std::size_t(exec.concurrency()) / std::size_t(team_width));
      const std::size_t league = std::min(m / (halo + 1) + 1, resident);
      Kokkos::parallel_for(
          "ktext::string_sort::listed_groups",
          Kokkos::TeamPolicy<ExecSpace>(exec, int(league), team_width).set_scratch_size(0, Kokkos::PerTeam(bytes)),
          Listed{strings, sorted, sorted_keys, free_keys, depth, team_list, listed, order, lcp, layout,
                 std::uint32_t(capacity)});
    }
    U64 host_counts[3] = {0, 0, 0};
    Kokkos::deep_copy(exec, Kokkos::View<U64*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host_counts, 3),
                      Keys(counts.data(), 3));
    exec.fence("ktext::string_sort: pass counted");
    if (stats.passes > 1) stats.skipped_bytes += host_counts[2];
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
