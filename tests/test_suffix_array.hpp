// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Suffix array tests, instantiated per backend (KTEXT_TEST_EXEC): exhaustive tiny strings and
// the naive sort, libdivsufsort on larger inputs, integer alphabets, both index widths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>

#include <ktext/suffix.hpp>

#include "test_bwt_helpers.hpp"
#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

using Algorithm = ktext::SuffixArrayAlgorithm;
constexpr Algorithm algorithms[] = {Algorithm::difference_cover, Algorithm::doubling};
const char* name_of(Algorithm a) { return a == Algorithm::doubling ? "doubling" : "dc3"; }

using Reduction = ktext::SampleReduction;

template <class I, class S>
std::vector<I> build(const std::vector<S>& t, ktext::SuffixArrayStats* stats = nullptr, std::size_t batch = 0,
                     Algorithm algorithm = Algorithm::automatic, Reduction reduction = Reduction::automatic,
                     std::size_t key_words = 0) {
  auto text = to_device(t, "text");
  Kokkos::View<I*, Mem> sa("sa", t.size());
  ktext::SuffixArrayOptions options;
  options.batch_entries = batch;
  options.algorithm = algorithm;
  options.sample_reduction = reduction;
  options.initial_key_words = key_words;
  auto s = ktext::suffix_array(Exec{}, text, sa, options);
  Exec{}.fence();
  if (stats) *stats = s;
  return to_host(sa);
}

void enumerate(std::vector<std::uint8_t>& cur, std::size_t len, int sigma,
               const std::function<void(const std::vector<std::uint8_t>&)>& f) {
  if (cur.size() == len) {
    f(cur);
    return;
  }
  for (int c = 0; c < sigma; ++c) {
    cur.push_back(std::uint8_t('a' + c));
    enumerate(cur, len, sigma, f);
    cur.pop_back();
  }
}

TEST(suffix_array, exhaustive_binary_up_to_10) {
  // Every length mod 3 and every place of the last sample suffixes, both algorithms, and DC3
  // through reduced texts at every level (the 0 between the classes met at each place).
  for (std::size_t len = 0; len <= 10; ++len) {
    std::vector<std::uint8_t> cur;
    enumerate(cur, len, 2, [](const std::vector<std::uint8_t>& t) {
      if (!take_case()) return;
      const auto want = naive_suffix_array<std::int32_t>(t);
      for (Algorithm a : algorithms)
        ASSERT_EQ(build<std::int32_t>(t, nullptr, 0, a), want) << std::string(t.begin(), t.end()) << " " << name_of(a);
      for (Reduction r : {Reduction::initial, Reduction::first_round})
        ASSERT_EQ(build<std::int32_t>(t, nullptr, 0, Algorithm::difference_cover, r), want)
            << std::string(t.begin(), t.end()) << " reduced " << int(r);
    });
  }
}

TEST(suffix_array, exhaustive_ternary_up_to_7) {
  for (std::size_t len = 0; len <= 7; ++len) {
    std::vector<std::uint8_t> cur;
    enumerate(cur, len, 3, [](const std::vector<std::uint8_t>& t) {
      if (!take_case()) return;
      const auto want = naive_suffix_array<std::int32_t>(t);
      for (Algorithm a : algorithms)
        ASSERT_EQ(build<std::int32_t>(t, nullptr, 0, a), want) << std::string(t.begin(), t.end()) << " " << name_of(a);
      ASSERT_EQ(build<std::int32_t>(t, nullptr, 0, Algorithm::difference_cover, Reduction::initial), want)
          << std::string(t.begin(), t.end()) << " reduced";
    });
  }
}

TEST(suffix_array, tiny_with_nul_and_high_bytes) {
  const std::vector<std::vector<std::uint8_t>> cases = {
      {0}, {0, 0}, {255}, {255, 0}, {0, 255}, {0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 1, 0}, {255, 255, 0, 255}};
  for (const auto& t : cases)
    for (Algorithm a : algorithms) EXPECT_EQ(build<std::int32_t>(t, nullptr, 0, a), naive_suffix_array<std::int32_t>(t));
}

TEST(suffix_array, small_shapes_against_naive) {
  for (std::size_t n : {1, 2, 3, 7, 8, 9, 20, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000}) {
    for (const auto& [name, t] : named_texts(n, std::uint32_t(n))) {
      for (Algorithm a : algorithms)
        for (std::size_t words : {1, 2})
          EXPECT_EQ(build<std::int32_t>(t, nullptr, 0, a, Reduction::automatic, words), naive_suffix_array<std::int32_t>(t))
              << name << " n=" << n << " " << name_of(a) << " words=" << words;
    }
  }
}

TEST(suffix_array, sizes_around_block_boundaries_against_reference) {
  for (std::size_t n : {2047, 2048, 2049, 4095, 4096, 4097, 65535, 65536, 65537}) {
    // Odd sizes with initial keys of two words.
    const std::size_t words = 1 + n % 2;
    for (const auto& [name, t] : named_texts(n, std::uint32_t(n + 11))) {
      const auto want = reference_suffix_array<std::int32_t>(t);
      for (Algorithm a : algorithms)
        EXPECT_EQ(build<std::int32_t>(t, nullptr, 0, a, Reduction::automatic, words), want)
            << name << " n=" << n << " " << name_of(a) << " words=" << words;
    }
  }
}

TEST(suffix_array, larger_inputs_against_reference) {
  const std::size_t n = 300000;
  for (const auto& [name, t] : named_texts(n, 2024)) {
    ktext::SuffixArrayStats stats;
    EXPECT_EQ(build<std::int32_t>(t, &stats), reference_suffix_array<std::int32_t>(t)) << name;
    EXPECT_GE(stats.peak_bytes, n * 9) << name;  // text, SA and ISA at least
    EXPECT_LE(stats.peak_bytes, (ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int32_t>(n))) << name;
  }
}

/// Every named shape plus period 2 at size \p n: the array against the reference, and the peak
/// within \p per_byte n (+ the alphabet tables) and the documented bound, for \p algorithm.
template <class I>
void expect_peak_within(std::size_t n, std::uint32_t seed, double per_byte, Algorithm algorithm) {
  auto texts = named_texts(n, seed);
  if (take_case()) texts.emplace_back("period2", ktext::oracle::periodic_text(n, "ab"));
  for (const auto& [name, t] : texts) {
    ktext::SuffixArrayStats stats;
    EXPECT_EQ(build<I>(t, &stats, 0, algorithm), reference_suffix_array<I>(t)) << name << " n=" << n;
    EXPECT_LE(stats.peak_bytes, per_byte * double(n) + 65536) << name << " n=" << n << " " << name_of(algorithm);
    EXPECT_LE(stats.peak_bytes, (ktext::suffix_array_peak_bytes_bound<std::uint8_t, I>(n, algorithm)))
        << name << " n=" << n << " " << name_of(algorithm);
  }
}

TEST(suffix_array, peak_memory_within_15n_on_every_shape) {
  // One group spanning the text (A^n, zeros), two or three (short periods) and the ordinary
  // shapes. Doubling: text, SA, ISA, the unsorted list and the sort scratch stay within 15n for
  // bytes and 32-bit indices (25n before groups larger than a batch were sorted in their own SA
  // slots). DC3: the sample's order and ranks beside text and SA (the ranks held with room for
  // the initial sort's second buffer of 32-bit key pieces), its unsorted list and scratch
  // inside the SA, 13.0n; 13n too where the repetitive shapes sort reduced texts; n / 64 more
  // where the merge's rows go over the ranks (devices), with their tile boundaries.
  for (std::size_t n : {(std::size_t(1) << 17) + 723, std::size_t(300000)}) {
    expect_peak_within<std::int32_t>(n, 5, 15, Algorithm::doubling);
    expect_peak_within<std::int32_t>(n, 5, 13.02, Algorithm::difference_cover);
  }
}

TEST(suffix_array, peak_memory_within_18n_with_64bit_indices) {
  // 64-bit output below 2^32 symbols: the positions and ranks are held in 32 bits, the initial
  // sort runs inside the output and large groups are sorted in their own (wider) slots, so text,
  // SA, ISA, the unsorted list and the scratch stay within 18n (29n with 64-bit work indices).
  // DC3 holds its sample in 32 bits up to 6.4e9 symbols: 15.67n, 17n with reduced texts.
  for (std::size_t n : {(std::size_t(1) << 17) + 1347, std::size_t(300000)}) {
    expect_peak_within<std::int64_t>(n, 6, 18, Algorithm::doubling);
    expect_peak_within<std::int64_t>(n, 6, 17, Algorithm::difference_cover);
  }
  // The documented bounds: doubling 18n below 2^32 symbols and 29n from there, DC3 17n up to
  // 6.4e9 symbols (plus the 12 MiB of tables), so 2^32 bytes fit 80 GB.
  const std::uint64_t below = (std::uint64_t(1) << 32) - 1, above = std::uint64_t(1) << 32;
  EXPECT_LE((ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int64_t>(below, Algorithm::doubling)),
            18 * below + (13u << 20));
  EXPECT_GE((ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int64_t>(above, Algorithm::doubling)), 29 * above);
  EXPECT_LE((ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int64_t>(above)), 17 * above + (13u << 20));
  EXPECT_LE((ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int32_t>(below)), 13 * below + below / 50 + (13u << 20));
  EXPECT_LT((ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int64_t>(above)), 80'000'000'000ull);
  const std::uint64_t largest_32bit_sample = 6'442'450'942ull;  // (n + 1) / 3 + n / 3 = 2^32 - 1
  EXPECT_LE((ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int64_t>(largest_32bit_sample)),
            17 * largest_32bit_sample + (13u << 20));
  // 32-bit symbols may be doubled (alphabets past 2^21 symbols): the larger bound.
  EXPECT_GE((ktext::suffix_array_peak_bytes_bound<std::uint32_t, std::int64_t>(above)),
            (ktext::doubling_peak_bytes_bound<std::uint32_t, std::int64_t>(above)));
}

TEST(suffix_array, work_indices_of_64_bits) {
  // Texts of 2^32 symbols and more are sorted with 64-bit positions and ranks; the same code on
  // small inputs, against the reference and with a group spanning the text.
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(65), std::size_t(4097), std::size_t(70000)}) {
    for (const auto& [name, t] : named_texts(n, 41)) {
      auto text = to_device(t, "text");
      Kokkos::View<std::int64_t*, Mem> sa("sa", t.size());
      ktext::SuffixArrayOptions options;
      options.batch_entries = n > 10000 ? 3000 : 0;  // batches and groups sorted alone
      for (Algorithm a : algorithms) {
        options.algorithm = a;
        Kokkos::deep_copy(sa, -1);
        const auto stats = ktext::impl::suffix_sort_as<std::uint64_t>(Exec{}, text, sa, options);
        Exec{}.fence();
        EXPECT_EQ(to_host(sa), reference_suffix_array<std::int64_t>(t)) << name << " n=" << n << " " << name_of(a);
        // text, SA and ISA of 8 bytes; with DC3 text, SA, the sample's order and ranks
        if (n > 0) EXPECT_GE(stats.peak_bytes, a == Algorithm::doubling ? 17 * n : 9 * n + 16 * (2 * n / 3)) << name;
      }
    }
  }
}

TEST(suffix_array, dc3_sample_reduction_against_reference) {
  // The sample sorted through its reduced text at every level, right after the initial sort or
  // after one round: every shape at sizes around the class boundaries, 32- and 64-bit work
  // indices, small batches, and the levels counted.
  for (std::size_t n : {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 31, 64, 65, 255, 256, 1000, 4097, 70000}) {
    for (const auto& [name, t] : named_texts(n, 83)) {
      const auto want = reference_suffix_array<std::int32_t>(t);
      for (Reduction r : {Reduction::initial, Reduction::first_round}) {
        ktext::SuffixArrayStats stats;
        EXPECT_EQ(build<std::int32_t>(t, &stats, 0, Algorithm::difference_cover, r), want)
            << name << " n=" << n << " reduced " << int(r);
        // A^n keeps one group of all but the truncated suffixes at every level.
        if (name == "zeros" && n >= 1000) EXPECT_GE(stats.reductions, 2) << "n=" << n << " reduced " << int(r);
      }
      if (n == 70000) {
        EXPECT_EQ(build<std::int32_t>(t, nullptr, 3000, Algorithm::difference_cover, Reduction::first_round), want)
            << name << " small batches";
      }
      if (n % 2) {
        auto text = to_device(t, "text");
        Kokkos::View<std::int64_t*, Mem> sa("sa", t.size());
        ktext::SuffixArrayOptions options;
        options.algorithm = Algorithm::difference_cover;
        options.sample_reduction = Reduction::initial;
        ktext::impl::suffix_sort_as<std::uint64_t>(Exec{}, text, sa, options);
        Exec{}.fence();
        const auto got = to_host(sa);
        EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin(), want.end())) << name << " n=" << n << " 64-bit";
      }
    }
  }
}

TEST(suffix_array, dc3_reduces_repetitive_samples_by_default) {
  // From 2^16 sample suffixes on, the shapes whose groups stay large (one group, periods,
  // Fibonacci, Thue-Morse) are reduced and the random ones are doubled; never keeps doubling.
  const std::size_t n = 200000;
  for (const auto& [name, t] : named_texts(n, 89)) {
    const auto want = reference_suffix_array<std::int32_t>(t);
    ktext::SuffixArrayStats stats, doubled;
    EXPECT_EQ(build<std::int32_t>(t, &stats), want) << name;
    EXPECT_EQ(build<std::int32_t>(t, &doubled, 0, Algorithm::difference_cover, Reduction::never), want) << name;
    EXPECT_EQ(doubled.reductions, 0) << name;
    const bool repetitive = name == "zeros" || name == "run" || name == "fibonacci" || name == "thue_morse" ||
                            name.rfind("period", 0) == 0;
    if (repetitive) {
      EXPECT_GE(stats.reductions, 1) << name;
    } else if (name.rfind("random", 0) == 0) {
      EXPECT_EQ(stats.reductions, 0) << name;
    }
    EXPECT_LE(stats.peak_bytes, (ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int32_t>(n))) << name;
  }
}

/// The DC3 merge alone with \p kernel, from the sample's order and ranks and the other
/// suffixes' order taken from the reference \p sa of \p t.
template <class I>
std::vector<std::int64_t> dc3_merge(const std::vector<std::uint8_t>& t, const std::vector<std::int64_t>& sa,
                                    ktext::impl::MergeKernel kernel) {
  using Work = Kokkos::View<I*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Text = Kokkos::View<const std::uint8_t*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const std::uint64_t n = t.size();
  const ktext::impl::SampleSuffixes<I> sample{n, static_cast<I>((n + 1) / 3), static_cast<I>(n / 3)};
  std::vector<I> sample_order, isa12(sample.count()), rest_order;
  for (std::int64_t p : sa) {
    if (p % 3 == 0) {
      rest_order.push_back(I(p / 3));
    } else {
      isa12[sample.element(std::uint64_t(p))] = I(sample_order.size());
      sample_order.push_back(sample.element(std::uint64_t(p)));
    }
  }
  auto text = to_device(t, "text");
  auto d_sample = to_device(sample_order, "sample_order"), d_isa = to_device(isa12, "isa12");
  auto d_rest = to_device(rest_order, "rest_order");
  Kokkos::View<std::int64_t*, Mem> out("out", n);
  Kokkos::deep_copy(out, -1);
  ktext::Footprint mem;
  const ktext::impl::CompareRestSample<Text, Work, I> cmp{Text(text.data(), n), Work(d_isa.data(), d_isa.extent(0)),
                                                          sample};
  const Work sample_view(d_sample.data(), d_sample.extent(0)), rest_view(d_rest.data(), d_rest.extent(0));
  ktext::impl::merge_difference_cover(Exec{}, cmp, sample_view, rest_view, ktext::impl::EmitSuffixArray<decltype(out)>{out},
                                      mem, kernel);
  Exec{}.fence();
  EXPECT_EQ(mem.live(), 0u);
  {
    // Again with the tile boundaries in memory the caller holds (DC3's held tail): the same
    // rows, and the footprint neither grows nor loses what it had.
    Kokkos::View<I*, Mem> room("room", n / 8 + 8);  // a tile holds 8 outputs a thread or more
    Kokkos::View<std::int64_t*, Mem> again("again", n);
    ktext::Footprint held;
    held.add(1000);
    ktext::impl::merge_difference_cover(Exec{}, cmp, sample_view, rest_view,
                                        ktext::impl::EmitSuffixArray<decltype(again)>{again}, held, kernel,
                                        ktext::impl::Spare{room.data(), room.extent(0) * sizeof(I)});
    Exec{}.fence();
    EXPECT_EQ(held.live(), 1000u) << "n=" << n;
    EXPECT_EQ(held.peak(), 1000u) << "n=" << n;
    EXPECT_EQ(to_host(again), to_host(out)) << "n=" << n;
  }
  if (n > 0) {
    // The same merge writing the BWT, against the one derived from the reference.
    Kokkos::View<std::uint8_t*, Mem> bwt("bwt", n);
    Kokkos::deep_copy(bwt, 0xee);
    // The row of suffix 0 stays in device memory, where the merge reads it.
    Kokkos::View<std::uint64_t*, Mem> row("row", 1);
    ktext::impl::row_of_zero(Exec{}, cmp, sample_view, rest_view, row.data());
    const std::uint64_t zero_row = to_host(row)[0];
    Kokkos::deep_copy(Kokkos::subview(bwt, 0), t.back());
    ktext::impl::merge_difference_cover(Exec{}, cmp, sample_view, rest_view,
                                        ktext::impl::EmitBwt<decltype(bwt)>{bwt, row.data()},
                                        mem, kernel);
    Exec{}.fence();
    const auto want = bwt_of_suffix_array(t, sa);
    EXPECT_EQ(zero_row + 1, want.second) << "n=" << n;
    EXPECT_EQ(to_host(bwt), want.first) << "n=" << n;
    // Again with the merge's records (CompareRestSample::records), as ktext::bwt merges on
    // devices: all of them, and the first half (the rest read from the text and ISA12, as where
    // the suffix array's memory runs short).
    using Cmp = std::remove_const_t<decltype(cmp)>;
    const std::size_t needed = ktext::impl::merge_records_needed(n);
    Kokkos::View<typename Cmp::Record*, Mem> records("records", needed);
    for (std::size_t count : {needed, needed / 2}) {
      auto with_records = cmp;
      with_records.records = typename Cmp::Records(records.data(), count);
      ktext::impl::merge_records(Exec{}, with_records);
      Kokkos::deep_copy(bwt, 0xee);
      Kokkos::deep_copy(Kokkos::subview(bwt, 0), t.back());
      Kokkos::deep_copy(row, 0);
      ktext::impl::row_of_zero(Exec{}, with_records, sample_view, rest_view, row.data());
      EXPECT_EQ(to_host(row)[0], zero_row) << "n=" << n << " records " << count;
      ktext::impl::merge_difference_cover(Exec{}, with_records, sample_view, rest_view,
                                          ktext::impl::EmitBwt<decltype(bwt)>{bwt, row.data()}, mem, kernel);
      Exec{}.fence();
      EXPECT_EQ(to_host(bwt), want.first) << "n=" << n << " records " << count;
      Kokkos::View<std::int64_t*, Mem> rows("rows", n);
      ktext::impl::merge_difference_cover(Exec{}, with_records, sample_view, rest_view,
                                          ktext::impl::EmitSuffixArray<decltype(rows)>{rows}, mem, kernel);
      Exec{}.fence();
      EXPECT_EQ(to_host(rows), sa) << "n=" << n << " records " << count;
    }
    // All records but the last, with its one rank read in last_rank, as ktext::suffix_array
    // merges on devices (rows_over_isa12): the merge then reads nothing of ISA12, which is
    // overwritten here after the records are written.
    auto over = cmp;
    Kokkos::View<I*, Mem> last("last", 1);
    over.records = typename Cmp::Records(records.data(), needed - 1);
    over.last_rank = last.data();
    EXPECT_TRUE(ktext::impl::merge_reads_records_only(over)) << "n=" << n;
    ktext::impl::merge_records(Exec{}, over);
    Kokkos::deep_copy(d_isa, I(~I(0) / 2));
    Kokkos::View<std::int64_t*, Mem> rows("rows", n);
    ktext::impl::merge_difference_cover(Exec{}, over, sample_view, rest_view,
                                        ktext::impl::EmitSuffixArray<decltype(rows)>{rows}, mem, kernel);
    Exec{}.fence();
    EXPECT_EQ(to_host(rows), sa) << "n=" << n << " all records but the last";
    over.last_rank = nullptr;
    EXPECT_EQ(ktext::impl::merge_reads_records_only(over), n % 3 != 2) << "n=" << n;
  }
  return to_host(out);
}

TEST(suffix_array, both_dc3_merges_against_reference) {
  // Each backend runs both merge kernels (the default takes one per backend), writing the suffix
  // array and the BWT. The team kernel's tiles hold 8 outputs per thread: sizes around multiples
  // of them, and shapes whose sample and rest interleave in long runs (A^n, periods) or finely
  // (random).
  using Kernel = ktext::impl::MergeKernel;
  for (std::size_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 17, 255, 1023, 1024, 1025, 1347, 4096 + 723, 70000}) {
    for (const auto& [name, t] : named_texts(n, 59)) {
      const auto sa = reference_suffix_array<std::int64_t>(t);
      for (Kernel k : {Kernel::by_thread, Kernel::by_team}) {
        const char* kn = k == Kernel::by_team ? "by_team" : "by_thread";
        EXPECT_EQ(dc3_merge<std::uint32_t>(t, sa, k), sa) << name << " n=" << n << " " << kn;
        if (n % 2) EXPECT_EQ(dc3_merge<std::uint64_t>(t, sa, k), sa) << name << " n=" << n << " " << kn << " 64-bit";
      }
    }
  }
}

/// Sizes the group-sort sweeps take: 65, 300 and 2^k + {0, 7, 723, 1347} for k = 12, 16
/// (under sanitizers 2^16 + 1347 alone of the larger ones).
std::vector<std::size_t> group_sort_sizes() {
  std::vector<std::size_t> sizes = {65, 300};
  for (int k : {12, 16})
    for (std::size_t d : {0, 7, 723, 1347})
      // The tile test's batches with groups sorted apart need one size past 60000.
      if (k == 12 || !sanitized_tests || d == 1347) sizes.push_back((std::size_t(1) << k) + d);
  return sizes;
}

/// Builds the suffix array of \p t with each of \p limits given to the options by \p set, with
/// the default stretch and batches of 700, by every algorithm, and asserts it against the
/// reference; \p check then sees the run's stats and its description.
template <class Set, class Check>
void sweep_group_sorts(const std::string& name, const std::vector<std::uint8_t>& t,
                       std::initializer_list<std::size_t> limits, Set set, Check check) {
  const auto want = reference_suffix_array<std::int32_t>(t);
  auto text = to_device(t, "text");
  for (std::size_t limit : limits) {
    for (std::size_t batch : {std::size_t(0), std::size_t(700)}) {
      for (Algorithm a : algorithms) {
        Kokkos::View<std::int32_t*, Mem> sa("sa", t.size());
        ktext::SuffixArrayOptions options;
        set(options, limit);
        options.batch_entries = batch;
        options.algorithm = a;
        const ktext::SuffixArrayStats stats = ktext::suffix_array(Exec{}, text, sa, options);
        Exec{}.fence();
        const std::string what = name + " n=" + std::to_string(t.size()) + " limit=" + std::to_string(limit) +
                                 " batch=" + std::to_string(batch) + " " + name_of(a);
        ASSERT_EQ(to_host(sa), want) << what;
        check(stats, limit, what);
      }
    }
  }
}

TEST(suffix_array, both_group_sorts_agree) {
  // Batches of short groups take one segmented sort, batches with a longer group two radix sorts:
  // forced each way (limit 1: radix only; limit 2 and 8: mixed; no limit: segmented wherever a
  // group fits a batch), with and without small batches, sizes 2^k + {0, 7, 723, 1347}.
  for (std::size_t n : group_sort_sizes()) {
    for (const auto& [name, t] : named_texts(n, 5)) {
      sweep_group_sorts(
          name, t, {std::size_t(1), std::size_t(2), std::size_t(8), ~std::size_t(0)},
          [](ktext::SuffixArrayOptions& o, std::size_t limit) { o.segmented_group_limit = limit; },
          [](const ktext::SuffixArrayStats&, std::size_t, const std::string&) {});
      if (HasFatalFailure()) return;
    }
  }
}

TEST(suffix_array, initial_keys_of_two_words) {
  // Keys of two words: twice the symbols in the initial sort, as many more key pieces, every group
  // sort after it, every shape, both algorithms; 21-bit codes (the reduced texts') too.
  for (std::size_t n : group_sort_sizes()) {
    for (const auto& [name, t] : named_texts(n, 23)) {
      std::map<std::string, std::uint64_t> one_word;  // the initial prefix of each run with one word
      sweep_group_sorts(
          name, t, {std::size_t(1), std::size_t(2)},
          [](ktext::SuffixArrayOptions& o, std::size_t words) { o.initial_key_words = words; },
          [&](const ktext::SuffixArrayStats& stats, std::size_t words, const std::string& what) {
            std::string run = what;
            run.replace(run.find(" limit=") + 7, 1, "1");
            if (words == 1) one_word[run] = stats.initial_prefix;
            else EXPECT_EQ(stats.initial_prefix, 2 * one_word.at(run)) << what;
          });
      if (HasFatalFailure()) return;
    }
  }
  const auto wide = random_text<std::uint32_t>(5000, (1u << 21) - 1, 7);
  for (Algorithm a : algorithms) {
    ktext::SuffixArrayStats one, two;
    const auto want = build<std::int32_t>(wide, &one, 0, a, Reduction::automatic, 1);
    EXPECT_EQ(build<std::int32_t>(wide, &two, 0, a, Reduction::automatic, 2), want) << name_of(a);
    EXPECT_EQ(two.initial_prefix, 2 * one.initial_prefix) << name_of(a);
  }
}

/// The symbols the initial sort compares of a text of \p sigma symbols with InitialKeyPart::top
/// (0 where the top 32 bits hold no multiple of the step in full, or a key of one word fits
/// them): the top's whole symbols, rounded down to a multiple of \p step (3 for DC3's sample).
inline std::uint64_t top_prefix(std::size_t sigma, int step) {
  const int b = std::max(1, ktext::bit_width(sigma > 0 ? sigma - 1 : 0));
  const int per_word = 64 / b / step * step;
  const int prefix = std::min(32 / b, per_word) / step * step;
  return per_word * b > 32 ? std::uint64_t(prefix) : 0;
}

TEST(suffix_array, initial_key_top_piece) {
  // The initial sort by the top 32 bits of the key alone (the rounds sort the rest), forced:
  // every shape, every group sort after it, both algorithms, sizes 2^k + {0, 7, 723, 1347}; the
  // initial prefix is the top's whole symbols, a multiple of 3 for DC3, wherever they hold one.
  // A text that ends in a run of the smallest symbol (whose code is that of the end) too, then
  // 21-bit codes (no multiple of 3 in 32 bits for DC3: the whole key).
  for (std::size_t n : group_sort_sizes()) {
    auto texts = named_texts(n, 29);
    std::vector<std::uint8_t> zeros = random_text(n, 256, std::uint32_t(n));
    for (std::size_t i = n - std::min<std::size_t>(n, 40); i < n; ++i) zeros[i] = 0;
    texts.emplace_back("random256_ending_in_zeros", zeros);
    for (const auto& [name, t] : texts) {
      std::vector<bool> seen(256);
      for (std::uint8_t c : t) seen[c] = true;
      const std::size_t sigma = std::size_t(std::count(seen.begin(), seen.end(), true));
      sweep_group_sorts(
          name, t, {std::size_t(2)},
          [](ktext::SuffixArrayOptions& o, std::size_t) { o.initial_key_part = ktext::InitialKeyPart::top; },
          [&](const ktext::SuffixArrayStats& stats, std::size_t, const std::string& what) {
            const bool dc3 = what.size() >= 3 && what.compare(what.size() - 3, 3, "dc3") == 0;
            const std::uint64_t top = top_prefix(sigma, dc3 ? 3 : 1);
            if (top > 0) EXPECT_EQ(stats.initial_prefix, top) << what;
          });
      if (HasFatalFailure()) return;
    }
  }
  const auto wide = random_text<std::uint32_t>(5000, (1u << 21) - 1, 7);
  for (Algorithm a : algorithms) {
    ktext::SuffixArrayStats whole, top;
    const auto want = naive_suffix_array<std::int32_t>(wide);
    auto text = to_device(wide, "text");
    for (const auto part : {ktext::InitialKeyPart::whole, ktext::InitialKeyPart::top}) {
      Kokkos::View<std::int32_t*, Mem> sa("sa", wide.size());
      ktext::SuffixArrayOptions options;
      options.algorithm = a;
      options.initial_key_part = part;
      (part == ktext::InitialKeyPart::top ? top : whole) = ktext::suffix_array(Exec{}, text, sa, options);
      Exec{}.fence();
      EXPECT_EQ(to_host(sa), want) << name_of(a);
    }
    EXPECT_EQ(top.initial_prefix, a == Algorithm::doubling ? 1u : whole.initial_prefix) << name_of(a);
  }
}

TEST(suffix_array, initial_key_by_estimate) {
  // Unless told, GPUs take initial keys of two words where most first words repeat and the
  // second costs one key piece: 2^21 symbols of words drawn from 64 of 12 bytes each, of 200
  // values (8-bit codes, 6 a word for DC3: about 50 K distinct first words in the sample's 1.4 M
  // suffixes); hosts one. Random bytes and random ACGT take the top piece of one word everywhere
  // (3 bytes and 15 letters for DC3, nearly every top distinct).
  const std::size_t n = std::size_t(1) << 21;
  const bool device = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  std::mt19937 rng(5);
  std::vector<std::vector<std::uint8_t>> words(64, std::vector<std::uint8_t>(12));
  for (auto& w : words)
    for (auto& c : w) c = std::uint8_t(1 + rng() % 200);
  std::vector<std::uint8_t> prose;
  while (prose.size() < n) {
    const auto& w = words[rng() % words.size()];
    prose.insert(prose.end(), w.begin(), w.end());
  }
  prose.resize(n);
  const std::pair<std::vector<std::uint8_t>, std::uint64_t> cases[] = {
      {prose, device ? 12u : 6u}, {random_text(n, 256, 5), 3u}, {random_text(n, 4, 6), 15u}};
  for (const auto& [t, prefix] : cases) {
    ktext::SuffixArrayStats chosen;
    EXPECT_EQ(build<std::int32_t>(t, &chosen, 0, Algorithm::difference_cover), reference_suffix_array<std::int32_t>(t))
        << prefix;
    EXPECT_EQ(chosen.initial_prefix, prefix);
  }
}

TEST(suffix_array, distinct_words_estimate) {
  // Linear counting of the first words (the estimates of initial_key_words and initial_key_part)
  // on every backend: random bytes have nearly all distinct, a period of 1000 about 1000 (and the
  // truncated few at the end); read in full, in 64 runs of n / 64 (all but a few), in 64 runs of
  // 2^14, in 64 runs of 2^14 with 32 bits per element read, and in full counting 1 in 16 and 1 in
  // 64 of the word values (initial_key_words: the scaled count's binomial error is about
  // sqrt(2^thin d), 126 for the period's 1000 words at 1 in 16; the bounds widen by four of it).
  using Layout = ktext::impl::AllSuffixes<std::uint32_t>;
  const std::size_t n = (std::size_t(1) << 20) + 723;
  for (const bool periodic : {false, true}) {
    std::vector<std::uint8_t> t = random_text(periodic ? 1000 : n, 256, 99);
    for (std::size_t i = t.size(); i < n; ++i) t.push_back(t[i - 1000]);
    const auto text = to_device(t, "text");
    const auto alphabet = ktext::impl::text_alphabet<Mem>(Exec{}, text, "test", false);
    const Layout layout{std::uint32_t(n)};
    using Text = ktext::impl::Unmanaged<const std::uint8_t, Exec>;
    const int per_word = 64 / alphabet.bits;
    const ktext::impl::PackedKey<Exec, Text, Layout> key{Text(text.data(), n), alphabet, layout, per_word};
    Kokkos::View<std::uint32_t*, Mem> room("room", n);
    const std::uint64_t run = std::uint64_t(1) << 14;
    const std::tuple<std::uint64_t, std::uint64_t, int, std::uint64_t, int> reads[] = {
        {1, 0, 0, n, 0},           {64, n / 64, 0, n / 64 * 64, 0},
        {64, run, 0, 64 * run, 0}, {64, run, 5, 64 * run, 0},
        {1, 0, 0, n, 4},           {1, 0, 0, n, 6}};
    for (const auto& [runs, length, sparsity, expect_read, thin] : reads) {
      const std::string what = std::to_string(runs) + " runs of " + std::to_string(length) + ", sparsity " +
                               std::to_string(sparsity) + ", thin " + std::to_string(thin);
      std::uint64_t read = 0;
      const double d = ktext::impl::distinct_words_estimate(Exec{}, key, std::uint32_t(n),
                                                            ktext::impl::Unmanaged<std::uint32_t, Exec>(room.data(), n),
                                                            runs, length, sparsity, &read, thin);
      EXPECT_EQ(read, expect_read) << what;
      const double spread = thin > 0 ? 4.0 * std::sqrt(std::ldexp(periodic ? 1000.0 : double(read), thin)) : 0.0;
      if (periodic) {
        EXPECT_GT(d, 900.0 - spread) << what;
        EXPECT_LT(d, 1200.0 + spread) << what;
      } else {
        EXPECT_GT(d, 0.95 * double(read) - spread) << what;
        EXPECT_LT(d, 1.05 * double(read) + spread) << what;
      }
    }
  }
}

TEST(suffix_array, tile_sort_groups) {
  // Rounds whose groups are all short sort them inside tiles, and rounds with a few longer groups
  // sort those apart: forced on every backend with limits 2, 8 and 512 (the scratch's most), with
  // and without small batches, and without sorting apart. Near-copies (eight copies of a random
  // block, each after the first with a symbol in 50 changed: groups of up to eight for most
  // rounds, so tile rounds must happen), the same with runs (batches with groups sorted apart
  // must happen), and the usual shapes. Sizes 2^k + {0, 7, 723, 1347}.
  for (std::size_t n : group_sort_sizes()) {
    auto texts = named_texts(n, 11);
    std::vector<std::uint8_t> copies(n);
    {
      const auto random = random_text(n, 4, std::uint32_t(n));
      const std::size_t block = n / 8 + 1;
      std::uint32_t state = std::uint32_t(n) * 2654435761u + 1;
      for (std::size_t i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;
        copies[i] = i >= block && (state >> 8) % 50 == 0 ? std::uint8_t((state >> 24) % 4) : random[i % block];
      }
    }
    texts.emplace_back("near-copies", copies);
    // The same with runs of one symbol (40, 72 and 130 long): suffixes in them form groups longer
    // than 8 for rounds in which the copies' groups are short, so such rounds sort them apart.
    for (std::size_t r = 1; r <= 3; ++r) {
      const std::size_t run = std::size_t(r == 1 ? 40 : r == 2 ? 72 : 130);
      for (std::size_t i = r * n / 4; i < std::min(n, r * n / 4 + run); ++i) copies[i] = 0;
    }
    texts.emplace_back("near-copies with runs", copies);
    for (const auto& [name, t] : texts) {
      const bool near_copies = name == "near-copies", runs = name == "near-copies with runs";
      for (bool apart : {true, false}) {
        sweep_group_sorts(
            name, t, {std::size_t(2), std::size_t(8), std::size_t(512)},
            [&](ktext::SuffixArrayOptions& o, std::size_t limit) {
              o.tile_group_limit = limit;
              o.sort_long_groups_apart = apart;
            },
            [&](const ktext::SuffixArrayStats& stats, std::size_t limit, const std::string& what) {
              if (near_copies && limit >= 8 && n > 1000) EXPECT_GT(stats.tile_rounds, 0) << what;
              // Their initial groups are short too, so the first round sorts in tiles as well.
              if (near_copies && limit >= 8 && n > 1000 && stats.reductions == 0)
                EXPECT_EQ(stats.tile_rounds, stats.rounds) << what;
              if (!apart) EXPECT_EQ(stats.long_group_batches, 0) << what;
              else if (runs && limit == 8 && n > 60000) EXPECT_GT(stats.long_group_batches, 0) << what;
            });
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(suffix_array, initial_ranks_scattered_in_windows) {
  // The initial ranks stored in sorted order and scattered to ISA in windows of 1 and 5 entries
  // (on the smaller inputs: a pass per window), 700 and a third of the text, or partitioned
  // into 2 or 256 parts first: DC3 (the key buffers in its output's memory, also at every
  // reduced level; the partition there), doubling into a 64-bit output (in the output's upper
  // half), and doubling into a 32-bit output, whose key buffers are allocated and released: one
  // pass there. Sizes 2^k + {0, 7, 723, 1347}.
  std::vector<std::size_t> sizes = {1, 2, 3, 65, 300, (std::size_t(1) << 16) + 1347};
  for (std::size_t d : {0, 7, 723, 1347}) sizes.push_back((std::size_t(1) << 12) + d);
  for (std::size_t n : sizes) {
    for (const auto& [name, t] : named_texts(n, 13)) {
      const auto want = reference_suffix_array<std::int64_t>(t);
      const std::vector<std::int32_t> want32(want.begin(), want.end());
      auto text = to_device(t, "text");
      const std::pair<std::size_t, std::size_t> ways[] = {{1, 1}, {5, 1}, {700, 1}, {n / 3 + 1, 1}, {0, 2}, {0, 256}};
      for (const auto& [window, parts] : ways) {
        if (window * 1000 < n && parts == 1) continue;
        for (Algorithm a : algorithms) {
          ktext::SuffixArrayOptions options;
          options.scatter_window = window;
          options.scatter_parts = parts;
          options.algorithm = a;
          Kokkos::View<std::int32_t*, Mem> sa("sa", t.size());
          ktext::suffix_array(Exec{}, text, sa, options);
          Kokkos::View<std::int64_t*, Mem> sa64("sa64", t.size());
          ktext::suffix_array(Exec{}, text, sa64, options);
          Exec{}.fence();
          ASSERT_EQ(to_host(sa), want32) << name << " n=" << n << " window=" << window << " parts=" << parts << " "
                                         << name_of(a);
          ASSERT_EQ(to_host(sa64), want) << name << " n=" << n << " window=" << window << " parts=" << parts << " "
                                         << name_of(a) << " 64";
        }
      }
    }
  }
}

TEST(suffix_array, initial_sort_over_every_key_width) {
  // Alphabets of every key width (codes of 1 to 8 bits): the initial sort's last piece ends in
  // either key buffer (54-bit sample keys of 6-bit codes sort an odd number of digits), and with
  // a 32-bit output DC3's other key buffer is its held tail, where the heads otherwise go; with
  // and without the ranks' partition, which also takes that buffer. Random texts, and random
  // blocks of 300 symbols three times over (keys in groups of three). Sizes 2^k + {0, 7, 723, 1347}.
  for (std::size_t sigma : {2, 7, 13, 27, 50, 100, 200, 256}) {
    for (std::size_t d : {0, 7, 723, 1347}) {
      const std::size_t n = (std::size_t(1) << 14) + d;
      const auto random = random_text(n, std::uint32_t(sigma), std::uint32_t(sigma + d));
      std::vector<std::uint8_t> blocks(n);
      for (std::size_t i = 0; i < n; ++i) blocks[i] = random[i / 900 * 900 + i % 300];
      const std::vector<std::uint8_t>* const texts[] = {&random, &blocks};
      for (const auto* tp : texts) {
        const auto& t = *tp;
        const auto want = reference_suffix_array<std::int64_t>(t);
        const std::vector<std::int32_t> want32(want.begin(), want.end());
        auto text = to_device(t, "text");
        for (std::size_t parts : {1, 256}) {
          for (Algorithm a : algorithms) {
            ktext::SuffixArrayOptions options;
            options.scatter_parts = parts;
            options.algorithm = a;
            Kokkos::View<std::int32_t*, Mem> sa("sa", n);
            Kokkos::View<std::int64_t*, Mem> sa64("sa64", n);
            ktext::suffix_array(Exec{}, text, sa, options);
            ktext::suffix_array(Exec{}, text, sa64, options);
            const std::string what = "sigma=" + std::to_string(sigma) + " n=" + std::to_string(n) +
                                     (tp == &random ? " random" : " blocks") + " parts=" + std::to_string(parts) +
                                     " " + name_of(a);
            ASSERT_EQ(to_host(sa), want32) << what;
            ASSERT_EQ(to_host(sa64), want) << what;
          }
        }
      }
    }
  }
}

TEST(suffix_array, widen_in_place_keeps_every_value) {
  // 32-bit values at the start of a 64-bit array become its entries, for sizes 2^k + {0, 7, 723, 1347}.
  std::vector<std::size_t> sizes = {0, 1, 2, 3, 4, 5};
  for (int k = 3; k <= 16; k += 4)
    for (std::size_t d : {0, 7, 723, 1347}) sizes.push_back((std::size_t(1) << k) + d);
  for (std::size_t n : sizes) {
    std::vector<std::uint32_t> narrow(2 * n);
    std::mt19937 rng{std::uint32_t(n)};
    for (std::size_t i = 0; i < n; ++i) narrow[i] = std::uint32_t(rng()) | (i % 5 == 0 ? 0x80000000u : 0u);
    for (std::size_t i = n; i < 2 * n; ++i) narrow[i] = 0xdeadbeefu;
    Kokkos::View<std::int64_t*, Mem> wide("wide", n);
    Kokkos::deep_copy(Exec{}, wide, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                        reinterpret_cast<const std::int64_t*>(narrow.data()), n));
    ktext::impl::widen_in_place<Exec, std::int64_t, std::uint32_t>(Exec{}, wide.data(), n);
    Exec{}.fence();
    const auto got = to_host(wide);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], std::int64_t(narrow[i])) << "n=" << n << " i=" << i;
  }
}

TEST(suffix_array, batches_hold_whole_groups_under_two_stretches) {
  // Group sizes: many small, a few larger than a stretch, and one group spanning everything.
  std::mt19937_64 rng(31);
  std::vector<std::vector<std::int32_t>> shapes;
  for (int shape = 0; shape < 3; ++shape) {
    std::vector<std::int32_t> sizes;
    std::int64_t total = 0;
    while (total < 20000) {
      const std::int32_t size = shape == 2 ? 20000 : (shape == 1 && rng() % 50 == 0 ? 1 + rng() % 3000 : 1 + rng() % 9);
      sizes.push_back(size);
      total += size;
    }
    shapes.push_back(sizes);
  }
  for (const auto& sizes : shapes) {
    std::vector<std::int32_t> vals, isa;  // vals = 0..m-1; isa(j) = the first entry of j's group
    std::vector<bool> starts;
    for (std::int32_t size : sizes)
      for (std::int32_t k = 0; k < size; ++k) {
        isa.push_back(std::int32_t(vals.size()) - k);
        starts.push_back(k == 0);
        vals.push_back(std::int32_t(vals.size()));
      }
    const auto m = std::int32_t(vals.size());
    const auto d_vals = to_device(vals), d_isa = to_device(isa);
    for (std::int32_t chunk : {1, 7, 100, 1000, 50000}) {
      const auto b = ktext::impl::batch_cuts(Exec{}, d_vals, d_isa, m, chunk);
      ASSERT_EQ(b.cuts.front(), 0);
      ASSERT_EQ(b.cuts.back(), m);
      ASSERT_EQ(b.alone.size() + 1, b.cuts.size());
      ASSERT_EQ(b.low.size() + 1, b.cuts.size());
      ASSERT_EQ(b.high.size() + 1, b.cuts.size());
      std::size_t batched = 0;
      for (std::size_t i = 0; i + 1 < b.cuts.size(); ++i) {
        const std::int32_t lo = b.cuts[i], hi = b.cuts[i + 1];
        ASSERT_LT(lo, hi) << "chunk=" << chunk;
        // The rank bounds: the least exactly (a batch starts a group), the largest or above it.
        ASSERT_EQ(b.low[i], isa[std::size_t(lo)]) << "chunk=" << chunk;
        for (std::int32_t j = lo; j < hi; ++j) ASSERT_LE(isa[std::size_t(j)], b.high[i]) << "chunk=" << chunk;
        ASSERT_TRUE(starts[std::size_t(lo)]) << "a batch starts inside a group, chunk=" << chunk;
        ASSERT_TRUE(hi == m || starts[std::size_t(hi)]) << "a batch ends inside a group, chunk=" << chunk;
        if (b.alone[i]) {
          EXPECT_GT(hi - lo, chunk);
          for (std::int32_t j = lo + 1; j < hi; ++j) ASSERT_FALSE(starts[std::size_t(j)]) << "alone but several groups";
        } else {
          EXPECT_LT(hi - lo, 2 * chunk) << "chunk=" << chunk;
          ++batched;
        }
      }
      // No fragments: at most one batch of several groups per stretch.
      EXPECT_LE(batched, std::size_t((m + chunk - 1) / chunk)) << "chunk=" << chunk;
    }
  }
}

TEST(suffix_array, small_batches_give_the_same_array) {
  // Rounds split into many batches of whole groups; ranks written by one batch are read by the next.
  for (std::size_t n : {1000, 70000}) {
    for (const auto& [name, t] : named_texts(n, 99)) {
      const auto want = reference_suffix_array<std::int32_t>(t);
      // Tiny batches only on the small input: each batch is a dozen kernel launches.
      for (std::size_t batch : n < 10000 ? std::vector<std::size_t>{1, 7, 500} : std::vector<std::size_t>{999, 4096}) {
        EXPECT_EQ(build<std::int32_t>(t, nullptr, batch), want) << name << " n=" << n << " batch=" << batch;
      }
      EXPECT_EQ(build<std::int64_t>(t, nullptr, 333), reference_suffix_array<std::int64_t>(t)) << name;
    }
  }
}

TEST(suffix_array, index64_matches_index32) {
  for (std::size_t n : {0, 1, 2, 5, 100, 4097, 50000}) {
    for (const auto& [name, t] : named_texts(n, 77)) {
      const auto a = build<std::int32_t>(t);
      const auto b = build<std::int64_t>(t);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(std::int64_t(a[i]), b[i]) << name << " n=" << n << " i=" << i;
      EXPECT_EQ(b, reference_suffix_array<std::int64_t>(t)) << name;
    }
  }
}

TEST(suffix_array, integer_alphabets) {
  for (std::size_t n : {1, 2, 33, 1000, 3000}) {
    for (std::uint32_t sigma : {2u, 300u, 65536u}) {
      const auto t = random_text<std::uint16_t>(n, sigma, sigma + std::uint32_t(n));
      EXPECT_EQ(build<std::int32_t>(t), naive_suffix_array<std::int32_t>(t)) << "u16 sigma=" << sigma << " n=" << n;
    }
    for (std::uint32_t sigma : {3u, 5000u, 4000000u, 0xffffffffu}) {
      const auto t = random_text<std::uint32_t>(n, sigma, sigma ^ std::uint32_t(n));
      EXPECT_EQ(build<std::int32_t>(t), naive_suffix_array<std::int32_t>(t)) << "u32 sigma=" << sigma << " n=" << n;
      EXPECT_EQ(build<std::int64_t>(t), naive_suffix_array<std::int64_t>(t)) << "u32 sigma=" << sigma << " n=" << n;
    }
  }
  // Runs of the largest symbol and of zero in wide alphabets.
  const std::vector<std::uint32_t> runs = {0xffffffffu, 0xffffffffu, 0, 0, 0xffffffffu, 0, 0xffffffffu, 0xffffffffu};
  EXPECT_EQ(build<std::int32_t>(runs), naive_suffix_array<std::int32_t>(runs));
}

TEST(suffix_array, reports_progress_and_rounds) {
  const auto t = run_text(5000);
  auto text = to_device(t);
  Kokkos::View<std::int32_t*, Mem> sa("sa", t.size());
  std::vector<std::string> phases;
  std::uint64_t last_active = ~std::uint64_t(0);
  bool shrinking = true;
  ktext::SuffixArrayOptions options;
  options.algorithm = Algorithm::difference_cover;
  options.progress = [&](const ktext::SuffixArrayProgress& p) {
    phases.emplace_back(p.phase);
    if (std::string(p.phase) == "doubling") {
      shrinking = shrinking && p.active <= last_active;
      last_active = p.active;
    }
  };
  const auto stats = ktext::suffix_array(Exec{}, text, sa, options);
  EXPECT_EQ(stats.initial_prefix, 63u);  // one symbol: 1 bit per code, 64 codes, a multiple of 3 for DC3
  EXPECT_GE(stats.rounds, 6);            // 64 * 2^6 > 5000
  ASSERT_GE(phases.size(), 3u);
  EXPECT_EQ(phases.front(), "alphabet");
  EXPECT_EQ(phases.back(), "done");
  EXPECT_EQ(std::count(phases.begin(), phases.end(), "done"), 1);
  EXPECT_EQ(std::count(phases.begin(), phases.end(), "merge"), 1);
  EXPECT_TRUE(shrinking);
}

TEST(suffix_array, overload_without_an_execution_space) {
  // The sa view's execution space is the backend under test; the call waits for the result.
  const auto t = random_text(3000, 4, 13);
  auto text = to_device(t, "text");
  Kokkos::View<std::int32_t*, Kokkos::Device<Exec, Mem>> sa("sa", t.size());
  ktext::suffix_array(text, sa);
  EXPECT_EQ(to_host(sa), reference_suffix_array<std::int32_t>(t));
  ktext::SuffixArrayOptions options;
  options.batch_entries = 50;
  Kokkos::deep_copy(sa, 0);
  const auto stats = ktext::suffix_array(text, sa, options);
  EXPECT_GT(stats.peak_bytes, 0u);
  EXPECT_EQ(to_host(sa), reference_suffix_array<std::int32_t>(t));
}

TEST(suffix_array, rejects_mismatched_lengths) {
  auto text = to_device(random_text(10, 4, 1));
  Kokkos::View<std::int32_t*, Mem> sa("sa", 9);
  EXPECT_THROW(ktext::suffix_array(Exec{}, text, sa), ktext::InputError);
}

}  // namespace
