// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Independent oracles: a naive suffix sort (std::sort with lexicographic comparison, the end
// smaller than every symbol) and libdivsufsort when it is linked.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#if defined(KTEXT_HAVE_DIVSUFSORT)
#include <divsufsort.h>
#include <divsufsort64.h>
#endif

namespace ktext::test {

template <class I, class S>
std::vector<I> naive_suffix_array(const std::vector<S>& t) {
  std::vector<I> sa(t.size());
  std::iota(sa.begin(), sa.end(), I(0));
  std::sort(sa.begin(), sa.end(), [&](I a, I b) {
    return std::lexicographical_compare(t.begin() + a, t.end(), t.begin() + b, t.end());
  });
  return sa;
}

inline bool have_divsufsort() {
#if defined(KTEXT_HAVE_DIVSUFSORT)
  return true;
#else
  return false;
#endif
}

/// Suffix array of a byte text by libdivsufsort, or the naive sort when it is not linked.
template <class I>
std::vector<I> reference_suffix_array(const std::vector<std::uint8_t>& t) {
#if defined(KTEXT_HAVE_DIVSUFSORT)
  std::vector<I> sa(t.size());
  if (t.empty()) return sa;
  if constexpr (sizeof(I) == 4) {
    if (divsufsort(t.data(), reinterpret_cast<saidx_t*>(sa.data()), saidx_t(t.size())) != 0) sa.clear();
  } else {
    if (divsufsort64(t.data(), reinterpret_cast<saidx64_t*>(sa.data()), saidx64_t(t.size())) != 0) sa.clear();
  }
  return sa;
#else
  return naive_suffix_array<I>(t);
#endif
}

}  // namespace ktext::test
