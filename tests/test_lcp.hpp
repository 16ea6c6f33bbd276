// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// LCP arrays per backend against a direct comparison of neighbouring suffixes.
#include <gtest/gtest.h>

#include <ktext/suffix/lcp.hpp>

#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

template <class I, class S>
std::vector<I> naive_lcp(const std::vector<S>& t, const std::vector<I>& sa) {
  std::vector<I> out(sa.size(), 0);
  for (std::size_t i = 1; i < sa.size(); ++i) {
    I l = 0;
    while (sa[i - 1] + l < I(t.size()) && sa[i] + l < I(t.size()) && t[sa[i - 1] + l] == t[sa[i] + l]) ++l;
    out[i] = l;
  }
  return out;
}

template <class I, class S>
std::vector<I> device_lcp(const std::vector<S>& t, const std::vector<I>& sa) {
  auto text = to_device(t, "text");
  auto d = to_device(sa, "sa");
  Kokkos::View<I*, Mem> out("lcp", t.size());
  Kokkos::deep_copy(out, I(-5));  // every entry must be written
  ktext::lcp(Exec{}, text, d, out);
  Exec{}.fence();
  return to_host(out);
}

TEST(lcp, shapes_against_direct_comparison) {
  for (std::size_t n : {0, 1, 2, 3, 9, 64, 257, 1000, 4097, 9000}) {
    for (const auto& [name, t] : named_texts(n, 61)) {
      const auto sa = reference_suffix_array<std::int32_t>(t);
      EXPECT_EQ(device_lcp(t, sa), naive_lcp(t, sa)) << name << " n=" << n;
      const auto sa64 = reference_suffix_array<std::int64_t>(t);
      EXPECT_EQ(device_lcp(t, sa64), naive_lcp(t, sa64)) << name << " n=" << n;
    }
  }
}

TEST(lcp, exhaustive_binary_up_to_9) {
  for (std::size_t len = 1; len <= 9; ++len) {
    for (std::uint32_t bits = 0; bits < (1u << len); ++bits) {
      if (!take_case()) continue;
      std::vector<std::uint8_t> t(len);
      for (std::size_t i = 0; i < len; ++i) t[i] = (bits >> i) & 1 ? 'b' : 'a';
      const auto sa = naive_suffix_array<std::int32_t>(t);
      ASSERT_EQ(device_lcp(t, sa), naive_lcp(t, sa)) << std::string(t.begin(), t.end());
    }
  }
}

TEST(lcp, overload_without_an_execution_space) {
  // The lcp view's execution space is the backend under test; the call waits for the result.
  const auto t = fibonacci_text(4000);
  const auto sa = reference_suffix_array<std::int32_t>(t);
  auto text = to_device(t, "text");
  auto d = to_device(sa, "sa");
  Kokkos::View<std::int32_t*, Kokkos::Device<Exec, Mem>> out("lcp", t.size());
  ktext::lcp(text, d, out);
  EXPECT_EQ(to_host(out), naive_lcp(t, sa));
}

TEST(lcp, integer_alphabets_and_errors) {
  const auto t = random_text<std::uint32_t>(2000, 3, 8);
  const auto sa = naive_suffix_array<std::int64_t>(t);
  EXPECT_EQ(device_lcp(t, sa), naive_lcp(t, sa));
  auto text = to_device(t);
  auto d = to_device(sa);
  Kokkos::View<std::int64_t*, Mem> shorter("short", 1999);
  EXPECT_THROW(ktext::lcp(Exec{}, text, d, shorter), ktext::InputError);
}

}  // namespace
