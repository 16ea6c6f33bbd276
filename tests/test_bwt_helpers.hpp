// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The BWT from its definition (the oracle of test_bwt.hpp and test_unbwt.hpp), and ktext::bwt
// and ktext::unbwt run on the backend under test.

#include <cstdint>
#include <utility>
#include <vector>

#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/unbwt.hpp>

#include "test_oracles.hpp"
#include "test_views.hpp"

namespace ktext::test {

/// The libsais convention from a suffix array \p sa of \p t: rows of T$ sorted, sentinel row
/// dropped.
template <class S, class I>
std::pair<std::vector<S>, std::uint64_t> bwt_of_suffix_array(const std::vector<S>& t, const std::vector<I>& sa) {
  if (t.empty()) return {{}, 0};
  std::vector<S> u = {t.back()};  // row 0: the empty suffix
  std::uint64_t primary = 0;
  for (std::size_t i = 0; i < sa.size(); ++i) {
    if (sa[i] == 0) primary = i + 1;
    else u.push_back(t[std::size_t(sa[i]) - 1]);
  }
  return {u, primary};
}

/// The same from the definition (the naive suffix sort).
template <class S>
std::pair<std::vector<S>, std::uint64_t> naive_bwt(const std::vector<S>& t) {
  return bwt_of_suffix_array(t, naive_suffix_array<std::int64_t>(t));
}

template <class S>
std::pair<std::vector<S>, std::uint64_t> device_bwt(const std::vector<S>& t) {
  auto text = to_device(t, "text");
  Kokkos::View<S*, Mem> out("bwt", t.size());
  const std::uint64_t primary = ktext::bwt(Exec{}, text, out);
  return {to_host(out), primary};
}

template <class S>
std::vector<S> device_unbwt(const std::vector<S>& u, std::uint64_t primary) {
  auto d = to_device(u, "bwt");
  Kokkos::View<S*, Mem> out("text", u.size());
  ktext::unbwt(Exec{}, d, primary, out);
  return to_host(out);
}

}  // namespace ktext::test
