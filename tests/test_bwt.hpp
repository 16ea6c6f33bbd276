// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// BWT and its inverse per backend: against a transform derived from the naive suffix sort,
// round trips on every input shape, and refusal of pairs that are no transform at all.
#include <gtest/gtest.h>

#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/unbwt.hpp>

#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

/// The libsais convention from the definition: rows of T$ sorted, sentinel row dropped.
template <class S>
std::pair<std::vector<S>, std::uint64_t> naive_bwt(const std::vector<S>& t) {
  if (t.empty()) return {{}, 0};
  const auto sa = naive_suffix_array<std::int64_t>(t);
  std::vector<S> u = {t.back()};  // row 0: the empty suffix
  std::uint64_t primary = 0;
  for (std::size_t i = 0; i < sa.size(); ++i) {
    if (sa[i] == 0) primary = i + 1;
    else u.push_back(t[sa[i] - 1]);
  }
  return {u, primary};
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

TEST(unbwt, every_small_pair_is_inverted_or_refused) {
  // Over {a,b} up to length 7 with every primary index: a pair the inverse accepts must be
  // the transform of the text it returns; no other outcome is allowed.
  int accepted = 0;
  for (std::size_t len = 1; len <= 7; ++len) {
    for (std::uint32_t bits = 0; bits < (1u << len); ++bits) {
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
  EXPECT_EQ(accepted, 254);
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

}  // namespace
