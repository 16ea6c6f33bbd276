// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Benchmarks of the ktext primitives on one backend (KTEXT_BENCH_EXEC), with host peers
// (std::stable_sort) where the backend's memory is host memory.
//
// Names: <primitive>_<Backend>/<variant>/<n> and std_stable_sort/<variant>/<n>. Primitives with a
// vendor (CUB) path have a second row, <primitive>_<Backend>/<variant>/portable/<n>, that times
// the portable implementation (its impl struct with UseCub = false) on the same inputs with the
// same counters, so one run shows which path is faster. It is registered where the dispatched
// path is a vendor one, or everywhere with KTEXT_BENCH_PORTABLE=1 (on hosts both rows then time
// the same code).
// Sizes: 2^16 .. 2^24 elements, every factor 8 (KTEXT_BENCH_MIN_LOG2 / KTEXT_BENCH_MAX_LOG2
// change the range). Inputs are random but fixed by a seed; buffers are allocated outside the
// timed loop (the primitives' scratch included), and every timed iteration ends with exec.fence().
// Items/s counts elements; bytes/s counts the bytes the primitive must read and write once.
#include <algorithm>
#include <functional>
#include <type_traits>
#include <ktext/primitives.hpp>
#include <utility>

#include "bench_common.hpp"

namespace ktext::bench {
namespace {

template <class T>
using DView = Kokkos::View<T*, Mem>;

namespace ki = ktext::impl;
template <class T>
ki::Unmanaged<T, Exec> um(const DView<T>& v) {
  return ki::Unmanaged<T, Exec>(v.data(), v.extent(0));
}
template <class T>
ki::Unmanaged<const T, Exec> cum(const DView<T>& v) {
  return ki::Unmanaged<const T, Exec>(v.data(), v.extent(0));
}

// ---- sort_pairs ------------------------------------------------------------------------------

/// Keys random in the low \p bits bits, values random (the sort must move both).
template <class K, class V, bool Portable>
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
    if constexpr (Portable) {
      // As the public call: the result goes back to k, v when it ends in the scratch.
      if (ki::SortPairs<Exec, K, V, false>::apply(exec, um(k), um(v), um(kt), um(vt), 0, bits)) {
        Kokkos::deep_copy(exec, k, kt);
        Kokkos::deep_copy(exec, v, vt);
      }
    } else {
      ktext::sort_pairs(exec, k, v, kt, vt, 0, bits);
    }
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
template <bool Portable>
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
    if constexpr (Portable)
      ki::SegmentedSort<Exec, std::int32_t, std::uint32_t, std::int32_t, false>::apply(exec, cum(off), um(k), um(v));
    else
      ktext::segmented_sort_pairs(exec, off, k, v);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 8));
  state.counters["segments"] = double(off_h.size() - 1);
}

// ---- scans -----------------------------------------------------------------------------------

template <bool Portable>
void bm_exclusive_scan(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::uint32_t>(n, 4, 8), "in");  // small values: no overflow
  DView<std::uint32_t> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  for (auto _ : state) {
    if constexpr (Portable)
      benchmark::DoNotOptimize(
          ki::Scan<Exec, std::uint32_t, std::uint32_t, false>::exclusive_sum(exec, cum(in), um(out)));
    else
      benchmark::DoNotOptimize(ktext::exclusive_scan(exec, in, out));
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 8));
}

template <bool Portable>
void bm_inclusive_scan(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::uint32_t>(n, 4, 8), "in");  // small values: no overflow
  DView<std::uint32_t> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  for (auto _ : state) {
    if constexpr (Portable)
      ki::Scan<Exec, std::uint32_t, std::uint32_t, false>::template inclusive<ki::ScanOp::Sum>(exec, cum(in), um(out));
    else
      ktext::inclusive_scan(exec, in, out);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 8));
}

template <bool Portable>
void bm_inclusive_scan_max(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::int32_t>(n, 5, 31), "in");  // non-negative
  DView<std::int32_t> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  for (auto _ : state) {
    if constexpr (Portable)
      ki::Scan<Exec, std::int32_t, std::int32_t, false>::template inclusive<ki::ScanOp::Max>(exec, cum(in), um(out));
    else
      ktext::inclusive_scan_max(exec, in, out);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 8));
}

// The shape of the suffix array's rank scans: a running maximum of generated head positions,
// consumed by a scatter, nothing materialized in between.
struct HeadAt {
  DView<std::uint32_t> v;
  KOKKOS_FUNCTION std::int64_t operator()(std::size_t i) const { return (v(i) & 7) == 0 ? std::int64_t(i) : 0; }
};
struct MaxOf {
  KOKKOS_FUNCTION std::int64_t identity() const { return 0; }
  KOKKOS_FUNCTION std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a < b ? b : a; }
};
struct StoreAt {
  DView<std::int32_t> out;
  KOKKOS_FUNCTION void operator()(std::size_t i, std::int64_t x) const { out(i) = std::int32_t(x); }
};

template <bool Portable>
void bm_inclusive_scan_apply(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::uint32_t>(n, 10), "in");
  DView<std::int32_t> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  for (auto _ : state) {
    if constexpr (Portable)
      ki::ScanApply<Exec, false, false>::template apply<std::int64_t>(exec, n, HeadAt{in}, MaxOf{}, StoreAt{out});
    else
      ktext::inclusive_scan_apply<std::int64_t>(exec, n, HeadAt{in}, MaxOf{}, StoreAt{out});
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * 8));
}

// The suffix array rounds' marks as one wide scan value (StartHead: running maxima of the group
// start and the head, a running count of the kept entries) over groups of a few entries, each
// entry written where the count says (the compaction), no scattered write: the scan's own time.
template <class U>
struct Marks {
  U start, head, kept;
};
template <class U>
struct JoinMarks {
  KOKKOS_FUNCTION Marks<U> identity() const { return {0, 0, 0}; }
  KOKKOS_FUNCTION Marks<U> operator()(const Marks<U>& a, const Marks<U>& b) const {
    return {a.start < b.start ? b.start : a.start, a.head < b.head ? b.head : a.head, U(a.kept + b.kept)};
  }
};
/// Bit 0 of v(i): entry i starts a group; bit 1: it starts a run of equal next ranks.
template <class U>
struct MarksAt {
  DView<std::uint32_t> v;
  KOKKOS_FUNCTION Marks<U> operator()(std::size_t i) const {
    const bool starts = i == 0 || (v(i) & 1), head = starts || (v(i) & 2);
    return {starts ? U(i) : U(0), head ? U(i) : U(0), U(head ? 0 : 1)};
  }
};
template <class U>
struct KeepAt {
  DView<U> out;
  KOKKOS_FUNCTION void operator()(std::size_t i, const Marks<U>& at) const {
    if (at.kept > 0) out(at.kept - 1) = U(i) + at.head - at.start;
  }
};

/// \p Path: 0 the dispatched one, 1 Kokkos' scan, 2 CUB's default tiles (CUDA only).
template <class U, int Path>
void bm_inclusive_scan_apply_marks(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto flags = random_values<std::uint32_t>(n, 11);
  for (auto& f : flags) f = ((f & 7) == 0 ? 1u : 0u) | ((f >> 3) % 5 == 0 ? 2u : 0u);  // groups of 8, runs of 5
  auto in = to_device(flags, "in");
  DView<U> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  const MarksAt<U> make{in};
  const KeepAt<U> apply{out};
  for (auto _ : state) {
    if constexpr (Path == 1) {
      ki::ScanApply<Exec, false, false>::template apply<Marks<U>>(exec, n, make, JoinMarks<U>{}, apply);
    } else if constexpr (Path == 2) {
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (std::is_same_v<Exec, Kokkos::Cuda>)
        ki::ScanApply<Exec, true>::template apply<Marks<U>, MarksAt<U>, JoinMarks<U>, KeepAt<U>, false>(
            exec, n, make, JoinMarks<U>{}, apply);
#endif
    } else {
      ktext::inclusive_scan_apply<Marks<U>>(exec, n, make, JoinMarks<U>{}, apply);
    }
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n * (4 + sizeof(U))));
}

// ---- select_if -------------------------------------------------------------------------------

struct Below {
  std::uint32_t t;
  KOKKOS_FUNCTION bool operator()(std::uint32_t x) const { return x < t; }
};

template <class View>
struct KeepBelow {
  View in;
  Below below;
  KOKKOS_FUNCTION bool operator()(std::size_t i) const { return below(in(i)); }
};
template <class View>
struct ValueAt {
  View in;
  KOKKOS_FUNCTION auto operator()(std::size_t i) const { return in(i); }
};

template <bool Portable>
void bm_select_if(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::uint32_t>(n, 6), "in");
  DView<std::uint32_t> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), n);
  std::size_t kept = 0;
  for (auto _ : state) {
    const Below below{0x80000000u};  // keeps about half
    if constexpr (Portable)
      kept = ki::Select<Exec, false, false>::apply(exec, n, KeepBelow<decltype(in)>{in, below},
                                                   ValueAt<decltype(in)>{in}, um(out));
    else
      kept = ktext::select_if(exec, in, out, below);
    exec.fence();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(4 * (n + kept)));
  state.counters["kept_fraction"] = n ? double(kept) / double(n) : 0.0;
}

// ---- histogram -------------------------------------------------------------------------------

template <bool Portable>
void bm_histogram_u8(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  Exec exec;
  auto in = to_device(random_values<std::uint8_t>(n, 7), "in");
  DView<std::uint64_t> bins("bins", 256);
  for (auto _ : state) {
    if constexpr (Portable)
      ki::Histogram<Exec, std::uint8_t, false>::apply(exec, cum(in), um(bins));
    else
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
  // A portable row beside the dispatched one where the dispatched path is a vendor one.
  const bool all_portable = env_int("KTEXT_BENCH_PORTABLE", 0) != 0;
  auto add_both = [&](const std::string& name, bool vendor, void (*dispatched)(benchmark::State&),
                      void (*portable)(benchmark::State&)) {
    add(name, dispatched);
    if (vendor || all_portable) add(name + "/portable", portable);
  };
  struct SortCase {
    const char* variant;
    void (*ktext)(benchmark::State&, int);
    void (*portable)(benchmark::State&, int);
    void (*peer)(benchmark::State&, int);
    bool vendor;
    int bits;
  };
  using ki::sort_pairs_cub_avail;
  const SortCase sorts[] = {
      {"u32_i32_b32", bm_sort_pairs<std::uint32_t, std::int32_t, false>,
       bm_sort_pairs<std::uint32_t, std::int32_t, true>, bm_std_stable_sort<std::uint32_t, std::int32_t>,
       sort_pairs_cub_avail<Exec, std::uint32_t, std::int32_t>::value, 32},
      {"u32_i32_b24", bm_sort_pairs<std::uint32_t, std::int32_t, false>,
       bm_sort_pairs<std::uint32_t, std::int32_t, true>, bm_std_stable_sort<std::uint32_t, std::int32_t>,
       sort_pairs_cub_avail<Exec, std::uint32_t, std::int32_t>::value, 24},
      {"u64_i32_b40", bm_sort_pairs<std::uint64_t, std::int32_t, false>,
       bm_sort_pairs<std::uint64_t, std::int32_t, true>, bm_std_stable_sort<std::uint64_t, std::int32_t>,
       sort_pairs_cub_avail<Exec, std::uint64_t, std::int32_t>::value, 40},
      {"u64_u64_b64", bm_sort_pairs<std::uint64_t, std::uint64_t, false>,
       bm_sort_pairs<std::uint64_t, std::uint64_t, true>, bm_std_stable_sort<std::uint64_t, std::uint64_t>,
       sort_pairs_cub_avail<Exec, std::uint64_t, std::uint64_t>::value, 64},
  };
  for (const auto& c : sorts) {
    add("sort_pairs" + b + c.variant, [c](benchmark::State& s) { c.ktext(s, c.bits); });
    if (c.vendor || all_portable)
      add("sort_pairs" + b + c.variant + "/portable", [c](benchmark::State& s) { c.portable(s, c.bits); });
    if constexpr (host_backend) add(std::string("std_stable_sort/") + c.variant, [c](benchmark::State& s) { c.peer(s, c.bits); });
  }
  const bool segmented_vendor = ki::segmented_sort_cub_avail<Exec, std::uint32_t, std::int32_t>::value;
  for (const bool portable : {false, true}) {
    if (portable && !segmented_vendor && !all_portable) break;
    const std::string suffix = portable ? "/portable" : "";
    auto run = portable ? bm_segmented_sort<true> : bm_segmented_sort<false>;
    add("segmented_sort_pairs" + b + "small_segments_mean32" + suffix, [run](benchmark::State& s) { run(s, 32, 0); });
    add("segmented_sort_pairs" + b + "large_segments_8" + suffix, [run](benchmark::State& s) { run(s, 0, 8); });
  }
  const bool scan_vendor = ki::scan_cub_avail<Exec, std::uint32_t>::value;
  add_both("exclusive_scan" + b + "u32", scan_vendor, bm_exclusive_scan<false>, bm_exclusive_scan<true>);
  add_both("inclusive_scan" + b + "u32", scan_vendor, bm_inclusive_scan<false>, bm_inclusive_scan<true>);
  add_both("inclusive_scan_max" + b + "i32", ki::scan_cub_avail<Exec, std::int32_t>::value,
           bm_inclusive_scan_max<false>, bm_inclusive_scan_max<true>);
  // CUB's scan on CUDA, the single pass on hosts, each against Kokkos' scan.
  const bool scan_apply_own = ki::scan_cub_avail<Exec, void>::value || ki::scan_host_avail<Exec>::value;
  add_both("inclusive_scan_apply" + b + "max_i64", scan_apply_own, bm_inclusive_scan_apply<false>,
           bm_inclusive_scan_apply<true>);
  // Wide values: their tiles (WideScanPolicy on CUDA) against CUB's default ones.
  add_both("inclusive_scan_apply" + b + "marks_12B", scan_apply_own, bm_inclusive_scan_apply_marks<std::uint32_t, 0>,
           bm_inclusive_scan_apply_marks<std::uint32_t, 1>);
  add_both("inclusive_scan_apply" + b + "marks_24B", scan_apply_own, bm_inclusive_scan_apply_marks<std::uint64_t, 0>,
           bm_inclusive_scan_apply_marks<std::uint64_t, 1>);
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    add("inclusive_scan_apply" + b + "marks_12B/cub_default_tiles", bm_inclusive_scan_apply_marks<std::uint32_t, 2>);
    add("inclusive_scan_apply" + b + "marks_24B/cub_default_tiles", bm_inclusive_scan_apply_marks<std::uint64_t, 2>);
  }
#endif
  add_both("select_if" + b + "u32_half", ki::select_cub_avail<Exec>::value || ki::scan_host_avail<Exec>::value,
           bm_select_if<false>, bm_select_if<true>);
  add_both("histogram" + b + "u8", ki::histogram_cub_avail<Exec, std::uint8_t>::value, bm_histogram_u8<false>,
           bm_histogram_u8<true>);
  add("gather" + b + "i32_random", bm_gather);  // no vendor path
}

}  // namespace ktext::bench
