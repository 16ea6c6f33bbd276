// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Benchmarks of ktext::string_sort on one backend (KTEXT_BENCH_EXEC) against, in the same binary:
// on host backends std::sort(std::execution::par) of std::string_view (oneTBB, when found), and
// on CUDA cub::DeviceMergeSort of indices with a string comparator over chars/offsets (the way
// cuDF sorts a strings column).
//
// Names: string_sort_<Backend>/<dataset>, on hosts string_sort_portable_<Backend>/<dataset> (the
// prefix-radix passes that devices run, which hosts leave to their own sort), std_sort_par/<dataset>,
// cub_merge_sort/<dataset>.
// Datasets, 2^16 .. 2^22 strings every factor 4 (KTEXT_BENCH_STRINGS_MIN_LOG2 / _MAX_LOG2):
//   short16 (random a-z, 0..16 bytes), urls (URL-like), prefix200 (paths sharing 200 bytes),
//   duplicates (about n/50 distinct strings);
//   corpus: every regular file of $KTEXT_CORPUS_STRINGS_DIR as one string per line (the string
//   sets of shared/corpus.md: taxnames, words, fasta-ids, source lines), cut to
//   $KTEXT_CORPUS_PREFIX bytes when that is set.
// The strings are on the backend before the timed loop; the timed loop is the sort and a fence.
// Counters: items_per_second (strings/s), bytes_per_second, peak_bytes_per_string, passes.
// KTEXT_BENCH_VERIFY=1 compares the order with std::stable_sort once per benchmark;
// KTEXT_BENCH_STRINGS_TEAM_LIMIT=N sorts groups of up to N strings in teams (0: none; the
// default is as large as a team's scratch holds), KTEXT_BENCH_STRINGS_TEAM_PASSES=P only in the
// first P passes.
#include <ktext/strings.hpp>
#include <ktext_oracles/string_sets.hpp>
#include <map>
#include <memory>
#include <string_view>

#include "bench_common.hpp"

#if defined(KTEXT_HAVE_TBB)
#include <execution>
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_merge_sort.cuh>
#endif

namespace ktext::bench {
namespace {

using ktext::oracle::StringSet;
using SetPtr = std::shared_ptr<const StringSet>;

StringSet lines_of(const Text& text) {
  StringSet s;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = start;
    while (end < text.size() && text[end] != '\n') ++end;
    s.add(text.data() + start, end - start);
    start = end + 1;
  }
  return s;
}

void set_counters(benchmark::State& state, const StringSet& s) {
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(s.size()));
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(s.chars.size()));
  state.counters["n"] = double(s.size());
}

/// The library's sort or, with \p portable (or team settings in the environment), the portable
/// passes, which hosts otherwise leave to their own sort.
void bench_string_sort(benchmark::State& state, const SetPtr& set, bool portable) {
  const StringSet& s = *set;
  auto chars = to_device(s.chars, "ktext::bench::chars");
  auto offsets = to_device(s.offsets, "ktext::bench::offsets");
  using Order = Kokkos::View<std::int32_t*, Mem>;
  Order order("ktext::bench::order", s.size());
  const auto limit = std::size_t(env_int("KTEXT_BENCH_STRINGS_TEAM_LIMIT", -1));
  const int team_passes = int(env_int("KTEXT_BENCH_STRINGS_TEAM_PASSES", ktext::impl::team_passes_automatic));
  ktext::StringSortStats stats;
  for (auto _ : state) {
    if (!portable && limit == ktext::impl::team_limit_automatic && team_passes == ktext::impl::team_passes_automatic)
      stats = ktext::string_sort(Exec{}, chars, offsets, order);
    else
      stats = ktext::impl::string_sort_checked<Exec, decltype(chars), decltype(offsets), Order, void, false>(
          Exec{}, chars, offsets, order, nullptr, limit, team_passes);
    Exec{}.fence();
  }
  if (env_int("KTEXT_BENCH_VERIFY", 0) != 0) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, order);
    if (std::vector<std::int32_t>(h.data(), h.data() + h.extent(0)) !=
        ktext::oracle::stable_sort_order<std::int32_t>(s))
      state.SkipWithError("order differs from std::stable_sort");
  }
  set_counters(state, s);
  state.counters["peak_bytes_per_string"] = double(stats.peak_bytes) / double(std::max<std::size_t>(1, s.size()));
  state.counters["passes"] = stats.passes;
}

#if defined(KTEXT_HAVE_TBB)
void bench_std_sort_par(benchmark::State& state, const SetPtr& set) {
  const StringSet& s = *set;
  std::vector<std::string_view> views(s.size());
  for (auto _ : state) {
    state.PauseTiming();
    for (std::size_t i = 0; i < s.size(); ++i)
      views[i] = std::string_view(reinterpret_cast<const char*>(s.data(i)), s.length(i));
    state.ResumeTiming();
    std::sort(std::execution::par, views.begin(), views.end());
    benchmark::DoNotOptimize(views.data());
  }
  set_counters(state, s);
}
#endif

#if defined(KOKKOS_ENABLE_CUDA)
/// memcmp order of strings given by index, on the device.
struct StringLess {
  const std::uint8_t* chars;
  const std::int64_t* offsets;
  __device__ bool operator()(std::int32_t a, std::int32_t b) const {
    const std::int64_t la = offsets[a + 1] - offsets[a], lb = offsets[b + 1] - offsets[b];
    const std::uint8_t* pa = chars + offsets[a];
    const std::uint8_t* pb = chars + offsets[b];
    const std::int64_t l = la < lb ? la : lb;
    for (std::int64_t k = 0; k < l; ++k)
      if (pa[k] != pb[k]) return pa[k] < pb[k];
    return la < lb;
  }
};

/// keys(i) = i (a functor: device lambdas may not live in functions of internal linkage).
struct Iota {
  Kokkos::View<std::int32_t*, Mem> keys;
  KOKKOS_FUNCTION void operator()(int i) const { keys(i) = i; }
};

void bench_cub_merge_sort(benchmark::State& state, const SetPtr& set) {
  // Registered for the Cuda executable only, but compiled in every executable of a CUDA build:
  // the stream is named through Kokkos::Cuda, which every Exec of such a build can see.
  const cudaStream_t stream = Kokkos::Cuda{}.cuda_stream();
  const StringSet& s = *set;
  auto chars = to_device(s.chars, "ktext::bench::chars");
  auto offsets = to_device(s.offsets, "ktext::bench::offsets");
  const int n = int(s.size());
  Kokkos::View<std::int32_t*, Mem> keys("ktext::bench::keys", s.size());
  const StringLess less{chars.data(), offsets.data()};
  std::size_t temp_bytes = 0;
  cub::DeviceMergeSort::SortKeys(nullptr, temp_bytes, keys.data(), n, less, stream);
  Kokkos::View<char*, Mem> temp("ktext::bench::cub_temp", temp_bytes);
  for (auto _ : state) {
    state.PauseTiming();
    Kokkos::parallel_for("ktext::bench::iota", Kokkos::RangePolicy<Exec>(Exec{}, 0, n), Iota{keys});
    Exec{}.fence();
    state.ResumeTiming();
    cub::DeviceMergeSort::SortKeys(temp.data(), temp_bytes, keys.data(), n, less, stream);
    Exec{}.fence();
  }
  set_counters(state, s);
}
#endif

void register_set(const std::string& name, SetPtr set) {
  benchmark::RegisterBenchmark(("string_sort_" + backend_name + "/" + name).c_str(),
                               [set](benchmark::State& st) { bench_string_sort(st, set, false); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  if constexpr (ktext::impl::string_sort_host_avail<Exec>::value)
    benchmark::RegisterBenchmark(("string_sort_portable_" + backend_name + "/" + name).c_str(),
                                 [set](benchmark::State& st) { bench_string_sort(st, set, true); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
#if defined(KTEXT_HAVE_TBB)
  if constexpr (host_backend)
    if (env_int("KTEXT_BENCH_PEERS", 1) != 0)
      benchmark::RegisterBenchmark(("std_sort_par/" + name).c_str(),
                                   [set](benchmark::State& st) { bench_std_sort_par(st, set); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>)
    if (env_int("KTEXT_BENCH_PEERS", 1) != 0)
      benchmark::RegisterBenchmark(("cub_merge_sort/" + name).c_str(),
                                   [set](benchmark::State& st) { bench_cub_merge_sort(st, set); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
#endif
}

}  // namespace

void register_benchmarks() {
  const int lo = int(env_int("KTEXT_BENCH_STRINGS_MIN_LOG2", 16)),
            hi = int(env_int("KTEXT_BENCH_STRINGS_MAX_LOG2", 22));
  for (int k = lo; k <= hi; k += 2) {
    const std::size_t n = std::size_t(1) << k;
    const std::string size = "_" + size_name(n);
    register_set("short16" + size, std::make_shared<StringSet>(ktext::oracle::random_strings(n, 0, 16, 26, k, 'a')));
    register_set("urls" + size, std::make_shared<StringSet>(ktext::oracle::url_strings(n, k)));
    register_set("prefix200" + size, std::make_shared<StringSet>(ktext::oracle::shared_prefix_strings(n, 200, k)));
    register_set("duplicates" + size, std::make_shared<StringSet>(ktext::oracle::duplicate_strings(n, n / 50 + 1, k)));
  }
  if (const char* dir = std::getenv("KTEXT_CORPUS_STRINGS_DIR")) {
    const std::uint64_t limit = std::uint64_t(env_int("KTEXT_CORPUS_PREFIX", 0));
    for (const auto& path : corpus_files(dir))
      register_set(path.filename().string(), std::make_shared<StringSet>(lines_of(read_file(path, limit))));
  }
}

}  // namespace ktext::bench
