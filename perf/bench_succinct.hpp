// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Benchmarks of ktext's succinct structures on one backend (KTEXT_BENCH_EXEC): RankSelect over
// a BitVector, WaveletTree and WaveletMatrix over byte texts; construction and batched queries.
//
// Names (L: log2 of the bits, Q: number of queries):
//   rs_build_<Backend>/L:L                      BitVector + RankSelect of 2^L bits already in the
//                                               backend's memory (50% ones, seeded hash); bits/s;
//   rs_<op>_device_<Backend>/L:L/Q:Q            op = rank1 or select1, arguments and answers in
//                                               the backend's memory;
//   rs_<op>_host_<Backend>/L:L/Q:Q              arguments and answers in pageable host memory,
//                                               transfers (the chunked, overlapped path through
//                                               pinned staging) included; non-host backends only
//                                               (on host backends it is the same);
//   rs_<op>_pinned_<Backend>/L:L/Q:Q            arguments and answers in pinned host memory
//                                               (SharedHostPinnedSpace), read and written in
//                                               place by the kernel; non-host backends only;
//   wt_build_<Backend>/<dataset>, wm_build_...  WaveletTree / WaveletMatrix of the text already in
//                                               the backend's memory; bytes/s of text;
//   wt_<op>_device_<Backend>/<dataset>/Q:Q      op = access, rank or select (wm_ likewise);
//   wt_<op>_host_<Backend>/<dataset>/Q:Q        as above with host-resident arguments and answers,
//   wt_<op>_pinned_<Backend>/<dataset>/Q:Q      pageable or pinned (non-host backends only).
//                                               Arguments: positions and k 64-bit, symbols
//                                               bytes (the text's type); access answers bytes,
//                                               rank and select answers 64-bit. The batches run
//                                               in the order KTEXT_BENCH_QUERY_ORDER says:
//                                               automatic (default), as_given or by_locality.
// L runs over KTEXT_BENCH_RS_MIN_LOG2..KTEXT_BENCH_RS_MAX_LOG2 in steps of 2 (defaults 26 and 30
// on host backends, 26 and 34 otherwise); Q over 10^5, 10^6, ... up to KTEXT_BENCH_SUCCINCT_MAX_QUERIES
// (default 10^7 on host backends, 10^8 otherwise). A size whose allocation fails is skipped
// with the error. Queries are uniform: rank positions in [0, n], select's k in [1, count] (for
// wavelet select the symbol is the one at a random position, so it occurs), access positions in
// [0, n). Datasets: the regular files of $KTEXT_CORPUS_DIR (cut to $KTEXT_CORPUS_PREFIX bytes
// when set), else (or as well, with KTEXT_BENCH_WT_SYNTHETIC=random4,random256 or none) random
// texts of 2^KTEXT_BENCH_WT_TEXT_LOG2 bytes (default 24). The structure of one size or dataset
// is built once and kept for its query benchmarks. Timings are wall clock; every timed iteration
// ends with a fence. Counters: items_per_second (bits for rs_build, queries otherwise),
// bytes_per_second (bits / 8 for rs_build, text bytes for the builds, argument and answer bytes
// of the queries), space_bytes_per_bit / space_bytes_per_symbol for the builds.
// Peers: bench_succinct_sdsl.hpp (host builds with libsdsl-dev).
#include <cstdio>
#include <exception>
#include <functional>
#include <ktext/succinct.hpp>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "bench_common.hpp"

namespace ktext::bench {
namespace {

using RS = ktext::RankSelect<Mem>;
using BV = ktext::BitVector<Mem>;
using WT = ktext::WaveletTree<Mem, std::uint8_t>;
using WM = ktext::WaveletMatrix<Mem, std::uint8_t>;
template <class T>
using DView = Kokkos::View<T*, Mem>;
using HView = Kokkos::View<std::uint64_t*, Kokkos::HostSpace>;

/// Where a benchmark's query arguments and answers live.
enum class Where { device, host, pinned };
const char* where_name(Where w) { return w == Where::device ? "device" : w == Where::host ? "host" : "pinned"; }
template <Where W>
using WhereSpace = std::conditional_t<W == Where::device, Mem,
                                      std::conditional_t<W == Where::host, Kokkos::HostSpace, Kokkos::SharedHostPinnedSpace>>;

KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Bit i of the benchmark bit vectors: one in two, from a hash of i.
struct HashBit {
  KOKKOS_FUNCTION bool operator()(std::uint64_t i) const { return mix64(i) & 1; }
};

std::int64_t rs_min_log2() { return env_int("KTEXT_BENCH_RS_MIN_LOG2", 26); }
std::int64_t rs_max_log2() { return env_int("KTEXT_BENCH_RS_MAX_LOG2", host_backend ? 30 : 34); }
/// KTEXT_BENCH_QUERY_ORDER: automatic (default), as_given or by_locality.
ktext::QueryOrder query_order() {
  const char* v = std::getenv("KTEXT_BENCH_QUERY_ORDER");
  const std::string s = v ? v : "";
  return s == "as_given" ? ktext::QueryOrder::as_given
         : s == "by_locality" ? ktext::QueryOrder::by_locality
                              : ktext::QueryOrder::automatic;
}
std::int64_t max_queries() { return env_int("KTEXT_BENCH_SUCCINCT_MAX_QUERIES", host_backend ? 10'000'000 : 100'000'000); }

/// Runs \p f, turning an exception (an allocation that failed, most often) into SkipWithError.
template <class F>
void guarded(benchmark::State& state, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

/// out(q) = lo + a hash of q mod range, or for wavelet select with \p counts: the symbol at a
/// random text position (a) and k in [1, its count] (out).
struct UniformArguments {
  DView<std::uint64_t> out;
  std::uint64_t lo, range, seed;
  KOKKOS_FUNCTION void operator()(std::uint64_t q) const { out(q) = lo + mix64(q ^ seed) % range; }
};
struct SymbolArguments {
  DView<const std::uint8_t> text;
  DView<const std::uint64_t> counts;  ///< occurrences per byte value
  DView<std::uint8_t> symbols;
  DView<std::uint64_t> ks;
  bool select;
  KOKKOS_FUNCTION void operator()(std::uint64_t q) const {
    const std::uint8_t c = text(mix64(q ^ 0x5eed) % text.extent(0));
    symbols(q) = c;
    ks(q) = select ? 1 + mix64(q ^ 0xbeef) % counts(c) : mix64(q ^ 0xcafe) % (text.extent(0) + 1);
  }
};

DView<std::uint64_t> uniform(std::uint64_t count, std::uint64_t lo, std::uint64_t range, std::uint64_t seed) {
  DView<std::uint64_t> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::arguments"), count);
  Kokkos::parallel_for("bench::arguments", Kokkos::RangePolicy<Exec>(0, count), UniformArguments{v, lo, range, seed});
  return v;
}

HView on_host(const DView<std::uint64_t>& d) { return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, d); }

/// The arguments \p d in the memory of \p W.
template <Where W, class T>
Kokkos::View<T*, WhereSpace<W>> placed(const DView<T>& d) {
  if constexpr (W == Where::device) {
    return d;
  } else {
    Kokkos::View<T*, WhereSpace<W>> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::arguments"), d.extent(0));
    Kokkos::deep_copy(v, d);
    return v;
  }
}

/// Times batches of queries: \p run(out) answers them into \p out (TO values in W's memory).
template <Where W, class TO, class Run>
void time_queries(benchmark::State& state, std::uint64_t count, std::size_t arg_bytes, const Run& run) {
  Kokkos::View<TO*, WhereSpace<W>> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::answers"), count);
  for (auto _ : state) {
    run(out);  // waits
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(count));
  state.SetBytesProcessed(state.iterations() * std::int64_t(count * (arg_bytes + sizeof(TO))));
}

// ---------------------------------------------------------------------------------------------
// RankSelect

/// The bit vector of one size at a time, with its directories.
struct BitsSlot {
  std::int64_t log2 = -1;
  RS rs;
};
BitsSlot& bits_slot() {
  static BitsSlot s;
  return s;
}

RS build_bits(std::int64_t log2) {
  const BV bits = BV::from_predicate(Exec{}, std::uint64_t(1) << log2, HashBit{});
  return RS(Exec{}, bits);
}

const RS& bits_for(std::int64_t log2) {
  BitsSlot& s = bits_slot();
  if (s.log2 != log2) {
    s = {};
    s.rs = build_bits(log2);
    s.log2 = log2;
  }
  return s.rs;
}

void bm_rs_build(benchmark::State& state) {
  guarded(state, [&] {
    bits_slot() = {};
    const std::uint64_t n = std::uint64_t(1) << state.range(0);
    std::size_t space = 0;
    for (auto _ : state) {
      const RS rs = build_bits(state.range(0));  // RankSelect's constructor waits
      space = rs.space_bytes();
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(n));
    state.SetBytesProcessed(state.iterations() * std::int64_t(n / 8));
    state.counters["space_bytes_per_bit"] = double(space) / double(n);
  });
}

template <Where W>
void bm_rs_query(benchmark::State& state, ktext::BitQuery op) {
  guarded(state, [&] {
    const RS& rs = bits_for(state.range(0));
    const std::uint64_t count = std::uint64_t(state.range(1));
    const bool select = op == ktext::BitQuery::select1 || op == ktext::BitQuery::select0;
    const std::uint64_t total = op == ktext::BitQuery::select1 ? rs.count_ones() : rs.count_zeros();
    const auto args = placed<W>(select ? uniform(count, 1, total, 7) : uniform(count, 0, rs.size() + 1, 7));
    time_queries<W, std::uint64_t>(state, count, 8, [&](const auto& out) { rs.query(Exec{}, op, args, out); });
  });
}

// ---------------------------------------------------------------------------------------------
// Wavelet tree and matrix

std::map<std::string, std::function<Text()>>& makers() {
  static std::map<std::string, std::function<Text()>> m;
  return m;
}

/// One dataset at a time: its text, byte counts and (once built) structures.
struct Dataset {
  std::string name;
  Text text;
  DView<std::uint8_t> d_text;
  DView<std::uint64_t> counts;
  std::optional<WT> wt;
  std::optional<WM> wm;
};
std::unique_ptr<Dataset>& dataset_slot() {
  static std::unique_ptr<Dataset> d;
  return d;
}

Dataset& dataset(const std::string& name) {
  auto& slot = dataset_slot();
  if (!slot || slot->name != name) {
    slot.reset();
    auto d = std::make_unique<Dataset>();
    d->name = name;
    d->text = makers().at(name)();
    if (d->text.empty()) throw std::runtime_error("empty dataset");
    d->d_text = to_device(d->text, "bench::text");
    std::vector<std::uint64_t> counts(256, 0);
    for (const auto c : d->text) ++counts[c];
    d->counts = to_device(counts, "bench::counts");
    slot = std::move(d);
  }
  return *slot;
}

template <class W>
std::optional<W>& structure(Dataset& d) {
  if constexpr (std::is_same_v<W, WT>)
    return d.wt;
  else
    return d.wm;
}

template <class W>
void bm_wavelet_build(benchmark::State& state, const std::string& name) {
  guarded(state, [&] {
    Dataset& d = dataset(name);
    structure<W>(d).reset();
    std::size_t space = 0;
    for (auto _ : state) {
      const W w(Exec{}, d.d_text);  // waits
      space = w.space_bytes();
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(d.text.size()));
    state.SetBytesProcessed(state.iterations() * std::int64_t(d.text.size()));
    state.counters["space_bytes_per_symbol"] = double(space) / double(d.text.size());
  });
}

template <class W, Where Wh>
void bm_wavelet_query(benchmark::State& state, const std::string& name, ktext::WaveletQuery op) {
  guarded(state, [&] {
    Dataset& d = dataset(name);
    auto& w = structure<W>(d);
    if (!w) w.emplace(Exec{}, d.d_text);
    const std::uint64_t count = std::uint64_t(state.range(0));
    const ktext::QueryOrder order = query_order();
    if (op == ktext::WaveletQuery::access) {
      const auto a = placed<Wh>(uniform(count, 0, d.text.size(), 11));
      time_queries<Wh, std::uint8_t>(state, count, 8, [&](const auto& out) { w->query(Exec{}, op, a, a, out, order); });
    } else {
      DView<std::uint8_t> symbols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::symbols"), count);
      DView<std::uint64_t> b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bench::positions"), count);
      Kokkos::parallel_for("bench::arguments", Kokkos::RangePolicy<Exec>(0, count),
                           SymbolArguments{d.d_text, d.counts, symbols, b, op == ktext::WaveletQuery::select});
      const auto pa = placed<Wh>(symbols);
      const auto pb = placed<Wh>(b);
      time_queries<Wh, std::uint64_t>(state, count, 9, [&](const auto& out) { w->query(Exec{}, op, pa, pb, out, order); });
    }
  });
}

const char* query_name(ktext::WaveletQuery op) { return WT::op_name(op); }

/// A set of benchmarks whose last member gets the arguments: <base>_<where><suffix> for device
/// views and, on non-host backends, pageable and pinned host views; \p f(where, state) with
/// where a std::integral_constant<Where, ...>. Returns a proxy that forwards Arg/Args/ArgName(s).
struct WhereGroup {
  std::vector<benchmark::internal::Benchmark*> members;
  WhereGroup* Arg(std::int64_t x) {
    for (auto* m : members) m->Arg(x);
    return this;
  }
  WhereGroup* Args(const std::vector<std::int64_t>& x) {
    for (auto* m : members) m->Args(x);
    return this;
  }
  WhereGroup* ArgName(const std::string& x) {
    for (auto* m : members) m->ArgName(x);
    return this;
  }
  WhereGroup* ArgNames(const std::vector<std::string>& x) {
    for (auto* m : members) m->ArgNames(x);
    return this;
  }
};
template <class F>
WhereGroup* register_where(const std::string& base, const std::string& suffix, bool host_only, F f) {
  static std::vector<std::unique_ptr<WhereGroup>> groups;
  auto group = std::make_unique<WhereGroup>();
  auto add = [&](auto where) {
    group->members.push_back(
        benchmark::RegisterBenchmark((base + "_" + where_name(decltype(where)::value) + suffix).c_str(),
                                     [f, where](benchmark::State& s) { f(where, s); })
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond));
  };
  add(std::integral_constant<Where, Where::device>{});
  if (!host_only) {
    add(std::integral_constant<Where, Where::host>{});
    add(std::integral_constant<Where, Where::pinned>{});
  }
  groups.push_back(std::move(group));
  return groups.back().get();
}

template <class W>
void add_wavelet(const char* prefix, const std::string& name) {
  const std::string b = "_" + backend_name + "/" + name;
  benchmark::RegisterBenchmark((std::string(prefix) + "_build" + b).c_str(),
                               [name](benchmark::State& s) { bm_wavelet_build<W>(s, name); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  for (const auto op : {ktext::WaveletQuery::access, ktext::WaveletQuery::rank, ktext::WaveletQuery::select})
    for (std::int64_t q = 100000; q <= max_queries(); q *= 10) {
      const std::string base = std::string(prefix) + "_" + query_name(op);
      register_where(base, b, host_backend, [name, op](auto where, benchmark::State& s) {
        bm_wavelet_query<W, decltype(where)::value>(s, name, op);
      })->Arg(q)->ArgName("Q");
    }
}

void add_rank_select() {
  for (std::int64_t lg = rs_min_log2(); lg <= rs_max_log2(); lg += 2) {
    benchmark::RegisterBenchmark(("rs_build_" + backend_name).c_str(), bm_rs_build)
        ->Arg(lg)
        ->ArgName("L")
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    for (const auto op : {ktext::BitQuery::rank1, ktext::BitQuery::select1})
      for (std::int64_t q = 100000; q <= max_queries(); q *= 10) {
        const std::string base = std::string("rs_") + RS::op_name(op);
        register_where(base, "_" + backend_name, host_backend, [op](auto where, benchmark::State& s) {
          bm_rs_query<decltype(where)::value>(s, op);
        })->Args({lg, q})->ArgNames({"L", "Q"});
      }
  }
}

}  // namespace
}  // namespace ktext::bench

#if defined(KTEXT_HAVE_SDSL)
#include "bench_succinct_sdsl.hpp"
#endif

namespace ktext::bench {

void register_benchmarks() {
  benchmark::AddCustomContext("ktext_backend", backend_name);
  benchmark::AddCustomContext("ktext_concurrency", std::to_string(Exec().concurrency()));
  Kokkos::push_finalize_hook([] {  // the kept structures' views die before Kokkos
    bits_slot() = {};
    dataset_slot().reset();
  });
  add_rank_select();
#if defined(KTEXT_HAVE_SDSL)
  if (host_backend) add_sdsl_rank_select();
#endif

  const char* dir = std::getenv("KTEXT_CORPUS_DIR");
  const bool corpus = dir && *dir;
  const char* synthetic_env = std::getenv("KTEXT_BENCH_WT_SYNTHETIC");
  const std::string synthetic = synthetic_env && *synthetic_env ? synthetic_env : corpus ? "none" : "random4,random256";
  const std::size_t n = std::size_t(1) << std::clamp(env_int("KTEXT_BENCH_WT_TEXT_LOG2", 24), 4LL, 40LL);
  std::vector<std::string> names;
  std::stringstream list(synthetic);
  for (std::string kind; std::getline(list, kind, ',');) {
    if (kind == "random4" || kind == "random256") {
      const int sigma = std::stoi(kind.substr(6));
      const std::string name = kind + "_" + size_name(n);
      makers()[name] = [n, sigma] { return random_text(n, sigma, 200 + sigma); };
      names.push_back(name);
    } else if (kind != "none" && !kind.empty()) {
      std::fprintf(stderr, "ktext bench: unknown KTEXT_BENCH_WT_SYNTHETIC entry '%s' (random4, random256, none)\n", kind.c_str());
    }
  }
  if (corpus) {
    const auto prefix = static_cast<std::uint64_t>(std::max(0LL, env_int("KTEXT_CORPUS_PREFIX", 0)));
    for (const auto& f : corpus_files(dir)) {
      makers()[f.filename().string()] = [f, prefix] { return read_file(f, prefix); };
      names.push_back(f.filename().string());
    }
  }
  for (const auto& name : names) {  // a dataset's benchmarks next to each other: one build each
    add_wavelet<WT>("wt", name);
    add_wavelet<WM>("wm", name);
#if defined(KTEXT_HAVE_SDSL)
    if (host_backend) add_sdsl_wavelet(name);
#endif
  }
}

}  // namespace ktext::bench
