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

TEST(bwt, written_by_the_dc3_merge_or_from_the_suffix_array) {
  // DC3's merge writes the BWT itself into a contiguous out; doubling, and an out with a stride,
  // take the suffix array's path. Every length mod 3 (suffix 0 is the rest's first, the merge's
  // tiles end anywhere), sample reductions and small batches, against libdivsufsort.
  using Algorithm = ktext::SuffixArrayAlgorithm;
  using Reduction = ktext::SampleReduction;
  for (std::size_t n : {4, 5, 6, 66, 999, 3072, 4097 + 723, 70000}) {
    for (const auto& [name, t] : named_texts(n, 47)) {
      const auto want = bwt_of_suffix_array(t, reference_suffix_array<std::int32_t>(t));
      auto text = to_device(t, "text");
      Kokkos::View<std::uint8_t*, Mem> out("bwt", n);
      Kokkos::View<std::uint8_t**, Kokkos::LayoutLeft, Mem> wide("wide", 2, n);
      const auto strided = Kokkos::subview(wide, 1, Kokkos::ALL);  // stride 2: not contiguous
      ASSERT_FALSE(strided.span_is_contiguous());
      for (Algorithm a : {Algorithm::automatic, Algorithm::difference_cover, Algorithm::doubling}) {
        for (Reduction r : {Reduction::automatic, Reduction::initial}) {
          ktext::SuffixArrayOptions options;
          options.algorithm = a;
          options.sample_reduction = r;
          options.batch_entries = n == 70000 ? 3000 : 0;
          const std::string what = name + " n=" + std::to_string(n) + " algorithm " + std::to_string(int(a)) +
                                   " reduction " + std::to_string(int(r));
          Kokkos::deep_copy(out, 0xee);
          ktext::SuffixArrayStats stats;
          EXPECT_EQ(ktext::bwt(Exec{}, text, out, options, &stats), want.second) << what;
          EXPECT_EQ(to_host(out), want.first) << what;
          EXPECT_GE(stats.peak_bytes, 5 * n) << what;  // the text and a 4-byte suffix array at least
          Kokkos::deep_copy(wide, 0xee);
          EXPECT_EQ(ktext::bwt(Exec{}, text, strided, options), want.second) << what << " strided";
          // The whole 2 x n view comes back (a strided device view cannot be copied alone): row
          // 1 holds the transform, row 0 stays untouched.
          const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, wide);
          for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(host(1, i), want.first[i]) << what << " strided i=" << i;
            ASSERT_EQ(host(0, i), 0xee) << what << " strided i=" << i;
          }
        }
      }
    }
  }
}

TEST(bwt, wide_symbols_through_the_dc3_merge) {
  // 16- and 32-bit symbols whose alphabet fits DC3 (the merge's rows carry them in 32 and 64
  // bits), symbol values up to the alphabet table's end, and NUL symbols.
  const auto t16 = random_text<std::uint16_t>(20000, 65536, 7);
  EXPECT_EQ(device_bwt(t16), naive_bwt(t16));
  auto t32 = random_text<std::uint32_t>(20000, 5000, 8);
  t32[0] = 0;
  t32[1] = 4999;
  EXPECT_EQ(device_bwt(t32), naive_bwt(t32));
}

TEST(bwt, rejects_an_out_of_another_length) {
  const auto t = random_text(100, 4, 45);
  auto text = to_device(t, "text");
  Kokkos::View<std::uint8_t*, Mem> out("bwt", t.size() - 1);
  EXPECT_THROW(ktext::bwt(Exec{}, text, out), ktext::InputError);
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
