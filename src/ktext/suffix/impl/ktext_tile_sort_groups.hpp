// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_tile_sort_groups.hpp
/// \brief A doubling round's short groups sorted by their next ranks inside tiles of the batch,
/// in team scratch: one pass where two radix sorts over the batch take seven or eight.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include "ktext/core/prefetch.hpp"

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
/// random reads of each entry in flight together.
template <class Group, class Next, class V, class Out>
struct GatherGroupAndNext {
  Group group;
  Next next;
  V v;
  Out g, r;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t j) const {
    group.prefetch(v, j);
    next.prefetch(v, j);
    const auto s = v(j);
    g(j) = group(s);
    r(j) = next(s);
  }
};

/// Team t sorts in place, stable by next rank r, the groups (runs of one group rank g, which does
/// not decrease along the batch) that start in its tile [t tile, (t + 1) tile), none longer than
/// tile_sort_halo entries. The tile and the rest of its last group are read into scratch; each
/// entry's place in its group is then the count of members before it by (r, index): groups are
/// short. Another team reads only the g of these entries, which no team writes, so the writes in
/// place race with no read.
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
      I s = k, e = k + 1;
      while (s > 0 && gs(s - 1) == gk) --s;
      while (e < count && gs(e) == gk) ++e;
      const K rk = rs(k);
      I at = s;
      for (I q = s; q < e; ++q) {
        const K rq = rs(q);
        at += (rq < rk || (rq == rk && q < k)) ? I(1) : I(0);
      }
      v(t0 + at) = vs(k);
      r(t0 + at) = rk;
    });
  }
};

/// Sorts each group of the batch \p v (group ranks \p g, next ranks \p r alongside; \p v and \p r
/// are permuted in place) by its next ranks, stable. Every group must hold at most
/// tile_sort_halo entries. Does not block.
template <class ExecSpace, class V, class Keys>
void tile_sort_groups(const ExecSpace& exec, const V& v, const Keys& g, const Keys& r) {
  using Kernel = TileSortGroups<ExecSpace, V, Keys>;
  using I = typename Kernel::I;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const I len = static_cast<I>(v.extent(0));
  if (len < 2) return;
  const Kernel probe{v, g, r, len, I(1)};
  const int most = Policy(exec, 1, Kokkos::AUTO).team_size_max(probe, Kokkos::ParallelForTag());
  const int team = most < tile_sort_team_size ? most : tile_sort_team_size;
  const I tile = I(team) * I(tile_sort_per_thread);
  const std::uint64_t tiles = (std::uint64_t(len) + tile - 1) / tile;
  Kokkos::parallel_for("ktext::suffix_array::tile_sort",
                       Policy(exec, static_cast<int>(tiles), team)
                           .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(std::size_t(tile) + tile_sort_halo))),
                       Kernel{v, g, r, len, tile});
}

}  // namespace ktext::impl
