// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The LCP array by Kasai et al.'s linear-time algorithm on the host: independent of the
// library's parallel PLCP (irreducible values), so it can check it.

#include <cstdint>
#include <optional>
#include <vector>

namespace ktext::oracle {

/// lcp[i] = LCP of the suffixes sa[i-1] and sa[i], lcp[0] = 0; nullopt when \p sa is not a
/// permutation of [0, n).
template <class I, class S>
std::optional<std::vector<I>> kasai_lcp(const S* text, const I* sa, std::uint64_t n) {
  std::vector<I> rank(n, I(-1));
  for (std::uint64_t i = 0; i < n; ++i) {
    if (sa[i] < 0 || std::uint64_t(sa[i]) >= n || rank[std::uint64_t(sa[i])] != I(-1)) return std::nullopt;
    rank[std::uint64_t(sa[i])] = I(i);
  }
  std::vector<I> lcp(n, I(0));
  std::uint64_t h = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = std::uint64_t(rank[i]);
    if (r == 0) {
      h = 0;
      continue;
    }
    const std::uint64_t j = std::uint64_t(sa[r - 1]);
    while (i + h < n && j + h < n && text[i + h] == text[j + h]) ++h;
    lcp[r] = I(h);
    if (h > 0) --h;
  }
  return lcp;
}

}  // namespace ktext::oracle
