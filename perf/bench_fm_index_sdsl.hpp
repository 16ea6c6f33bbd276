// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Peer for the FM-index benchmarks: SDSL's compressed suffix array csa_wt<wt_huff<>, 32, 32>
// (Huffman-shaped wavelet tree over the BWT, SA and ISA samples every 32 positions, the sample
// rate ktext's FMIndex uses by default), counting on one host thread as SDSL does. Registered
// as sdsl_fm_build/<dataset> and sdsl_fm_count/<dataset>/m:M/P:P, P up to
// KTEXT_BENCH_FM_SDSL_MAX_PATTERNS (default 10^5). Host-compiler builds only: SDSL's headers
// are not written for nvcc.

#include <sdsl/suffix_arrays.hpp>

#include <algorithm>
#include <memory>
#include <string>

namespace ktext::bench {
namespace {

using SdslIndex = sdsl::csa_wt<sdsl::wt_huff<>, 32, 32>;

/// One SDSL index at a time, for the dataset named.
struct SdslLoaded {
  std::string name;
  std::unique_ptr<SdslIndex> index;
};

SdslLoaded& sdsl_slot() {
  static SdslLoaded slot;
  return slot;
}

std::int64_t sdsl_max_patterns() { return env_int("KTEXT_BENCH_FM_SDSL_MAX_PATTERNS", 100000); }

/// Builds SDSL's index of \p text; nullptr (with the reason in \p why) when SDSL cannot take it.
std::unique_ptr<SdslIndex> sdsl_build(const Text& text, std::string& why) {
  // SDSL's byte CSAs use 0 as their terminator.
  if (std::find(text.begin(), text.end(), std::uint8_t(0)) != text.end()) {
    why = "SDSL's csa_wt cannot index texts with NUL bytes";
    return nullptr;
  }
  auto index = std::make_unique<SdslIndex>();
  sdsl::construct_im(*index, std::string(text.begin(), text.end()), 1);
  return index;
}

SdslIndex* sdsl_for(benchmark::State& state, const std::string& name, const Text& text) {
  SdslLoaded& slot = sdsl_slot();
  if (slot.name != name || !slot.index) {
    slot = {};
    std::string why;
    slot.index = sdsl_build(text, why);
    slot.name = name;
    if (!slot.index) {
      state.SkipWithError(why.c_str());
      return nullptr;
    }
  }
  return slot.index.get();
}

void bm_sdsl_build(benchmark::State& state, const std::string& name) {
  guarded(state, [&] {
    Loaded& in = load(name, false);
    std::string why;
    for (auto _ : state) {
      auto index = sdsl_build(in.text, why);
      if (!index) {
        state.SkipWithError(why.c_str());
        return;
      }
      state.counters["index_bytes_per_symbol"] = double(sdsl::size_in_bytes(*index)) / double(in.text.size());
    }
    state.SetBytesProcessed(state.iterations() * std::int64_t(in.text.size()));
  });
}

void bm_sdsl_count(benchmark::State& state, const std::string& name) {
  guarded(state, [&] {
    const auto m = static_cast<std::size_t>(state.range(0)), num = static_cast<std::size_t>(state.range(1));
    Loaded* in = load_for(state, name, m);
    if (!in) return;
    SdslIndex* index = sdsl_for(state, name, in->text);
    if (!index) return;
    const auto p = make_patterns<Kokkos::HostSpace>(in->text, m, num);
    std::uint64_t occurrences = 0;
    for (auto _ : state) {
      occurrences = 0;
      for (std::size_t i = 0; i < num; ++i)
        occurrences += sdsl::count(*index, p.symbols.data() + i * m, p.symbols.data() + (i + 1) * m);
      benchmark::DoNotOptimize(occurrences);
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(num));
    state.SetBytesProcessed(state.iterations() * std::int64_t(num * m));
    state.counters["occurrences"] = double(occurrences);
    state.counters["n"] = double(in->text.size());
  });
}

void add_sdsl_dataset(const std::string& name) {
  const std::string b = "/" + name;
  benchmark::RegisterBenchmark(("sdsl_fm_build" + b).c_str(), [name](benchmark::State& s) { bm_sdsl_build(s, name); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
  for (std::int64_t m : {8, 16, 32, 64})
    for (std::int64_t p = 10000; p <= std::min(sdsl_max_patterns(), max_patterns()); p *= 10)
      benchmark::RegisterBenchmark(("sdsl_fm_count" + b).c_str(), [name](benchmark::State& s) { bm_sdsl_count(s, name); })
          ->Args({m, p})
          ->ArgNames({"m", "P"})
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
}

}  // namespace
}  // namespace ktext::bench
