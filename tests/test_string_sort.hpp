// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// String sorting per backend against std::stable_sort of the byte strings (indices break ties,
// so stability is checked too) and the LCP of sorted neighbours against direct comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <ktext/core/memory_info.hpp>
#include <ktext/strings/string_sort.hpp>
#include <ktext_oracles/string_sets.hpp>
#include <random>

#include "test_inputs.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;
using ktext::oracle::StringSet;

/// Whether string_sort runs its host sort on this backend (the portable passes otherwise).
constexpr bool host_sort = ktext::impl::string_sort_host_avail<Exec>::value;

/// The order and the LCP of \p s on the backend. With the automatic \p team_limit and
/// \p team_passes and not \p portable, through the public entry points (the host sort on
/// hosts); else through the portable passes, with \p team_limit (the largest group sorted in
/// team scratch instead of by further passes; 0: none) and \p team_passes (the passes whose
/// groups teams sort).
template <class I, class O = std::int64_t>
std::pair<std::vector<I>, std::vector<I>> device_sort(const StringSet& s, ktext::StringSortStats* stats = nullptr,
                                                      std::size_t team_limit = ktext::impl::team_limit_automatic,
                                                      int team_passes = ktext::impl::team_passes_automatic,
                                                      bool portable = false) {
  auto chars = to_device(s.chars, "chars");
  auto offsets = to_device(std::vector<O>(s.offsets.begin(), s.offsets.end()), "offsets");
  Kokkos::View<I*, Mem> order("order", s.size()), lcp("lcp", s.size());
  Kokkos::deep_copy(order, I(-3));  // every entry must be written
  Kokkos::deep_copy(lcp, I(-3));
  ktext::StringSortStats st;
  const bool automatic =
      !portable && team_limit == ktext::impl::team_limit_automatic && team_passes == ktext::impl::team_passes_automatic;
  if (automatic)
    st = ktext::string_sort(Exec{}, chars, offsets, order, lcp);
  else
    st = ktext::impl::string_sort_checked<Exec, decltype(chars), decltype(offsets), decltype(order), decltype(lcp),
                                          false>(Exec{}, chars, offsets, order, &lcp, team_limit, team_passes);
  Exec{}.fence();
  if (stats) *stats = st;
  // The order alone, through the overload without an LCP array, must agree.
  Kokkos::View<I*, Mem> order2("order2", s.size());
  if (automatic)
    ktext::string_sort(Exec{}, chars, offsets, order2);
  else
    ktext::impl::string_sort_checked<Exec, decltype(chars), decltype(offsets), decltype(order2), void, false>(
        Exec{}, chars, offsets, order2, nullptr, team_limit, team_passes);
  Exec{}.fence();
  EXPECT_EQ(to_host(order2), to_host(order));
  return {to_host(order), to_host(lcp)};
}

/// \p s sorted as std::stable_sort sorts it, with the LCP of neighbours, by the library's sort
/// and, on hosts, by the portable passes too.
template <class I>
void expect_sorted(const StringSet& s, const std::string& what) {
  const auto want = ktext::oracle::stable_sort_order<I>(s);
  const auto want_lcp = ktext::oracle::sorted_lcp(s, want);
  for (bool portable : {false, true}) {
    if (portable && !host_sort) continue;  // the library's sort is the portable one
    const auto [order, lcp] =
        device_sort<I>(s, nullptr, ktext::impl::team_limit_automatic, ktext::impl::team_passes_automatic, portable);
    ASSERT_EQ(order, want) << what << " n=" << s.size() << (portable ? " portable" : "");
    EXPECT_EQ(lcp, want_lcp) << what << " n=" << s.size() << (portable ? " portable" : "");
  }
}

TEST(string_sort, shapes_against_stable_sort) {
  for (std::size_t n : {0, 1, 2, 3, 7, 64, 255, 256, 257, 1000, 4096, 4099}) {
    for (const auto& [name, s] : ktext::oracle::named_string_sets(n, 17)) {
      if (!ktext::test::take_case()) continue;
      expect_sorted<std::int32_t>(s, name);
      if (n == 1000) expect_sorted<std::int64_t>(s, name + " int64");
    }
  }
}

TEST(string_sort, sizes_around_powers_of_two) {
  for (int k = 10; k <= 17; k += 7)
    for (std::size_t d : {std::size_t(0), std::size_t(1)}) {
      const std::size_t n = (std::size_t(1) << k) - d;
      expect_sorted<std::int32_t>(ktext::oracle::random_strings(n, 0, 12, 26, 3 + k, 'a'), "random");
      expect_sorted<std::int32_t>(ktext::oracle::url_strings(n, 5 + k), "urls");
    }
}

TEST(string_sort, lengths_up_to_ten_thousand_mixed) {
  // Long strings over a tiny alphabet share long prefixes; nested prefixes (a, aa, aaa, ...)
  // finish a few per pass.
  StringSet s = ktext::oracle::random_strings(300, 0, 10000, 2, 99, 'a');
  for (std::size_t len : {0, 1, 5000, 10000, 9999, 7, 10000}) {
    const std::vector<std::uint8_t> a(len, 'a');
    s.add(a.data(), a.size());
  }
  for (std::size_t len = 0; len < 200; ++len) {
    const std::vector<std::uint8_t> a(len, 'a');
    s.add(a.data(), a.size());
  }
  expect_sorted<std::int32_t>(s, "mixed lengths");
}

TEST(string_sort, groups_larger_than_a_threads_share) {
  // Groups of more than 2^14 strings: on hosts with several threads they are split by all
  // threads at once (ktext_string_sort_host.hpp), one sharing 100 bytes beyond its first (a
  // parallel skip), one of copies of a string (equal strings across the whole group), one of
  // short tails over {0x00, 'a', 0xff} (proper prefixes, NUL bytes), shuffled together.
  std::vector<std::string> all;
  std::mt19937_64 rng{23};
  auto tail = [&](std::string str, int most) {
    const int len = int(rng() % std::uint64_t(most + 1));
    for (int c = 0; c < len; ++c) str.push_back("\0a\xff"[rng() % 3]);
    return str;
  };
  for (int i = 0; i < 30000; ++i) all.push_back(tail("p" + std::string(100, 'x'), 20));
  for (int i = 0; i < 20000; ++i) all.push_back(tail("q", 12));
  for (int i = 0; i < 20000; ++i) all.push_back("r" + std::string(50, 'z'));
  std::shuffle(all.begin(), all.end(), rng);
  StringSet s;
  for (const auto& str : all) s.add(str);
  expect_sorted<std::int32_t>(s, "large groups");
  ktext::StringSortStats stats;
  device_sort<std::int32_t>(s, &stats);
  // The host sort steps over the copies' 44 bytes past its first window and the 94 x's left
  // past it (the passes' windows hold more symbols of this alphabet, so they skip less).
  if (host_sort) EXPECT_GE(stats.skipped_bytes, 44u + 94u);
  EXPECT_LE(stats.peak_bytes, ktext::string_sort_peak_bytes_bound<std::int32_t>(s.size(), s.chars.size(), true));
}

TEST(string_sort, repeated_string_and_long_prefixes_skip_instead_of_passing) {
  // 2000 copies of a 10^4-byte string: one skip and one pass, not 10^4 / 7 passes.
  ktext::StringSortStats stats;
  const StringSet same = ktext::oracle::repeated_string(2000, 10000);
  const auto [order, lcp] = device_sort<std::int32_t>(same, &stats);
  EXPECT_EQ(order, ktext::oracle::stable_sort_order<std::int32_t>(same));
  EXPECT_EQ(lcp, ktext::oracle::sorted_lcp(same, order));
  EXPECT_LE(stats.passes, 2);
  EXPECT_GE(stats.skipped_bytes, 10000u);
  // Paths with a 200-byte common prefix: the prefix is stepped over at once.
  const StringSet paths = ktext::oracle::shared_prefix_strings(5000, 200, 8);
  const auto sorted = device_sort<std::int32_t>(paths, &stats);
  EXPECT_EQ(sorted.first, ktext::oracle::stable_sort_order<std::int32_t>(paths));
  EXPECT_LE(stats.passes, 6);
  EXPECT_GT(stats.peak_bytes, 0u);
  EXPECT_LE(stats.peak_bytes,
            ktext::string_sort_peak_bytes_bound<std::int32_t>(paths.size(), paths.chars.size(), true));
  // The bound holds for few strings too, where the argument check's probe is the larger part,
  // with teams by default and in the first pass (on hosts too).
  for (std::size_t n : {2, 3, 17, 64, 1000})
    for (int passes : {ktext::impl::team_passes_automatic, 1}) {
      const StringSet few = ktext::oracle::random_strings(n, 0, 9, 3, 40 + std::uint32_t(n), 'a');
      device_sort<std::int32_t>(few, &stats, ktext::impl::team_limit_automatic, passes);
      EXPECT_GT(stats.peak_bytes, few.chars.size()) << n;
      EXPECT_LE(stats.peak_bytes,
                ktext::string_sort_peak_bytes_bound<std::int32_t>(few.size(), few.chars.size(), true))
          << n << " passes " << passes;
    }
}

/// Groups of the given sizes whose strings share their first 67 bytes (more than the first
/// pass' window holds, whatever the alphabet) and differ in the first two from every other
/// group, so that nothing is skipped and the first pass leaves exactly these groups. Inside a
/// group: tails over {0x00, 'a', 0xff} of 0..\p tail bytes (duplicates, proper prefixes, NUL
/// bytes), every fifth group with 30 more shared bytes before them. Shuffled, so that equal
/// strings must also keep their input order.
StringSet groups_sharing_the_window(const std::vector<int>& sizes, int tail, std::uint64_t seed) {
  std::vector<std::string> all;
  std::mt19937_64 rng{seed};
  for (std::size_t g = 0; g < sizes.size(); ++g) {
    std::string shared(7, char('A' + g % 26));
    shared[0] = char(g % 256);
    shared[1] = char(g / 256);
    shared += std::string(60, g % 3 == 0 ? 'x' : 'y');
    if (g % 5 == 1) shared += std::string(30, 'q');
    for (int t = 0; t < sizes[g]; ++t) {
      std::string str = shared;
      const int len = int(rng() % std::uint64_t(tail + 1));
      for (int c = 0; c < len; ++c) str.push_back("\0a\xff"[rng() % 3]);
      all.push_back(str);
    }
  }
  std::shuffle(all.begin(), all.end(), rng);
  StringSet s;
  for (const auto& str : all) s.add(str);
  return s;
}

TEST(string_sort, groups_sorted_in_teams_after_the_first_pass) {
  // Groups of 1..19 strings: sorted in teams in the first pass, that pass finishes everything;
  // without teams (the limit 0, or teams in no pass) every group of two or more takes more
  // passes. By default teams sort on GPUs only.
  std::vector<int> sizes;
  for (int g = 1; g <= 19; ++g) sizes.push_back(g);
  const StringSet s = groups_sharing_the_window(sizes, 4, 19);
  const auto want = ktext::oracle::stable_sort_order<std::int32_t>(s);
  const int default_passes = ktext::impl::team_passes_for<Exec>(ktext::impl::team_passes_automatic);
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  EXPECT_EQ(default_passes, host ? 0 : 1);
  for (int passes : {0, 1, ktext::impl::team_passes_automatic})
    for (std::size_t limit : {std::size_t(0), ktext::impl::team_limit_automatic}) {
      ktext::StringSortStats stats;
      const auto [order, lcp] = device_sort<std::int32_t>(s, &stats, limit, passes);
      ASSERT_EQ(order, want) << "limit " << limit << " passes " << passes;
      EXPECT_EQ(lcp, ktext::oracle::sorted_lcp(s, want)) << "limit " << limit << " passes " << passes;
      const bool teams = limit != 0 && (passes == ktext::impl::team_passes_automatic ? default_passes : passes) > 0;
      if (teams)
        EXPECT_EQ(stats.passes, 1) << "limit " << limit << " passes " << passes;
      else
        EXPECT_GT(stats.passes, 1) << "limit " << limit << " passes " << passes;
    }
}

TEST(string_sort, groups_of_every_size_sorted_in_tiles_and_from_the_list) {
  // Groups of every size from 1 to 40, then sizes around powers of two up to past the scratch's
  // capacity, with tails of up to 4 bytes (many ties, nested prefixes) or 24 (few): each sorted
  // with no teams, with teams of up to 32, 128 and 512 strings (tiles with halos of a quarter as
  // many, at least 16: the longer groups listed) and with the automatic limit, against
  // std::stable_sort.
  std::vector<int> sizes;
  for (int g = 1; g <= 40; ++g) sizes.push_back(g);
  for (int g : {63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 700, 1023, 1024, 1025, 2048, 4096, 4097, 5000})
    sizes.push_back(g);
  for (int tail : {4, 24}) {
    const StringSet s = groups_sharing_the_window(sizes, tail, std::uint64_t(tail));
    const auto want = ktext::oracle::stable_sort_order<std::int32_t>(s);
    const auto want_lcp = ktext::oracle::sorted_lcp(s, want);
    // Teams in the first pass (the default on GPUs) and in every pass: groups past the capacity
    // go to a second pass, whose groups the teams then take too.
    for (int passes : {1, 1000})
      for (std::size_t limit :
           {std::size_t(0), std::size_t(32), std::size_t(128), std::size_t(512), ktext::impl::team_limit_automatic}) {
        if (!ktext::test::take_case()) continue;
        ktext::StringSortStats stats;
        const auto [order, lcp] = device_sort<std::int32_t>(s, &stats, limit, passes);
        ASSERT_EQ(order, want) << "tail " << tail << " limit " << limit << " passes " << passes;
        EXPECT_EQ(lcp, want_lcp) << "tail " << tail << " limit " << limit << " passes " << passes;
        if (limit == 0) EXPECT_GT(stats.passes, 1);
        // The smallest tiles (16 strings at the limit 32) have the most marks.
        EXPECT_LE(stats.peak_bytes, ktext::string_sort_peak_bytes_bound<std::int32_t>(s.size(), s.chars.size(), true));
      }
  }
  // Every group within a team's reach (up to 128 strings, tiles and list) finishes in the first
  // pass.
  std::vector<int> few;
  for (int g = 1; g <= 128; g += 9) few.push_back(g);
  const StringSet s = groups_sharing_the_window(few, 6, 5);
  ktext::StringSortStats stats;
  const auto [order, lcp] = device_sort<std::int32_t>(s, &stats, 128, 1);
  const auto want = ktext::oracle::stable_sort_order<std::int32_t>(s);
  ASSERT_EQ(order, want);
  EXPECT_EQ(lcp, ktext::oracle::sorted_lcp(s, want));
  EXPECT_EQ(stats.passes, 1);
  // 64-bit indices through the team sort.
  const auto [order64, lcp64] = device_sort<std::int64_t>(s, nullptr, 128, 1);
  EXPECT_EQ(order64, ktext::oracle::stable_sort_order<std::int64_t>(s));
}

TEST(string_sort, unsigned_offsets_and_the_overload_without_an_execution_space) {
  const StringSet s = ktext::oracle::random_strings(3000, 0, 9, 3, 12, 'x');
  auto chars = to_device(s.chars);
  auto offsets = to_device(std::vector<std::uint64_t>(s.offsets.begin(), s.offsets.end()));
  Kokkos::View<std::int64_t*, Kokkos::Device<Exec, Mem>> order("order", s.size()), lcp("lcp", s.size());
  ktext::string_sort(chars, offsets, order, lcp);
  const auto want = ktext::oracle::stable_sort_order<std::int64_t>(s);
  EXPECT_EQ(to_host(order), want);
  EXPECT_EQ(to_host(lcp), ktext::oracle::sorted_lcp(s, want));
  ktext::string_sort(chars, offsets, order);
  EXPECT_EQ(to_host(order), want);
}

TEST(string_sort, bad_arguments_throw_input_error) {
  auto chars = to_device(std::vector<std::uint8_t>{'a', 'b', 'c'});
  Kokkos::View<std::int32_t*, Mem> order("order", 2), lcp_short("lcp", 1);
  auto check = [&](const std::vector<std::int64_t>& o, const char* what) {
    auto offsets = to_device(o);
    EXPECT_THROW(ktext::string_sort(Exec{}, chars, offsets, order), ktext::InputError) << what;
  };
  check({0, 2, 1}, "offsets not monotone");
  check({0, 1, 4}, "past the end of chars");
  check({-1, 1, 2}, "negative");
  check({0, 1}, "too few offsets");
  check({0, 1, 2, 3}, "too many offsets");
  auto good = to_device(std::vector<std::int64_t>{0, 1, 3});
  EXPECT_THROW(ktext::string_sort(Exec{}, chars, good, order, lcp_short), ktext::InputError);
}

/// Sets KTEXT_MEMORY_LIMIT for its lifetime.
struct MemoryLimit {
  explicit MemoryLimit(const char* value) { ::setenv("KTEXT_MEMORY_LIMIT", value, 1); }
  ~MemoryLimit() { ::unsetenv("KTEXT_MEMORY_LIMIT"); }
};

TEST(string_sort, refuses_before_allocating_what_memory_cannot_hold) {
  const auto set = ktext::oracle::url_strings(10000, 6);
  auto chars = to_device(set.chars);
  auto offsets = to_device(set.offsets);
  Kokkos::View<std::int32_t*, Mem> order("order", set.size());
  Kokkos::deep_copy(order, -3);
  const std::uint64_t need = ktext::string_sort_peak_bytes_bound<std::int32_t>(set.size(), 0);
  {
    const MemoryLimit limit("64K");
    ASSERT_EQ(ktext::free_memory_bytes(Exec{}).value_or(0), 65536u);
    try {
      ktext::string_sort(Exec{}, chars, offsets, order);
      ADD_FAILURE() << "no exception with " << need << " bytes needed and 64 KiB free";
    } catch (const ktext::OutOfMemoryError& e) {
      EXPECT_EQ(e.label(), "ktext::string_sort");
      EXPECT_GT(e.requested_bytes(), 65536u);
      EXPECT_NE(std::string(e.what()).find("65536 are free"), std::string::npos) << e.what();
    }
    EXPECT_EQ(to_host(order), std::vector<std::int32_t>(set.size(), -3)) << "the order was written before refusing";
  }
  {
    const MemoryLimit limit("1G");  // room enough: the same sort runs
    ktext::string_sort(Exec{}, chars, offsets, order);
    EXPECT_EQ(to_host(order), ktext::oracle::stable_sort_order<std::int32_t>(set));
  }
  for (const char* bad : {"12X", "K", "-5", "1.5G", "10 M"}) {
    const MemoryLimit limit(bad);
    EXPECT_THROW((void)ktext::memory_limit_bytes(), ktext::InputError) << bad;
  }
  {
    const MemoryLimit limit("99999999999999999999T");  // saturates instead of wrapping
    EXPECT_EQ(ktext::memory_limit_bytes().value_or(0), ~std::uint64_t(0));
  }
}

}  // namespace
