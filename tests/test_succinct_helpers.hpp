// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// What the rank/select and wavelet tests share: the positions worth querying (every one for
// small inputs; the word, 512-bit block and 2^16-bit edges and a seeded sample for large ones),
// and a comparison of answer vectors that reports the first query that differs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ktext::test {

/// Inputs up to this length are queried at every position.
inline constexpr std::uint64_t exhaustive_limit = 70000;

/// e*j - 1, e*j, e*j + 1 for the multiples e*j of each edge e in \p edges that lie in [0, n]:
/// all of them when there are few, else the first and last 64 and \p sampled seeded others.
inline void add_edges(std::vector<std::uint64_t>& out, std::uint64_t n, const std::vector<std::uint64_t>& edges,
                      std::size_t sampled, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (const std::uint64_t e : edges) {
    const std::uint64_t multiples = n / e;
    auto add = [&](std::uint64_t j) {
      for (std::uint64_t p = j * e - 1; p <= j * e + 1; ++p)
        if (p <= n) out.push_back(p);
    };
    if (multiples <= 4000) {
      for (std::uint64_t j = 1; j <= multiples; ++j) add(j);
    } else {
      for (std::uint64_t j = 1; j <= 64; ++j) add(j), add(multiples + 1 - j);
      for (std::size_t s = 0; s < sampled; ++s) add(1 + rng() % multiples);
    }
  }
}

/// Positions 0..n for small n; otherwise 0, 1, 2, n - 2, n - 1, n, the word (64), block (512)
/// and L1 (2^16) edges, and \p sampled seeded positions in [0, n].
inline std::vector<std::uint64_t> query_positions(std::uint64_t n, std::size_t sampled, std::uint64_t seed) {
  std::vector<std::uint64_t> out;
  if (n <= exhaustive_limit) {
    for (std::uint64_t p = 0; p <= n; ++p) out.push_back(p);
    return out;
  }
  for (std::uint64_t p : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(2), n - 2, n - 1, n}) out.push_back(p);
  add_edges(out, n, {64, 512, 65536}, 1000, seed);
  std::mt19937_64 rng(seed + 1);
  for (std::size_t s = 0; s < sampled; ++s) out.push_back(rng() % (n + 1));
  return out;
}

/// Counts k to select among \p count occurrences: 0..count + 1 for small counts; otherwise 0,
/// 1, 2, count - 1, count, count + 1, count + 2, the edges of the 4096-occurrence select samples
/// and \p sampled seeded ks.
inline std::vector<std::uint64_t> select_counts(std::uint64_t count, std::size_t sampled, std::uint64_t seed) {
  std::vector<std::uint64_t> out;
  if (count <= exhaustive_limit) {
    for (std::uint64_t k = 0; k <= count + 1; ++k) out.push_back(k);
    return out;
  }
  for (std::uint64_t k : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(2), count - 1, count, count + 1, count + 2})
    out.push_back(k);
  add_edges(out, count, {4096}, 1000, seed);
  std::mt19937_64 rng(seed + 2);
  for (std::size_t s = 0; s < sampled; ++s) out.push_back(1 + rng() % count);
  return out;
}

/// Indices that sort \p v.
inline std::vector<std::size_t> argsort(const std::vector<std::uint64_t>& v) {
  std::vector<std::size_t> order(v.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  return order;
}

/// Checks got == want, reporting the number of differences and the first one (with
/// \p describe(q), the query's arguments) instead of both vectors.
template <class Describe>
void expect_answers(const std::vector<std::uint64_t>& got, const std::vector<std::uint64_t>& want, const std::string& what,
                    const Describe& describe) {
  ASSERT_EQ(got.size(), want.size()) << what;
  std::size_t wrong = 0, first = 0;
  for (std::size_t q = 0; q < got.size(); ++q)
    if (got[q] != want[q] && wrong++ == 0) first = q;
  EXPECT_EQ(wrong, 0u) << what << ": " << wrong << " of " << got.size() << " answers differ; first: query " << first << " ("
                       << describe(first) << ") gave " << (wrong ? got[first] : 0) << ", expected " << (wrong ? want[first] : 0);
}

}  // namespace ktext::test
