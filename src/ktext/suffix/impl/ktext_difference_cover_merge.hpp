// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The last step of DC3 (ktext_difference_cover.hpp): one merge of the sample's order with the
// order of the other suffixes (positions 3q). Rest suffix i against sample suffix j compares
// one symbol and the ranks of i + 1 and j + 1 when j = 1 (mod 3), else two symbols and the
// ranks of i + 2 and j + 2; the two never compare equal.
//
// Two kernels of the same merge path:
// - by thread (hosts): each thread finds its start by binary search and merges a long tile,
//   reading what each suffix's comparisons read once (MergeKey), with hints 32 elements ahead.
// - by team (devices): the tile boundaries are found first, one thread each; a team then reads
//   its tile's suffixes once, coalesced, gathers what their comparisons read (MergeKey) into
//   team scratch, merges there and writes its outputs coalesced. The thread kernel on an H100
//   read both orders and wrote the output with a stride of a few hundred elements between
//   threads, and read the text and ranks again for each comparison.
//
// The merge writes each row through an emitter: the suffix array (EmitSuffixArray), or the BWT
// (EmitBwt), whose symbol T[pos - 1] is read with the comparison keys, which read T[pos]: no
// suffix array is written and read again, and no pass gathers the text at random afterwards.
// Where the BWT leaves the suffix array's memory free, the merge first writes there, for each
// q, the symbols and ranks that rows 3q - 1, 3q and 3q + 1 read (MergeRecord), so that each row
// reads one place at random instead of the text and the ranks apart. The suffix array takes
// that memory too, writing its rows over the ranks, which the records then replace (last_rank,
// difference_cover_as), and copying them to the output after.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ktext/core/allocate.hpp"
#include "ktext/core/footprint.hpp"
#include "ktext/core/prefetch.hpp"
#include "ktext/core/range.hpp"
#include "ktext/suffix/impl/ktext_prefix_doubling.hpp"

namespace ktext::impl {

/// What a comparison of the merge reads of one suffix: its first two symbols + 1 (0 past the
/// end; DC3 runs on alphabets of at most 21 bits, so they fit) and the sample ranks + 1 after
/// them (0 at the end). A rest suffix i holds the ranks of i + 1 and i + 2; a sample suffix j
/// only the one it compares by, in r1, with its class (1 or 2) in r2.
template <class I>
struct MergeKey {
  std::uint32_t c0, c1;
  I r1, r2;
};

/// What the team merge reads of the suffixes around 3q, in one place (merge_records): the
/// symbols at 3q - 2 .. 3q + 1 (0 outside the text) and the ranks + 1 of 3q + 1 and 3q + 2 (0 past
/// the end). Rest suffix 3q finds its keys and its BWT symbol in record q, sample suffix 3q + 1
/// in record q and 3q - 1 in record q: one random read per row where the text and the ranks
/// were two (12 bytes with byte symbols and 32-bit ranks, a quarter of them across two sectors).
template <class S, class I>
struct MergeRecord {
  S symbols[4];
  I ranks[2];
};

/// Records the merge reads for a text of \p n symbols: q = 0 .. n / 3.
constexpr std::uint64_t merge_records_needed(std::uint64_t n) noexcept { return n / 3 + 1; }

/// Entries the team merge's tile boundaries take for \p n outputs at most: tiles of 256
/// outputs or more (teams of 32 threads or more, 8 outputs each), and one past the last.
constexpr std::uint64_t merge_split_entries(std::uint64_t n) noexcept { return n / 256 + 2; }

/// The comparison of the merge: rest suffix i = 3q against sample suffix j.
template <class Text, class ISA, class I>
struct CompareRestSample {
  using Index = I;
  using S = typename Text::non_const_value_type;
  using Record = MergeRecord<S, I>;
  using Records = Kokkos::View<Record*, typename ISA::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Text text;
  ISA isa12;
  SampleSuffixes<I> sample;
  /// Optional (merge_records): records 0 .. records.extent(0) - 1; the others are read from the
  /// text and isa12.
  Records records = {};
  /// Optional (merge_records writes it): rank + 1 of position n - 1 where n = 2 (mod 3), read
  /// past the records. With all records but the last, it is the only rank that comparisons
  /// read of that record: the merge then reads nothing of isa12, so the rows may be written over
  /// it (difference_cover_as).
  I* last_rank = nullptr;
  KOKKOS_INLINE_FUNCTION bool recorded(std::uint64_t q) const { return q < records.extent(0); }
  /// rank + 1 of sample position x, 0 at or past the end.
  KOKKOS_INLINE_FUNCTION I rank_at(std::uint64_t x) const {
    if (x >= sample.n) return I(0);
    if (recorded(x / 3)) return records(x / 3).ranks[x % 3 == 2 ? 1 : 0];
    if (last_rank != nullptr && x + 1 == sample.n) return *last_rank;
    return I(isa12(sample.element(x)) + 1);
  }
  KOKKOS_INLINE_FUNCTION std::uint32_t symbol_at(std::uint64_t x) const {
    return x >= sample.n ? 0 : std::uint32_t(text(x)) + 1;
  }
  /// T[pos - 1], pos > 0.
  KOKKOS_INLINE_FUNCTION S preceding(std::uint64_t pos) const {
    const std::uint64_t q = (pos + 1) / 3;  // 3q - 1, 3q and 3q + 1 read record q
    return recorded(q) ? records(q).symbols[pos + 1 - 3 * q] : text(pos - 1);
  }
  /// Whether suffix i (i mod 3 = 0) precedes suffix j (j mod 3 != 0), reading only as far as
  /// they differ. The end is smaller than every symbol and never met by both at once.
  KOKKOS_INLINE_FUNCTION bool rest_first(std::uint64_t i, std::uint64_t j) const {
    const std::uint64_t d = j % 3 == 1 ? 1 : 2;
    for (std::uint64_t t = 0; t < d; ++t) {
      const std::uint32_t x = symbol_at(i + t), y = symbol_at(j + t);
      if (x != y) return x < y;
    }
    return rank_at(i + d) < rank_at(j + d);
  }
  KOKKOS_INLINE_FUNCTION MergeKey<I> rest_key(std::uint64_t i) const {
    if (!recorded(i / 3)) return {symbol_at(i), symbol_at(i + 1), rank_at(i + 1), rank_at(i + 2)};
    const Record& r = records(i / 3);
    return {std::uint32_t(r.symbols[2]) + 1, i + 1 < sample.n ? std::uint32_t(r.symbols[3]) + 1 : 0, r.ranks[0],
            r.ranks[1]};
  }
  KOKKOS_INLINE_FUNCTION MergeKey<I> sample_key(std::uint64_t j) const {
    if (j % 3 == 1) {
      if (!recorded(j / 3)) return {symbol_at(j), 0, rank_at(j + 1), I(1)};
      const Record& r = records(j / 3);
      return {std::uint32_t(r.symbols[3]) + 1, 0, r.ranks[1], I(1)};
    }
    if (!recorded(j / 3 + 1)) return {symbol_at(j), symbol_at(j + 1), rank_at(j + 2), I(2)};
    const Record& r = records(j / 3 + 1);
    return {std::uint32_t(r.symbols[1]) + 1, j + 1 < sample.n ? std::uint32_t(r.symbols[2]) + 1 : 0, r.ranks[0], I(2)};
  }
  /// rest_first() on gathered keys.
  static KOKKOS_INLINE_FUNCTION bool rest_first(const MergeKey<I>& r, const MergeKey<I>& s) {
    if (r.c0 != s.c0) return r.c0 < s.c0;
    if (s.r2 == 1) return r.r1 < s.r1;
    if (r.c1 != s.c1) return r.c1 < s.c1;
    return r.r2 < s.r1;
  }
  /// Asks for what rest_key(i) and sample_key(j) read.
  KOKKOS_FORCEINLINE_FUNCTION void prefetch_rest(std::uint64_t i) const {
    if (recorded(i / 3)) {
      ktext::impl::prefetch(records.data() + i / 3);
      return;
    }
    ktext::impl::prefetch(text.data() + i);
    if (i + 1 < sample.n) ktext::impl::prefetch(isa12.data() + sample.element(i + 1));
    if (i + 2 < sample.n) ktext::impl::prefetch(isa12.data() + sample.element(i + 2));
  }
  KOKKOS_FORCEINLINE_FUNCTION void prefetch_sample(std::uint64_t j) const {
    if (recorded((j + 1) / 3)) {  // record q holds positions 3q - 1 to 3q + 1 (preceding())
      ktext::impl::prefetch(records.data() + (j + 1) / 3);
      return;
    }
    const std::uint64_t x = j + (j % 3 == 1 ? 1 : 2);
    ktext::impl::prefetch(text.data() + j);
    if (x < sample.n) ktext::impl::prefetch(isa12.data() + sample.element(x));
  }
};

/// Whether \p cmp's comparisons read the sample's ranks from its records only: all records, or
/// all but the last with its one rank read (n = 2 (mod 3)) kept in last_rank.
template <class Compare>
bool merge_reads_records_only(const Compare& cmp) {
  const std::uint64_t n = cmp.sample.n, count = cmp.records.extent(0), needed = merge_records_needed(n);
  return count >= needed || (count + 1 == needed && (n % 3 != 2 || cmp.last_rank != nullptr));
}

/// Writes \p cmp's records (their count is the view's: up to merge_records_needed(n)) from the
/// text and the sample's ranks, reading both in order, and last_rank where \p cmp has one.
template <class ExecSpace, class Compare>
void merge_records(const ExecSpace& exec, const Compare& cmp) {
  using Record = typename Compare::Record;
  using S = typename Compare::S;
  using I = typename Compare::Index;
  const auto records = cmp.records;
  const auto text = cmp.text;
  const auto isa12 = cmp.isa12;
  const std::uint64_t n = cmp.sample.n;
  const I n1 = cmp.sample.n1, n2 = cmp.sample.n2;
  I* const last = cmp.last_rank;
  const std::uint64_t count = records.extent(0);
  Kokkos::parallel_for(
      "ktext::suffix_array::merge_records", Range<ExecSpace>(exec, 0, count + (last != nullptr ? 1 : 0)),
      KOKKOS_LAMBDA(std::uint64_t q) {
        if (q == count) {  // position 3 (n1 - 1) + 1 = n - 1 where n = 2 (mod 3)
          if (n % 3 == 2) *last = I(isa12(std::uint64_t(n1) - 1) + 1);
          return;
        }
        Record r;
        for (int t = 0; t < 4; ++t) {
          const std::uint64_t x = 3 * q + std::uint64_t(t);  // position x - 2
          r.symbols[t] = x >= 2 && x - 2 < n ? text(x - 2) : S(0);
        }
        r.ranks[0] = q < std::uint64_t(n1) ? I(isa12(q) + 1) : I(0);
        r.ranks[1] = q < std::uint64_t(n2) ? I(isa12(std::uint64_t(n1) + q) + 1) : I(0);
        records(q) = r;
      });
}

/// Merge path: how many of the first \p diag outputs of merging A (na) and B (nb) come from A,
/// where b_first(b, a) says whether B[b] precedes A[a].
template <class BFirst>
KOKKOS_INLINE_FUNCTION std::uint64_t merge_path(const BFirst& b_first, std::uint64_t diag, std::uint64_t na,
                                                std::uint64_t nb) {
  std::uint64_t lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {  // the first a whose A[a] follows B[diag - 1 - a]
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (b_first(diag - 1 - mid, mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/// The sample's order (elements) and the rest's (q of the suffixes 3q), with their positions.
template <class CompareT, class V>
struct MergeInputs {
  using Compare = CompareT;
  Compare cmp;
  V sample_order;
  V rest_order;
  KOKKOS_INLINE_FUNCTION std::uint64_t na() const { return sample_order.extent(0); }
  KOKKOS_INLINE_FUNCTION std::uint64_t nb() const { return rest_order.extent(0); }
  KOKKOS_INLINE_FUNCTION std::uint64_t sample_position(std::uint64_t a) const {
    return cmp.sample.position(sample_order(a));
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t rest_position(std::uint64_t b) const { return 3 * std::uint64_t(rest_order(b)); }
  /// How many of the first \p diag outputs are sample suffixes.
  KOKKOS_INLINE_FUNCTION std::uint64_t split(std::uint64_t diag) const {
    const auto rest_first = [&](std::uint64_t b, std::uint64_t a) {
      return cmp.rest_first(rest_position(b), sample_position(a));
    };
    return merge_path(rest_first, diag, na(), nb());
  }
};

/// Row k of the merged order, suffix \p pos, written to the suffix array.
template <class SA>
struct EmitSuffixArray {
  using Value = typename SA::non_const_value_type;
  SA sa;
  template <class Compare>
  KOKKOS_INLINE_FUNCTION Value value(const Compare&, std::uint64_t pos) const {
    return Value(pos);
  }
  KOKKOS_INLINE_FUNCTION void write(std::uint64_t k, Value v) const { sa(k) = v; }
};

/// Row k, suffix \p pos, written as its BWT symbol T[pos - 1] in bwt.hpp's convention: rows
/// before the row of suffix 0 (*\p zero_row, in the merge's memory space: row_of_zero) move one
/// place down, behind T[n - 1] (the empty suffix's row, written apart); suffix 0's row is the
/// sentinel, left out.
template <class Out>
struct EmitBwt {
  using S = typename Out::non_const_value_type;
  /// A symbol, or none for suffix 0 (wider than a symbol, so no symbol is mistaken for it).
  using Value = std::conditional_t<sizeof(S) < sizeof(std::uint32_t), std::uint32_t, std::uint64_t>;
  static constexpr Value none = ~Value(0);
  Out out;
  const std::uint64_t* zero_row;
  template <class Compare>
  KOKKOS_INLINE_FUNCTION Value value(const Compare& cmp, std::uint64_t pos) const {
    return pos == 0 ? none : Value(cmp.preceding(pos));
  }
  KOKKOS_INLINE_FUNCTION void write(std::uint64_t k, Value v) const {
    if (v != none) out(k < *zero_row ? k + 1 : k) = S(v);
  }
};

/// Thread t writes outputs [t tile, (t + 1) tile), from its own split on. It holds the key of
/// the next suffix of each order (MergeKey), so that each output reads the one suffix taken
/// before it: one record at random where the merge has records.
template <class Inputs, class Emit>
struct MergeByThread {
  Inputs in;
  Emit out;
  std::uint64_t tile;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t t) const {
    using Compare = typename Inputs::Compare;
    using Key = MergeKey<typename Compare::Index>;
    const std::uint64_t na = in.na(), nb = in.nb(), total = na + nb;
    const std::uint64_t first = t * tile, last = first + tile < total ? first + tile : total;
    std::uint64_t a = in.split(first), b = first - a;
    Key ka = a < na ? in.cmp.sample_key(in.sample_position(a)) : Key{};
    Key kb = b < nb ? in.cmp.rest_key(in.rest_position(b)) : Key{};
    for (std::uint64_t k = first; k < last; ++k) {
      if (a + prefetch_distance < na) in.cmp.prefetch_sample(in.sample_position(a + prefetch_distance));
      if (b + prefetch_distance < nb) in.cmp.prefetch_rest(in.rest_position(b + prefetch_distance));
      if (a == na || (b < nb && Compare::rest_first(kb, ka))) {
        out.write(k, out.value(in.cmp, in.rest_position(b++)));
        if (b < nb) kb = in.cmp.rest_key(in.rest_position(b));
      } else {
        out.write(k, out.value(in.cmp, in.sample_position(a++)));
        if (a < na) ka = in.cmp.sample_key(in.sample_position(a));
      }
    }
  }
};

/// splits(t): the sample suffixes among the first t tile outputs.
template <class Inputs, class Splits>
struct MergeSplits {
  Inputs in;
  Splits splits;
  std::uint64_t tile;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t t) const {
    const std::uint64_t total = in.na() + in.nb(), diag = t * tile < total ? t * tile : total;
    splits(t) = typename Splits::value_type(in.split(diag));
  }
};

/// Outputs each thread of a team merges in MergeByTeam.
inline constexpr int merge_per_thread = 8;

/// Team t merges outputs [t tile, (t + 1) tile) in team scratch: its sample part then its rest
/// part as MergeKeys with their positions, then merge_per_thread outputs per thread.
template <class ExecSpace, class Inputs, class Splits, class Emit>
struct MergeByTeam {
  using I = typename Inputs::Compare::Index;
  using O = typename Emit::Value;
  using Key = MergeKey<I>;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  template <class T>
  using Scratch = Kokkos::View<T*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  Inputs in;
  Splits splits;
  Emit out;
  std::uint64_t tile;  // team size * merge_per_thread: each thread gathers merge_per_thread keys
  static std::size_t scratch_bytes(std::uint64_t tile) {
    return Scratch<Key>::shmem_size(tile) + 2 * Scratch<O>::shmem_size(tile);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::uint64_t t = team.league_rank(), total = in.na() + in.nb();
    const std::uint64_t first = t * tile, count = (first + tile < total ? first + tile : total) - first;
    const std::uint64_t a0 = splits(t), na = std::uint64_t(splits(t + 1)) - a0, b0 = first - a0, nb = count - na;
    const Scratch<Key> keys(team.team_scratch(0), tile);   // [0, na) sample, [na, count) rest
    const Scratch<O> positions(team.team_scratch(0), tile);
    const Scratch<O> merged(team.team_scratch(0), tile);
    // Thread r reads elements r + k size, k < merge_per_thread (the tile), and gathers all their
    // keys before it stores any: the gathers are independent, so all are in flight at once.
    // Stored one by one, the scratch stores between them (which the compiler cannot tell from
    // the global reads) kept about one in flight per thread: on 50 MB of source code on an H100
    // the merge took 3.88 ms that way and takes 3.31 ms this way (ncu, perf/README).
    const std::uint64_t r = std::uint64_t(team.team_rank()), size = std::uint64_t(team.team_size());
    std::uint64_t at[merge_per_thread];
    Key key[merge_per_thread];
    O value[merge_per_thread];  // what the row emits: the position, or T[position - 1] next to T[position]
    for (int k = 0; k < merge_per_thread; ++k) {
      const std::uint64_t x = r + std::uint64_t(k) * size;
      at[k] = x >= count ? 0 : x < na ? in.sample_position(a0 + x) : in.rest_position(b0 + (x - na));
    }
    for (int k = 0; k < merge_per_thread; ++k) {
      const std::uint64_t x = r + std::uint64_t(k) * size;
      if (x < count) {
        key[k] = x < na ? in.cmp.sample_key(at[k]) : in.cmp.rest_key(at[k]);
        value[k] = out.value(in.cmp, at[k]);
      }
    }
    for (int k = 0; k < merge_per_thread; ++k) {
      const std::uint64_t x = r + std::uint64_t(k) * size;
      if (x < count) {
        keys(x) = key[k];
        positions(x) = value[k];
      }
    }
    team.team_barrier();
    const std::uint64_t diag = std::uint64_t(team.team_rank()) * merge_per_thread;
    if (diag < count) {
      const auto rest_first = [&](std::uint64_t b, std::uint64_t a) {
        return Inputs::Compare::rest_first(keys(na + b), keys(a));
      };
      std::uint64_t a = merge_path(rest_first, diag, na, nb), b = diag - a;
      const std::uint64_t last = diag + merge_per_thread < count ? diag + merge_per_thread : count;
      for (std::uint64_t k = diag; k < last; ++k) {
        const bool take_rest = a == na || (b < nb && rest_first(b, a));
        merged(k) = take_rest ? positions(na + b++) : positions(a++);
      }
    }
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](std::uint64_t x) { out.write(first + x, merged(x)); });
  }
};

/// Which merge kernel.
enum class MergeKernel { by_thread, by_team };

/// by_thread on hosts, by_team on devices.
template <class ExecSpace>
MergeKernel default_merge_kernel() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible
             ? MergeKernel::by_thread
             : MergeKernel::by_team;
}

/// Threads per team of MergeByTeam on devices; hosts take what the backend allows.
inline constexpr int merge_team_size = 128;
/// Teams of MergeByTeam resident per multiprocessor that the compiler must allow for (a launch
/// bound). Its gathers wait on memory, so more resident threads hide more of it: 6 against none
/// took 1-4% less time for the whole suffix array on the corpus files and random texts in three
/// interleaved runs on an H100 (dna 14.7-15.1 ms against 15.4-15.6, xml 33.5-33.8 against
/// 34.0-34.6, the versioned collection 0.8% less; perf/README, 2026-11-25). 8 (64 registers a
/// thread) was tried too: the bench's first input did not finish within minutes, and that was
/// not pursued.
inline constexpr int merge_min_teams = 6;

/// The first index of [0, \p count) that \p before (true, then false along it) is false for, or
/// \p count, searched by a team: each step probes team-size places evenly spread over what is
/// left and keeps the stretch between the last one before and the first one not, so a team of 32
/// needs 5 steps over 2^25 entries where one thread's bisection needs 25 dependent reads.
template <class Member, class Before>
KOKKOS_INLINE_FUNCTION std::uint64_t team_partition_point(const Member& team, std::uint64_t count, const Before& before) {
  const std::uint64_t width = std::uint64_t(team.team_size());
  std::uint64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::uint64_t span = hi - lo;
    if (width == 1) {
      const std::uint64_t mid = lo + span / 2;
      if (before(mid)) lo = mid + 1;
      else hi = mid;
      continue;
    }
    // Probe k at lo + span k / width: they do not decrease, and where span <= width they cover
    // every index left, so the step ends the search.
    std::uint64_t passed = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, width),
        [&](std::uint64_t k, std::uint64_t& c) { c += before(lo + span * k / width) ? 1 : 0; }, passed);
    const std::uint64_t first = passed > 0 ? lo + span * (passed - 1) / width + 1 : lo;
    hi = passed < width ? lo + span * passed / width : hi;
    lo = first;
  }
  return lo;
}

/// Writes to \p row (memory of \p exec's space) the row of suffix 0 (the rest's q = 0) in the
/// merge of \p sample_order and \p rest_order: the rest suffixes before it (the rest's order is
/// that of (T[3q], rank of 3q + 1), all distinct) plus the sample suffixes before it, both found
/// by one team's search (team_partition_point); all ones where the rest's order does not hold
/// suffix 0 there. Does not block: the BWT merge reads the row where it is (EmitBwt), so the
/// host need not wait for it. Before, a reduction over the rest's order found it (64 us on 50
/// MB of xml on an H200, against 25.5 for the search; CUPTI traces) and the host waited for it.
template <class ExecSpace, class Compare, class V>
void row_of_zero(const ExecSpace& exec, const Compare& cmp, const V& sample_order, const V& rest_order,
                 std::uint64_t* row) {
  using Inputs = MergeInputs<Compare, V>;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const Inputs in{cmp, sample_order, rest_order};
  const int team = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible ? 1 : 32;
  Kokkos::parallel_for(
      "ktext::suffix_array::zero_row", Policy(exec, 1, team), KOKKOS_LAMBDA(const typename Policy::member_type& t) {
        const MergeKey<typename Compare::Index> zero = in.cmp.rest_key(0);
        const std::uint64_t b = team_partition_point(t, in.nb(), [&](std::uint64_t q) {
          const MergeKey<typename Compare::Index> k = in.cmp.rest_key(in.rest_position(q));
          return k.c0 < zero.c0 || (k.c0 == zero.c0 && k.r1 < zero.r1);
        });
        const std::uint64_t a = team_partition_point(
            t, in.na(), [&](std::uint64_t j) { return !in.cmp.rest_first(0, in.sample_position(j)); });
        Kokkos::single(Kokkos::PerTeam(t), [&] {
          *row = b < in.nb() && in.rest_order(b) == 0 ? a + b : ~std::uint64_t(0);
        });
      });
}

/// Merges \p sample_order (sample elements, sorted) and \p rest_order (q of the suffixes 3q,
/// sorted), comparing with \p cmp, and writes each row through \p out (EmitSuffixArray or
/// EmitBwt). The team kernel holds n / 1024 + 2 split entries on devices: in \p room where it
/// has them, else in \p mem.
template <class ExecSpace, class Compare, class V, class Emit>
void merge_difference_cover(const ExecSpace& exec, const Compare& cmp, const V& sample_order, const V& rest_order,
                            const Emit& out, Footprint& mem, MergeKernel kernel = default_merge_kernel<ExecSpace>(),
                            const Spare& room = {}) {
  using Inputs = MergeInputs<Compare, V>;
  using I = typename V::non_const_value_type;
  const Inputs in{cmp, sample_order, rest_order};
  const std::uint64_t n = in.na() + in.nb();
  if (n == 0) return;
  if (kernel == MergeKernel::by_thread) {
    // Hosts: a thread's share is long anyway; the binary search costs about 30 comparisons.
    const std::uint64_t tile = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible ? 8192 : 256;
    Kokkos::parallel_for("ktext::suffix_array::merge", Range<ExecSpace>(exec, 0, (n + tile - 1) / tile),
                         MergeByThread<Inputs, Emit>{in, out, tile});
    return;
  }
  using Splits = Kokkos::View<I*, typename ExecSpace::memory_space>;
  using Kernel = MergeByTeam<ExecSpace, Inputs, Splits, Emit>;
  const Kernel probe{in, Splits(), out, 0};
  Splits splits, splits_store;  // splits_store: counted in mem, where room does not hold them
  auto launch = [&](auto policy_type) {
    using Policy = decltype(policy_type);
    const int most = Policy(exec, 1, Kokkos::AUTO).team_size_max(probe, Kokkos::ParallelForTag());
    const int team = most < merge_team_size ? most : merge_team_size;
    const std::uint64_t tile = std::uint64_t(team) * merge_per_thread, tiles = (n + tile - 1) / tile;
    if (room.bytes >= (tiles + 1) * sizeof(I)) {
      splits = Splits(static_cast<I*>(room.data), tiles + 1);  // unmanaged: memory the caller holds
    } else {
      splits_store = counted_view<I>(exec, mem, "ktext::suffix_array::merge_splits", tiles + 1);
      splits = splits_store;
    }
    Kokkos::parallel_for("ktext::suffix_array::merge_splits", Range<ExecSpace>(exec, 0, tiles + 1),
                         MergeSplits<Inputs, Splits>{in, splits, tile});
    Kokkos::parallel_for("ktext::suffix_array::merge",
                         Policy(exec, static_cast<int>(tiles), team).set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes(tile))),
                         Kernel{in, splits, out, tile});
  };
  // At least merge_min_teams teams of merge_team_size threads resident per multiprocessor: the
  // register cap that follows (80 per thread) lets 6 teams in instead of the 5 the kernel's own
  // register count allowed (ncu on an H100: 31% theoretical occupancy, limited by registers).
  // Only where 6 full teams' scratch fits a multiprocessor's shared memory: with 64-bit work
  // indices (40 KB a team) or wide BWT symbols on smaller GPUs the launch would be refused.
  using Bounded = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<merge_team_size, merge_min_teams>>;
  const std::size_t full = Kernel::scratch_bytes(std::uint64_t(merge_team_size) * merge_per_thread);
  if (Bounded(exec, 1, Kokkos::AUTO).set_scratch_size(0, Kokkos::PerTeam(full)).team_size_max(probe, Kokkos::ParallelForTag()) >=
      merge_team_size)
    launch(Bounded());
  else
    launch(Kokkos::TeamPolicy<ExecSpace>());
  exec.fence("ktext::suffix_array: merge_splits free");
  release_counted(mem, splits_store);
}

}  // namespace ktext::impl
