// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_tile_sort_groups.hpp
/// \brief A doubling round's short groups sorted by their next ranks inside tiles of the batch,
/// in team scratch: one pass where two radix sorts over the batch take seven or eight.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include "ktext/core/error.hpp"
#include "ktext/core/gallop.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/prefetch.hpp"
#include "ktext/core/range.hpp"
#include "ktext/primitives/sort_pairs.hpp"

namespace ktext::impl {

/// Entries of its tile each thread of a team loads.
inline constexpr int tile_sort_per_thread = 4;
/// Threads of a team at most (on GPUs: a tile of 1024 entries).
inline constexpr int tile_sort_team_size = 256;
/// Longest group the tile sort takes: the scratch holds a tile and this many entries more, the
/// rest of the group that holds the tile's last entry.
inline constexpr std::size_t tile_sort_halo = 512;

/// Longest group of a round sorted in tiles (SuffixArrayOptions::tile_group_limit) unless set:
/// the halo on GPUs, 1 (never) on hosts, where one thread sorts each short group in place
/// already (SortEachSegment).
template <class ExecSpace>
std::size_t default_tile_group_limit(const ExecSpace&) {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible ? 1
                                                                                                      : tile_sort_halo;
}

/// g(j) = group(v(j)) and r(j) = next(v(j)), a GroupRank and a NextRank, in one pass: both
/// random reads of each entry in flight together. Where \p back is set, entry j - back[j] is in
/// the group of entry j (group_back), and its group rank, the same, is read instead: the members
/// of a group then read one place between them where each read its own, and a round of a
/// versioned collection, whose groups of near-copies stay whole, reads about one random sector
/// per entry instead of two.
template <class Group, class Next, class V, class Out>
struct GatherGroupAndNext {
  Group group;
  Next next;
  V v;
  Out g, r;
  const std::uint8_t* back = nullptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t j) const {
    next.prefetch(v, j);
    const auto s = v(j);
    if (back) {
      g(j) = group(v(j - back[j]));
    } else {
      group.prefetch(v, j);
      g(j) = group(s);
    }
    r(j) = next(s);
  }
};

/// Team t sorts, stable by next rank r, the groups (runs of one group rank g, which does not
/// decrease along the batch) of at most \p limit (<= tile_sort_halo) entries that start in its
/// tile [t tile, (t + 1) tile), writing the entries to \p out (\p v itself, or another view of as
/// many) and r in place. The tile and the rest of its last group, up to the halo, are read into
/// scratch; each entry's place in its group is then the count of members before it by (r,
/// index): groups are short. A longer group is left as it is (sort_long_groups sorts it), and
/// out does not receive its entries: a group cut off at the halo has more than tile_sort_halo
/// entries, so it is one of them. Another team reads only the g of these entries, which no team
/// writes, so writes in place race with no read.
template <class ExecSpace, class V, class Keys>
struct TileSortGroups {
  using I = typename V::non_const_value_type;
  using K = typename Keys::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  template <class T>
  using Scratch = Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  V v;
  Keys g, r;
  I len, tile;
  I limit = I(tile_sort_halo);
  V out;
  static std::size_t scratch_bytes(std::size_t window) {
    return 2 * Scratch<K>::shmem_size(window) + Scratch<I>::shmem_size(window);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const I window = tile + I(tile_sort_halo);
    const I t0 = I(team.league_rank()) * tile;
    const I tile_end = len - t0 > tile ? t0 + tile : len;
    const I cap = len - t0 > window ? t0 + window : len;
    // The group that continues from the tile before belongs to that tile's team.
    const bool continued = t0 > 0 && g(t0 - 1) == g(t0);
    const K before = t0 > 0 ? g(t0 - 1) : K(0);
    const K last = g(tile_end - 1);
    if (continued && last == before) return;  // one group over the whole tile, not this team's
    // The rest of the last group, a team's width at a time (most groups end in the first).
    I end = tile_end;
    const I width = I(team.team_size());
    while (end < cap) {
      const I to = cap - end > width ? end + width : cap;
      I first = to;  // the reducer's identity where no entry of [end, to) leaves the group
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, end, to),
          [&](I j, I& f) {
            if (g(j) != last && j < f) f = j;
          },
          Kokkos::Min<I>(first));
      if (first < to) {
        end = first;
        break;
      }
      end = to;
    }
    const Scratch<K> gs(team.team_scratch(0), window);
    const Scratch<K> rs(team.team_scratch(0), window);
    const Scratch<I> vs(team.team_scratch(0), window);
    const I count = end - t0;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, I(0), count), [&](I k) {
      const K gk = g(t0 + k);
      gs(k) = gk;
      if (continued && gk == before) return;  // the team before writes these
      rs(k) = r(t0 + k);
      vs(k) = v(t0 + k);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, I(0), count), [&](I k) {
      const K gk = gs(k);
      if (continued && gk == before) return;
      // g does not decrease: the group's ends by galloping from k, a few probes for the usual
      // short group. Walks cost a longer group's length per entry (on an H100, the tile sorts of
      // the rounds of 50 MB of source code that sort longer groups apart took 0.37 ms a launch
      // against 0.055 in rounds of short groups only; ncu, perf/README 2026-11-26), and
      // bisections over the whole tile 10 probes each way (the versioned collection's tile sorts
      // took 5.42 ms against 4.95 galloping on an H200; perf/README 2026-11-28).
      const auto same = [&](std::size_t q) { return gs(q) == gk; };
      const I s = I(gallop_to_first(std::size_t(k), 0, same));
      const I e = I(gallop_to_different(std::size_t(k) + 1, std::size_t(count), same));
      if (e - s > limit) return;
      const K rk = rs(k);
      I at = s;
      for (I q = s; q < e; ++q) {
        const K rq = rs(q);
        at += (rq < rk || (rq == rk && q < k)) ? I(1) : I(0);
      }
      out(t0 + at) = vs(k);
      r(t0 + at) = rk;
    });
  }
};

/// Sorts each group of at most \p limit (<= tile_sort_halo) entries of the batch \p v (group
/// ranks \p g, next ranks \p r alongside, r permuted in place) by its next ranks, stable, into
/// \p out (default: \p v, in place), and leaves longer groups as they are (where out is not v,
/// their entries are not written there: a batch with longer groups sorts out of place only where
/// sort_long_groups puts them into the same out). Does not block.
template <class ExecSpace, class V, class Keys>
void tile_sort_groups(const ExecSpace& exec, const V& v, const Keys& g, const Keys& r,
                      std::size_t limit = tile_sort_halo, V out = V()) {
  using Kernel = TileSortGroups<ExecSpace, V, Keys>;
  using I = typename Kernel::I;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const I len = static_cast<I>(v.extent(0));
  if (out.data() == nullptr) out = v;
  if (out.extent(0) != v.extent(0)) throw Error("ktext::impl::tile_sort_groups: the output's length differs");
  if (len < 2) {
    if (len == 1 && out.data() != v.data()) Kokkos::deep_copy(exec, out, v);
    return;
  }
  const Kernel probe{v, g, r, len, I(1), I(tile_sort_halo), out};
  const int most = Policy(exec, 1, Kokkos::AUTO).team_size_max(probe, Kokkos::ParallelForTag());
  const int team = most < tile_sort_team_size ? most : tile_sort_team_size;
  const I tile = I(team) * I(tile_sort_per_thread);
  const std::uint64_t tiles = (std::uint64_t(len) + tile - 1) / tile;
  Kokkos::parallel_for("ktext::suffix_array::tile_sort",
                       Policy(exec, static_cast<int>(tiles), team)
                           .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(std::size_t(tile) + tile_sort_halo))),
                       Kernel{v, g, r, len, tile, I(limit < tile_sort_halo ? limit : tile_sort_halo), out});
}

/// Most groups longer than the tile limit that a round sorted in tiles sorts apart
/// (sort_long_groups), for a sample of at least 2^20 entries (a 256th of the sample below); a
/// round with more sorts by radix over its batches.
inline constexpr std::size_t tile_long_group_capacity = 4096;

/// Entries of the long groups of a batch, gathered: group k (of the batch's \p starts, entries
/// from \p offsets(k) on in the gathered order) keyed by (k, next rank).
template <class Table, class V, class Keys, class Wide, class I>
struct GatherLongGroups {
  Table starts, offsets;
  V v;
  Keys r;
  Wide key;
  V val;
  I groups;
  int rank_bits;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t c) const {
    I lo = 0, hi = groups;  // the last group whose offset is at most c
    while (hi - lo > 1) {
      const I mid = lo + (hi - lo) / 2;
      if (std::uint64_t(offsets(mid)) <= c) lo = mid;
      else hi = mid;
    }
    const std::uint64_t j = std::uint64_t(starts(lo)) + (c - std::uint64_t(offsets(lo)));
    key(c) = (std::uint64_t(lo) << rank_bits) | std::uint64_t(r(j));
    val(c) = v(j);
  }
};
/// The gathered entries, sorted, back to their groups' places in \p out: the group is the key's
/// top part.
template <class Table, class V, class Keys, class Wide>
struct PutLongGroups {
  Table starts, offsets;
  V out;
  Keys r;
  Wide key;
  V val;
  int rank_bits;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t c) const {
    using K = typename Keys::non_const_value_type;
    const std::uint64_t k = key(c) >> rank_bits;
    const std::uint64_t j = std::uint64_t(starts(k)) + (c - std::uint64_t(offsets(k)));
    r(j) = K(key(c) & ((std::uint64_t(1) << rank_bits) - 1));
    out(j) = val(c);
  }
};

/// Bytes of scratch sort_long_groups needs for \p entries entries of \p V.
template <class V>
constexpr std::size_t long_groups_scratch_bytes(std::size_t entries) {
  return 2 * entries * (sizeof(std::uint64_t) + sizeof(typename V::non_const_value_type)) + sizeof(std::uint64_t);
}

/// Sorts the \p groups groups of the batch \p v that tile_sort_groups left (each from
/// \p starts(k) in the batch, \p offsets(k + 1) - \p offsets(k) entries, \p offsets(groups) =
/// \p entries in all) by their next ranks \p r (below 2^rank_bits), stable, into the same places
/// of \p out (default: \p v, in place), \p r permuted in place: gathered, one radix sort by
/// (group, next rank), and put back, in \p scratch (long_groups_scratch_bytes; apart from out).
/// Does not block.
template <class ExecSpace, class Table, class V, class Keys>
void sort_long_groups(const ExecSpace& exec, const Table& starts, const Table& offsets, std::size_t groups,
                      std::size_t entries, const V& v, const Keys& r, int rank_bits, void* scratch, V out = V()) {
  using I = typename V::non_const_value_type;
  using Wide = Unmanaged<std::uint64_t, ExecSpace>;
  using Vals = Unmanaged<I, ExecSpace>;
  if (out.data() == nullptr) out = v;
  if (entries == 0) return;
  auto* at = reinterpret_cast<std::uint64_t*>((reinterpret_cast<std::uintptr_t>(scratch) + 7) & ~std::uintptr_t(7));
  const Wide key(at, entries), key_tmp(at + entries, entries);
  const Vals val(reinterpret_cast<I*>(at + 2 * entries), entries), val_tmp(val.data() + entries, entries);
  const int group_bits = groups > 1 ? bit_width(std::uint64_t(groups) - 1) : 0;  // bits of the group index
  Kokkos::parallel_for("ktext::suffix_array::long_groups_gather", Range<ExecSpace>(exec, 0, entries),
                       GatherLongGroups<Table, V, Keys, Wide, I>{starts, offsets, v, r, key, val, I(groups), rank_bits});
  const bool other = impl::sort_pairs_in_either(exec, key, val, key_tmp, val_tmp, 0, rank_bits + group_bits);
  Kokkos::parallel_for("ktext::suffix_array::long_groups_put", Range<ExecSpace>(exec, 0, entries),
                       PutLongGroups<Table, V, Keys, Wide>{starts, offsets, out, r, other ? key_tmp : key,
                                                           other ? val_tmp : val, rank_bits});
}

}  // namespace ktext::impl
