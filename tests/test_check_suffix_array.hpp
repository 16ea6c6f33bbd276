// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// check_suffix_array accepts correct arrays and rejects every kind of corruption, on each backend.
#include <gtest/gtest.h>

#include <ktext/suffix.hpp>

#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

template <class I, class S>
ktext::SuffixArrayCheck check(const std::vector<S>& t, const std::vector<I>& sa) {
  auto text = to_device(t, "text");
  auto d = to_device(sa, "sa");
  return ktext::check_suffix_array(Exec{}, text, d);
}

template <class I>
void expect_rejected(const std::vector<std::uint8_t>& t, std::vector<I> sa, const char* what) {
  const auto r = check(t, sa);
  EXPECT_FALSE(r.valid) << what;
  EXPECT_GE(r.bad_index, 0) << what;
  EXPECT_LE(r.bad_index, std::int64_t(t.size())) << what;
  EXPECT_FALSE(r.reason.empty()) << what;
}

TEST(check_suffix_array, accepts_correct_arrays) {
  for (std::size_t n : {0, 1, 2, 3, 100, 4097, 20000}) {
    for (const auto& [name, t] : named_texts(n, 5)) {
      EXPECT_TRUE(check(t, reference_suffix_array<std::int32_t>(t)).valid) << name << " n=" << n;
      EXPECT_TRUE(check(t, reference_suffix_array<std::int64_t>(t)).valid) << name << " n=" << n;
    }
  }
  const auto wide = random_text<std::uint32_t>(2000, 100000, 3);
  EXPECT_TRUE(check(wide, naive_suffix_array<std::int32_t>(wide)).valid);
  const auto mid = random_text<std::uint16_t>(2000, 3, 3);
  EXPECT_TRUE(check(mid, naive_suffix_array<std::int64_t>(mid)).valid);
}

TEST(check_suffix_array, rejects_corruptions) {
  std::mt19937 rng(9);
  for (std::size_t n : {2, 3, 17, 1000, 30000}) {
    for (const auto& [name, t] : named_texts(n, 8)) {
      const auto sa = reference_suffix_array<std::int32_t>(t);
      const std::string at = name + " n=" + std::to_string(n);
      for (int trial = 0; trial < 3; ++trial) {
        const std::size_t i = rng() % n, j = (i + 1 + rng() % (n - 1)) % n;
        auto s = sa;
        std::swap(s[i], s[j]);
        expect_rejected(t, s, ("swap " + at).c_str());
        s = sa;
        std::swap(s[std::min(i, n - 2)], s[std::min(i, n - 2) + 1]);
        expect_rejected(t, s, ("adjacent swap " + at).c_str());
        s = sa;
        s[i] = s[j];
        expect_rejected(t, s, ("duplicate " + at).c_str());
        s = sa;
        s[i] = std::int32_t(n);
        expect_rejected(t, s, ("too large " + at).c_str());
        s = sa;
        s[i] = -1;
        expect_rejected(t, s, ("negative " + at).c_str());
      }
    }
  }
}

TEST(check_suffix_array, rejects_wrong_length) {
  const auto t = random_text(50, 4, 2);
  auto sa = reference_suffix_array<std::int32_t>(t);
  sa.pop_back();
  EXPECT_FALSE(check(t, sa).valid);
}

TEST(check_suffix_array, rejects_corrupt_wide_alphabet) {
  const auto t = random_text<std::uint32_t>(500, 1u << 30, 4);
  auto sa = naive_suffix_array<std::int64_t>(t);
  std::swap(sa[10], sa[400]);
  EXPECT_FALSE(check(t, sa).valid);
}

TEST(check_suffix_array, overload_without_an_execution_space) {
  // The sa view's execution space is the backend under test; the call waits for the result.
  const auto t = random_text(2000, 4, 12);
  auto text = to_device(t, "text");
  using SaView = Kokkos::View<const std::int32_t*, Kokkos::Device<Exec, Mem>>;
  const SaView sa = to_device(reference_suffix_array<std::int32_t>(t), "sa");
  EXPECT_TRUE(ktext::check_suffix_array(text, sa).valid);
  auto bad = reference_suffix_array<std::int32_t>(t);
  std::swap(bad[3], bad[1500]);
  const SaView bad_sa = to_device(bad, "bad_sa");
  const auto r = ktext::check_suffix_array(text, bad_sa);
  EXPECT_FALSE(r.valid);
  const auto with_exec = ktext::check_suffix_array(Exec{}, text, bad_sa);
  EXPECT_EQ(r.bad_index, with_exec.bad_index);
  EXPECT_EQ(r.reason, with_exec.reason);
}

}  // namespace
