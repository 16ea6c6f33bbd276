// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Exact pattern search by binary search over a suffix array: the oracle for FM-index count
// and locate. Occurrences overlap; the empty pattern occurs at every position 0..n.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace ktext::oracle {

/// Rows [lo, hi) of \p sa whose suffixes start with \p p (a suffix shorter than p that equals
/// its prefix sorts before p).
template <class I>
std::pair<std::uint64_t, std::uint64_t> suffix_array_range(const std::uint8_t* text, std::uint64_t n, const I* sa,
                                                           const std::uint8_t* p, std::size_t m) {
  auto compare = [&](std::uint64_t row) {  // <0: suffix < p, 0: p is a prefix of the suffix, >0: suffix > p
    const std::uint64_t pos = std::uint64_t(sa[row]);
    const std::uint64_t len = std::min<std::uint64_t>(m, n - pos);
    const int c = len == 0 ? 0 : std::memcmp(text + pos, p, len);
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

/// Every occurrence of \p p, ascending (n itself for the empty pattern).
template <class I>
std::vector<std::int64_t> suffix_array_locate(const std::uint8_t* text, std::uint64_t n, const I* sa,
                                              const std::uint8_t* p, std::size_t m) {
  std::vector<std::int64_t> out;
  if (m == 0) {
    for (std::uint64_t i = 0; i <= n; ++i) out.push_back(std::int64_t(i));
    return out;
  }
  const auto [lo, hi] = suffix_array_range(text, n, sa, p, m);
  for (std::uint64_t r = lo; r < hi; ++r) out.push_back(std::int64_t(sa[r]));
  std::sort(out.begin(), out.end());
  return out;
}

/// Number of occurrences of \p p (n + 1 for the empty pattern).
template <class I>
std::uint64_t suffix_array_count(const std::uint8_t* text, std::uint64_t n, const I* sa, const std::uint8_t* p,
                                 std::size_t m) {
  if (m == 0) return n + 1;
  const auto [lo, hi] = suffix_array_range(text, n, sa, p, m);
  return hi - lo;
}

}  // namespace ktext::oracle
