// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Benchmarks of the ktext primitives on one backend (KTEXT_BENCH_EXEC), with host peers
// (std::stable_sort) where the backend's memory is host memory.
//
// Names: <primitive>_<Backend>/<variant>/<n> and std_stable_sort/<variant>/<n>.
// Sizes: 2^16 .. 2^24 elements, every factor 8 (KTEXT_BENCH_MIN_LOG2 / KTEXT_BENCH_MAX_LOG2
// change the range). Inputs are random but fixed by a seed; buffers are allocated outside the
// timed loop (the primitives' scratch included), and every timed iteration ends with exec.fence().
// Items/s counts elements; bytes/s counts the bytes the primitive must read and write once.
#include <algorithm>
#include <functional>
#include <ktext/primitives.hpp>
#include <utility>

#include "bench_common.hpp"

namespace ktext::bench {
namespace {

template <class T>
using DView = Kokkos::View<T*, Mem>;

// ---- sort_pairs ------------------------------------------------------------------------------

/// Keys random in the low \p bits bits, values random (the sort must move both).
template <class K, class V>
void bm_sort_pairs(benchmark::State& state, int bits) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto k0 = to_device(random_values<K>(n, 1, bits), "keys0");
  auto v0 = to_device(random_values<V>(n, 2), "vals0");
  DView<K> k(Kokkos::view_alloc(Kokkos::WithoutInitializing, "keys"), n), kt(Kokkos::view_alloc(Kokkos::WithoutInitializing, "keys_tmp"), n);
  DView<V> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "vals"), n), vt(Kokkos::view_alloc(Kokkos::WithoutInitializing, "vals_tmp"), n);
  for (auto _ : state) {
    state.PauseTiming();
    Kokkos::deep_copy(exec, k, k0);
    Kokkos::deep_copy(exec, v, v0);
    exec.fence();
    state.ResumeTiming();
    ktext::sort_pairs(exec, k, v, kt, vt, 0, bits);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * (sizeof(K) + sizeof(V))));
  state.counters["bits"] = bits;
}

/// Host peer: std::stable_sort of (key, value) pairs by key, one thread.
template <class K, class V>
void bm_std_stable_sort(benchmark::State& state, int bits) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const auto keys = random_values<K>(n, 1, bits);
  const auto vals = random_values<V>(n, 2);
  std::vector<std::pair<K, V>> p0(n), p(n);
  for (std::size_t i = 0; i < n; ++i) p0[i] = {keys[i], vals[i]};
  for (auto _ : state) {
    state.PauseTiming();
    p = p0;
    state.ResumeTiming();
    std::stable_sort(p.begin(), p.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    benchmark::DoNotOptimize(p.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * (sizeof(K) + sizeof(V))));
  state.counters["bits"] = bits;
}

// ---- segmented_sort_pairs --------------------------------------------------------------------

/// Segment offsets: lengths random in [1, 2 * mean - 1] (mean >= 1) until n is covered.
std::vector<std::int32_t> segment_offsets(std::size_t n, std::size_t mean, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<std::int32_t> off{0};
  std::size_t at = 0;
  while (at < n) {
    const std::size_t len = mean <= 1 ? 1 : 1 + rng() % (2 * mean - 1);
    at = std::min(n, at + len);
    off.push_back(static_cast<std::int32_t>(at));
  }
  return off;
}

/// Random-length segments of mean length \p mean_or_zero, or (when it is 0) \p num_large equal segments.
void bm_segmented_sort(benchmark::State& state, std::size_t mean_or_zero, std::size_t num_large) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  std::vector<std::int32_t> off_h;
  if (mean_or_zero) {
    off_h = segment_offsets(n, mean_or_zero, 3);
  } else {  // num_large equal segments
    for (std::size_t s = 0; s <= num_large; ++s) off_h.push_back(static_cast<std::int32_t>(n * s / num_large));
  }
  auto off = to_device(off_h, "offsets");
  auto k0 = to_device(random_values<std::uint32_t>(n, 1), "keys0");
  auto v0 = to_device(random_values<std::int32_t>(n, 2), "vals0");
  DView<std::uint32_t> k(Kokkos::view_alloc(Kokkos::WithoutInitializing, "keys"), n);
  DView<std::int32_t> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "vals"), n);
  for (auto _ : state) {
    state.PauseTiming();
    Kokkos::deep_copy(exec, k, k0);
    Kokkos::deep_copy(exec, v, v0);
    exec.fence();
    state.ResumeTiming();
    ktext::segmented_sort_pairs(exec, off, k, v);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 8));
  state.counters["segments"] = double(off_h.size() - 1);
}

// ---- scans -----------------------------------------------------------------------------------

void bm_exclusive_scan(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::uint32_t>(n, 4, 8), "in");  // small values: no overflow
  DView<std::uint32_t> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  for (auto _ : state) {
    benchmark::DoNotOptimize(ktext::exclusive_scan(exec, in, out));
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 8));
}

void bm_inclusive_scan_max(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::int32_t>(n, 5, 31), "in");  // non-negative
  DView<std::int32_t> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  for (auto _ : state) {
    ktext::inclusive_scan_max(exec, in, out);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 8));
}

// ---- select_if -------------------------------------------------------------------------------

struct Below {
  std::uint32_t t;
  KOKKOS_FUNCTION bool operator()(std::uint32_t x) const { return x < t; }
};

void bm_select_if(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::uint32_t>(n, 6), "in");
  DView<std::uint32_t> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  std::size_t kept = 0;
  for (auto _ : state) {
    kept = ktext::select_if(exec, in, out, Below{0x80000000u});  // keeps about half
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(4 * (n + kept)));
  state.counters["kept_fraction"] = n ? double(kept) / double(n) : 0.0;
}

// ---- histogram -------------------------------------------------------------------------------

void bm_histogram_u8(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::uint8_t>(n, 7), "in");
  DView<std::uint64_t> bins("bins", 256);
  for (auto _ : state) {
    ktext::histogram(exec, in, bins);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n));
}

// ---- gather ----------------------------------------------------------------------------------

void bm_gather(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto src = to_device(random_values<std::int32_t>(n, 8), "src");
  std::vector<std::int32_t> idx_h(n);
  SplitMix64 rng(9);
  for (auto& x : idx_h) x = static_cast<std::int32_t>(rng() % n);  // random reads
  auto idx = to_device(idx_h, "idx");
  DView<std::int32_t> dst(Kokkos::view_alloc(Kokkos::WithoutInitializing, "dst"), n);
  for (auto _ : state) {
    ktext::gather(exec, src, idx, dst);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 12));
}

void add(const std::string& name, std::function<void(benchmark::State&)> f) {
  const long long lo = env_int("KTEXT_BENCH_MIN_LOG2", 16), hi = env_int("KTEXT_BENCH_MAX_LOG2", 24);
  benchmark::RegisterBenchmark(name.c_str(), std::move(f))
      ->RangeMultiplier(8)
      ->Range(std::int64_t(1) << lo, std::int64_t(1) << std::max(lo, hi))
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

void register_benchmarks() {
  benchmark::AddCustomContext("ktext_backend", backend_name);
  benchmark::AddCustomContext("ktext_concurrency", std::to_string(Exec().concurrency()));
  const std::string b = "_" + backend_name + "/";
  struct SortCase {
    const char* variant;
    void (*ktext)(benchmark::State&, int);
    void (*peer)(benchmark::State&, int);
    int bits;
  };
  const SortCase sorts[] = {
      {"u32_i32_b32", bm_sort_pairs<std::uint32_t, std::int32_t>, bm_std_stable_sort<std::uint32_t, std::int32_t>, 32},
      {"u32_i32_b24", bm_sort_pairs<std::uint32_t, std::int32_t>, bm_std_stable_sort<std::uint32_t, std::int32_t>, 24},
      {"u64_i32_b40", bm_sort_pairs<std::uint64_t, std::int32_t>, bm_std_stable_sort<std::uint64_t, std::int32_t>, 40},
      {"u64_u64_b64", bm_sort_pairs<std::uint64_t, std::uint64_t>, bm_std_stable_sort<std::uint64_t, std::uint64_t>, 64},
  };
  for (const auto& c : sorts) {
    add("sort_pairs" + b + c.variant, [c](benchmark::State& s) { c.ktext(s, c.bits); });
    if constexpr (host_backend) add(std::string("std_stable_sort/") + c.variant, [c](benchmark::State& s) { c.peer(s, c.bits); });
  }
  add("segmented_sort_pairs" + b + "small_segments_mean32", [](benchmark::State& s) { bm_segmented_sort(s, 32, 0); });
  add("segmented_sort_pairs" + b + "large_segments_8", [](benchmark::State& s) { bm_segmented_sort(s, 0, 8); });
  add("exclusive_scan" + b + "u32", bm_exclusive_scan);
  add("inclusive_scan_max" + b + "i32", bm_inclusive_scan_max);
  add("select_if" + b + "u32_half", bm_select_if);
  add("histogram" + b + "u8", bm_histogram_u8);
  add("gather" + b + "i32_random", bm_gather);
}

}  // namespace ktext::bench
