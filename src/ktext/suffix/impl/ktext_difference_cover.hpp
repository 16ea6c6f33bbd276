// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Suffix sorting by the difference cover {1, 2} mod 3 (DC3, Kärkkäinen–Sanders–Burkhardt) with
// the sample sorted by prefix doubling (the GPU formulation of Wang, Baxter and Owens):
//
// 1. The sample, the suffixes at positions i mod 3 != 0 (2n/3 of them), is sorted by the
//    doubling of ktext_prefix_doubling.hpp over SampleSuffixes: an initial prefix and every h
//    a multiple of 3, so a suffix h further on is again in the sample. This leaves the sample's
//    order and its ranks (ISA12).
// 2. The other suffixes, i = 3q, in the order of (T[i], rank of i + 1): the sample's order
//    restricted to class 1 gives them by the rank of i + 1 (suffix n - 1 first when it has no
//    i + 1), and one stable radix sort by the symbol code finishes.
// 3. One merge of the two orders (ktext_difference_cover_merge.hpp). Suffix i = 0 (mod 3)
//    against a sample suffix j compares one symbol and the ranks of i + 1 and j + 1 when
//    j = 1 (mod 3), else two symbols and the ranks of i + 2 and j + 2: in both cases both are
//    sample positions (or the end).
//
// Against doubling every suffix: the rounds sort two thirds of the suffixes, and the ranks need
// 32 bits up to 1.5 (2^32 - 1) symbols, where 64-bit work indices doubled the memory. The merge
// reads both orders once and writes the output once; its comparisons read the text and ISA12.
//
// Where the sample's groups stay large (SampleReduction: Thue-Morse, Fibonacci, periods, A^n),
// step 1 stops doubling and names each sample suffix by its group instead: the reduced text R
// holds the names of the positions 1 (mod 3), a 0, then those of 2 (mod 3), and its suffix array
// (this function again, on R) is the sample's order. A suffix of R compares as its sample suffix
// does: equal names mean equal first symbols (at least 3: one step of R), different names order
// as their suffixes, and the 0 stands for the end that a class-1 suffix meets there, which is
// smaller than every symbol. Each level sorts two thirds of the one above, so the levels cost
// about three initial sorts where doubling pays a round over most of the sample per doubling.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "ktext/core/allocate.hpp"
#include "ktext/core/alphabet.hpp"
#include "ktext/core/footprint.hpp"
#include "ktext/core/range.hpp"
#include "ktext/primitives/scan.hpp"
#include "ktext/primitives/select.hpp"
#include "ktext/primitives/sort_pairs.hpp"
#include "ktext/suffix/impl/ktext_difference_cover_merge.hpp"
#include "ktext/suffix/impl/ktext_prefix_doubling.hpp"
#include "ktext/suffix/suffix_array_types.hpp"

namespace ktext::impl {

/// Whether the sample can be sorted: an initial key of at least 3 codes, so alphabets of up to
/// 2^21 symbols.
inline bool difference_cover_applies(int alphabet_bits) { return 64 / alphabet_bits >= 3; }

/// Entries of \p v bytes held after ISA12 (difference_cover_peak_bytes counts them): the rest's
/// order, and as many as a round's batch scratch needs (6 entries per entry of a stretch of a
/// twelfth, 7 of a fourteenth with the segmented sort, under half the sample plus the offsets'
/// two); the sample's head flags (a byte each) fit either. Where the output (\p spare_bytes)
/// holds one buffer of 32-bit key pieces but not two, also the other: the initial sort then
/// gathers the text at random once or twice less (doubling()), for 1.33n more bytes with bytes
/// and 32-bit indices (13.0n instead of 11.67n). Where, besides, the output's entries are v
/// bytes wide (\p spare_bytes = v n), ISA12 with its tail holds at the merge the n rows,
/// last_rank, the tile boundaries and the rest's order (difference_cover_as): 2 n_rest + 1 +
/// merge_split_entries(n), n / 256 + 5 entries more than the keys' share at most (13.02n).
constexpr std::uint64_t held_tail_entries(std::uint64_t n_sample, std::uint64_t n_rest, std::uint64_t v,
                                          std::uint64_t spare_bytes) noexcept {
  const std::uint64_t scratch = n_sample / 2 + 8;
  const std::uint64_t most = n_rest > scratch ? n_rest : scratch;
  const std::uint64_t piece = 4 * n_sample;  // bytes of one buffer of 32-bit pieces
  const std::uint64_t keys = spare_bytes >= piece && spare_bytes < 2 * piece ? (piece + v - 1) / v : 0;
  const std::uint64_t n = n_sample + n_rest;
  const std::uint64_t rows = keys > 0 && spare_bytes == v * n ? 2 * n_rest + 1 + merge_split_entries(n) : 0;
  const std::uint64_t larger = most > keys ? most : keys;
  return larger > rows ? larger : rows;
}

/// Where DC3 writes the BWT instead of the suffix array (bwt.hpp's convention): \p symbols, n
/// long, and the primary index, set once written.
template <class S, class ExecSpace>
struct BwtOutput {
  Unmanaged<S, ExecSpace> symbols;
  std::uint64_t primary = 0;
  bool written = false;
};

template <class I, class ExecSpace, class TextView, class SAView>
SuffixArrayStats difference_cover_as(const ExecSpace& exec, const TextView& text_in, const SAView& sa_in,
                                     const AlphabetMap<typename ExecSpace::memory_space>& alphabet,
                                     const SuffixArrayOptions& options, Footprint& mem, Spare spare = {},
                                     BwtOutput<typename TextView::non_const_value_type, ExecSpace>* bwt = nullptr);

/// Sorts DC3's sample through its reduced text: \p isa12 holds group ranks (each group's first
/// slot) of \p names groups, \p sample_store has count + 3 entries and receives the suffix array
/// of R (whose first entry is the 0 between the classes; the last two give the level below's
/// radix sort room), \p spare (the output's memory, unused until the merge) holds R. Returns
/// the sample's order (sample_store from its second entry) and its ranks in \p isa12, and adds
/// the recursion's rounds and levels to \p stats.
template <class I, class ExecSpace>
Unmanaged<I, ExecSpace> sort_reduced_sample(const ExecSpace& exec, const SampleSuffixes<I>& sample,
                                            Kokkos::View<I*, typename ExecSpace::memory_space>& isa12,
                                            std::uint64_t names, const Unmanaged<I, ExecSpace>& sample_store,
                                            const Spare& spare, const SuffixArrayOptions& options, Footprint& mem,
                                            SuffixArrayStats& stats) {
  using Mem = typename ExecSpace::memory_space;
  using Policy = Range<ExecSpace>;
  using U = Unmanaged<I, ExecSpace>;
  const I count = sample.count(), n1 = sample.n1;
  const std::size_t length = std::size_t(count) + 1;
  if (spare.bytes < length * sizeof(std::uint32_t)) throw Error("ktext::suffix_array: internal error, no room for R");
  // Dense names: a group's name is 1 + the number of groups before it, from marks at the groups'
  // first slots and their running sum.
  const U marks(sample_store.data(), count);
  const auto ranks = U(isa12.data(), count);
  // Cleared by a kernel of ours: deep_copy's fill kernel would carry Kokkos' label.
  Kokkos::parallel_for(
      "ktext::suffix_array::name_clear", Policy(exec, 0, count), KOKKOS_LAMBDA(I p) { marks(p) = I(0); });
  Kokkos::parallel_for(
      "ktext::suffix_array::name_marks", Policy(exec, 0, count), KOKKOS_LAMBDA(I p) { marks(ranks(p)) = I(1); });
  ktext::inclusive_scan(exec, marks, marks);
  const Unmanaged<std::uint32_t, ExecSpace> reduced(static_cast<std::uint32_t*>(spare.data), length);
  Kokkos::parallel_for(
      "ktext::suffix_array::reduced_text", Policy(exec, 0, count), KOKKOS_LAMBDA(I p) {
        reduced(p < n1 ? std::size_t(p) : std::size_t(p) + 1) = std::uint32_t(marks(ranks(p)));
        if (p == 0) reduced(std::size_t(n1)) = 0;
      });
  exec.fence("ktext::suffix_array: reduced text");
  release_counted(mem, isa12);

  // R's alphabet is 0..names, its own codes.
  AlphabetMap<Mem> names_map;
  names_map.sigma = names + 1;
  names_map.bits = bit_width(names);
  SuffixArrayOptions inner = options;
  inner.progress = nullptr;
  const SuffixArrayStats below = difference_cover_as<I>(
      exec, Unmanaged<const std::uint32_t, ExecSpace>(reduced.data(), length), U(sample_store.data(), length),
      names_map, inner, mem, Spare{sample_store.data(), sample_store.extent(0) * sizeof(I)});
  stats.rounds += below.rounds;
  stats.tile_rounds += below.tile_rounds;
  stats.long_group_batches += below.long_group_batches;
  stats.reductions += 1 + below.reductions;

  // R's entry n1 (the 0) sorts first; the others map back to elements, and their ranks follow.
  const U order(sample_store.data() + 1, count);
  isa12 = counted_view<I>(exec, mem, "ktext::suffix_array::isa12", count);
  const U isa(isa12.data(), count);
  Kokkos::parallel_for(
      "ktext::suffix_array::reduced_order", Policy(exec, 0, count), KOKKOS_LAMBDA(I j) {
        const I p = order(j) < n1 ? order(j) : order(j) - 1;
        order(j) = p;
        isa(p) = j;
      });
  return order;
}

/// The suffix array of \p text_in into \p sa_in by DC3, the sample held with work indices \p I
/// (elements and ranks below 2^32 - 1 for 32 bits). \p alphabet is the text's, with
/// difference_cover_applies(alphabet.bits). \p mem holds the text, the output and the alphabet.
/// \p spare_in, when given, is the output's memory with room after it (a reduced text's). With
/// \p bwt, the merge writes the BWT there instead and \p sa_in is only scratch.
template <class I, class ExecSpace, class TextView, class SAView>
SuffixArrayStats difference_cover_as(const ExecSpace& exec, const TextView& text_in, const SAView& sa_in,
                                     const AlphabetMap<typename ExecSpace::memory_space>& alphabet,
                                     const SuffixArrayOptions& options, Footprint& mem, Spare spare_in,
                                     BwtOutput<typename TextView::non_const_value_type, ExecSpace>* bwt) {
  using O = typename SAView::non_const_value_type;
  using S = typename TextView::non_const_value_type;
  using Mem = typename ExecSpace::memory_space;
  using Policy = Range<ExecSpace>;
  using U = Unmanaged<I, ExecSpace>;
  const std::uint64_t n = text_in.extent(0);
  const SampleSuffixes<I> sample{n, static_cast<I>((n + 1) / 3), static_cast<I>(n / 3)};
  const I n_sample = sample.count(), n_rest = static_cast<I>((n + 2) / 3);
  const Unmanaged<const S, ExecSpace> text(text_in.data(), n);
  const Unmanaged<O, ExecSpace> sa(sa_in.data(), n);
  // The output is not written before the merge: until then it is scratch.
  const Spare spare = spare_in.data ? spare_in : Spare{sa.data(), std::size_t(n) * sizeof(O)};

  // 1. The sample (three more entries for a reduced text: sort_reduced_sample). ISA12 is held
  // here with a tail that takes in turn the head flags, the rounds' scratch and the rest's
  // order (held_tail_entries): one allocation instead of up to four, each of whose allocation
  // and free waits for the device.
  auto sample_store = counted_view<I>(exec, mem, "ktext::suffix_array::sample_order", std::size_t(n_sample) + 3);
  U sample_order(sample_store.data(), n_sample);
  // A reduced text's level keeps 16-bit key pieces: its output is its parent's sample order,
  // whose memory bounds the levels below (difference_cover_peak_bytes).
  const std::uint64_t tail = held_tail_entries(n_sample, n_rest, sizeof(I), spare_in.data ? 0 : spare.bytes);
  Kokkos::View<I*, Mem> isa12 = counted_view<I>(exec, mem, "ktext::suffix_array::isa12", std::size_t(n_sample) + tail);
  std::uint64_t names = 0;
  SuffixArrayStats stats = doubling(exec, text_in, sample, alphabet, sample_order, options, mem, spare, &isa12, &names);
  if (names > 0) {
    if (options.progress) options.progress(SuffixArrayProgress{"reduced sample", stats.rounds, 0, n, n});
    sample_order = sort_reduced_sample(exec, sample, isa12, names, U(sample_store.data(), sample_store.extent(0)),
                                       spare, options, mem, stats);
  }
  if (options.progress) options.progress(SuffixArrayProgress{"merge", stats.rounds, 0, n, n});

  // The merge reads each row's symbols and ranks from one record (MergeRecord), written into
  // the suffix array's memory, unused until the merge (the last few records, where it runs
  // short, are read from the text and ISA12). Before, it read the ranks side by side in one
  // sector there and the text in another: on an H100 the merge of 100 MB of random bytes took
  // 6.30 ms that way, 7.43 with the ranks by class (perf/README, 2026-11-25); on 2 host threads
  // the thread merge of 50 MB took 0.8-1.2 s with its records and their writing, 1.3-2.0 s
  // without (perf/README, 2026-11-27). The BWT leaves that memory free. The suffix array takes
  // it too, where its entries are as wide as ISA12's, the records fit but for the last one, and
  // ISA12 with its tail holds the rows (held_tail_entries): the merge then reads nothing of
  // ISA12 and writes the rows over it, and one copy moves them to the output (rows_over_isa12).
  using Compare = CompareRestSample<decltype(text), U, I>;
  using Record = typename Compare::Record;
  const std::size_t records_fit = std::size_t(n) * sizeof(O) / sizeof(Record);
  const bool records = reinterpret_cast<std::uintptr_t>(sa.data()) % alignof(Record) == 0;
  const bool rows_over_isa12 = records && !bwt && sizeof(O) == sizeof(I) && records_fit + 1 >= merge_records_needed(n) &&
                               isa12.extent(0) >= std::size_t(n) + 1 + n_rest + merge_split_entries(n);

  // 2. The rest: by the rank of i + 1 (the sample's class 1 in its order), then by T[i]. Its
  // order goes to ISA12's tail (its end where the rows go over ISA12), unless a reduced sample
  // gave ISA12 anew, without one.
  Kokkos::View<I*, Mem> rest_store;
  I* rest_data = isa12.data() + (rows_over_isa12 ? isa12.extent(0) - n_rest : std::size_t(n_sample));
  if (isa12.extent(0) < std::size_t(n_sample) + n_rest) {
    rest_store = counted_view<I>(exec, mem, "ktext::suffix_array::rest_order", n_rest);
    rest_data = rest_store.data();
  }
  const U rest_order(rest_data, n_rest);
  const I no_next = n % 3 == 1 ? 1 : 0;  // suffix n - 1 = 3 n1 has no i + 1: first of its symbol
  {
    // Scratch: the order before the sort (first, so that 8-byte entries stay aligned), the keys.
    using KS = std::conditional_t<sizeof(S) <= 2, std::uint16_t, std::uint32_t>;  // holds a code
    const std::size_t need = std::size_t(n_rest) * (sizeof(I) + 2 * sizeof(KS));
    Kokkos::View<char*, Mem> scratch_store;
    char* scratch = static_cast<char*>(spare.data);
    if (need > spare.bytes) {
      scratch_store = counted_view<char>(exec, mem, "ktext::suffix_array::rest_scratch", need);
      scratch = scratch_store.data();
    }
    const U vals(reinterpret_cast<I*>(scratch), n_rest);
    const Unmanaged<KS, ExecSpace> keys(reinterpret_cast<KS*>(vals.data() + n_rest), n_rest);
    const Unmanaged<KS, ExecSpace> keys_tmp(keys.data() + n_rest, n_rest);
    const U sample_view = sample_order;
    const I n1 = sample.n1;
    ktext::select_by_index(exec, sample_view, U(vals.data() + no_next, n_rest - no_next),
                           KOKKOS_LAMBDA(std::size_t a) { return sample_view(a) < n1; });
    if (no_next)
      Kokkos::parallel_for(
          "ktext::suffix_array::rest_last", Policy(exec, 0, 1), KOKKOS_LAMBDA(I) { vals(0) = n1; });
    const auto codes = alphabet;
    Kokkos::parallel_for(
        "ktext::suffix_array::rest_keys", Policy(exec, 0, n_rest), KOKKOS_LAMBDA(I b) {
          keys(b) = KS(codes(text(3 * std::uint64_t(vals(b)))));
        });
    // One pass for byte alphabets: the result then lands in rest_order, with no copy.
    const U sorted(rest_order.data(), n_rest);
    if (!ktext::impl::sort_pairs_in_either(exec, keys, vals, keys_tmp, sorted, 0, alphabet.bits))
      Kokkos::deep_copy(exec, sorted, vals);
    release_counted(mem, scratch_store);
  }

  // 3. The merge into the output; its tile boundaries in what the tail holds past the rest's
  // order (past the rows and last_rank, before the rest's order, where the rows go over ISA12).
  const std::size_t room_first = rows_over_isa12 ? std::size_t(n) + 1 : std::size_t(n_sample) + n_rest;
  const std::size_t room_last = rows_over_isa12 ? isa12.extent(0) - n_rest : isa12.extent(0);
  const Spare tail_room = rest_store.data() ? Spare{} : Spare{isa12.data() + room_first, (room_last - room_first) * sizeof(I)};
  Compare compare{text, U(isa12.data(), n_sample), sample};
  const U rest_sorted(rest_order.data(), n_rest);
  if (records && (bwt || rows_over_isa12)) {
    const std::size_t count = std::min<std::size_t>(merge_records_needed(n), records_fit);
    compare.records = typename Compare::Records(reinterpret_cast<Record*>(sa.data()), count);
    if (rows_over_isa12 && count < merge_records_needed(n)) compare.last_rank = isa12.data() + n;
    merge_records(exec, compare);
  }
  std::uint64_t zero_row_host = 0;  // the BWT's row of suffix 0, read back with the merge's result
  Kokkos::View<std::uint64_t*, Mem> row_store;
  if (bwt) {
    // The row of suffix 0 stays on the device for the merge (row_of_zero), in the tail's last
    // 8-byte word past the merge's tile boundaries, else in a word of its own.
    Spare merge_room = tail_room;
    std::uint64_t* zero_row = nullptr;
    if (merge_room.bytes >= merge_split_entries(n) * sizeof(I) + 2 * sizeof(std::uint64_t)) {
      const auto end = reinterpret_cast<std::uintptr_t>(merge_room.data) + merge_room.bytes;
      zero_row = reinterpret_cast<std::uint64_t*>((end - sizeof(std::uint64_t)) & ~std::uintptr_t(7));
      merge_room.bytes = reinterpret_cast<std::uintptr_t>(zero_row) - reinterpret_cast<std::uintptr_t>(merge_room.data);
    } else {
      row_store = counted_view<std::uint64_t>(exec, mem, "ktext::bwt::zero_row", 1);
      zero_row = row_store.data();
    }
    row_of_zero(exec, compare, sample_order, rest_sorted, zero_row);
    const auto symbols = bwt->symbols;
    Kokkos::parallel_for(
        "ktext::bwt::last_symbol", Policy(exec, 0, 1), KOKKOS_LAMBDA(I) { symbols(0) = text(n - 1); });
    merge_difference_cover(exec, compare, sample_order, rest_sorted,
                           EmitBwt<Unmanaged<S, ExecSpace>>{symbols, zero_row}, mem,
                           default_merge_kernel<ExecSpace>(), merge_room);
    Kokkos::deep_copy(exec, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&zero_row_host),
                      Kokkos::View<const std::uint64_t, Mem, Kokkos::MemoryUnmanaged>(zero_row));
  } else if (rows_over_isa12) {
    if (!merge_reads_records_only(compare)) throw Error("ktext::suffix_array: internal error, merge records short");
    const Unmanaged<O, ExecSpace> rows(reinterpret_cast<O*>(isa12.data()), n);
    merge_difference_cover(exec, compare, sample_order, rest_sorted, EmitSuffixArray<decltype(rows)>{rows}, mem,
                           default_merge_kernel<ExecSpace>(), tail_room);
    Kokkos::deep_copy(exec, sa, rows);
  } else {
    merge_difference_cover(exec, compare, sample_order, rest_sorted, EmitSuffixArray<decltype(sa)>{sa}, mem,
                           default_merge_kernel<ExecSpace>(), tail_room);
  }
  exec.fence("ktext::suffix_array: merged");
  if (bwt) {
    if (zero_row_host >= n) throw Error("ktext::suffix_array: internal error, no suffix 0 among the rest");
    bwt->primary = zero_row_host + 1;
    bwt->written = true;
  }
  release_counted(mem, row_store);
  release_counted(mem, isa12);
  release_counted(mem, rest_store);
  release_counted(mem, sample_store);
  if (options.progress) options.progress(SuffixArrayProgress{"done", stats.rounds, 0, 0, n});
  stats.peak_bytes = mem.peak();
  return stats;
}

}  // namespace ktext::impl
