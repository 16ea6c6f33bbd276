// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The independent oracles of src/oracles (naive suffix sort, libdivsufsort) as the tests use them.

#include <cstdint>
#include <vector>

#include <ktext_oracles/divsufsort.hpp>
#include <ktext_oracles/naive_suffix_array.hpp>

namespace ktext::test {

using oracle::naive_suffix_array;

inline bool have_divsufsort() { return oracle::have_divsufsort(); }

/// Suffix array of a byte text by libdivsufsort, or the naive sort when it is not linked.
template <class I>
std::vector<I> reference_suffix_array(const std::vector<std::uint8_t>& t) {
#if defined(KTEXT_HAVE_DIVSUFSORT)
  std::vector<I> sa(t.size());
  oracle::divsufsort_suffix_array(t.data(), sa.data(), t.size());
  return sa;
#else
  return naive_suffix_array<I>(t);
#endif
}

}  // namespace ktext::test
