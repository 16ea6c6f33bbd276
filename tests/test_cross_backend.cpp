// The enabled backends produce bit-identical suffix arrays and sorts on large seeded inputs.
#include <gtest/gtest.h>

#include <ktext/ktext.hpp>

#include "test_inputs.hpp"

namespace {

template <class Exec, class T>
Kokkos::View<T*, typename Exec::memory_space> on(const std::vector<T>& v) {
  Kokkos::View<T*, typename Exec::memory_space> d("d", v.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return d;
}

template <class View>
auto host(const View& d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, d);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

template <class Exec>
std::vector<std::int32_t> sa_on(const std::vector<std::uint8_t>& t) {
  auto text = on<Exec>(t);
  Kokkos::View<std::int32_t*, typename Exec::memory_space> sa("sa", t.size());
  ktext::suffix_array(Exec{}, text, sa);
  return host(sa);
}

/// BWT (with the primary index appended) and LCP, both derived from the backend's own SA.
template <class Exec>
std::pair<std::vector<std::uint8_t>, std::vector<std::int32_t>> bwt_lcp_on(const std::vector<std::uint8_t>& t) {
  auto text = on<Exec>(t);
  Kokkos::View<std::int32_t*, typename Exec::memory_space> sa("sa", t.size()), lcp("lcp", t.size());
  Kokkos::View<std::uint8_t*, typename Exec::memory_space> bwt("bwt", t.size());
  ktext::suffix_array(Exec{}, text, sa);
  const std::uint64_t primary = ktext::bwt_from_suffix_array(Exec{}, text, sa, bwt);
  ktext::lcp(Exec{}, text, sa, lcp);
  auto b = host(bwt);
  for (int s = 0; s < 64; s += 8) b.push_back(std::uint8_t(primary >> s));
  return {b, host(lcp)};
}

template <class Exec>
std::vector<std::int64_t> sorted_values_on(const std::vector<std::uint64_t>& keys) {
  std::vector<std::int64_t> idx(keys.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = std::int64_t(i);
  auto k = on<Exec>(keys);
  auto v = on<Exec>(idx);
  ktext::sort_pairs(Exec{}, k, v, 0, 40);
  Exec{}.fence();
  return host(v);
}

TEST(cross_backend, suffix_array_bit_exact) {
  for (const auto& [name, t] : ktext::test::named_texts(1 << 20, 31337)) {
    const auto reference = sa_on<Kokkos::Serial>(t);
#if defined(KOKKOS_ENABLE_OPENMP)
    EXPECT_EQ(sa_on<Kokkos::OpenMP>(t), reference) << name;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    EXPECT_EQ(sa_on<Kokkos::Cuda>(t), reference) << name;
#endif
  }
}

TEST(cross_backend, bwt_and_lcp_bit_exact) {
  for (const auto& [name, t] : ktext::test::named_texts(1 << 16, 4242)) {
    const auto reference = bwt_lcp_on<Kokkos::Serial>(t);
#if defined(KOKKOS_ENABLE_OPENMP)
    EXPECT_EQ(bwt_lcp_on<Kokkos::OpenMP>(t), reference) << name;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    EXPECT_EQ(bwt_lcp_on<Kokkos::Cuda>(t), reference) << name;
#endif
  }
}

TEST(cross_backend, stable_sort_bit_exact) {
  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> keys(3'000'000);
  for (auto& k : keys) k = rng() % 1000003;  // many ties: stability decides the values' order
  const auto reference = sorted_values_on<Kokkos::Serial>(keys);
#if defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_EQ(sorted_values_on<Kokkos::OpenMP>(keys), reference);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  EXPECT_EQ(sorted_values_on<Kokkos::Cuda>(keys), reference);
#endif
}

}  // namespace
