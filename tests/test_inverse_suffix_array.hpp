// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// inverse_suffix_array per backend against a naive inverse, on every input shape and both
// index types, with and without an execution space argument.
#include <gtest/gtest.h>

#include <ktext/suffix/inverse_suffix_array.hpp>

#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

template <class I>
std::vector<I> naive_inverse(const std::vector<I>& sa) {
  std::vector<I> isa(sa.size());
  for (std::size_t i = 0; i < sa.size(); ++i) isa[std::size_t(sa[i])] = I(i);
  return isa;
}

template <class I>
std::vector<I> device_inverse(const std::vector<I>& sa) {
  auto d = to_device(sa, "sa");
  Kokkos::View<I*, Mem> isa("isa", sa.size());
  Kokkos::deep_copy(isa, I(-7));  // every entry must be written
  ktext::inverse_suffix_array(Exec{}, d, isa);
  Exec{}.fence();
  return to_host(isa);
}

TEST(inverse_suffix_array, every_shape_and_index_type_against_naive) {
  for (std::size_t n : {0, 1, 2, 3, 64, 65, 1000, 4097, 65537}) {
    for (const auto& [name, t] : named_texts(n, 17)) {
      const auto sa32 = reference_suffix_array<std::int32_t>(t);
      EXPECT_EQ(device_inverse(sa32), naive_inverse(sa32)) << name << " n=" << n;
      const auto sa64 = reference_suffix_array<std::int64_t>(t);
      EXPECT_EQ(device_inverse(sa64), naive_inverse(sa64)) << name << " n=" << n;
    }
  }
}

TEST(inverse_suffix_array, inverse_is_the_rank) {
  const auto t = random_text(3000, 26, 6);
  const auto sa = reference_suffix_array<std::int32_t>(t);
  auto d = to_device(sa);
  Kokkos::View<std::int32_t*, Mem> isa("isa", sa.size());
  ktext::inverse_suffix_array(Exec{}, d, isa);
  const auto h = to_host(isa);
  for (std::size_t i = 0; i < sa.size(); ++i) ASSERT_EQ(h[sa[i]], std::int32_t(i));
}

TEST(inverse_suffix_array, overload_without_an_execution_space) {
  // The isa view's execution space is the backend under test; the call waits for the result.
  const auto t = fibonacci_text(5000);
  const auto sa = reference_suffix_array<std::int64_t>(t);
  auto d = to_device(sa, "sa");
  Kokkos::View<std::int64_t*, Kokkos::Device<Exec, Mem>> isa("isa", sa.size());
  ktext::inverse_suffix_array(d, isa);
  EXPECT_EQ(to_host(isa), naive_inverse(sa));
}

TEST(inverse_suffix_array, rejects_mismatched_lengths) {
  auto d = to_device(std::vector<std::int32_t>{2, 0, 1}, "sa");
  Kokkos::View<std::int32_t*, Mem> shorter("isa", 2);
  EXPECT_THROW(ktext::inverse_suffix_array(Exec{}, d, shorter), ktext::InputError);
}

}  // namespace
