// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Peer of the succinct benchmarks: SDSL's bit_vector with rank_support_v5 and select_support_mcl,
// and wt_int<> / wm_int<> over the byte texts, the queries of a batch spread over the host
// threads with OpenMP (`#pragma omp parallel for`), as the seed paper measured SDSL. The same
// bits (HashBit), sizes and uniform queries as the ktext benchmarks. Names:
//   sdsl_rs_build/L:L, sdsl_rank1/L:L/Q:Q, sdsl_select1/L:L/Q:Q,
//   sdsl_wt_build/<dataset>, sdsl_wt_<op>/<dataset>/Q:Q (wm likewise; op = access, rank, select).
// wt_int and wm_int select write scratch arrays of the object (m_path_off): each thread selects
// on its own copy. Host-compiler builds only: SDSL's headers are not written for nvcc.
#include <sdsl/bit_vectors.hpp>
#include <sdsl/wavelet_trees.hpp>
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace ktext::bench {
namespace {

/// SDSL's bit vector of one size at a time, with its supports.
struct SdslBits {
  std::int64_t log2 = -1;
  sdsl::bit_vector bv;
  sdsl::rank_support_v5<1> rank;
  sdsl::select_support_mcl<1> select;
};
std::unique_ptr<SdslBits>& sdsl_bits_slot() {
  static std::unique_ptr<SdslBits> s;
  return s;
}

std::unique_ptr<SdslBits> sdsl_build_bits(std::int64_t log2) {
  auto s = std::make_unique<SdslBits>();
  const std::uint64_t n = std::uint64_t(1) << log2;
  s->bv = sdsl::bit_vector(n, 0);
  std::uint64_t* words = s->bv.data();
  const HashBit bit;
#pragma omp parallel for
  for (std::int64_t w = 0; w < std::int64_t(n / 64); ++w) {
    std::uint64_t x = 0;
    for (std::uint64_t i = 0; i < 64; ++i) x |= std::uint64_t(bit(std::uint64_t(w) * 64 + i)) << i;
    words[w] = x;
  }
  s->rank = sdsl::rank_support_v5<1>(&s->bv);
  s->select = sdsl::select_support_mcl<1>(&s->bv);
  s->log2 = log2;
  return s;
}

SdslBits& sdsl_bits_for(std::int64_t log2) {
  auto& slot = sdsl_bits_slot();
  if (!slot || slot->log2 != log2) {
    slot.reset();
    slot = sdsl_build_bits(log2);
  }
  return *slot;
}

/// The arguments of a ktext benchmark of the same shape, in host memory.
std::vector<std::uint64_t> host_arguments(std::uint64_t count, std::uint64_t lo, std::uint64_t range, std::uint64_t seed) {
  const HView h = on_host(uniform(count, lo, range, seed));
  return std::vector<std::uint64_t>(h.data(), h.data() + count);
}

/// Times \p answer(q) for q < count with OpenMP over the batch.
template <class Answer>
void time_sdsl_queries(benchmark::State& state, std::uint64_t count, std::size_t arg_bytes, const Answer& answer) {
  std::vector<std::uint64_t> out(count);
  for (auto _ : state) {
#pragma omp parallel for
    for (std::int64_t q = 0; q < std::int64_t(count); ++q) out[q] = answer(std::uint64_t(q));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(count));
  state.SetBytesProcessed(state.iterations() * std::int64_t(count * (arg_bytes + sizeof(std::uint64_t))));
}

void bm_sdsl_rs_build(benchmark::State& state) {
  guarded(state, [&] {
    sdsl_bits_slot().reset();
    const std::uint64_t n = std::uint64_t(1) << state.range(0);
    double space = 0;
    for (auto _ : state) {
      const auto s = sdsl_build_bits(state.range(0));
      space = double(sdsl::size_in_bytes(s->bv) + sdsl::size_in_bytes(s->rank) + sdsl::size_in_bytes(s->select));
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(n));
    state.SetBytesProcessed(state.iterations() * std::int64_t(n / 8));
    state.counters["space_bytes_per_bit"] = space / double(n);
  });
}

void bm_sdsl_rs_query(benchmark::State& state, bool select) {
  guarded(state, [&] {
    SdslBits& s = sdsl_bits_for(state.range(0));
    const std::uint64_t count = std::uint64_t(state.range(1));
    const auto args = select ? host_arguments(count, 1, s.rank.rank(s.bv.size()), 7) : host_arguments(count, 0, s.bv.size() + 1, 7);
    if (select)
      time_sdsl_queries(state, count, 8, [&](std::uint64_t q) { return std::uint64_t(s.select.select(args[q])); });
    else
      time_sdsl_queries(state, count, 8, [&](std::uint64_t q) { return std::uint64_t(s.rank.rank(args[q])); });
  });
}

/// SDSL's wavelet tree and matrix of the current dataset.
struct SdslWavelets {
  std::string name;
  std::optional<sdsl::wt_int<>> wt;
  std::optional<sdsl::wm_int<>> wm;
};
SdslWavelets& sdsl_wavelets() {
  static SdslWavelets s;
  return s;
}

sdsl::int_vector<> sdsl_text(const Text& text) {
  sdsl::int_vector<> iv(text.size(), 0, 8);
  for (std::size_t i = 0; i < text.size(); ++i) iv[i] = text[i];
  return iv;
}

template <class W>
std::optional<W>& sdsl_structure(SdslWavelets& s) {
  if constexpr (std::is_same_v<W, sdsl::wt_int<>>)
    return s.wt;
  else
    return s.wm;
}

template <class W>
void bm_sdsl_wavelet_build(benchmark::State& state, const std::string& name) {
  guarded(state, [&] {
    const Dataset& d = dataset(name);
    const auto iv = sdsl_text(d.text);
    double space = 0;
    for (auto _ : state) {
      W w;
      sdsl::construct_im(w, iv);
      space = double(sdsl::size_in_bytes(w));
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(d.text.size()));
    state.SetBytesProcessed(state.iterations() * std::int64_t(d.text.size()));
    state.counters["space_bytes_per_symbol"] = space / double(d.text.size());
  });
}

template <class W>
void bm_sdsl_wavelet_query(benchmark::State& state, const std::string& name, ktext::WaveletQuery op) {
  guarded(state, [&] {
    Dataset& d = dataset(name);
    SdslWavelets& s = sdsl_wavelets();
    if (s.name != name) s = {}, s.name = name;
    auto& w = sdsl_structure<W>(s);
    if (!w) w.emplace(), sdsl::construct_im(*w, sdsl_text(d.text));
    const std::uint64_t count = std::uint64_t(state.range(0));
    // The ktext benchmark's arguments.
    DView<std::uint64_t> a, b;
    if (op == ktext::WaveletQuery::access) {
      a = b = uniform(count, 0, d.text.size(), 11);
    } else {
      DView<std::uint8_t> symbols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::symbols"), count);
      b = DView<std::uint64_t>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::positions"), count);
      Kokkos::parallel_for("bench::arguments", Kokkos::RangePolicy<Exec>(0, count),
                           SymbolArguments{d.d_text, d.counts, symbols, b, op == ktext::WaveletQuery::select});
      a = DView<std::uint64_t>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::symbols64"), count);
      Kokkos::deep_copy(a, symbols);
    }
    const HView h_a = on_host(a), h_b = on_host(b);
    const W& t = *w;
    if (op == ktext::WaveletQuery::access)
      time_sdsl_queries(state, count, 8, [&](std::uint64_t q) { return std::uint64_t(t[h_a(q)]); });
    else if (op == ktext::WaveletQuery::rank)
      time_sdsl_queries(state, count, 9, [&](std::uint64_t q) { return std::uint64_t(t.rank(h_b(q), h_a(q))); });
    else {
#if defined(_OPENMP)
      const std::vector<W> copies(std::size_t(omp_get_max_threads()), t);
      auto own = [&]() -> const W& { return copies[std::size_t(omp_get_thread_num())]; };
#else
      auto own = [&]() -> const W& { return t; };
#endif
      time_sdsl_queries(state, count, 9, [&](std::uint64_t q) { return std::uint64_t(own().select(h_b(q), h_a(q))); });
    }
  });
}

template <class W>
void add_sdsl_wavelet_kind(const char* prefix, const std::string& name) {
  const std::string b = "/" + name;
  benchmark::RegisterBenchmark((std::string("sdsl_") + prefix + "_build" + b).c_str(),
                               [name](benchmark::State& s) { bm_sdsl_wavelet_build<W>(s, name); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
  for (const auto op : {ktext::WaveletQuery::access, ktext::WaveletQuery::rank, ktext::WaveletQuery::select})
    for (std::int64_t q = 100000; q <= max_queries(); q *= 10)
      benchmark::RegisterBenchmark((std::string("sdsl_") + prefix + "_" + query_name(op) + b).c_str(),
                                   [name, op](benchmark::State& s) { bm_sdsl_wavelet_query<W>(s, name, op); })
          ->Arg(q)
          ->ArgName("Q")
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
}

void add_sdsl_wavelet(const std::string& name) {
  add_sdsl_wavelet_kind<sdsl::wt_int<>>("wt", name);
  add_sdsl_wavelet_kind<sdsl::wm_int<>>("wm", name);
}

void add_sdsl_rank_select() {
  for (std::int64_t lg = rs_min_log2(); lg <= rs_max_log2(); lg += 2) {
    benchmark::RegisterBenchmark("sdsl_rs_build", bm_sdsl_rs_build)->Arg(lg)->ArgName("L")->UseRealTime()->Unit(benchmark::kMillisecond);
    for (const bool select : {false, true})
      for (std::int64_t q = 100000; q <= max_queries(); q *= 10)
        benchmark::RegisterBenchmark(select ? "sdsl_select1" : "sdsl_rank1",
                                     [select](benchmark::State& s) { bm_sdsl_rs_query(s, select); })
            ->Args({lg, q})
            ->ArgNames({"L", "Q"})
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace
}  // namespace ktext::bench
