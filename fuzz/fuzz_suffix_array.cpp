// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext::suffix_array on any byte string (the whole input is the text), on the default host
// execution space (Kokkos::Serial in the fuzz preset): with 32-bit indices and the default
// batching, and with 64-bit indices and tiny doubling batches (1 to 8 entries, chosen from the
// length) so that batch boundaries fall inside groups. Checked: both equal a naive std::sort of
// the suffixes, ktext::check_suffix_array accepts them, and it rejects the array with two
// neighbouring entries swapped (all suffixes differ, so any swap is wrong).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include <Kokkos_Core.hpp>
#include <ktext/suffix/check_suffix_array.hpp>
#include <ktext/suffix/suffix_array.hpp>

#include "fuzz_check.hpp"
#include "kokkos_once.hpp"

namespace {

using Exec = Kokkos::DefaultHostExecutionSpace;
using Text = Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

std::vector<std::int64_t> naive_suffix_array(const std::uint8_t* text, std::size_t n) {
  std::vector<std::int64_t> sa(n);
  std::iota(sa.begin(), sa.end(), std::int64_t(0));
  std::sort(sa.begin(), sa.end(), [&](std::int64_t a, std::int64_t b) {
    const std::size_t la = n - std::size_t(a), lb = n - std::size_t(b);
    const int c = std::memcmp(text + a, text + b, std::min(la, lb));
    return c != 0 ? c < 0 : la < lb;  // a proper prefix comes first
  });
  return sa;
}

template <class Index>
void check(const Text& text, const std::vector<std::int64_t>& expected, std::size_t batch_entries) {
  const std::size_t n = text.extent(0);
  Kokkos::View<Index*, Kokkos::HostSpace> sa("fuzz::sa", n);
  ktext::SuffixArrayOptions options;
  options.batch_entries = batch_entries;
  ktext::suffix_array(Exec{}, text, sa, options);
  Exec{}.fence();
  for (std::size_t i = 0; i < n; ++i) FUZZ_CHECK(std::int64_t(sa(i)) == expected[i], "suffix array differs from the naive sort");
  const ktext::SuffixArrayCheck ok = ktext::check_suffix_array(Exec{}, text, sa);
  FUZZ_CHECK(ok.valid, "check_suffix_array rejects the correct suffix array");
  if (n >= 2) {
    const std::size_t i = (n * 7919) % (n - 1);
    std::swap(sa(i), sa(i + 1));
    const ktext::SuffixArrayCheck bad = ktext::check_suffix_array(Exec{}, text, sa);
    FUZZ_CHECK(!bad.valid, "check_suffix_array accepts a suffix array with two entries swapped");
    FUZZ_CHECK(bad.bad_index >= 0 && std::size_t(bad.bad_index) < n, "check_suffix_array's bad index is outside the array");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ktext_fuzz::initialize_kokkos_once();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Text text(size > 0 ? data : nullptr, size);
  const std::vector<std::int64_t> expected = naive_suffix_array(data, size);
  check<std::int32_t>(text, expected, 0);
  check<std::int64_t>(text, expected, 1 + size % 8);
  return 0;
}
