// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Primitive tests per backend against std:: oracles. On CUDA the portable path is run as well
// (UseCub = false), so both implementations are checked in one binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <ktext/primitives.hpp>
#include <numeric>

#include "test_inputs.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, std::uint64_t bound = 0) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(bound ? rng() % bound : rng());
  return v;
}

// Predicates as functors: CUDA forbids device lambdas inside the test bodies (private members).
struct MultipleOf3 {
  KOKKOS_FUNCTION bool operator()(std::int64_t x) const { return x % 3 == 0; }
};
struct TwoMod7 {
  KOKKOS_FUNCTION bool operator()(std::size_t i) const { return i % 7 == 2; }
};

const std::vector<std::size_t> sizes = {0, 1, 2, 3, 255, 256, 257, 4095, 4096, 4097, 100003};

template <class K, class V, bool UseCub>
void check_sort_pairs(int begin_bit, int end_bit) {
  for (std::size_t n : sizes) {
    auto keys = random_values<K>(n, n + begin_bit, n % 3 == 0 ? 17 : 0);  // many ties sometimes
    std::vector<V> vals(n);
    std::iota(vals.begin(), vals.end(), V(0));
    const K mask = end_bit - begin_bit >= int(8 * sizeof(K)) ? ~K(0) : K((K(1) << (end_bit - begin_bit)) - 1);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return ((keys[a] >> begin_bit) & mask) < ((keys[b] >> begin_bit) & mask); });
    auto dk = to_device(keys), tk = to_device(keys);
    auto dv = to_device(vals), tv = to_device(vals);
    using KV = ktext::impl::Unmanaged<K, Exec>;
    using VV = ktext::impl::Unmanaged<V, Exec>;
    if (n > 1) {
      const bool in_tmp = ktext::impl::SortPairs<Exec, K, V, UseCub>::apply(Exec{}, KV(dk.data(), n), VV(dv.data(), n),
                                                                             KV(tk.data(), n), VV(tv.data(), n), begin_bit, end_bit);
      if (in_tmp) {
        Kokkos::deep_copy(dk, tk);
        Kokkos::deep_copy(dv, tv);
      }
    }
    const auto hk = to_host(dk);
    const auto hv = to_host(dv);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(hk[i], keys[order[i]]) << "n=" << n << " i=" << i;
      ASSERT_EQ(hv[i], V(order[i])) << "n=" << n << " i=" << i;  // stable
    }
  }
}

TEST(primitives, sort_pairs_portable) {
  check_sort_pairs<std::uint32_t, std::int32_t, false>(0, 32);
  check_sort_pairs<std::uint32_t, std::uint64_t, false>(0, 17);
  check_sort_pairs<std::uint64_t, std::int32_t, false>(8, 48);
  check_sort_pairs<std::uint64_t, std::int64_t, false>(0, 64);
  check_sort_pairs<std::uint16_t, std::int32_t, false>(0, 16);
}

TEST(primitives, sort_pairs_dispatched) {
  constexpr bool cub = ktext::impl::sort_pairs_cub_avail<Exec, std::uint32_t, std::int32_t>::value;
  check_sort_pairs<std::uint32_t, std::int32_t, cub>(0, 32);
  check_sort_pairs<std::uint32_t, std::uint32_t, cub>(3, 29);
  check_sort_pairs<std::uint64_t, std::int64_t, cub>(0, 64);
  check_sort_pairs<std::uint64_t, std::uint32_t, cub>(0, 40);
  check_sort_pairs<std::uint16_t, std::int32_t, cub>(0, 16);
  check_sort_pairs<std::uint16_t, std::int64_t, cub>(2, 13);
}

TEST(primitives, sort_pairs_public_api) {
  auto keys = random_values<std::uint64_t>(5000, 1);
  std::vector<std::int64_t> vals(keys.size());
  std::iota(vals.begin(), vals.end(), 0);
  auto dk = to_device(keys);
  auto dv = to_device(vals);
  ktext::sort_pairs(Exec{}, dk, dv);
  Exec{}.fence();
  auto hk = to_host(dk);
  auto hv = to_host(dv);
  EXPECT_TRUE(std::is_sorted(hk.begin(), hk.end()));
  for (std::size_t i = 0; i < hk.size(); ++i) ASSERT_EQ(keys[hv[i]], hk[i]);
  Kokkos::View<std::int64_t*, Mem> shorter("short", 4999);
  EXPECT_THROW(ktext::sort_pairs(Exec{}, dk, shorter), ktext::InputError);
  EXPECT_THROW(ktext::sort_pairs(Exec{}, dk, dv, 0, 65), ktext::InputError);
}

template <class K, class V>
void check_segmented(std::size_t n, std::size_t segments, std::uint64_t seed) {
  auto keys = random_values<K>(n, seed, seed % 2 ? 5 : 0);
  auto vals = random_values<V>(n, seed + 1);
  std::mt19937_64 rng(seed);
  std::vector<std::int32_t> offsets = {0};
  for (std::size_t s = 1; s < segments; ++s) offsets.push_back(std::int32_t(rng() % (n + 1)));
  offsets.push_back(std::int32_t(n));
  std::sort(offsets.begin(), offsets.end());
  auto dk = to_device(keys);
  auto dv = to_device(vals);
  ktext::segmented_sort_pairs(Exec{}, to_device(offsets), dk, dv);
  Exec{}.fence();
  auto hk = to_host(dk);
  auto hv = to_host(dv);
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    std::vector<std::pair<K, V>> want, got;
    for (auto i = offsets[s]; i < offsets[s + 1]; ++i) {
      want.emplace_back(keys[i], vals[i]);
      got.emplace_back(hk[i], hv[i]);
    }
    std::sort(want.begin(), want.end());
    for (std::size_t i = 1; i < got.size(); ++i) ASSERT_LE(got[i - 1].first, got[i].first) << "segment " << s;
    std::sort(got.begin(), got.end());  // values of equal keys may come in any order
    ASSERT_EQ(got, want) << "segment " << s;
  }
}

TEST(primitives, segmented_sort_pairs) {
  check_segmented<std::uint32_t, std::int32_t>(1000, 1, 1);
  check_segmented<std::uint32_t, std::int32_t>(10000, 300, 2);
  check_segmented<std::uint64_t, std::int64_t>(10000, 9000, 3);
  check_segmented<std::uint64_t, std::uint32_t>(50000, 7, 4);
  check_segmented<std::uint32_t, std::uint64_t>(3, 3, 5);
}

TEST(primitives, segmented_sort_pairs_leaves_the_rest) {
  // Segments covering [5, n - 7) only: the elements outside stay where and as they were.
  const std::size_t n = 5000;
  const auto keys = random_values<std::uint32_t>(n, 11);
  const auto vals = random_values<std::int64_t>(n, 12);
  const std::vector<std::int32_t> offsets = {5, 100, 2500, std::int32_t(n - 7)};
  auto dk = to_device(keys);
  auto dv = to_device(vals);
  ktext::segmented_sort_pairs(Exec{}, to_device(offsets), dk, dv);
  Exec{}.fence();
  const auto hk = to_host(dk);
  const auto hv = to_host(dv);
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= 5 && i < n - 7) continue;
    ASSERT_EQ(hk[i], keys[i]) << i;
    ASSERT_EQ(hv[i], vals[i]) << i;
  }
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    ASSERT_TRUE(std::is_sorted(hk.begin() + offsets[s], hk.begin() + offsets[s + 1])) << "segment " << s;
}

TEST(primitives, scans) {
  for (std::size_t n : sizes) {
    const auto in = random_values<std::uint32_t>(n, n, 1000);
    auto d = to_device(in);
    Kokkos::View<std::uint64_t*, Mem> out("out", n);
    const std::uint64_t total = ktext::exclusive_scan(Exec{}, d, out);
    auto h = to_host(out);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(h[i], sum) << "exclusive n=" << n << " i=" << i;
      sum += in[i];
    }
    EXPECT_EQ(total, sum);
    ktext::inclusive_scan(Exec{}, d, out);
    h = to_host(out);
    sum = 0;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], sum += in[i]) << "inclusive n=" << n;
    ktext::inclusive_scan_max(Exec{}, d, d);  // in place
    auto hm = to_host(d);
    std::uint32_t m = 0;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hm[i], m = std::max(m, in[i])) << "max n=" << n;
    auto e = to_device(in);
    EXPECT_EQ(ktext::exclusive_scan(Exec{}, e, e), std::uint32_t(total));  // in place
    auto he = to_host(e);
    std::uint32_t s32 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(he[i], s32);
      s32 += in[i];
    }
  }
}

struct MaxJoin {
  KOKKOS_FUNCTION std::int64_t identity() const { return 0; }
  KOKKOS_FUNCTION std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a < b ? b : a; }
};
struct SumJoin {
  KOKKOS_FUNCTION std::int64_t identity() const { return 0; }
  KOKKOS_FUNCTION std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};
template <class View>
struct ReadAt {
  View v;
  KOKKOS_FUNCTION std::int64_t operator()(std::size_t i) const { return v(i); }
};
template <class View>
struct WriteAt {
  View v;
  KOKKOS_FUNCTION void operator()(std::size_t i, std::int64_t x) const { v(i) = x; }
};

template <bool UseCub>
void check_scan_apply() {
  for (std::size_t n : sizes) {
    const auto in = random_values<std::int64_t>(n, n + 9, 1000);
    auto d = to_device(in);
    Kokkos::View<std::int64_t*, Mem> out("out", n);
    Kokkos::deep_copy(out, -7);
    if (n > 0)
      ktext::impl::ScanApply<Exec, UseCub>::template apply<std::int64_t>(Exec{}, n, ReadAt<decltype(d)>{d}, SumJoin{},
                                                                          WriteAt<decltype(out)>{out});
    const auto h = to_host(out);
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], sum += in[i]) << "n=" << n << " i=" << i;
  }
}

TEST(primitives, inclusive_scan_apply) {
  check_scan_apply<false>();
  check_scan_apply<ktext::impl::scan_cub_avail<Exec, void>::value>();
  // The public entry point, with a running maximum.
  const auto in = random_values<std::int64_t>(5000, 3, 1 << 20);
  auto d = to_device(in);
  Kokkos::View<std::int64_t*, Mem> out("out", in.size());
  ktext::inclusive_scan_apply<std::int64_t>(Exec{}, in.size(), ReadAt<decltype(d)>{d}, MaxJoin{},
                                            WriteAt<decltype(out)>{out});
  const auto h = to_host(out);
  std::int64_t m = 0;
  for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(h[i], m = std::max(m, in[i]));
}

TEST(primitives, select) {
  for (std::size_t n : sizes) {
    const auto in = random_values<std::int64_t>(n, n + 5, 100);
    const auto flags = random_values<std::uint8_t>(n, n + 6, 2);
    std::vector<std::int64_t> want_flagged, want_if, want_idx;
    for (std::size_t i = 0; i < n; ++i) {
      if (flags[i]) want_flagged.push_back(in[i]);
      if (in[i] % 3 == 0) want_if.push_back(in[i]);
      if (i % 7 == 2) want_idx.push_back(std::int64_t(i));
    }
    auto d = to_device(in);
    Kokkos::View<std::int64_t*, Mem> out("out", n);
    const std::size_t a = ktext::select_flagged(Exec{}, d, to_device(flags), out);
    ASSERT_EQ(a, want_flagged.size());
    auto h = to_host(out);
    EXPECT_TRUE(std::equal(want_flagged.begin(), want_flagged.end(), h.begin()));
    const std::size_t b = ktext::select_if(Exec{}, d, out, MultipleOf3{});
    ASSERT_EQ(b, want_if.size());
    h = to_host(out);
    EXPECT_TRUE(std::equal(want_if.begin(), want_if.end(), h.begin()));
    const std::size_t c = ktext::select_indices(Exec{}, n, out, TwoMod7{});
    ASSERT_EQ(c, want_idx.size());
    h = to_host(out);
    EXPECT_TRUE(std::equal(want_idx.begin(), want_idx.end(), h.begin()));
  }
}

template <class T>
void check_histogram(std::size_t n, std::size_t bins, std::uint64_t bound) {
  const auto in = random_values<T>(n, n + bins, bound);
  std::vector<std::uint64_t> want(bins, 0);
  for (auto x : in)
    if (std::size_t(x) < bins) ++want[x];
  Kokkos::View<std::uint64_t*, Mem> d("bins", bins);
  Kokkos::deep_copy(d, 12345);  // must be overwritten, not added to
  ktext::histogram(Exec{}, to_device(in), d);
  EXPECT_EQ(to_host(d), want) << "n=" << n << " bins=" << bins;
}

TEST(primitives, histogram) {
  for (std::size_t n : sizes) {
    check_histogram<std::uint8_t>(n, 256, 256);
    check_histogram<std::uint8_t>(n, 100, 256);  // values beyond the bins are not counted
    check_histogram<std::uint16_t>(n, 65536, 65536);
    check_histogram<std::uint16_t>(n, 300, 1000);
    check_histogram<std::uint32_t>(n, 4096, 5000);
  }
}

TEST(primitives, gather_scatter) {
  const std::size_t n = 10007;
  std::vector<std::int32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(1));
  const auto src = random_values<std::uint64_t>(n, 3);
  auto dsrc = to_device(src);
  auto dperm = to_device(perm);
  Kokkos::View<std::uint64_t*, Mem> g("g", n), s("s", n);
  ktext::gather(Exec{}, dsrc, dperm, g);
  ktext::scatter(Exec{}, dsrc, dperm, s);
  const auto hg = to_host(g);
  const auto hs = to_host(s);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(hg[i], src[perm[i]]);
    ASSERT_EQ(hs[perm[i]], src[i]);
  }
}

}  // namespace
