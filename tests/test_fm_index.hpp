// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FM-index per backend: counts and locates against a naive scan of the text on every input
// shape and size around block boundaries, every sample rate, both index types, the device
// functions inside a user kernel, the BWT and samples against the reference suffix array,
// argument checks, and index files (round trips, every corruption, foreign and inconsistent
// containers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <ktext/core/container.hpp>
#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/fm_index.hpp>
#include <ktext/suffix/fm_index_file.hpp>

#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;
using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------------------------------------
// Patterns and the naive oracle

/// Patterns back to back with P + 1 offsets, as the batched queries take them.
struct Patterns {
  Bytes bytes;
  std::vector<std::int64_t> offsets = {0};
  void add(const Bytes& p) {
    bytes.insert(bytes.end(), p.begin(), p.end());
    offsets.push_back(std::int64_t(bytes.size()));
  }
  [[nodiscard]] std::size_t size() const { return offsets.size() - 1; }
  [[nodiscard]] Bytes get(std::size_t i) const { return Bytes(bytes.begin() + offsets[i], bytes.begin() + offsets[i + 1]); }
};

std::string describe(const Bytes& p) {
  std::ostringstream s;
  s << "pattern of length " << p.size() << " [";
  for (std::size_t i = 0; i < p.size() && i < 48; ++i) s << (i ? " " : "") << int(p[i]);
  if (p.size() > 48) s << " ...";
  s << "]";
  return s.str();
}

/// Every start of an exact (overlapping) occurrence of \p p in \p t, ascending; the empty
/// pattern occurs at 0..n.
std::vector<std::int64_t> naive_positions(const Bytes& t, const Bytes& p) {
  std::vector<std::int64_t> out;
  if (p.empty()) {
    for (std::size_t i = 0; i <= t.size(); ++i) out.push_back(std::int64_t(i));
    return out;
  }
  for (auto it = t.begin();; ++it) {
    it = std::search(it, t.end(), p.begin(), p.end());
    if (it == t.end()) break;
    out.push_back(std::int64_t(it - t.begin()));
  }
  return out;
}

struct Oracle {
  std::vector<std::uint64_t> counts;
  std::vector<std::vector<std::int64_t>> positions;
};

Oracle naive_oracle(const Bytes& t, const Patterns& ps) {
  Oracle o;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    o.positions.push_back(naive_positions(t, ps.get(i)));
    o.counts.push_back(o.positions.back().size());
  }
  return o;
}

/// The patterns of the sweep: random substrings, random strings over the text's alphabet,
/// prefix, suffix, the whole text, the empty pattern, longer than the text, absent bytes,
/// all 256 single bytes, NUL bytes.
Patterns sweep_patterns(const Bytes& t, std::uint32_t seed, int substrings, int randoms) {
  std::mt19937_64 rng(seed);
  const std::size_t n = t.size();
  Patterns ps;
  bool present[256] = {};
  for (auto c : t) present[c] = true;
  Bytes alphabet;
  for (int c = 0; c < 256; ++c)
    if (present[c]) alphabet.push_back(std::uint8_t(c));
  if (n > 0) {
    for (int k = 0; k < substrings; ++k) {
      const std::size_t len = 1 + rng() % std::min<std::size_t>(40, n);
      const std::size_t start = rng() % (n - len + 1);
      ps.add(Bytes(t.begin() + start, t.begin() + start + len));
    }
    ps.add(Bytes(t.begin(), t.begin() + std::min<std::size_t>(n, 7)));  // prefix
    ps.add(Bytes(t.end() - std::min<std::size_t>(n, 7), t.end()));      // suffix: ends at n
    ps.add(t);                                                            // the whole text
  }
  for (int k = 0; k < randoms && !alphabet.empty(); ++k) {
    const std::size_t len = 1 + rng() % (k % 2 == 0 ? 4 : 40);
    Bytes p(len);
    for (auto& c : p) c = alphabet[rng() % alphabet.size()];
    ps.add(p);
  }
  ps.add({});  // the empty pattern
  {
    Bytes longer = t;  // longer than the text, a prefix of it
    longer.push_back(n > 0 ? t[0] : 'a');
    ps.add(longer);
  }
  int absent = -1;
  for (int c = 255; c >= 0 && absent < 0; --c)
    if (!present[c]) absent = c;
  if (absent >= 0) {
    const std::uint8_t a = std::uint8_t(absent);
    ps.add({a});
    ps.add({a, a});
    if (n > 0) {
      const std::size_t len = std::min<std::size_t>(n, 6);
      const std::size_t start = rng() % (n - len + 1);
      Bytes sub(t.begin() + start, t.begin() + start + len);
      Bytes p = sub;
      p.push_back(a);
      ps.add(p);
      p = sub;
      p.insert(p.begin(), a);
      ps.add(p);
      p = sub;
      p.insert(p.begin() + len / 2, a);
      ps.add(p);
    }
  }
  for (int c = 0; c < 256; ++c) ps.add({std::uint8_t(c)});
  ps.add({0, 0});
  ps.add({'a', 0, 'b'});
  ps.add({0, 'b', 0, 0, 'a'});
  ps.add({'b', 0, 0, 'a', 0});
  ps.add({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  return ps;
}

/// The patterns whose locate fits a budget of LF steps at sample rate \p rate (a position p
/// walks p mod s steps; every occurrence costs at least one): all absent ones, then greedily.
std::vector<std::size_t> locate_subset(const Oracle& o, std::uint32_t rate, std::uint64_t budget) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < o.counts.size(); ++i) {
    std::uint64_t cost = 0;
    for (auto p : o.positions[i]) cost += 1 + std::uint64_t(p) % rate;
    if (cost <= budget) {
      budget -= cost;
      chosen.push_back(i);
    }
  }
  return chosen;
}

Patterns select(const Patterns& ps, const std::vector<std::size_t>& which) {
  Patterns out;
  for (auto i : which) out.add(ps.get(i));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The index under test

template <class Index>
using Fm = ktext::FMIndex<Mem, Index>;

template <class Index>
Fm<Index> build(const Bytes& t, std::uint32_t rate) {
  auto text = to_device(t, "text");
  ktext::FMIndexOptions options;
  options.sample_rate = rate;
  return Fm<Index>(Exec{}, text, options);
}

template <class Index>
std::vector<std::uint64_t> batched_count(const Fm<Index>& index, const Patterns& ps) {
  auto patterns = to_device(ps.bytes, "patterns");
  auto offsets = to_device(ps.offsets, "offsets");
  Kokkos::View<std::uint64_t*, Mem> counts("counts", ps.size());
  index.count(Exec{}, patterns, offsets, counts);
  Exec{}.fence();
  return to_host(counts);
}

/// Batched locate, split per pattern (positions as int64).
template <class Index>
std::vector<std::vector<std::int64_t>> batched_locate(const Fm<Index>& index, const Patterns& ps) {
  auto patterns = to_device(ps.bytes, "patterns");
  auto offsets = to_device(ps.offsets, "offsets");
  const auto occ = index.locate(Exec{}, patterns, offsets);
  const auto off = to_host(occ.offsets);
  const auto pos = to_host(occ.positions);
  std::vector<std::vector<std::int64_t>> out(ps.size());
  EXPECT_EQ(off.size(), ps.size() + 1);
  if (off.size() != ps.size() + 1 || off.front() != 0 || std::uint64_t(off.back()) != pos.size()) {
    ADD_FAILURE() << "locate offsets are malformed: " << off.size() << " entries, last " << (off.empty() ? -1 : off.back())
                  << ", " << pos.size() << " positions";
    return out;
  }
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (off[i + 1] < off[i]) {
      ADD_FAILURE() << "locate offsets decrease at " << i;
      return out;
    }
    out[i].assign(pos.begin() + off[i], pos.begin() + off[i + 1]);
  }
  return out;
}

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

/// Reports the first pattern whose count or positions differ (the vectors can be huge).
void expect_same(const std::string& what, const Patterns& ps, const std::vector<std::uint64_t>& want,
                 const std::vector<std::uint64_t>& got) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      ADD_FAILURE() << what << ": " << describe(ps.get(i)) << " (#" << i << "): expected count " << want[i] << ", got " << got[i];
      return;
    }
}

void expect_same(const std::string& what, const Patterns& ps, const std::vector<std::vector<std::int64_t>>& want,
                 const std::vector<std::vector<std::int64_t>>& got) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      std::size_t k = 0;
      while (k < want[i].size() && k < got[i].size() && want[i][k] == got[i][k]) ++k;
      ADD_FAILURE() << what << ": " << describe(ps.get(i)) << " (#" << i << "): expected " << want[i].size()
                    << " positions, got " << got[i].size() << "; first difference at entry " << k << " (expected "
                    << (k < want[i].size() ? want[i][k] : -1) << ", got " << (k < got[i].size() ? got[i][k] : -1) << ")";
      return;
    }
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

/// Everything about one text's inputs that does not depend on the index.
struct Case {
  std::string label;
  Bytes text;
  Patterns patterns;
  Oracle oracle;
  Bytes bwt;
  std::uint64_t primary = 0;
  std::vector<std::int64_t> sa;  // empty unless checked
  int sigma = 0;
};

Case make_case(const std::string& label, const Bytes& t, const Patterns& ps, bool with_sa) {
  Case c{label, t, ps, naive_oracle(t, ps), {}, 0, {}, 0};
  {
    auto text = to_device(t, "text");
    Kokkos::View<std::uint8_t*, Mem> out("bwt", t.size());
    c.primary = ktext::bwt(Exec{}, text, out);
    c.bwt = to_host(out);
  }
  if (with_sa) c.sa = reference_suffix_array<std::int64_t>(t);
  bool present[256] = {};
  for (auto x : t) present[x] = true;
  c.sigma = int(std::count(present, present + 256, true));
  return c;
}

/// Builds the index at \p rate and checks it against the case's oracles: shape, BWT, samples,
/// batched count and locate, and a user kernel calling find() and locate(row).
template <class Index>
void check_case(const Case& c, std::uint32_t rate, std::uint64_t locate_budget) {
  const std::string what = c.label + " n=" + std::to_string(c.text.size()) + " s=" + std::to_string(rate) +
                           " Index=int" + std::to_string(8 * sizeof(Index));
  SCOPED_TRACE(what);
  const auto index = build<Index>(c.text, rate);
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
    std::size_t k = 0;
    for (const auto& [name, t] : named_texts(n, 7000 + std::uint32_t(n))) {
      const Patterns ps = sweep_patterns(t, std::uint32_t(n * 31 + k), big ? 12 : 40, big ? 8 : 24);
      const Case c = make_case(name, t, ps, true);
      // LF steps per index and query kind; more where only position 0 is sampled.
      auto budget = [&](std::uint32_t rate) -> std::uint64_t { return rate > n ? 1u << 17 : big ? 1u << 15 : 1u << 17; };
      std::vector<std::uint32_t> rates32 = rates, rates64 = {rates[(k + 1) % 6], rates[(k + 4) % 6]};
      if (n < 300) rates32.push_back(0xffffffffu);
      for (auto rate : rates32) check_case<std::int32_t>(c, rate, budget(rate));
      for (auto rate : rates64) check_case<std::int64_t>(c, rate, budget(rate));
      if (::testing::Test::HasFailure()) return;  // one text's report is enough
      ++k;
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
  for (std::uint32_t rate : {1u, 2u, 3u, 4u, 100u}) {
    SCOPED_TRACE("s=" + std::to_string(rate));
    const auto index = build<std::int32_t>(t, rate);
    EXPECT_EQ(index.primary_index(), 4u);  // rows of banana$: $, a$, ana$, anana$, banana$ ...
    EXPECT_EQ(batched_count(index, ps), counts);
    EXPECT_EQ(batched_locate(index, ps), positions);
    const auto index64 = build<std::int64_t>(t, rate);
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

// ---------------------------------------------------------------------------------------------
// Files

template <class Index>
Bytes file_of(const Fm<Index>& index) {
  Bytes out;
  ktext::write_fm_index(Exec{}, index, [&](const void* p, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  });
  return out;
}

template <class Index>
Fm<Index> read(const Bytes& file) {
  return ktext::read_fm_index<Index>(Exec{}, file.data(), file.size());
}

/// Rewrites the header CRC after a deliberate change, so the reader gets past it.
void reseal_header(Bytes& file) {
  namespace kc = ktext::container;
  ktext::little_endian::store(file.data() + 20, 0, 4);
  ktext::little_endian::store(file.data() + 20, kc::crc32_of(file.data(), kc::kHeaderSize), 4);
}

/// The message of the FormatError \p f throws, or a failure.
template <class F>
std::string format_error_of(F&& f) {
  try {
    f();
  } catch (const ktext::FormatError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected ktext::FormatError, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected ktext::FormatError, nothing was thrown";
  return {};
}

/// Counts of every pattern and the locates that fit a budget of LF steps.
template <class Index>
void expect_answers(const Fm<Index>& index, const Case& c, const std::string& what) {
  expect_same(what + " count", c.patterns, c.oracle.counts, batched_count(index, c.patterns));
  const auto which = locate_subset(c.oracle, index.sample_rate(), 1u << 16);
  std::vector<std::vector<std::int64_t>> want;
  for (auto i : which) want.push_back(c.oracle.positions[i]);
  const Patterns sub = select(c.patterns, which);
  expect_same(what + " locate", sub, want, batched_locate(index, sub));
}

TEST(fm_index_file, round_trips) {
  for (std::size_t n : {0, 1, 2, 100, 3001}) {
    int number = 0;
    for (const auto& [name, t] : named_texts(n, 500 + std::uint32_t(n))) {
      const Case c = make_case(name, t, sweep_patterns(t, std::uint32_t(number++), 10, 6), false);
      for (std::uint32_t rate : {1u, 7u, 64u, std::uint32_t(n + 1)}) {
        const std::string what = name + " n=" + std::to_string(n) + " s=" + std::to_string(rate);
        SCOPED_TRACE(what);
        const auto i32 = build<std::int32_t>(t, rate);
        const auto i64 = build<std::int64_t>(t, rate);
        const Bytes f32 = file_of(i32), f64 = file_of(i64);
        ASSERT_FALSE(f32.empty());
        EXPECT_EQ(f32, file_of(read<std::int32_t>(f32))) << "int32 file -> int32 index -> file";
        EXPECT_EQ(f64, file_of(read<std::int64_t>(f64))) << "int64 file -> int64 index -> file";
        const auto cross64 = read<std::int64_t>(f32);  // 4-byte samples into an int64 index
        EXPECT_EQ(f64, file_of(cross64));
        const auto cross32 = read<std::int32_t>(f64);  // 8-byte samples, small n
        EXPECT_EQ(f32, file_of(cross32));
        const auto via_container =
            ktext::read_fm_index<std::int32_t>(Exec{}, ktext::container::read_container(f64, ktext::container::Kind::fm_index));
        EXPECT_EQ(via_container.primary_index(), c.primary);
        EXPECT_EQ(via_container.sample_rate(), rate);
        EXPECT_EQ(via_container.alphabet_size(), c.sigma);
        expect_answers(read<std::int32_t>(f32), c, what + " int32<-int32");
        expect_answers(read<std::int64_t>(f64), c, what + " int64<-int64");
        expect_answers(cross64, c, what + " int64<-int32");
        expect_answers(cross32, c, what + " int32<-int64");
        expect_answers(via_container, c, what + " container");
        const auto info = ktext::fm_index_file_check(ktext::container::read_container(f32));
        EXPECT_EQ(info.n, n);
        EXPECT_EQ(info.primary, c.primary);
        EXPECT_EQ(info.sample_rate, rate);
        EXPECT_EQ(info.sample_width, 4u);
        EXPECT_EQ(info.samples, n / rate + 1);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

/// Every single-byte change (at \p stride) and every truncation (at \p stride, plus the first
/// 256 and last 256 lengths) must be refused with a FormatError.
template <class Index>
void expect_every_damage_refused(const Bytes& file, std::size_t stride) {
  std::size_t flips = 0, cuts = 0;
  const std::uint8_t changes[3] = {0x01, 0x80, 0xff};
  for (std::size_t i = 0; i < file.size(); i += stride) {
    // Every byte: three changes each; strided: one, in turn.
    for (int j = stride == 1 ? 0 : int(i / stride % 3); j < 3; j += stride == 1 ? 1 : 3) {
      const std::uint8_t x = changes[j];
      Bytes bad = file;
      bad[i] ^= x;
      bool refused = false;
      try {
        (void)read<Index>(bad);
      } catch (const ktext::FormatError&) {
        refused = true;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "byte " << i << " ^ " << int(x) << ": expected FormatError, got " << e.what();
        return;
      }
      if (!refused) {
        ADD_FAILURE() << "byte " << i << " ^ " << int(x) << " of a " << file.size() << "-byte file was accepted";
        return;
      }
      ++flips;
    }
  }
  for (std::size_t len = 0; len < file.size(); ++len) {
    if (len > 256 && len + 256 < file.size() && len % stride != 0) continue;
    const Bytes cut(file.begin(), file.begin() + len);  // exact size: an overread would show
    bool refused = false;
    try {
      (void)read<Index>(cut);
    } catch (const ktext::FormatError&) {
      refused = true;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "truncated to " << len << " bytes: expected FormatError, got " << e.what();
      return;
    }
    if (!refused) {
      ADD_FAILURE() << "truncated to " << len << " of " << file.size() << " bytes was accepted";
      return;
    }
    ++cuts;
  }
  EXPECT_GT(flips, 0u);
  EXPECT_GT(cuts, 0u);
  // Trailing bytes are refused too.
  Bytes longer = file;
  longer.push_back(0);
  EXPECT_THROW((void)read<Index>(longer), ktext::FormatError);
}

TEST(fm_index_file, every_damaged_byte_and_truncation_is_refused) {
  {
    SCOPED_TRACE("small int32 index, every byte");
    const auto t = random_text(150, 26, 11);
    const Bytes f = file_of(build<std::int32_t>(t, 7));
    EXPECT_NO_THROW((void)read<std::int32_t>(f));
    expect_every_damage_refused<std::int32_t>(f, 1);
  }
  {
    SCOPED_TRACE("small int64 index, every byte");
    const auto t = periodic_text(77, std::string("a\0b\0\0", 5));
    const Bytes f = file_of(build<std::int64_t>(t, 3));
    EXPECT_NO_THROW((void)read<std::int64_t>(f));
    expect_every_damage_refused<std::int64_t>(f, 1);
    expect_every_damage_refused<std::int32_t>(f, 1);
  }
  {
    SCOPED_TRACE("empty text, every byte");
    const Bytes f = file_of(build<std::int32_t>(Bytes{}, 5));
    EXPECT_EQ(read<std::int32_t>(f).size(), 0u);
    expect_every_damage_refused<std::int32_t>(f, 1);
  }
  {
    SCOPED_TRACE("larger index, strided");
    const auto t = random_text(100000, 256, 12);
    const Bytes f = file_of(build<std::int64_t>(t, 16));
    EXPECT_NO_THROW((void)read<std::int64_t>(f));
    expect_every_damage_refused<std::int64_t>(f, 61);
  }
}

TEST(fm_index_file, refuses_foreign_and_newer_files) {
  namespace kc = ktext::container;
  const auto t = random_text(300, 4, 21);
  const Bytes good = file_of(build<std::int32_t>(t, 8));
  ASSERT_NO_THROW((void)read<std::int32_t>(good));
  {
    Bytes bad = good;
    bad[0] = 'k';
    EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(bad); }), "");
    bad = good;
    bad[5] = 'X';  // the magic's NUL
    reseal_header(bad);
    EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(bad); }), "");
    const Bytes text_file(t.begin(), t.end());
    EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(text_file); }), "");
  }
  {
    // A newer format version, the header checksum recomputed: the version check itself fires.
    Bytes bad = good;
    ktext::little_endian::store(bad.data() + 6, kc::kFormatVersion + 1, 2);
    reseal_header(bad);
    const std::string message = format_error_of([&] { (void)read<std::int32_t>(bad); });
    EXPECT_NE(message.find("version"), std::string::npos) << message;
    ktext::little_endian::store(bad.data() + 6, 0, 2);
    reseal_header(bad);
    const std::string zero = format_error_of([&] { (void)read<std::int32_t>(bad); });
    EXPECT_NE(zero.find("version"), std::string::npos) << zero;
    // The same change without the new checksum is caught by the checksum or the version check.
    bad = good;
    ktext::little_endian::store(bad.data() + 6, kc::kFormatVersion + 1, 2);
    EXPECT_THROW((void)read<std::int32_t>(bad), ktext::FormatError);
  }
  {
    // Other kinds, relabelled with a valid header checksum.
    for (std::uint32_t kind : {1u, 3u, 0u, 4u, 0xffffffffu}) {
      Bytes bad = good;
      ktext::little_endian::store(bad.data() + 8, kind, 4);
      reseal_header(bad);
      EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(bad); }), "") << "kind " << kind;
    }
  }
  {
    // A genuine bwt container (as a BWT writer makes it).
    auto text = to_device(t, "text");
    Kokkos::View<std::uint8_t*, Mem> out("bwt", t.size());
    const std::uint64_t primary = ktext::bwt(Exec{}, text, out);
    const Bytes h = to_host(out);
    kc::Writer w(kc::Kind::bwt);
    w.set_meta(kc::kMetaN, t.size());
    w.set_meta(kc::kMetaPrimaryIndex, primary);
    w.set_meta(kc::kMetaSymbolWidth, 1);
    w.add_section(kc::kSectionBwt, h.data(), h.size(), 1);
    const Bytes bwt_file = w.bytes();
    ASSERT_NO_THROW((void)kc::read_container(bwt_file));
    const std::string message = format_error_of([&] { (void)read<std::int32_t>(bwt_file); });
    EXPECT_NE(message.find("bwt"), std::string::npos) << message;
    EXPECT_THROW((void)ktext::read_fm_index<std::int64_t>(Exec{}, kc::read_container(bwt_file)), ktext::FormatError);
    EXPECT_THROW((void)ktext::fm_index_file_check(kc::read_container(bwt_file)), ktext::FormatError);
  }
}

/// The parts of an fm_index file, to forge consistent containers with valid checksums.
struct Parts {
  std::uint64_t n = 0, primary = 0, width = 1, rate = 1;
  Bytes bwt;
  std::vector<std::uint64_t> marks;
  std::vector<std::uint64_t> samples;
  std::uint32_t sample_width = 4, marks_width = 8;
  bool with_bwt = true, with_marks = true, with_samples = true, with_rate = true;

  [[nodiscard]] Bytes file() const {
    namespace kc = ktext::container;
    kc::Writer w(kc::Kind::fm_index);
    w.set_meta(kc::kMetaN, n);
    w.set_meta(kc::kMetaPrimaryIndex, primary);
    w.set_meta(kc::kMetaSymbolWidth, width);
    if (with_rate) w.set_meta(kc::kMetaSampleRate, rate);
    // Sections stay alive until w.bytes() below.
    Bytes m(marks.size() * 8), s(samples.size() * sample_width);
    for (std::size_t i = 0; i < marks.size(); ++i) ktext::little_endian::store(m.data() + 8 * i, marks[i], 8);
    for (std::size_t i = 0; i < samples.size(); ++i) ktext::little_endian::store(s.data() + sample_width * i, samples[i], int(sample_width));
    if (with_bwt) w.add_section(kc::kSectionBwt, bwt.data(), bwt.size(), 1);
    if (with_marks) w.add_section(kc::kSectionSampleMarks, m.data(), m.size(), marks_width);
    if (with_samples) w.add_section(kc::kSectionSamples, s.data(), s.size(), sample_width);
    return w.bytes();
  }
};

TEST(fm_index_file, refuses_inconsistent_samples_and_marks) {
  // n = 150 at rate 7: positions 0, 7, ..., 147 are sampled (22 rows); n is no multiple of 7.
  const auto t = random_text(150, 3, 31);
  const std::uint32_t rate = 7;
  const auto index = build<std::int32_t>(t, rate);
  Parts good;
  good.n = t.size();
  good.primary = index.primary_index();
  good.rate = rate;
  {
    Kokkos::View<std::uint8_t*, Mem> b("bwt", t.size());
    index.bwt(Exec{}, b);
    Exec{}.fence();
    good.bwt = to_host(b);
  }
  good.marks = to_host(index.sample_marks());
  for (auto v : to_host(index.sampled_positions())) good.samples.push_back(std::uint64_t(v));
  ASSERT_EQ(good.samples.size(), 22u);
  ASSERT_EQ(good.file(), file_of(index)) << "the forging writer must match write_fm_index";

  const Case c = make_case("forged", t, sweep_patterns(t, 1, 20, 10), false);
  expect_answers(read<std::int32_t>(good.file()), c, "forged, unchanged");

  // Row of each sample, and the index of the primary row's sample.
  std::vector<std::uint64_t> rows;
  for (std::uint64_t r = 0; r <= good.n; ++r)
    if ((good.marks[r / 64] >> (r % 64)) & 1) rows.push_back(r);
  ASSERT_EQ(rows.size(), good.samples.size());
  const std::size_t primary_k = std::size_t(std::find(rows.begin(), rows.end(), good.primary) - rows.begin());
  ASSERT_LT(primary_k, rows.size());
  ASSERT_EQ(good.samples[primary_k], 0u);
  const std::size_t other_k = primary_k == 0 ? 1 : 0;
  std::uint64_t unmarked = 0;
  while ((good.marks[unmarked / 64] >> (unmarked % 64)) & 1) ++unmarked;

  auto refused = [&](const Parts& p, const char* why) {
    SCOPED_TRACE(why);
    const Bytes f = p.file();
    ASSERT_NO_THROW((void)ktext::container::read_container(f)) << "the forged container itself must be valid";
    EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(f); }), "");
    EXPECT_NE(format_error_of([&] { (void)read<std::int64_t>(f); }), "");
  };
  {
    Parts p = good;
    p.samples[other_k] += 1;  // 7k + 1: no multiple of the rate, still within the text
    refused(p, "a sample that is no multiple of the sample rate");
  }
  {
    Parts p = good;
    p.samples[other_k] = 3;
    refused(p, "a sample of 3 at rate 7");
  }
  {
    Parts p = good;
    p.samples[other_k] = p.samples[other_k == 1 ? 2 : 1];
    refused(p, "a repeated sample");
  }
  {
    Parts p = good;
    p.samples[other_k] = 154;  // a multiple of 7 past n
    refused(p, "a sample past n");
  }
  {
    Parts p = good;
    std::swap(p.samples[primary_k], p.samples[other_k]);
    refused(p, "position 0 not in the primary row");
  }
  {
    Parts p = good;
    p.marks[good.primary / 64] &= ~(std::uint64_t(1) << (good.primary % 64));
    p.marks[unmarked / 64] |= std::uint64_t(1) << (unmarked % 64);
    refused(p, "the primary row unmarked");
  }
  {
    Parts p = good;
    p.marks[unmarked / 64] |= std::uint64_t(1) << (unmarked % 64);
    refused(p, "one mark too many");
  }
  {
    Parts p = good;
    p.marks[rows[other_k] / 64] &= ~(std::uint64_t(1) << (rows[other_k] % 64));
    refused(p, "one mark too few");
  }
  {
    Parts p = good;
    p.marks[rows[other_k] / 64] &= ~(std::uint64_t(1) << (rows[other_k] % 64));
    p.marks.back() |= std::uint64_t(1) << 63;  // row 191 > n
    refused(p, "a mark past row n");
  }
  {
    Parts p = good;
    p.marks.push_back(0);
    refused(p, "a mark word too many");
  }
  {
    Parts p = good;
    p.rate = 0;
    refused(p, "sample rate 0");
  }
  {
    Parts p = good;
    p.rate = 8;  // 19 samples expected, 22 stored
    refused(p, "another sample rate");
  }
  {
    Parts p = good;
    p.primary = 0;
    refused(p, "primary index 0");
  }
  {
    Parts p = good;
    p.primary = p.n + 1;
    refused(p, "primary index past n");
  }
  {
    Parts p = good;
    p.primary = rows[other_k];  // a sampled row, but not the one of position 0
    refused(p, "primary index elsewhere");
  }
  {
    Parts p = good;
    p.width = 2;
    refused(p, "symbol width 2");
  }
  {
    Parts p = good;
    p.n -= 1;
    refused(p, "n one short of the BWT");
  }
  {
    Parts p = good;
    p.bwt.pop_back();
    refused(p, "BWT one short of n");
  }
  {
    Parts p = good;
    p.sample_width = 2;
    refused(p, "2-byte samples");
  }
  {
    Parts p = good;
    p.marks_width = 4;
    refused(p, "4-byte mark words");
  }
  {
    Parts p = good;
    p.samples.pop_back();
    refused(p, "a sample missing");
  }
  for (int which = 0; which < 4; ++which) {
    Parts p = good;
    (which == 0 ? p.with_bwt : which == 1 ? p.with_marks : which == 2 ? p.with_samples : p.with_rate) = false;
    refused(p, "a section or key missing");
  }
  {
    // A mark moved to another row passes the documented checks; the reader may refuse it,
    // but an index it returns must still count exactly and locate one position per occurrence.
    Parts p = good;
    p.marks[rows[other_k] / 64] &= ~(std::uint64_t(1) << (rows[other_k] % 64));
    p.marks[unmarked / 64] |= std::uint64_t(1) << (unmarked % 64);
    try {
      const auto index = read<std::int32_t>(p.file());
      expect_same("misplaced mark count", c.patterns, c.oracle.counts, batched_count(index, c.patterns));
      const auto got = batched_locate(index, c.patterns);
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].size(), c.oracle.counts[i]) << describe(c.patterns.get(i));
    } catch (const ktext::FormatError&) {
    }
  }
  {
    Parts p = good;
    p.sample_width = 8;  // 8-byte samples are fine for either index type
    EXPECT_NO_THROW((void)read<std::int32_t>(p.file()));
    expect_answers(read<std::int64_t>(p.file()), c, "forged with 8-byte samples");
  }
}

}  // namespace
