// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Inverse BWT per backend: every small pair is either inverted correctly or refused, and bad
// arguments are refused (round trips of ktext::bwt are in test_bwt.hpp).
#include <gtest/gtest.h>

#include <ktext/suffix/unbwt.hpp>

#include "test_bwt_helpers.hpp"
#include "test_inputs.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

TEST(unbwt, every_small_pair_is_inverted_or_refused) {
  // Over {a,b} up to length 7 with every primary index: a pair the inverse accepts must be
  // the transform of the text it returns; no other outcome is allowed.
  int accepted = 0;
  for (std::size_t len = 1; len <= 7; ++len) {
    for (std::uint32_t bits = 0; bits < (1u << len); ++bits) {
      if (!take_case()) continue;
      std::vector<std::uint8_t> u(len);
      for (std::size_t i = 0; i < len; ++i) u[i] = (bits >> i) & 1 ? 'b' : 'a';
      for (std::uint64_t p = 1; p <= len; ++p) {
        try {
          const auto t = device_unbwt(u, p);
          ASSERT_EQ(naive_bwt(t), std::make_pair(u, p)) << "accepted a pair that is not the transform of its output";
          ++accepted;
        } catch (const ktext::InputError&) {
        }
      }
    }
  }
  // Every text of length <= 7 over {a, b} has exactly one transform: 2 + 4 + ... + 128 of them.
  if (all_cases()) EXPECT_EQ(accepted, 254);
}

TEST(unbwt, rejects_bad_arguments) {
  const std::vector<std::uint8_t> u = {'a', 'n', 'n', 'b', 'a', 'a'};
  EXPECT_THROW(device_unbwt(u, 0), ktext::InputError);
  EXPECT_THROW(device_unbwt(u, 7), ktext::InputError);
  EXPECT_THROW(device_unbwt(std::vector<std::uint8_t>{}, 1), ktext::InputError);
  EXPECT_NO_THROW(device_unbwt(std::vector<std::uint8_t>{}, 0));
  auto d = to_device(u);
  Kokkos::View<std::uint8_t*, Mem> shorter("short", 5);
  EXPECT_THROW(ktext::unbwt(Exec{}, d, 4, shorter), ktext::InputError);
}

TEST(unbwt, overload_without_an_execution_space) {
  // The out view's execution space is the backend under test; the call waits for the result.
  const auto t = thue_morse_text(3000);
  const auto [u, primary] = naive_bwt(t);
  auto d = to_device(u, "bwt");
  Kokkos::View<std::uint8_t*, Kokkos::Device<Exec, Mem>> out("text", t.size());
  ktext::unbwt(d, primary, out);
  EXPECT_EQ(to_host(out), t);
  EXPECT_THROW(ktext::unbwt(d, t.size() + 1, out), ktext::InputError);
}

}  // namespace
