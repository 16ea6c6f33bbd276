// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Suffix array by comparison sort of the suffixes (the end of the text smaller than every
// symbol): obviously right, O(n^2 log n), for small inputs.

#include <algorithm>
#include <numeric>
#include <vector>

namespace ktext::oracle {

template <class I, class S>
std::vector<I> naive_suffix_array(const std::vector<S>& t) {
  std::vector<I> sa(t.size());
  std::iota(sa.begin(), sa.end(), I(0));
  std::sort(sa.begin(), sa.end(), [&](I a, I b) {
    return std::lexicographical_compare(t.begin() + a, t.end(), t.begin() + b, t.end());
  });
  return sa;
}

}  // namespace ktext::oracle
