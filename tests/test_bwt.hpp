// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// BWT per backend: against a transform derived from the naive suffix sort, and round trips
// through unbwt on every input shape (the inverse's own tests are in test_unbwt.hpp).
#include <gtest/gtest.h>

#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/unbwt.hpp>

#include "test_bwt_helpers.hpp"
#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

TEST(bwt, matches_definition_and_inverts) {
  EXPECT_EQ(device_bwt(std::vector<std::uint8_t>{'b', 'a', 'n', 'a', 'n', 'a'}),
            (std::pair<std::vector<std::uint8_t>, std::uint64_t>{{'a', 'n', 'n', 'b', 'a', 'a'}, 4}));
  for (std::size_t n : {0, 1, 2, 3, 17, 64, 65, 1000, 4097}) {
    for (const auto& [name, t] : named_texts(n, 41)) {
      const auto want = naive_bwt(t);
      const auto got = device_bwt(t);
      ASSERT_EQ(got, want) << name << " n=" << n;
      EXPECT_EQ(device_unbwt(got.first, got.second), t) << name << " n=" << n;
    }
  }
}

TEST(bwt, round_trips_larger_inputs) {
  for (const auto& [name, t] : named_texts(100000, 43)) {
    const auto [u, primary] = device_bwt(t);
    EXPECT_EQ(device_unbwt(u, primary), t) << name;
  }
}

TEST(bwt, integer_alphabets) {
  const auto t16 = random_text<std::uint16_t>(3000, 65536, 5);
  EXPECT_EQ(device_bwt(t16), naive_bwt(t16));
  const auto [u16, p16] = device_bwt(t16);
  EXPECT_EQ(device_unbwt(u16, p16), t16);
  const auto t32 = random_text<std::uint32_t>(3000, 0xffffffffu, 6);
  const auto [u32, p32] = device_bwt(t32);
  EXPECT_EQ(std::make_pair(u32, p32), naive_bwt(t32));
  EXPECT_EQ(device_unbwt(u32, p32), t32);
}

TEST(bwt, overloads_without_an_execution_space) {
  // The out view's execution space is the backend under test; the calls wait for the result.
  const auto t = random_text(5000, 4, 44);
  const auto want = naive_bwt(t);
  auto text = to_device(t, "text");
  Kokkos::View<std::uint8_t*, Kokkos::Device<Exec, Mem>> out("bwt", t.size());
  EXPECT_EQ(ktext::bwt(text, out), want.second);
  EXPECT_EQ(to_host(out), want.first);
  ktext::SuffixArrayOptions options;
  options.batch_entries = 100;
  Kokkos::deep_copy(out, 0);
  EXPECT_EQ(ktext::bwt(text, out, options), want.second);
  EXPECT_EQ(to_host(out), want.first);
  const auto sa = to_device(reference_suffix_array<std::int32_t>(t), "sa");
  Kokkos::deep_copy(out, 0);
  EXPECT_EQ(ktext::bwt_from_suffix_array(text, sa, out), want.second);
  EXPECT_EQ(to_host(out), want.first);
}

}  // namespace
