// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext::string_sort on any set of byte strings, on the default host execution space
// (Kokkos::Serial in the fuzz preset): the host sort it runs there, and the portable passes
// that devices run. Input: the first byte is the separator; the rest is cut at every separator
// into strings (so every byte value, 0 included, can occur inside strings,
// and empty strings and duplicates are common). The strings are stored back to back behind a
// few leading bytes that no string covers, so offsets[0] is not 0.
// Checked: the order equals std::stable_sort of the indices by the byte strings (a proper
// prefix first), with 32-bit and 64-bit order and int64_t and uint64_t offsets; the LCP
// overload gives the same order and lcp[r] = the common prefix of ranks r - 1 and r, lcp[0] = 0.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#include <ktext/strings/string_sort.hpp>

#include "fuzz_check.hpp"
#include "kokkos_once.hpp"

namespace {

using Exec = Kokkos::DefaultHostExecutionSpace;
using Bytes = std::string;  // compared below as unsigned bytes

template <class Order, class Offset>
void check(const std::vector<Bytes>& strings, const std::vector<std::int64_t>& expected, std::size_t lead) {
  const std::size_t n = strings.size();
  std::string all(lead, '\xAB');
  std::vector<Offset> off{Offset(lead)};
  for (const Bytes& s : strings) {
    all += s;
    off.push_back(Offset(all.size()));
  }
  all += "trailing";  // bytes after the last string are not part of any
  Kokkos::View<std::uint8_t*, Kokkos::HostSpace> chars("fuzz::chars", all.size());
  for (std::size_t i = 0; i < all.size(); ++i) chars(i) = std::uint8_t(all[i]);
  Kokkos::View<Offset*, Kokkos::HostSpace> offsets("fuzz::offsets", n + 1);
  for (std::size_t i = 0; i <= n; ++i) offsets(i) = off[i];
  const Kokkos::View<const std::uint8_t*, Kokkos::HostSpace> cchars = chars;
  const Kokkos::View<const Offset*, Kokkos::HostSpace> coffsets = offsets;

  for (const bool host : {true, false}) {
    Kokkos::View<Order*, Kokkos::HostSpace> order("fuzz::order", n), order2("fuzz::order2", n), lcp("fuzz::lcp", n);
    using Chars = decltype(cchars);
    using Offsets = decltype(coffsets);
    using Orders = decltype(order);
    if (host) {
      ktext::string_sort(Exec{}, cchars, coffsets, order);
      ktext::string_sort(Exec{}, cchars, coffsets, order2, lcp);
    } else {
      ktext::impl::string_sort_checked<Exec, Chars, Offsets, Orders, void, false>(Exec{}, cchars, coffsets, order,
                                                                                  nullptr);
      ktext::impl::string_sort_checked<Exec, Chars, Offsets, Orders, Orders, false>(Exec{}, cchars, coffsets, order2,
                                                                                    &lcp);
    }
    Exec{}.fence();
    for (std::size_t r = 0; r < n; ++r) {
      FUZZ_CHECK(std::int64_t(order(r)) == expected[r], "order differs from std::stable_sort");
      FUZZ_CHECK(std::int64_t(order2(r)) == expected[r], "the LCP overload's order differs from std::stable_sort");
      std::int64_t want = 0;
      if (r > 0) {
        const Bytes& a = strings[std::size_t(expected[r - 1])];
        const Bytes& b = strings[std::size_t(expected[r])];
        while (std::size_t(want) < std::min(a.size(), b.size()) && a[std::size_t(want)] == b[std::size_t(want)]) ++want;
      }
      FUZZ_CHECK(std::int64_t(lcp(r)) == want, "lcp differs from the common prefix of neighbours");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ktext_fuzz::initialize_kokkos_once();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const char separator = char(data[0]);
  std::vector<Bytes> strings(1);
  for (std::size_t i = 1; i < size; ++i) {
    if (char(data[i]) == separator)
      strings.emplace_back();
    else
      strings.back().push_back(char(data[i]));
  }
  if (size == 1) strings.clear();  // the separator alone: the empty set
  std::vector<std::int64_t> expected(strings.size());
  std::iota(expected.begin(), expected.end(), std::int64_t(0));
  std::stable_sort(expected.begin(), expected.end(), [&](std::int64_t a, std::int64_t b) {
    const Bytes& x = strings[std::size_t(a)];
    const Bytes& y = strings[std::size_t(b)];
    return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(),
                                        [](char p, char q) { return std::uint8_t(p) < std::uint8_t(q); });
  });
  const std::size_t lead = size % 5;
  check<std::int32_t, std::int64_t>(strings, expected, lead);
  check<std::int64_t, std::uint64_t>(strings, expected, lead);
  return 0;
}
