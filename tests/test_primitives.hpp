// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Primitive tests per backend against std:: oracles. On CUDA the portable path is run as well
// (UseCub = false), so both implementations are checked in one binary: the *_portable_vs_dispatched
// tests run both on the same inputs and compare the outputs bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <ktext/primitives.hpp>
#include <numeric>
#include <random>
#include <set>
#include <string>

#include "ktext/core/byte_loads.hpp"
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
  check_sort_pairs<std::uint8_t, std::int32_t, false>(0, 8);
  check_sort_pairs<std::uint8_t, std::int64_t, false>(1, 6);
}

TEST(primitives, sort_pairs_dispatched) {
  constexpr bool cub = ktext::impl::sort_pairs_cub_avail<Exec, std::uint32_t, std::int32_t>::value;
  check_sort_pairs<std::uint32_t, std::int32_t, cub>(0, 32);
  check_sort_pairs<std::uint32_t, std::uint32_t, cub>(3, 29);
  check_sort_pairs<std::uint64_t, std::int64_t, cub>(0, 64);
  check_sort_pairs<std::uint64_t, std::uint32_t, cub>(0, 40);
  check_sort_pairs<std::uint16_t, std::int32_t, cub>(0, 16);
  check_sort_pairs<std::uint16_t, std::int64_t, cub>(2, 13);
  check_sort_pairs<std::uint8_t, std::int32_t, cub>(0, 8);
  check_sort_pairs<std::uint8_t, std::int64_t, cub>(1, 6);
}

// Allocations of CUB's kept storage ("ktext::cub_temp[CUB] ..."), recorded while a test watches.
std::vector<std::string>* kept_storage_allocations = nullptr;
void record_kept_storage(Kokkos_Profiling_SpaceHandle, const char* label, const void*, std::uint64_t) {
  if (kept_storage_allocations && std::string(label).find("cub_temp") != std::string::npos)
    kept_storage_allocations->push_back(label);
}

TEST(primitives, sort_pairs_after_reserve_keeps_its_storage) {
  // A fresh instance: on CUDA its own stream, whose CUB storage starts empty, so that without the
  // reservation the first sort below allocates it and the 32-bit ones grow it.
  const auto exec = Kokkos::Experimental::partition_space(Exec{}, 1)[0];
  const std::size_t n = std::size_t(1) << 21;
  ktext::impl::reserve_sort_pairs<std::uint32_t, std::int32_t>(exec, n);
  const auto keys = random_values<std::uint32_t>(n, 11);
  std::vector<std::int32_t> vals(n);
  std::iota(vals.begin(), vals.end(), 0);
  auto dk = to_device(keys), tk = to_device(keys);
  auto dv = to_device(vals), tv = to_device(vals);
  Kokkos::fence("ktext::test: inputs copied");
  using KV = ktext::impl::Unmanaged<std::uint32_t, Exec>;
  using VV = ktext::impl::Unmanaged<std::int32_t, Exec>;
  std::vector<std::string> seen;
  const auto saved = Kokkos::Tools::Experimental::get_callbacks();
  kept_storage_allocations = &seen;
  Kokkos::Tools::Experimental::set_allocate_data_callback(record_kept_storage);
  bool in_tmp = false;
  // Half of them first: both buffers hold the input, so the other half stays whichever holds it.
  const std::pair<int, std::size_t> sorts[] = {{5, n / 2}, {8, n}, {24, n}, {32, n}};
  for (const auto& [bits, m] : sorts) {
    // Each sort takes the last one's output (either buffer) as its input.
    const KV k(in_tmp ? tk.data() : dk.data(), m), k_other(in_tmp ? dk.data() : tk.data(), m);
    const VV v(in_tmp ? tv.data() : dv.data(), m), v_other(in_tmp ? dv.data() : tv.data(), m);
    in_tmp = ktext::impl::sort_pairs_in_either(exec, k, v, k_other, v_other, 0, bits) != in_tmp;
  }
  exec.fence("ktext::test: sorts done");
  Kokkos::Tools::Experimental::set_callbacks(saved);
  kept_storage_allocations = nullptr;
  EXPECT_TRUE(seen.empty()) << seen.size() << " allocation(s) of CUB storage after the reservation, the first "
                            << (seen.empty() ? "" : seen.front());
  // The last sort, of all n pairs by all 32 bits, sorted them: each key is its value's input key.
  const auto hk = to_host(in_tmp ? tk : dk);
  const auto hv = to_host(in_tmp ? tv : dv);
  ASSERT_TRUE(std::is_sorted(hk.begin(), hk.end()));
  std::vector<bool> seen_value(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(hk[i], keys[std::size_t(hv[i])]) << i;
    ASSERT_FALSE(seen_value[std::size_t(hv[i])]) << "value " << hv[i] << " twice";
    seen_value[std::size_t(hv[i])] = true;
  }
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

/// How check_segmented sorts: the public function, the in-either form as dispatched (CUB on
/// CUDA), or the portable in-either form (one thread per segment).
enum class SegmentedCall { pub, in_either, in_either_portable };

/// Keys below 2^\p key_bits if given, else odd seeds draw keys below 5 and even ones over all of
/// K; \p key_shift moves them up that many bits (keys that differ only in a high byte).
template <class K, class V>
void check_segmented(std::size_t n, std::size_t segments, std::uint64_t seed, SegmentedCall call = SegmentedCall::pub,
                     int key_shift = 0, int key_bits = 0) {
  auto keys = random_values<K>(n, seed, key_bits ? std::uint64_t(1) << key_bits : seed % 2 ? 5 : 0);
  for (auto& k : keys) k = K(k << key_shift);
  auto vals = random_values<V>(n, seed + 1);
  std::mt19937_64 rng(seed);
  std::vector<std::int32_t> offsets = {0};
  for (std::size_t s = 1; s < segments; ++s) offsets.push_back(std::int32_t(rng() % (n + 1)));
  offsets.push_back(std::int32_t(n));
  std::sort(offsets.begin(), offsets.end());
  auto dk = to_device(keys);
  auto dv = to_device(vals);
  auto doff = to_device(offsets);
  if (call == SegmentedCall::pub) {
    ktext::segmented_sort_pairs(Exec{}, doff, dk, dv);
  } else {
    Kokkos::View<K*, Mem> kt("kt", n);
    Kokkos::View<V*, Mem> vt("vt", n);
    const ktext::impl::Unmanaged<const std::int32_t, Exec> off(doff.data(), doff.extent(0));
    const ktext::impl::Unmanaged<K, Exec> k(dk.data(), n), k2(kt.data(), n);
    const ktext::impl::Unmanaged<V, Exec> v(dv.data(), n), v2(vt.data(), n);
    const bool in_tmp =
        call == SegmentedCall::in_either
            ? ktext::impl::segmented_sort_pairs_in_either(Exec{}, off, k, v, k2, v2)
            : ktext::impl::SegmentedSort<Exec, std::int32_t, K, V, false>::apply_in_either(Exec{}, off, k, v, k2, v2);
    if (in_tmp) dk = kt, dv = vt;
  }
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

TEST(primitives, segmented_sort_pairs_in_either) {
  // Segments covering every element, the caller's scratch: as dispatched, and the portable
  // thread-per-segment form (insertion sort up to 16, heapsort up to 256, split in place by one
  // or two bytes above: keys below 5, below 5 << 40, 2^12 or 2^20 (parts over 256 split again),
  // or with all bits random).
  for (auto call : {SegmentedCall::in_either, SegmentedCall::in_either_portable}) {
    check_segmented<std::uint32_t, std::int32_t>(0, 1, 1, call);
    check_segmented<std::uint32_t, std::int32_t>(1, 1, 1, call);
    check_segmented<std::uint32_t, std::int32_t>(5000, 1, 1, call);
    check_segmented<std::uint32_t, std::uint32_t>(10000, 300, 2, call);
    check_segmented<std::uint32_t, std::uint32_t>(10000, 3000, 3, call);
    check_segmented<std::uint64_t, std::int64_t>(20000, 9000, 4, call);
    check_segmented<std::uint64_t, std::uint32_t>(50000, 7, 5, call);
    check_segmented<std::uint32_t, std::int32_t>(20000, 20, 6, call);
    check_segmented<std::uint64_t, std::int64_t>(20000, 20, 7, call, 40);
    check_segmented<std::uint64_t, std::int64_t>(3000, 10, 8, call);
    check_segmented<std::uint32_t, std::int32_t>(200000, 1, 9, call, 0, 12);
    check_segmented<std::uint32_t, std::uint64_t>(200000, 2, 10, call, 0, 20);
  }
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

/// The scan of implementation \p Impl (ScanApply<Exec, ...>) against a serial sum.
template <class Impl>
void check_scan_apply() {
  for (std::size_t n : sizes) {
    const auto in = random_values<std::int64_t>(n, n + 9, 1000);
    auto d = to_device(in);
    Kokkos::View<std::int64_t*, Mem> out("out", n);
    Kokkos::deep_copy(out, -7);
    if (n > 0)
      Impl::template apply<std::int64_t>(Exec{}, n, ReadAt<decltype(d)>{d}, SumJoin{}, WriteAt<decltype(out)>{out});
    const auto h = to_host(out);
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], sum += in[i]) << "n=" << n << " i=" << i;
  }
}

TEST(primitives, inclusive_scan_apply) {
  check_scan_apply<ktext::impl::ScanApply<Exec, false, false>>();  // Kokkos' scan
  check_scan_apply<ktext::impl::ScanApply<Exec>>();                // CUB's, or the hosts' single pass
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
    std::vector<std::int64_t> want_flagged, want_if, want_idx, want_by_index;
    for (std::size_t i = 0; i < n; ++i) {
      if (flags[i]) want_flagged.push_back(in[i]);
      if (in[i] % 3 == 0) want_if.push_back(in[i]);
      if (i % 7 == 2) want_idx.push_back(std::int64_t(i));
      if (i % 7 == 2) want_by_index.push_back(in[i]);
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
    const std::size_t e = ktext::select_by_index(Exec{}, d, out, TwoMod7{});
    ASSERT_EQ(e, want_by_index.size());
    h = to_host(out);
    EXPECT_TRUE(std::equal(want_by_index.begin(), want_by_index.end(), h.begin()));
  }
}

TEST(primitives, select_into_a_short_output) {
  // An output of exactly the kept count is enough; a shorter one is refused, and nothing is
  // written past its end (the guard element after the subview stays).
  const std::size_t n = 10000, kept = (n + 4) / 7;  // i % 7 == 2
  Kokkos::View<std::int64_t*, Mem> store("store", kept + 1);
  Kokkos::deep_copy(store, -1);
  const auto exact = Kokkos::subview(store, Kokkos::make_pair(std::size_t(0), kept));
  EXPECT_EQ(ktext::select_indices(Exec{}, n, exact, TwoMod7{}), kept);
  auto h = to_host(store);
  for (std::size_t j = 0; j < kept; ++j) ASSERT_EQ(h[j], std::int64_t(7 * j + 2));
  EXPECT_EQ(h[kept], -1);
  Kokkos::deep_copy(store, -1);
  const auto shorter = Kokkos::subview(store, Kokkos::make_pair(std::size_t(0), kept - 1));
  EXPECT_THROW(ktext::select_indices(Exec{}, n, shorter, TwoMod7{}), ktext::InputError);
  const auto in = to_device(random_values<std::int64_t>(n, 3));
  EXPECT_THROW(ktext::select_by_index(Exec{}, in, shorter, TwoMod7{}), ktext::InputError);
  Exec{}.fence();
  h = to_host(store);
  EXPECT_EQ(h[kept - 1], -1);
  EXPECT_EQ(h[kept], -1);
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

struct LoadBytes8 {
  Kokkos::View<const std::uint8_t*, Mem> bytes;
  std::uint64_t offset, size;
  Kokkos::View<std::uint64_t*, Mem> out;
  KOKKOS_FUNCTION void operator()(std::uint64_t at) const {
    out(at) = ktext::impl::load_bytes8(bytes.data() + offset, size, at);
  }
};

// Eight bytes at every offset of arrays that start at every alignment and end where their
// allocation does (so compute-sanitizer sees any read past them), against a byte-by-byte
// oracle: bytes past the array read as 0.
TEST(primitives, load_bytes8) {
  std::mt19937_64 rng(8);
  for (std::uint64_t total : {1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 40, 100}) {
    std::vector<std::uint8_t> host(total);
    for (auto& b : host) b = static_cast<std::uint8_t>(rng());
    const auto bytes = to_device(host, "ktext::test::bytes");
    for (std::uint64_t offset = 0; offset < 8 && offset < total; ++offset) {
      const std::uint64_t size = total - offset, reads = size + 9;
      Kokkos::View<std::uint64_t*, Mem> out("ktext::test::words", reads);
      Kokkos::parallel_for("ktext::test::load_bytes8", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::uint64_t>>(0, reads),
                           LoadBytes8{bytes, offset, size, out});
      const auto got = to_host(out);
      for (std::uint64_t at = 0; at < reads; ++at) {
        std::uint64_t want = 0;
        for (std::uint64_t t = 0; t < 8 && at + t < size; ++t) want |= std::uint64_t(host[offset + at + t]) << (8 * t);
        ASSERT_EQ(got[at], want) << "total " << total << ", offset " << offset << ", at " << at;
      }
    }
  }
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

TEST(primitives, scatter_in_windows) {
  // Windows of the destination, one pass each: a window of 1 entry, windows that do not divide
  // it, one short of it, and as large or larger (one pass). The indices cover a part of a longer
  // destination, whose other entries keep their values.
  const std::size_t n = 10007, size = n + 1347;
  std::vector<std::int32_t> perm(size);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(2));
  perm.resize(n);
  const auto src = random_values<std::uint32_t>(n, 4);
  std::vector<std::uint32_t> want(size, 7u);
  for (std::size_t i = 0; i < n; ++i) want[std::size_t(perm[i])] = src[i];
  auto dsrc = to_device(src);
  auto dperm = to_device(perm);
  for (std::size_t window : {std::size_t(1), std::size_t(7), std::size_t(1000), size - 1, size, size + 5}) {
    Kokkos::View<std::uint32_t*, Mem> out("out", size);
    Kokkos::deep_copy(out, 7u);
    ktext::scatter(Exec{}, dsrc, dperm, out, window);
    ASSERT_EQ(to_host(out), want) << "window " << window;
  }
  // One pass on hosts, windows on devices.
  const bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
  EXPECT_EQ(ktext::cache_window<std::uint32_t>(Exec{}) == 0, host);
}

template <class I, class V>
void check_scatter_partitioned(std::size_t n, std::size_t size, int bits) {
  std::vector<I> perm(size);
  std::iota(perm.begin(), perm.end(), I(0));
  std::shuffle(perm.begin(), perm.end(), std::mt19937(std::uint32_t(n + bits)));
  perm.resize(n);
  const auto src = random_values<V>(n, n + 5);
  std::vector<V> want(size, V(7));
  for (std::size_t i = 0; i < n; ++i) want[std::size_t(perm[i])] = src[i];
  auto dsrc = to_device(src);
  auto dperm = to_device(perm);
  Kokkos::View<V*, Mem> out("out", size), src_tmp("src_tmp", n);
  Kokkos::View<I*, Mem> idx_tmp("idx_tmp", n);
  Kokkos::deep_copy(out, V(7));
  ktext::scatter_partitioned(Exec{}, dsrc, dperm, out, src_tmp, idx_tmp, bits);
  ASSERT_EQ(to_host(out), want) << "n " << n << " size " << size << " bits " << bits;
  // The partition only reads its inputs.
  ASSERT_EQ(to_host(dsrc), src) << "n " << n << " bits " << bits;
  ASSERT_EQ(to_host(dperm), perm) << "n " << n << " bits " << bits;
  if (n == size) {
    // The destination in the source's memory (how the suffix array writes its initial ranks).
    ktext::scatter_partitioned(Exec{}, dsrc, dperm, dsrc, src_tmp, idx_tmp, bits);
    ASSERT_EQ(to_host(dsrc), want) << "in place, n " << n << " bits " << bits;
  }
}

TEST(primitives, scatter_partitioned) {
  // Parts of 1 to 8 bits of the destination, which the indices cover wholly or in part (the
  // other entries keep their values), sizes 2^k + {0, 7, 723, 1347} and the smallest.
  std::vector<std::size_t> ns = {0, 1, 2, 3};
  for (int k : {4, 12, 16})
    for (std::size_t d : {0, 7, 723, 1347}) ns.push_back((std::size_t(1) << k) + d);
  for (std::size_t n : ns)
    for (int bits : {1, 3, 8}) {
      check_scatter_partitioned<std::uint32_t, std::uint32_t>(n, n, bits);
      check_scatter_partitioned<std::uint32_t, std::uint64_t>(n, n + 1347, bits);
      check_scatter_partitioned<std::uint64_t, std::int32_t>(n, 2 * n + 1, bits);
    }
  // Indices reaching the top of a destination whose size is a power of two, and bad arguments.
  check_scatter_partitioned<std::uint32_t, std::uint32_t>(std::size_t(1) << 16, std::size_t(1) << 16, 8);
  Kokkos::View<std::uint32_t*, Mem> v("v", 4), short_tmp("short", 3);
  EXPECT_THROW(ktext::scatter_partitioned(Exec{}, v, v, v, v, v, 0), ktext::InputError);
  EXPECT_THROW(ktext::scatter_partitioned(Exec{}, v, v, v, v, v, 9), ktext::InputError);
  EXPECT_THROW(ktext::scatter_partitioned(Exec{}, v, v, v, short_tmp, v, 4), ktext::InputError);
  EXPECT_THROW(ktext::scatter_partitioned(Exec{}, short_tmp, v, v, v, v, 4), ktext::InputError);
}

// ---- portable vs dispatched -------------------------------------------------------------------
// For every primitive with a CUB specialization: the implementation struct with UseCub = false
// and the public call (the dispatched path) on the same inputs, outputs compared bit for bit. On
// host backends both paths are the portable one and the test checks the public wrapper; on CUDA
// it compares the portable implementation against CUB.

namespace ki = ktext::impl;

/// n = 0..3, powers of two and their neighbours up to 2^16, neighbours of the tile sizes of CUB's
/// kernels (threads per block times items per thread) and their multiples, and of the portable
/// sort's 4096-element chunks; one size past 2^19 for many tiles (CUB's decoupled look-back
/// across tiles, several onesweep passes). On host backends both paths are the same code, so a
/// few sizes check the public wrappers (each kernel launch costs a parallel region there).
std::vector<std::size_t> boundary_sizes() {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible)
    return {0, 1, 2, 3, 255, 256, 257, 4095, 4096, 4097, 65537, 1000003};
  std::set<std::size_t> s{0, 1, 2, 3, 1000003};
  for (int k = 2; k <= 16; ++k)
    for (std::size_t at : {(std::size_t(1) << k) - 1, std::size_t(1) << k, (std::size_t(1) << k) + 1}) s.insert(at);
  // CUB's scan tiles, and the wide values' (WideScanPolicy: 256 threads of 5, 7 or 10 items).
  for (std::size_t tile : {1280, 1792, 1920, 2304, 2560, 3584, 5376, 7168, 11520, 12288})
    for (std::size_t times : {1, 3})
      for (std::size_t at : {tile * times - 1, tile * times, tile * times + 1}) s.insert(at);
  return {s.begin(), s.end()};
}

/// The input shapes: random over the whole type, few distinct values (long runs of ties), all
/// equal.
enum class Shape { random, few, equal };
const Shape shapes[] = {Shape::random, Shape::few, Shape::equal};
const char* name(Shape s) { return s == Shape::random ? "random" : s == Shape::few ? "few" : "equal"; }

/// The cases a sweep runs: every shape up to 2^16, random inputs only beyond (time).
std::vector<std::pair<std::size_t, Shape>> cases() {
  std::vector<std::pair<std::size_t, Shape>> c;
  for (std::size_t n : boundary_sizes())
    for (Shape shape : shapes)
      if ((n <= (std::size_t(1) << 16) + 1 || shape == Shape::random) && take_case()) c.emplace_back(n, shape);
  return c;
}

template <class T>
std::vector<T> shaped(std::size_t n, Shape shape, std::uint64_t seed) {
  if (shape == Shape::equal) return std::vector<T>(n, T(seed % 5 + 1));
  return random_values<T>(n, seed, shape == Shape::few ? 7 : 0);
}

template <class T>
ki::Unmanaged<T, Exec> um(const Kokkos::View<T*, Mem>& v) {
  return ki::Unmanaged<T, Exec>(v.data(), v.extent(0));
}
template <class T>
ki::Unmanaged<const T, Exec> cum(const Kokkos::View<T*, Mem>& v) {
  return ki::Unmanaged<const T, Exec>(v.data(), v.extent(0));
}

/// The first index where \p a and \p b differ (bit for bit: integers compare exactly), or a.size().
template <class T>
std::size_t first_difference(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return 0;
  return std::size_t(std::mismatch(a.begin(), a.end(), b.begin()).first - a.begin());
}
#define KTEXT_EXPECT_SAME(a, b, what)                                                         \
  do {                                                                                        \
    const auto& a_ = (a);                                                                     \
    const auto& b_ = (b);                                                                     \
    ASSERT_EQ(a_.size(), b_.size()) << what;                                                  \
    const std::size_t at_ = first_difference(a_, b_);                                         \
    ASSERT_EQ(at_, a_.size()) << what << ": portable and dispatched differ first at " << at_; \
  } while (0)

template <class K, class V>
void compare_sort_pairs(int begin_bit, int end_bit) {
  for (const auto& [n, shape] : cases()) {
    const std::string what = "sort_pairs n=" + std::to_string(n) + " " + name(shape) + " bits [" +
                             std::to_string(begin_bit) + ", " + std::to_string(end_bit) + ")";
    const auto keys = shaped<K>(n, shape, n + 1);
    const auto vals = random_values<V>(n, n + 2);
    auto pk = to_device(keys), ptk = to_device(keys);  // one declaration deduces one type
    auto pv = to_device(vals), ptv = to_device(vals);
    if (n > 1 &&
        ki::SortPairs<Exec, K, V, false>::apply(Exec{}, um(pk), um(pv), um(ptk), um(ptv), begin_bit, end_bit)) {
      Kokkos::deep_copy(Exec{}, pk, ptk);
      Kokkos::deep_copy(Exec{}, pv, ptv);
    }
    auto dk = to_device(keys);
    auto dv = to_device(vals);
    Kokkos::View<K*, Mem> dtk("keys_tmp", n);
    Kokkos::View<V*, Mem> dtv("vals_tmp", n);
    ktext::sort_pairs(Exec{}, dk, dv, dtk, dtv, begin_bit, end_bit);
    KTEXT_EXPECT_SAME(to_host(pk), to_host(dk), what + " keys");
    KTEXT_EXPECT_SAME(to_host(pv), to_host(dv), what + " values");
  }
}

TEST(primitives, sort_pairs_portable_vs_dispatched) {
  compare_sort_pairs<std::uint32_t, std::int32_t>(0, 32);
  compare_sort_pairs<std::uint32_t, std::uint32_t>(3, 29);
  compare_sort_pairs<std::uint64_t, std::int64_t>(0, 64);
  compare_sort_pairs<std::uint64_t, std::uint32_t>(0, 40);
  compare_sort_pairs<std::uint16_t, std::int32_t>(0, 16);
  compare_sort_pairs<std::uint16_t, std::int64_t>(2, 13);
  compare_sort_pairs<std::uint8_t, std::int32_t>(0, 8);
}

/// Offsets over n: random lengths of mean \p mean (empty segments included), or one segment.
std::vector<std::int32_t> compare_offsets(std::size_t n, std::size_t mean, std::uint64_t seed) {
  std::vector<std::int32_t> off{0};
  std::mt19937_64 rng(seed);
  std::size_t at = 0;
  while (mean > 0 && at < n) {
    at = std::min(n, at + rng() % (2 * mean + 1));
    off.push_back(std::int32_t(at));
  }
  if (off.back() != std::int32_t(n)) off.push_back(std::int32_t(n));
  return off;
}

/// Neither path is stable, so values of equal keys in a segment may legitimately come out in
/// different orders: keys must agree exactly, values exactly wherever their key is unique in
/// its segment and as a multiset over each run of equal keys.
template <class K, class V>
void expect_same_segmented(const std::vector<std::int32_t>& off, const std::vector<K>& pk, const std::vector<V>& pv,
                           const std::vector<K>& dk, std::vector<V> dv, const std::string& what) {
  KTEXT_EXPECT_SAME(pk, dk, what + " keys");
  std::vector<V> p = pv;
  for (std::size_t s = 0; s + 1 < off.size(); ++s)
    for (std::size_t i = std::size_t(off[s]); i < std::size_t(off[s + 1]);) {
      std::size_t j = i + 1;
      while (j < std::size_t(off[s + 1]) && pk[j] == pk[i]) ++j;
      std::sort(p.begin() + i, p.begin() + j);
      std::sort(dv.begin() + i, dv.begin() + j);
      i = j;
    }
  KTEXT_EXPECT_SAME(p, dv, what + " values (per run of equal keys)");
}

template <class K, class V>
void compare_segmented_sort() {
  for (const auto& [n, shape] : cases())
    for (std::size_t mean : {std::size_t(0), std::size_t(1), std::size_t(40), std::size_t(3000)}) {
      const std::string what =
          "segmented_sort_pairs n=" + std::to_string(n) + " " + name(shape) + " mean segment " + std::to_string(mean);
      const auto keys = shaped<K>(n, shape, n + 3);
      const auto vals = random_values<V>(n, n + 4);
      const auto off_h = compare_offsets(n, mean, n + mean);
      auto off = to_device(off_h);
      auto pk = to_device(keys);  // one declaration deduces one type
      auto pv = to_device(vals);
      if (off_h.size() >= 2 && n >= 2)
        ki::SegmentedSort<Exec, std::int32_t, K, V, false>::apply(Exec{}, cum(off), um(pk), um(pv));
      auto dk = to_device(keys);
    auto dv = to_device(vals);
      ktext::segmented_sort_pairs(Exec{}, off, dk, dv);
      expect_same_segmented(off_h, to_host(pk), to_host(pv), to_host(dk), to_host(dv), what);
    }
}

TEST(primitives, segmented_sort_pairs_portable_vs_dispatched) {
  compare_segmented_sort<std::uint32_t, std::int32_t>();
  compare_segmented_sort<std::uint64_t, std::int64_t>();
  compare_segmented_sort<std::uint64_t, std::uint32_t>();
}

template <class T, class U>
void compare_scans(std::uint64_t bound) {
  using Portable = ki::Scan<Exec, T, U, false>;
  for (const auto& [n, shape] : cases()) {
    const std::string what = "scan n=" + std::to_string(n) + " " + name(shape);
    auto values = shaped<T>(n, shape, n + 5);
    for (auto& x : values) x = static_cast<T>(std::uint64_t(x) % bound);  // keeps the maximum's inputs non-negative
    const auto in = to_device(values);
    Kokkos::View<U*, Mem> p("portable", n), d("dispatched", n);
    const U total = n ? Portable::exclusive_sum(Exec{}, cum(in), um(p)) : U(0);
    EXPECT_EQ(total, ktext::exclusive_scan(Exec{}, in, d)) << what << " total";
    KTEXT_EXPECT_SAME(to_host(p), to_host(d), what + " exclusive");
    if (n) Portable::template inclusive<ki::ScanOp::Sum>(Exec{}, cum(in), um(p));
    ktext::inclusive_scan(Exec{}, in, d);
    KTEXT_EXPECT_SAME(to_host(p), to_host(d), what + " inclusive");
    if (n) Portable::template inclusive<ki::ScanOp::Max>(Exec{}, cum(in), um(p));
    ktext::inclusive_scan_max(Exec{}, in, d);
    KTEXT_EXPECT_SAME(to_host(p), to_host(d), what + " inclusive max");
    // In place, as the library's callers do. Filled on Exec: the default host space would be
    // OpenMP even in the Serial binary.
    Kokkos::deep_copy(Exec{}, p, U(1));
    Kokkos::deep_copy(Exec{}, d, U(1));
    const U in_place = n ? ki::Scan<Exec, U, U, false>::exclusive_sum(Exec{}, cum(p), um(p)) : U(0);
    EXPECT_EQ(in_place, ktext::exclusive_scan(Exec{}, d, d)) << what << " in place total";
    KTEXT_EXPECT_SAME(to_host(p), to_host(d), what + " in place");
  }
}

TEST(primitives, scans_portable_vs_dispatched) {
  compare_scans<std::uint32_t, std::uint64_t>(~std::uint64_t(0));
  compare_scans<std::uint32_t, std::uint32_t>(~std::uint64_t(0));  // wraps around: still exact
  compare_scans<std::int64_t, std::int64_t>(std::uint64_t(1) << 40);
  compare_scans<std::int32_t, std::int32_t>(1000);
}

template <bool UseCub>
std::vector<std::int64_t> scan_apply(const Kokkos::View<std::int64_t*, Mem>& in, bool max) {
  const std::size_t n = in.extent(0);
  Kokkos::View<std::int64_t*, Mem> out("out", n);
  const ReadAt<Kokkos::View<std::int64_t*, Mem>> make{in};
  const WriteAt<Kokkos::View<std::int64_t*, Mem>> apply{out};
  if constexpr (UseCub) {
    if (max)
      ktext::inclusive_scan_apply<std::int64_t>(Exec{}, n, make, MaxJoin{}, apply);
    else
      ktext::inclusive_scan_apply<std::int64_t>(Exec{}, n, make, SumJoin{}, apply);
  } else if (n > 0) {
    if (max)
      ki::ScanApply<Exec, false>::template apply<std::int64_t>(Exec{}, n, make, MaxJoin{}, apply);
    else
      ki::ScanApply<Exec, false>::template apply<std::int64_t>(Exec{}, n, make, SumJoin{}, apply);
  }
  return to_host(out);
}

TEST(primitives, inclusive_scan_apply_portable_vs_dispatched) {
  for (const auto& [n, shape] : cases()) {
    auto values = shaped<std::int64_t>(n, shape, n + 6);
    for (auto& x : values) x = std::int64_t(std::uint64_t(x) >> 24);  // non-negative, no overflow
    const auto in = to_device(values);
    const std::string what = "inclusive_scan_apply n=" + std::to_string(n) + " " + name(shape);
    KTEXT_EXPECT_SAME(scan_apply<false>(in, false), scan_apply<true>(in, false), what + " sum");
    KTEXT_EXPECT_SAME(scan_apply<false>(in, true), scan_apply<true>(in, true), what + " max");
  }
}

/// A scan value wider than 8 bytes, as the suffix array rounds' (start, head, kept) marks: a
/// running maximum, a running sum and the last nonzero tag, whose join is not commutative, so a
/// scan that joins in the wrong order fails.
template <class U>
struct Wide {
  U max, sum, last;
};
template <class U>
struct WideJoin {
  KOKKOS_FUNCTION Wide<U> identity() const { return {0, 0, 0}; }
  KOKKOS_FUNCTION Wide<U> operator()(const Wide<U>& a, const Wide<U>& b) const {
    return {a.max < b.max ? b.max : a.max, U(a.sum + b.sum), b.last != 0 ? b.last : a.last};
  }
};
template <class View, class U>
struct WideAt {
  View in;
  KOKKOS_FUNCTION Wide<U> operator()(std::size_t i) const {
    const U x = U(in(i));
    return {x, x, U(x % 3 == 0 ? 0 : x)};
  }
};
template <class View, class U>
struct WideOut {
  View out;
  KOKKOS_FUNCTION void operator()(std::size_t i, const Wide<U>& w) const {
    out(3 * i) = w.max;
    out(3 * i + 1) = w.sum;
    out(3 * i + 2) = w.last;
  }
};

template <class U>
void check_wide_scan_apply() {
  for (const auto& [n, shape] : cases()) {
    const auto values = shaped<U>(n, shape, n + 10);
    std::vector<U> want(3 * n);
    Wide<U> at{0, 0, 0};
    for (std::size_t i = 0; i < n; ++i) {
      const U x = values[i];
      at = WideJoin<U>{}(at, Wide<U>{x, x, U(x % 3 == 0 ? 0 : x)});
      want[3 * i] = at.max, want[3 * i + 1] = at.sum, want[3 * i + 2] = at.last;
    }
    const auto in = to_device(values);
    Kokkos::View<U*, Mem> out("out", 3 * n);
    const WideAt<decltype(in), U> make{in};
    ktext::inclusive_scan_apply<Wide<U>>(Exec{}, n, make, WideJoin<U>{}, WideOut<decltype(out), U>{out});
    const std::string what =
        "wide inclusive_scan_apply of " + std::to_string(sizeof(Wide<U>)) + " bytes n=" + std::to_string(n) + " " + name(shape);
    KTEXT_EXPECT_SAME(want, to_host(out), what + " dispatched");
    // Kokkos' scan on CUDA joins a later partial into an earlier one's place, so it needs a
    // commutative join, which `last` is not: the portable path is compared where it is the
    // dispatched one's equal (hosts). CUDA always takes CUB's, which keeps the order.
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
      Kokkos::View<U*, Mem> portable("portable", 3 * n);
      if (n > 0)
        ki::ScanApply<Exec, false, false>::template apply<Wide<U>>(Exec{}, n, make, WideJoin<U>{},
                                                                   WideOut<decltype(portable), U>{portable});
      KTEXT_EXPECT_SAME(want, to_host(portable), what + " portable");
    }
  }
}

TEST(primitives, inclusive_scan_apply_wide_values) {
  check_wide_scan_apply<std::uint32_t>();  // 12 bytes
  check_wide_scan_apply<std::uint64_t>();  // 24 bytes
}

// The portable selections the public select_* calls make, as functors (see the note on lambdas).
template <class View>
struct FlagKeep {
  View flags;
  KOKKOS_FUNCTION bool operator()(std::size_t i) const { return flags(i) != 0; }
};
template <class View, class Pred>
struct ValueKeep {
  View in;
  Pred pred;
  KOKKOS_FUNCTION bool operator()(std::size_t i) const { return pred(in(i)); }
};
template <class View>
struct ValueGet {
  View in;
  KOKKOS_FUNCTION auto operator()(std::size_t i) const { return in(i); }
};
template <class T>
struct IndexGet {
  KOKKOS_FUNCTION T operator()(std::size_t i) const { return static_cast<T>(i); }
};

/// The first \p count elements of \p out on the host.
template <class T>
std::vector<T> kept(const Kokkos::View<T*, Mem>& out, std::size_t count) {
  auto h = to_host(out);
  h.resize(count);
  return h;
}

TEST(primitives, select_portable_vs_dispatched) {
  using Portable = ki::Select<Exec, false, false>;  // Kokkos' scan (CUB's, or the hosts' single pass, dispatched)
  for (const auto& [n, shape] : cases()) {
    const std::string what = "select n=" + std::to_string(n) + " " + name(shape);
    const auto in = to_device(shaped<std::int64_t>(n, shape, n + 7));
    auto flags_h = shaped<std::uint8_t>(n, shape, n + 8);
    if (shape != Shape::equal)  // about half kept; all when equal
      for (auto& f : flags_h) f &= 1;
    const auto flags = to_device(flags_h);
    Kokkos::View<std::int64_t*, Mem> p("portable", n), d("dispatched", n);
    auto run = [&](std::size_t portable, std::size_t dispatched, const std::string& which) {
      ASSERT_EQ(portable, dispatched) << what << " " << which << " count";
      KTEXT_EXPECT_SAME(kept(p, portable), kept(d, dispatched), what + " " + which);
    };
    auto get = ValueGet<decltype(in)>{in};
    run(n ? Portable::apply(Exec{}, n, FlagKeep<decltype(flags)>{flags}, get, p) : 0,
        ktext::select_flagged(Exec{}, in, flags, d), "select_flagged");
    run(n ? Portable::apply(Exec{}, n, ValueKeep<decltype(in), MultipleOf3>{in, {}}, get, p) : 0,
        ktext::select_if(Exec{}, in, d, MultipleOf3{}), "select_if");
    run(n ? Portable::apply(Exec{}, n, TwoMod7{}, get, p) : 0, ktext::select_by_index(Exec{}, in, d, TwoMod7{}),
        "select_by_index");
    run(n ? Portable::apply(Exec{}, n, TwoMod7{}, IndexGet<std::int64_t>{}, p) : 0,
        ktext::select_indices(Exec{}, n, d, TwoMod7{}), "select_indices");
  }
}

template <class T>
void compare_histogram(std::size_t bins, std::uint64_t bound) {
  for (const auto& [n, shape] : cases()) {
    const std::string what = "histogram n=" + std::to_string(n) + " " + name(shape) + " bins " + std::to_string(bins);
    auto values = shaped<T>(n, shape, n + 9);
    for (auto& x : values) x = static_cast<T>(std::uint64_t(x) % bound);
    const auto in = to_device(values);
    Kokkos::View<std::uint64_t*, Mem> p("portable", bins), d("dispatched", bins);
    ki::Histogram<Exec, T, false>::apply(Exec{}, cum(in), um(p));
    ktext::histogram(Exec{}, in, d);
    KTEXT_EXPECT_SAME(to_host(p), to_host(d), what);
    if (n > 3) {  // a view that does not start on a 16-byte boundary
      const auto tail = Kokkos::subview(in, Kokkos::make_pair(std::size_t(3), n));
      ki::Histogram<Exec, T, false>::apply(Exec{}, ki::Unmanaged<const T, Exec>(tail.data(), n - 3), um(p));
      ktext::histogram(Exec{}, tail, d);
      KTEXT_EXPECT_SAME(to_host(p), to_host(d), what + " from offset 3");
    }
  }
}

TEST(primitives, histogram_portable_vs_dispatched) {
  compare_histogram<std::uint8_t>(256, 256);
  compare_histogram<std::uint8_t>(100, 256);  // values beyond the bins are dropped by both
  compare_histogram<std::uint16_t>(65536, 65536);
  compare_histogram<std::uint16_t>(300, 1000);
  compare_histogram<std::uint32_t>(4096, 5000);
}

}  // namespace
