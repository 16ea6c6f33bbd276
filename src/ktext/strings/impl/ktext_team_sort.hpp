// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The groups a string-sort pass leaves (strings that share the pass' whole window) sorted to
// the end inside team scratch, so that they cost no further radix pass: each pass costs a dozen
// launches and a wait for the device whatever its size. Two kernels share one refinement:
// - SortGroupsInTiles: a team per tile of the pass' sorted entries takes every group of up to
//   the halo's length that starts in its tile (on dictionary words nearly all of them, most of
//   2 to 16 strings): the entries are read once, coalesced, each with its place in its group
//   (found by the pass), where a thread per string that compared it with the rest of its group
//   waited on memory for every comparison;
// - SortListedGroups: a team per listed group, for the few that are longer than the halo and
//   fit the scratch (PassFlags lists them).
//
// The refinement (TeamRuns::refine) works on runs of entries known to share a prefix of their
// run's depth, as the passes do over the whole set, until every run is one string or strings
// that are equal; each step visits only the entries of open runs, listed anew after each split:
// 1. skip: a group before its first sort, and a run that the last step did not split, steps
//    over the prefix its strings share beyond its depth (each string compared with the run's
//    first, an atomic minimum per run);
// 2. keys: the codes of the next symbols (as many as 64 bits hold) of each open run's strings;
// 3. sort by (key, string index) inside each run: by counting where every open run holds at
//    most 32 entries, else by a bitonic network over (run, key, index). Runs keep their
//    places, and equal strings stay in input order since the string index breaks ties;
// 4. split: each run of equal keys inside an open run becomes a run of its own, closed when it
//    holds one string or strings that end inside the window (equal strings), else open a
//    window deeper. The LCP at a new boundary is known at the split (every string on one side
//    shares the same prefix with every string on the other) and kept where the boundary lies.
// Everything but the string bytes stays in scratch.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include "ktext/strings/impl/ktext_string_keys.hpp"

namespace ktext::impl {

/// A listed group: its first entry in the pass' sorted entries and its size, packed.
inline constexpr int listed_size_bits = 14;
KOKKOS_INLINE_FUNCTION constexpr std::uint64_t listed_group_entry(std::uint64_t first, std::uint64_t size) {
  return (first << listed_size_bits) | size;
}

/// An entry of a group that a tile sorts, as the pass leaves it for SortGroupsInTiles: the top
/// bit set (the other words the tile reads are flags or slots, below 2^62), its slot in the
/// output, its distance from the group's first entry and the group's size (each below 2^12),
/// which the pass found, so that a tile need not find the groups again in its keys (on words
/// that search was 29% of the tile kernel's instructions, ncu).
struct TileGroupEntry {
  static constexpr int field_bits = 12;
  static constexpr std::uint64_t field = (std::uint64_t(1) << field_bits) - 1;
  static constexpr int slot_bits = 63 - 2 * field_bits;  // 39: slots below 2^39
  std::uint64_t word;
  KOKKOS_INLINE_FUNCTION static constexpr std::uint64_t pack(std::uint64_t slot, std::uint64_t from_first,
                                                             std::uint64_t size) {
    return (std::uint64_t(1) << 63) | (slot << (2 * field_bits)) | (from_first << field_bits) | size;
  }
  [[nodiscard]] KOKKOS_INLINE_FUNCTION bool taken() const { return (word >> 63) != 0; }
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t slot() const {
    return (word >> (2 * field_bits)) & ((std::uint64_t(1) << slot_bits) - 1);
  }
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint32_t from_first() const {
    return std::uint32_t((word >> field_bits) & field);
  }
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint32_t size() const { return std::uint32_t(word & field); }
};

/// Runs of entries in team scratch and their refinement (see the file comment).
template <class ExecSpace, class I, bool WithLcp>
struct TeamRuns {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  template <class T>
  using Scratch = Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using U64 = std::uint64_t;
  using Pos = std::uint16_t;                // a place in the scratch (capacity at most 4096)
  static constexpr U64 closed = ~U64(0);    // the depth of a finished run
  static constexpr Pos pad = Pos(~Pos(0));  // the run of the padding past the entries
  /// flags: the run is to step over its shared prefix first (at its first entry); the entry
  /// belongs to a group being sorted; it is the group's first.
  static constexpr std::uint8_t stuck = 1, taken = 2, group_head = 4;
  /// Runs of up to this many entries are sorted by counting, each entry its rank in its run
  /// (no barrier, work in proportion to the open entries); wider ones by a bitonic sort of the
  /// whole span. On words, tiles sorted by bitonic networks alone took 0.40 ms on an H200 (ncu).
  static constexpr std::uint32_t count_limit = 32;

  Scratch<I> ent, moved;         // string indices; the counting sort's destination
  Scratch<U64> key;              // the window of each open run's strings
  Scratch<Pos> run, next_run;    // the first entry of the run
  Scratch<Pos> open;             // the entries of open runs, in any order
  Scratch<std::uint32_t> tally;  // one counter
  Scratch<U64> dep, next_dep;    // at a run's first entry: its depth (closed when done)
  Scratch<std::uint8_t> flags;   // stuck (at a run's first entry), taken, group head
  Scratch<U64> gap;              // with the LCP: the prefix an entry shares with the one before

  /// Scratch bytes of \p capacity entries.
  static std::size_t scratch_bytes(std::size_t capacity) {
    return 2 * Scratch<I>::shmem_size(capacity) + 3 * Scratch<U64>::shmem_size(capacity) +
           3 * Scratch<Pos>::shmem_size(capacity) + Scratch<std::uint8_t>::shmem_size(capacity) +
           Scratch<std::uint32_t>::shmem_size(1) + (WithLcp ? Scratch<U64>::shmem_size(capacity) : 0);
  }
  KOKKOS_INLINE_FUNCTION TeamRuns(const Member& team, std::size_t capacity)
      : ent(team.team_scratch(0), capacity),
        moved(team.team_scratch(0), capacity),
        key(team.team_scratch(0), capacity),
        run(team.team_scratch(0), capacity),
        next_run(team.team_scratch(0), capacity),
        open(team.team_scratch(0), capacity),
        tally(team.team_scratch(0), 1),
        dep(team.team_scratch(0), capacity),
        next_dep(team.team_scratch(0), capacity),
        flags(team.team_scratch(0), capacity) {
    if constexpr (WithLcp) gap = Scratch<U64>(team.team_scratch(0), capacity);
  }

  /// Sets entry k to its first state: in the group that starts at \p first, open at depth
  /// \p depth (k == first), or left alone (\p first = k, closed). A group steps over its shared
  /// prefix before its first sort, so that its window starts where its strings first differ:
  /// most groups (two copies of one word, words that differ in one letter) then close at the
  /// first split instead of taking a step to find that they did not split. The key is 0 until
  /// the first step reads the window of the open runs.
  KOKKOS_INLINE_FUNCTION void init(std::uint32_t k, I e, std::uint32_t first, U64 depth, bool take) const {
    ent[k] = e;
    key[k] = 0;
    run[k] = Pos(first);
    dep[k] = k == first ? depth : closed;
    next_dep[k] = closed;
    flags[k] = take ? std::uint8_t(taken | (k == first ? group_head | stuck : 0)) : std::uint8_t(0);
  }
  KOKKOS_INLINE_FUNCTION void init_pad(std::uint32_t k) const {
    ent[k] = I(0);
    key[k] = 0;
    run[k] = pad;
    dep[k] = closed;
    next_dep[k] = closed;
    flags[k] = 0;
  }

  /// Refines the open runs among the first \p g entries (\p p, a power of two at least g, with
  /// padding past g; \p widest, the most entries of an open run) until none is open. Every
  /// thread of the team calls it. Each step visits only the entries of open runs, listed anew
  /// after each split: most runs close at the first step, and a tile whose longest duplicate
  /// took a few more steps spent most of them passing over closed entries.
  template <class Strings>
  KOKKOS_INLINE_FUNCTION void refine(const Member& team, std::uint32_t g, std::uint32_t p, std::uint32_t widest,
                                     const Strings& strings, const StringKeyLayout& w) const {
    std::uint32_t live = list_open(team, g, false);
    while (widest > 0) {
      // 1. Skip, where the last step did not split a run (or before a wide group's first sort).
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, live), [&](std::uint32_t i) {
        const std::uint32_t k = open[i], r = run[k];
        if (!(flags[r] & stuck) || k == r) return;
        Kokkos::atomic_min(&next_dep[r], strings.common_from(U64(ent[k]), U64(ent[r]), dep[r]));
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, live), [&](std::uint32_t i) {
        const std::uint32_t k = open[i];
        if (run[k] == k && (flags[k] & stuck)) {
          dep[k] += next_dep[k];  // an open run holds two strings at least: the minimum is set
          next_dep[k] = closed;
        }
      });
      team.team_barrier();
      // 2. Keys of the open runs' strings.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, live), [&](std::uint32_t i) {
        const std::uint32_t k = open[i];
        key[k] = strings.window(U64(ent[k]), dep[run[k]], w);
      });
      team.team_barrier();
      // 3. Sort (run, key, string index).
      if (widest <= count_limit)
        count_sort(team, live, g);
      else
        bitonic_sort(team, p);
      // 4. Split the open runs; the widest run that stays open.
      widest = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, live),
          [&](std::uint32_t i, std::uint32_t& most) {
            const std::uint32_t k = open[i], r = run[k];
            const U64 d = dep[r];
            const U64 kk = key[k];
            // Past the old run, the first entry of k's new run, and past its last.
            const std::uint32_t end =
                std::uint32_t(gallop_to_different(k + 1, g, [&](std::size_t q) { return run[q] == r; }));
            const auto same = [&](std::size_t q) { return key[q] == kk; };
            const std::uint32_t s = std::uint32_t(gallop_to_first(k, r, same));
            const std::uint32_t e = std::uint32_t(gallop_to_different(k + 1, end, same));
            const bool ended = w.ended(kk);
            const bool done = e - s == 1 || ended;
            next_run[k] = Pos(s);
            if (k == s) {
              next_dep[k] = done ? closed : d + U64(w.k);
              flags[k] = std::uint8_t((flags[k] & ~stuck) | (s == r && e == end ? stuck : 0));
              if (!done && e - s > most) most = e - s;
            }
            if constexpr (WithLcp) {
              if (k == s && k != r)
                gap[k] = d + U64(w.common(key[k - 1], kk));
              else if (k != s && ended)
                gap[k] = d + U64(w.count(kk));  // equal strings
            }
          },
          Kokkos::Max<std::uint32_t>(widest));
      team.team_barrier();
      // A new run's first entry takes its depth (closed where it is done), every entry its run.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, live), [&](std::uint32_t i) {
        const std::uint32_t k = open[i];
        if (next_run[k] == k) dep[k] = next_dep[k];
        run[k] = next_run[k];
        next_dep[k] = closed;
      });
      team.team_barrier();
      if (widest > 0) live = list_open(team, live, true);
    }
  }

  /// Lists the entries of open runs among the first \p count entries (\p again: among the
  /// listed ones) in open[0, returned count), in any order; next_run, free between steps, takes
  /// the new list first.
  KOKKOS_INLINE_FUNCTION std::uint32_t list_open(const Member& team, std::uint32_t count, bool again) const {
    Kokkos::single(Kokkos::PerTeam(team), [&]() { tally[0] = 0; });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](std::uint32_t i) {
      const std::uint32_t k = again ? open[i] : i;
      if (dep[run[k]] != closed) next_run[Kokkos::atomic_fetch_add(&tally[0], std::uint32_t(1))] = Pos(k);
    });
    team.team_barrier();
    const std::uint32_t live = tally[0];
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, live), [&](std::uint32_t i) { open[i] = next_run[i]; });
    team.team_barrier();
    return live;
  }

  /// Sorts each open run (all at most count_limit entries; their \p live entries listed) by
  /// (key, index): each entry counts the entries of its run before it and moves there
  /// (next_dep, unused meanwhile, takes the keys).
  KOKKOS_INLINE_FUNCTION void count_sort(const Member& team, std::uint32_t live, std::uint32_t g) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, live), [&](std::uint32_t i) {
      const std::uint32_t k = open[i], r = run[k];
      const U64 kk = key[k];
      const I ek = ent[k];
      std::uint32_t at = r;
      for (std::uint32_t q = r; q < g && run[q] == r; ++q) at += key[q] < kk || (key[q] == kk && ent[q] < ek) ? 1 : 0;
      moved[at] = ek;
      next_dep[at] = kk;
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, live), [&](std::uint32_t i) {
      const std::uint32_t k = open[i];
      ent[k] = moved[k];
      key[k] = next_dep[k];
      next_dep[k] = closed;
    });
    team.team_barrier();
  }

  /// Ascending bitonic sort of the first \p p (a power of two) entries by (run, key, index).
  KOKKOS_INLINE_FUNCTION void bitonic_sort(const Member& team, std::uint32_t p) const {
    for (std::uint32_t size = 2; size <= p; size <<= 1) {
      for (std::uint32_t stride = size >> 1; stride > 0; stride >>= 1) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p / 2), [&](std::uint32_t i) {
          const std::uint32_t lo = ((i & ~(stride - 1)) << 1) | (i & (stride - 1)), hi = lo + stride;
          const bool up = (lo & size) == 0;
          const bool greater = run[lo] != run[hi]   ? run[lo] > run[hi]
                               : key[lo] != key[hi] ? key[lo] > key[hi]
                                                    : ent[lo] > ent[hi];
          if (greater == up) {
            const I e = ent[lo];
            ent[lo] = ent[hi];
            ent[hi] = e;
            const U64 kk = key[lo];
            key[lo] = key[hi];
            key[hi] = kk;
            const Pos r = run[lo];
            run[lo] = run[hi];
            run[hi] = r;
          }
        });
        team.team_barrier();
      }
    }
  }
};

/// The smallest power of two at least \p g.
KOKKOS_INLINE_FUNCTION std::uint32_t team_sort_span(std::uint32_t g) {
  std::uint32_t p = 1;
  while (p < g) p <<= 1;
  return p;
}

/// Team t sorts every group of 2 to \p halo entries that starts in its tile [t tile, (t + 1)
/// tile) of the pass' sorted entries and whose strings do not all end inside the window (those
/// are equal, and PassApply wrote them): it reads the tile and the halo after it, so each such
/// group lies in its scratch. Longer groups, and groups that begin in the tile before, are left
/// to others. A tile where no such group begins (PassFlags left its mark 0) is left at once:
/// sets whose first pass leaves few groups (short strings, a long shared prefix and distinct
/// tails) have mostly such tiles.
template <class ExecSpace, class Strings, class Idx, class Keys, class Order, class Lcp, class Busy, class I,
          bool WithLcp>
struct SortGroupsInTiles {
  using Runs = TeamRuns<ExecSpace, I, WithLcp>;
  using Member = typename Runs::Member;
  using U64 = std::uint64_t;
  Strings strings;
  Idx idx;     // the pass' entries, sorted by key
  Keys keys;   // their keys (a group's first entry gives the segment, hence the depth)
  Keys slots;  // a TileGroupEntry at each entry of the groups the tiles take (PassApply)
  Keys depth;  // per segment, the prefix its strings share before the pass' window
  Order order;
  Lcp lcp;
  Busy busy;  // per tile: whether a group it takes begins there
  StringKeyLayout pass;
  std::size_t m;
  std::uint32_t tile, halo;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    if (busy(team.league_rank()) == 0) return;  // the same answer for the whole team
    const Runs runs(team, tile + halo);
    const std::size_t t0 = std::size_t(team.league_rank()) * tile;
    const std::uint32_t owned = std::uint32_t(m - t0 < tile ? m - t0 : tile);
    const std::uint32_t g = std::uint32_t(m - t0 < std::size_t(tile + halo) ? m - t0 : tile + halo);
    const StringKeyLayout w = pass.window_only();
    const std::uint32_t p = team_sort_span(g);
    // The groups whose first entry lies in the tile: PassApply left at each of their entries its
    // place in its group (TileGroupEntry), the rest of the window holds other words. Such a
    // group, at most the halo long, ends inside the window.
    std::uint32_t widest = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, p),
        [&](std::uint32_t k, std::uint32_t& most) {
          if (k >= g) {
            runs.init_pad(k);
            return;
          }
          const TileGroupEntry at{slots(t0 + k)};
          const bool take = at.taken() && at.from_first() <= k && k - at.from_first() < owned;
          const std::uint32_t s = take ? k - at.from_first() : k;
          const U64 d = take && s == k ? depth(pass.segment(keys(t0 + k))) + U64(pass.k) : Runs::closed;
          runs.init(k, idx(t0 + k), s, d, take);
          if (take && at.size() > most) most = at.size();
        },
        Kokkos::Max<std::uint32_t>(widest));
    team.team_barrier();
    runs.refine(team, g, p, widest, strings, w);
    // A group's entries fill its slots in order.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, g), [&](std::uint32_t k) {
      const std::uint8_t f = runs.flags[k];
      if (!(f & Runs::taken)) return;
      const std::size_t slot = std::size_t(TileGroupEntry{slots(t0 + k)}.slot());
      order(slot) = runs.ent[k];
      if constexpr (WithLcp) {
        if (!(f & Runs::group_head)) lcp(slot) = typename Lcp::value_type(runs.gap[k]);
      }
    });
  }
};

/// Team t sorts listed groups t, t + league, ... (groups longer than SortGroupsInTiles' halo
/// that fit the scratch), each in place of its slots.
template <class ExecSpace, class Strings, class Idx, class Keys, class Order, class Lcp, class I, bool WithLcp>
struct SortListedGroups {
  using Runs = TeamRuns<ExecSpace, I, WithLcp>;
  using Member = typename Runs::Member;
  using U64 = std::uint64_t;
  Strings strings;
  Idx idx;     // the pass' entries, sorted by key
  Keys keys;   // their keys: the segment gives the depth
  Keys slots;  // the slot of each entry of a listed group (PassApply)
  Keys depth;  // per segment, the prefix its strings share before the pass' window
  Keys list;   // listed groups: list(q), q < count(0)
  Keys count;
  Order order;
  Lcp lcp;
  StringKeyLayout pass;
  std::uint32_t capacity;  // a power of two: the largest group a team takes

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Runs runs(team, capacity);
    const StringKeyLayout w = pass.window_only();
    const U64 groups = count(0);
    for (U64 q = U64(team.league_rank()); q < groups; q += U64(team.league_size())) {
      const U64 packed = list(q);
      const std::uint32_t g = std::uint32_t(packed & ((U64(1) << listed_size_bits) - 1));
      const U64 first = packed >> listed_size_bits;
      const U64 d0 = depth(pass.segment(keys(first))) + U64(pass.k);  // every string has the window
      const std::uint32_t p = team_sort_span(g);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, p), [&](std::uint32_t k) {
        if (k < g)
          runs.init(k, idx(first + k), 0, d0, true);
        else
          runs.init_pad(k);
      });
      team.team_barrier();
      runs.refine(team, g, p, g, strings, w);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, g), [&](std::uint32_t k) {
        const std::size_t slot = std::size_t(slots(first + k));
        order(slot) = runs.ent[k];
        if constexpr (WithLcp) {
          if (k > 0) lcp(slot) = typename Lcp::value_type(runs.gap[k]);
        }
      });
      team.team_barrier();
    }
  }
};

}  // namespace ktext::impl
