// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FM-index per backend: counts and locates against a naive scan of the text on every input
// shape and size around block boundaries, every sample rate, both index types, the device
// functions inside a user kernel, the BWT and samples against the reference suffix array,
// and argument checks (index files: test_fm_index_file.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/fm_index.hpp>

#include "test_fm_index_helpers.hpp"
#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

// ---------------------------------------------------------------------------------------------
// Checks of one index against the oracles

struct KernelResult {
  std::vector<std::uint64_t> counts;
  std::vector<std::vector<std::int64_t>> positions;  // in row order, as the kernel found them
};

/// A user kernel on Exec that copies the index and calls find() and locate(row) itself; room
/// for each pattern's positions comes from the oracle's counts.
template <class Index>
KernelResult kernel_find_locate(const Fm<Index>& index, const Patterns& ps, const std::vector<std::uint64_t>& room) {
  auto patterns = to_device(ps.bytes, "patterns");
  auto offsets = to_device(ps.offsets, "offsets");
  std::vector<std::int64_t> h_base = {0};
  for (auto r : room) h_base.push_back(h_base.back() + std::int64_t(r));
  auto base = to_device(h_base, "base");
  Kokkos::View<std::uint64_t*, Mem> counts("counts", ps.size());
  Kokkos::View<Index*, Mem> positions("positions", std::size_t(h_base.back()));
  const Fm<Index> idx = index;
  Kokkos::parallel_for(
      "test_fm_index::user_kernel", Kokkos::RangePolicy<Exec>(Exec{}, 0, ps.size()), KOKKOS_LAMBDA(const std::size_t i) {
        const std::int64_t b = offsets(i);
        const std::uint8_t* p = patterns.data() + b;
        const auto r = idx.find(p, std::uint64_t(offsets(i + 1) - b));
        counts(i) = r.count();
        const std::uint64_t space = std::uint64_t(base(i + 1) - base(i));
        for (std::uint64_t j = 0; j < r.count() && j < space; ++j) positions(base(i) + std::int64_t(j)) = idx.locate(r.begin + j);
      });
  Exec{}.fence();
  KernelResult out;
  out.counts = to_host(counts);
  const auto pos = to_host(positions);
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const std::size_t got = std::size_t(std::min<std::uint64_t>(out.counts[i], room[i]));
    out.positions.emplace_back(pos.begin() + h_base[i], pos.begin() + h_base[i] + std::int64_t(got));
  }
  return out;
}

/// The rows' marks and positions the index must sample at rate s, from the reference SA.
std::pair<std::vector<std::uint64_t>, std::vector<std::int64_t>> expected_samples(const std::vector<std::int64_t>& sa,
                                                                                  std::uint32_t rate) {
  const std::uint64_t n = sa.size();
  std::vector<std::uint64_t> marks((n + 1) / 64 + 1, 0);
  std::vector<std::int64_t> samples;
  for (std::uint64_t r = 0; r <= n; ++r) {
    const std::int64_t pos = r == 0 ? std::int64_t(n) : sa[r - 1];
    if (pos % rate == 0) {
      marks[r / 64] |= std::uint64_t(1) << (r % 64);
      samples.push_back(pos);
    }
  }
  return {marks, samples};
}

template <class V>
std::vector<std::int64_t> as_int64(const V& v) {
  return std::vector<std::int64_t>(v.begin(), v.end());
}

/// Builds the index at \p rate and checks it against the case's oracles: shape, BWT, samples,
/// batched count and locate, and a user kernel calling find() and locate(row).
template <class Index>
void check_case(const Case& c, std::uint32_t rate, std::uint64_t locate_budget, ktext::FMOccurrences occ) {
  const std::string what = c.label + " n=" + std::to_string(c.text.size()) + " s=" + std::to_string(rate) +
                           " Index=int" + std::to_string(8 * sizeof(Index)) + " occ=" + occ_name(occ);
  SCOPED_TRACE(what);
  const auto index = build<Index>(c.text, rate, occ);
  EXPECT_EQ(index.occurrences(), occ);
  const std::uint64_t n = c.text.size();
  EXPECT_EQ(index.size(), n);
  EXPECT_EQ(index.sample_rate(), rate);
  EXPECT_EQ(index.primary_index(), c.primary);
  EXPECT_EQ(index.alphabet_size(), c.sigma);
  EXPECT_EQ(index.all().count(), n + 1);

  Kokkos::View<std::uint8_t*, Mem> b("bwt", n);
  index.bwt(Exec{}, b);
  Exec{}.fence();
  EXPECT_EQ(to_host(b), c.bwt) << "FMIndex::bwt differs from ktext::bwt";

  if (!c.sa.empty() || n == 0) {
    const auto [marks, samples] = expected_samples(c.sa, rate);
    EXPECT_EQ(to_host(index.sample_marks()), marks);
    EXPECT_EQ(as_int64(to_host(index.sampled_positions())), samples);
  }

  expect_same(what + " count", c.patterns, c.oracle.counts, batched_count(index, c.patterns));

  const auto which = locate_subset(c.oracle, rate, locate_budget);
  const Patterns sub = select(c.patterns, which);
  Oracle want;
  for (auto i : which) {
    want.counts.push_back(c.oracle.counts[i]);
    want.positions.push_back(c.oracle.positions[i]);
  }
  expect_same(what + " locate", sub, want.positions, batched_locate(index, sub));

  auto k = kernel_find_locate(index, sub, want.counts);
  expect_same(what + " kernel find", sub, want.counts, k.counts);
  for (auto& p : k.positions) std::sort(p.begin(), p.end());
  expect_same(what + " kernel locate", sub, want.positions, k.positions);
}

/// Every named text of every size in \p sizes at every sample rate with int32_t and at two of
/// them in turn with int64_t (every rate is covered by every size); fewer patterns above 1000.
void sweep(const std::vector<std::size_t>& sizes) {
  for (std::size_t n : sizes) {
    const bool big = n > 1000;
    const std::vector<std::uint32_t> rates = {1, 2, 7, 32, 64, std::uint32_t(n + 1)};
    std::size_t next = 0;
    for (const auto& [name, t] : ktext::oracle::named_texts(n, 7000 + std::uint32_t(n))) {
      const std::size_t k = next++;  // counts every case, run here or not: the same rates in every share
      if (!take_case()) continue;
      const Patterns ps = sweep_patterns(t, std::uint32_t(n * 31 + k), big ? 12 : 40, big ? 8 : 24);
      const Case c = make_case(name, t, ps, true);
      // LF steps per index and query kind; more where only position 0 is sampled.
      auto budget = [&](std::uint32_t rate) -> std::uint64_t { return rate > n ? 1u << 17 : big ? 1u << 15 : 1u << 17; };
      std::vector<std::uint32_t> rates32 = rates, rates64 = {rates[(k + 1) % 6], rates[(k + 4) % 6]};
      if (n < 300) rates32.push_back(0xffffffffu);
      // The table at every rate; the wavelet matrix (and its sparse sample marks) at every rate
      // with one of the two position types, in turn.
      constexpr auto table = ktext::FMOccurrences::table, wm = ktext::FMOccurrences::wavelet_matrix;
      for (auto rate : rates32) check_case<std::int32_t>(c, rate, budget(rate), table);
      for (auto rate : rates64) check_case<std::int64_t>(c, rate, budget(rate), table);
      for (std::size_t r = 0; r < rates.size(); ++r) {
        if ((r + k) % 2 == 0)
          check_case<std::int32_t>(c, rates[r], budget(rates[r]), wm);
        else
          check_case<std::int64_t>(c, rates[r], budget(rates[r]), wm);
      }
      if (::testing::Test::HasFailure()) return;  // one text's report is enough
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Tests

TEST(fm_index, banana_by_hand) {
  const Bytes t = {'b', 'a', 'n', 'a', 'n', 'a'};
  Patterns ps;
  for (const char* p : {"a", "an", "ana", "anana", "banana", "bananas", "", "nab", "x", "n", "na"})
    ps.add(Bytes(p, p + std::strlen(p)));
  const std::vector<std::uint64_t> counts = {3, 2, 2, 1, 1, 0, 7, 0, 0, 2, 2};
  const std::vector<std::vector<std::int64_t>> positions = {{1, 3, 5}, {1, 3}, {1, 3}, {1}, {0}, {}, {0, 1, 2, 3, 4, 5, 6}, {}, {},
                                                            {2, 4}, {2, 4}};
  for (const auto occ : {ktext::FMOccurrences::table, ktext::FMOccurrences::wavelet_matrix})
    for (std::uint32_t rate : {1u, 2u, 3u, 4u, 100u}) {
      SCOPED_TRACE("s=" + std::to_string(rate) + " occ=" + occ_name(occ));
      const auto index = build<std::int32_t>(t, rate, occ);
      EXPECT_EQ(index.primary_index(), 4u);  // rows of banana$: $, a$, ana$, anana$, banana$ ...
      EXPECT_EQ(batched_count(index, ps), counts);
      EXPECT_EQ(batched_locate(index, ps), positions);
      const auto index64 = build<std::int64_t>(t, rate, occ);
      EXPECT_EQ(batched_count(index64, ps), counts);
      EXPECT_EQ(batched_locate(index64, ps), positions);
    }
}

TEST(fm_index, matches_naive_search_tiny) { sweep({0, 1, 2, 3, 63, 64, 65}); }
TEST(fm_index, matches_naive_search_small) { sweep({255, 256, 257, 1000, 4097}); }
TEST(fm_index, matches_naive_search_65535) { sweep({65535}); }
TEST(fm_index, matches_naive_search_65536) { sweep({65536}); }
TEST(fm_index, matches_naive_search_65537) { sweep({65537}); }

TEST(fm_index, exhaustive_tiny_texts) {
  // Every text up to length 7 over {a, b} and up to length 4 over {a, b, c}; every pattern up
  // to length 3 over {a, b, c} and the empty one.
  Patterns ps;
  ps.add({});
  for (std::size_t len = 1; len <= 3; ++len) {
    std::size_t total = 1;
    for (std::size_t i = 0; i < len; ++i) total *= 3;
    for (std::size_t code = 0; code < total; ++code) {
      Bytes p;
      for (std::size_t i = 0, x = code; i < len; ++i, x /= 3) p.push_back(std::uint8_t('a' + x % 3));
      ps.add(p);
    }
  }
  for (const auto& [letters, max_len] : {std::pair<int, int>{2, 7}, std::pair<int, int>{3, 4}}) {
    for (int len = 0; len <= max_len; ++len) {
      std::size_t total = 1;
      for (int i = 0; i < len; ++i) total *= std::size_t(letters);
      for (std::size_t code = 0; code < total; ++code) {
        Bytes t(len);
        for (std::size_t i = 0, x = code; i < std::size_t(len); ++i, x /= letters) t[i] = std::uint8_t('a' + x % letters);
        if (!take_case()) continue;
        const Oracle o = naive_oracle(t, ps);
        const std::string label(t.begin(), t.end());
        for (std::uint32_t rate : {1u, 3u}) {
          const auto index = build<std::int32_t>(t, rate);
          expect_same("'" + label + "' s=" + std::to_string(rate) + " count", ps, o.counts, batched_count(index, ps));
          expect_same("'" + label + "' s=" + std::to_string(rate) + " locate", ps, o.positions, batched_locate(index, ps));
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
}

/// backward_step() from a user kernel, one symbol at a time, against counts of every suffix of
/// the pattern; all() and an empty range.
template <class Index>
std::vector<std::uint64_t> kernel_backward_counts(const Fm<Index>& index, const Bytes& p) {
  auto pattern = to_device(p, "pattern");
  Kokkos::View<std::uint64_t*, Mem> counts("counts", p.size() + 3);
  const Fm<Index> idx = index;
  const std::size_t m = p.size();
  Kokkos::parallel_for(
      "test_fm_index::backward_steps", Kokkos::RangePolicy<Exec>(Exec{}, 0, 1), KOKKOS_LAMBDA(const int) {
        auto r = idx.all();
        counts(0) = r.count();
        for (std::size_t k = m; k > 0; --k) {
          r = idx.backward_step(r, pattern(k - 1));
          counts(m - k + 1) = r.count();
        }
        using Range = typename Fm<Index>::Range;
        const Range none{3, 3};
        counts(m + 1) = idx.backward_step(none, pattern(0)).empty() ? 0 : 1;
        counts(m + 2) = idx.size();
      });
  Exec{}.fence();
  return to_host(counts);
}

TEST(fm_index, backward_steps_in_a_user_kernel) {
  for (const auto& [name, t] : named_texts(3000, 99)) {
    std::mt19937_64 rng(3);
    for (int k = 0; k < 5; ++k) {
      const std::size_t len = 1 + rng() % 30, start = rng() % (t.size() - len + 1);
      Bytes p(t.begin() + start, t.begin() + start + len);
      if (k == 4) p.push_back(std::uint8_t(rng()));  // likely to vanish at some step
      std::vector<std::uint64_t> want = {t.size() + 1};
      for (std::size_t j = p.size(); j > 0; --j) want.push_back(naive_positions(t, Bytes(p.begin() + j - 1, p.end())).size());
      want.push_back(0);
      want.push_back(t.size());
      EXPECT_EQ(kernel_backward_counts(build<std::int32_t>(t, 16), p), want) << name << " " << describe(p);
      EXPECT_EQ(kernel_backward_counts(build<std::int64_t>(t, 5), p), want) << name << " " << describe(p);
    }
  }
}

TEST(fm_index, batched_query_edge_cases) {
  const Bytes t = {'a', 'b', 'r', 'a', 'c', 'a', 'd', 'a', 'b', 'r', 'a'};
  const auto index = build<std::int32_t>(t, 4);
  auto text = to_device(t, "patterns");
  // No patterns at all.
  {
    Kokkos::View<std::int64_t*, Mem> offsets("offsets", 1);
    Kokkos::View<std::uint64_t*, Mem> counts("counts", 0);
    EXPECT_NO_THROW(index.count(Exec{}, text, offsets, counts));
    const auto occ = index.locate(Exec{}, text, offsets);
    EXPECT_EQ(to_host(occ.offsets), std::vector<std::int64_t>{0});
    EXPECT_EQ(occ.positions.extent(0), 0u);
  }
  // Offsets that start inside the pattern bytes, of another integer type, patterns through a
  // const view: "bra" = bytes [1, 4) and "abra" = [7, 11), an empty one at 11.
  {
    const std::vector<std::uint32_t> h = {1, 4, 4, 7, 11, 11};
    auto offsets = to_device(h, "offsets");
    Kokkos::View<const std::uint8_t*, Mem> patterns = text;
    Kokkos::View<std::uint64_t*, Mem> counts("counts", 5);
    index.count(Exec{}, patterns, offsets, counts);
    Exec{}.fence();
    EXPECT_EQ(to_host(counts), (std::vector<std::uint64_t>{2, 12, 1, 2, 12}));  // bra, "", "cad", abra, ""
    const auto occ = index.locate(Exec{}, patterns, offsets);
    EXPECT_EQ(to_host(occ.offsets), (std::vector<std::int64_t>{0, 2, 14, 15, 17, 29}));
    std::vector<std::int32_t> want = {1, 8};
    for (int i = 0; i <= 11; ++i) want.push_back(i);
    want.push_back(4);
    want.push_back(0);
    want.push_back(7);
    for (int i = 0; i <= 11; ++i) want.push_back(i);
    EXPECT_EQ(to_host(occ.positions), want);
  }
}

TEST(fm_index, rejects_bad_arguments) {
  const Bytes t = {'m', 'i', 's', 's', 'i', 's', 's', 'i', 'p', 'p', 'i'};
  auto text = to_device(t, "text");
  ktext::FMIndexOptions zero;
  zero.sample_rate = 0;
  EXPECT_THROW((Fm<std::int32_t>(Exec{}, text, zero)), ktext::InputError);
  EXPECT_THROW((Fm<std::int64_t>(Exec{}, text, zero)), ktext::InputError);
  auto empty_text = to_device(Bytes{}, "empty");
  EXPECT_THROW((Fm<std::int32_t>(Exec{}, empty_text, zero)), ktext::InputError);

  const auto index = build<std::int32_t>(t, 3);
  auto patterns = to_device(Bytes{'s', 's', 'i', 'p'}, "patterns");
  auto check = [&](const std::vector<std::int64_t>& h, const char* why) {
    SCOPED_TRACE(why);
    auto offsets = to_device(h, "offsets");
    Kokkos::View<std::uint64_t*, Mem> counts("counts", h.empty() ? 0 : h.size() - 1);
    EXPECT_THROW(index.count(Exec{}, patterns, offsets, counts), ktext::InputError);
    EXPECT_THROW((void)index.locate(Exec{}, patterns, offsets), ktext::InputError);
  };
  check({0, 3, 2, 4}, "decreasing offsets");
  check({0, 5}, "past the patterns");
  check({0, 2, 4, 5}, "last past the patterns");
  check({5, 5}, "start past the patterns");
  check({-1, 2}, "negative offset");
  check({}, "no offsets at all");
  {
    auto offsets = to_device(std::vector<std::int64_t>{0, 2, 4}, "offsets");
    Kokkos::View<std::uint64_t*, Mem> fewer("counts", 1), more("counts", 3), right("counts", 2);
    EXPECT_THROW(index.count(Exec{}, patterns, offsets, fewer), ktext::InputError);
    EXPECT_THROW(index.count(Exec{}, patterns, offsets, more), ktext::InputError);
    index.count(Exec{}, patterns, offsets, right);
    Exec{}.fence();
    EXPECT_EQ(to_host(right), (std::vector<std::uint64_t>{2, 1}));  // "ss", "ip"
  }
  Kokkos::View<std::uint8_t*, Mem> short_bwt("bwt", t.size() - 1), long_bwt("bwt", t.size() + 1);
  EXPECT_THROW(index.bwt(Exec{}, short_bwt), ktext::InputError);
  EXPECT_THROW(index.bwt(Exec{}, long_bwt), ktext::InputError);
}

TEST(fm_index, overloads_without_an_execution_space) {
  // An index in Exec's memory space: its default execution space is the backend under test
  // (the index's memory space decides, as the views' spaces do for the free functions).
  const Bytes t = {'m', 'i', 's', 's', 'i', 's', 's', 'i', 'p', 'p', 'i'};
  using Dev = Kokkos::Device<typename Mem::execution_space, Mem>;
  const Kokkos::View<const std::uint8_t*, Dev> text = to_device(t, "text");
  ktext::FMIndexOptions options;
  options.sample_rate = 3;
  const Fm<std::int32_t> index(text, options);
  const Fm<std::int64_t> index64(text);
  EXPECT_EQ(index64.sample_rate(), 32u);
  const auto with_exec = build<std::int32_t>(t, 3);
  EXPECT_EQ(index.primary_index(), with_exec.primary_index());
  Patterns ps;
  for (const char* p : {"ssi", "i", "", "pi", "x"}) ps.add(Bytes(p, p + std::strlen(p)));
  auto patterns = to_device(ps.bytes, "patterns");
  auto offsets = to_device(ps.offsets, "offsets");
  Kokkos::View<std::uint64_t*, Dev> counts("counts", ps.size());
  index.count(patterns, offsets, counts);
  EXPECT_EQ(to_host(counts), batched_count(with_exec, ps));
  const auto occ = index.locate(patterns, offsets);
  const auto want = with_exec.locate(Exec{}, patterns, offsets);
  EXPECT_EQ(to_host(occ.offsets), to_host(want.offsets));
  EXPECT_EQ(to_host(occ.positions), to_host(want.positions));
  Kokkos::View<std::uint8_t*, Dev> b("bwt", t.size());
  index.bwt(b);
  Kokkos::View<std::uint8_t*, Mem> b_exec("bwt", t.size());
  with_exec.bwt(Exec{}, b_exec);
  Exec{}.fence();
  EXPECT_EQ(to_host(b), to_host(b_exec));
  const auto parts = Fm<std::int32_t>::from_parts(b, index.primary_index(), index.sample_rate(), index.sample_marks(),
                                                  index.sampled_positions());
  counts = Kokkos::View<std::uint64_t*, Dev>("counts", ps.size());
  parts.count(patterns, offsets, counts);
  EXPECT_EQ(to_host(counts), batched_count(with_exec, ps));
}

}  // namespace
