// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "search_check.hpp"

#include <algorithm>
#include <cstring>
#include <random>

#include "report.hpp"

namespace ktext::cli {

namespace {

constexpr std::uint64_t kLocatedPositions = std::uint64_t(1) << 20;  // located positions, all patterns together

// Rows [lo, hi) of the suffix array whose suffixes start with p (a suffix shorter than p and
// equal to its prefix sorts before p).
template <class I>
std::pair<std::uint64_t, std::uint64_t> sa_range(const std::vector<std::uint8_t>& text, const I* sa, const std::uint8_t* p,
                                                 std::size_t m) {
  const std::uint64_t n = text.size();
  auto compare = [&](std::uint64_t row) {  // <0: suffix < p, 0: p is a prefix of the suffix, >0: suffix > p
    const std::uint64_t pos = std::uint64_t(sa[row]);
    const std::uint64_t len = std::min<std::uint64_t>(m, n - pos);
    const int c = len == 0 ? 0 : std::memcmp(text.data() + pos, p, len);
    if (c != 0) return c;
    return len < m ? -1 : 0;
  };
  std::uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (compare(mid) < 0) lo = mid + 1;
    else hi = mid;
  }
  std::uint64_t end = lo, top = n;
  while (end < top) {
    const std::uint64_t mid = end + (top - end) / 2;
    if (compare(mid) <= 0) end = mid + 1;
    else top = mid;
  }
  return {lo, end};
}

}  // namespace

template <class I>
SearchExpectation expected_search(const std::vector<std::uint8_t>& text, const I* sa) {
  const std::uint64_t n = text.size();
  SearchExpectation e;
  std::mt19937_64 rng(0x6b74657874ULL ^ n);
  for (int k = 0; k < 2000 && n > 0; ++k) {
    const std::uint64_t pos = rng() % n;
    const std::uint64_t m = std::min<std::uint64_t>(1 + rng() % 40, n - pos);
    e.patterns.add(text.data() + pos, std::size_t(m));
  }
  std::vector<std::uint8_t> p;
  for (int k = 0; k < 200; ++k) {
    p.resize(1 + rng() % 8);
    for (auto& c : p) c = std::uint8_t(rng());
    e.patterns.add(p.data(), p.size());
  }
  e.patterns.add(nullptr, 0);
  p.assign(text.begin(), text.end());
  p.push_back(0);
  e.patterns.add(p.data(), p.size());
  for (int c = 0; c < 256; ++c) {
    const std::uint8_t b = std::uint8_t(c);
    e.patterns.add(&b, 1);
  }

  std::uint64_t located = 0;
  e.occurrences.offsets.push_back(0);
  for (std::size_t i = 0; i < e.patterns.size(); ++i) {
    const std::uint8_t* pi = e.patterns.symbols.data() + e.patterns.offsets[i];
    const std::size_t m = std::size_t(e.patterns.offsets[i + 1] - e.patterns.offsets[i]);
    // The empty pattern also matches at position n, which the suffix array does not list.
    const auto [lo, hi] = m == 0 ? std::pair<std::uint64_t, std::uint64_t>{0, n} : sa_range(text, sa, pi, m);
    const std::uint64_t count = hi - lo + (m == 0 ? 1 : 0);
    e.counts.push_back(count);
    if (located + count > kLocatedPositions) continue;
    located += count;
    e.located.add(pi, m);
    const std::size_t first = e.occurrences.positions.size();
    for (std::uint64_t r = lo; r < hi; ++r) e.occurrences.positions.push_back(std::int64_t(sa[r]));
    if (m == 0) e.occurrences.positions.push_back(std::int64_t(n));
    std::sort(e.occurrences.positions.begin() + std::ptrdiff_t(first), e.occurrences.positions.end());
    e.occurrences.offsets.push_back(std::int64_t(e.occurrences.positions.size()));
  }
  return e;
}

SearchStageRun run_search_stage(Backend backend, const std::vector<std::uint8_t>& text, const SearchExpectation& expected,
                                const ktext::SuffixArrayOptions& options) {
  SearchStageRun run;
  const auto engine = build_search_engine(backend, text.data(), text.size(), 32, options, run.index_seconds);
  run.index_bytes = engine->bytes();
  Stopwatch watch;
  const std::vector<std::uint64_t> counts = engine->count(expected.patterns);
  const Occurrences occ = engine->locate(expected.located);
  run.search_seconds = watch.seconds();
  run.matches = counts == expected.counts && occ.offsets == expected.occurrences.offsets &&
                occ.positions == expected.occurrences.positions;
  return run;
}

template SearchExpectation expected_search<std::int32_t>(const std::vector<std::uint8_t>&, const std::int32_t*);
template SearchExpectation expected_search<std::int64_t>(const std::vector<std::uint8_t>&, const std::int64_t*);

}  // namespace ktext::cli
