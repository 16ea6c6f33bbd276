// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Benchmarks of ktext::FMIndex (int32 positions) on one backend (KTEXT_BENCH_EXEC): batched
// count, batched locate and construction.
//
// Names (m: pattern length, P: number of patterns):
//   fm_build_<Backend>/<dataset>                    construction from the text on the backend;
//   fm_count_device_<Backend>/<dataset>/m:M/P:P     count(), patterns already in the backend's memory;
//   fm_count_host_<Backend>/<dataset>/m:M/P:P       patterns and offsets copied from host memory to
//                                                   the backend, count(), counts copied back;
//   fm_count_pinned_<Backend>/<dataset>/m:M/P:P     as host, from pinned host memory (non-host
//                                                   backends, KTEXT_BENCH_FM_PINNED=1 only);
//   fm_locate_<Backend>/<dataset>/m:16/P:P          locate(), patterns in the backend's memory.
// count: m = 8, 16, 32, 64 and P = 10^4, 10^5, ... up to KTEXT_BENCH_FM_MAX_PATTERNS (default 10^6
// on host backends, 10^7 otherwise); locate: P = 10^4 and 10^5 (capped by the same maximum).
// Patterns are substrings of the text at random positions (seeded by m and P, the same for every
// variant), so each has at least one occurrence; offsets are int64 (i * m), counts uint64.
// Datasets: the regular files of $KTEXT_CORPUS_DIR when set (checksum lists and compressed files
//   skipped, cut to $KTEXT_CORPUS_PREFIX bytes when that is set), else synthetic texts of
//   2^KTEXT_BENCH_FM_TEXT_LOG2 symbols (default 24): random4 (uniform ACGT, the text of the
//   suffix-array benchmark's random4) and englishlike (Zipf-distributed pseudo-words of English
//   letter frequencies with spaces, commas, full stops, capitals and line breaks).
//   KTEXT_BENCH_FM_SYNTHETIC=random4,englishlike,random26,random256 chooses the synthetic ones
//   (also next to a corpus; "none" for none).
// The index of a dataset is built once (by fm_build when it runs, else on first use) and kept for
// that dataset's benchmarks, which are registered next to each other; only one dataset's text
// and index are held at a time (random interleaving of benchmarks would rebuild them often).
// Patterns are generated per benchmark before its timed loop (host threads) and freed after it;
// every other buffer is allocated before the loop too. Timings are wall clock (real_time) and
// every timed iteration ends with exec.fence(); count() itself waits once (its offset check).
// Counters: items_per_second (patterns), bytes_per_second (pattern symbols; for fm_build text
// symbols), occurrences (sum of the counts of one batch: every pattern has at least one, else
// the benchmark fails), n (text symbols); fm_locate adds occurrences_per_second; fm_build adds
// index_bytes_per_symbol, sigma, sample_rate and wavelet_matrix (1 when the occurrence counts
// are a wavelet matrix). KTEXT_BENCH_FM_SAMPLE_RATE (default 32) is the index's sample rate;
// KTEXT_BENCH_FM_OCC=wm builds the counts as a wavelet matrix instead of the table. KTEXT_BENCH_VERIFY=1 checks the first counts of each count benchmark
// against a scan of the text, and every located position against the text and count().
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ktext/suffix.hpp>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "bench_common.hpp"

namespace ktext::bench {
namespace {

using Index = std::int32_t;
using FM = ktext::FMIndex<Mem, Index>;
using HostExec = Kokkos::DefaultHostExecutionSpace;
template <class T>
using DView = Kokkos::View<T*, Mem>;

constexpr std::int64_t locate_length = 16;

// ---- knobs -----------------------------------------------------------------------------------

std::int64_t max_patterns() {
  static const std::int64_t p = env_int("KTEXT_BENCH_FM_MAX_PATTERNS", host_backend ? 1000000 : 10000000);
  return p;
}

FMIndexOptions index_options() {
  FMIndexOptions o;
  o.sample_rate = static_cast<std::uint32_t>(std::max(1LL, env_int("KTEXT_BENCH_FM_SAMPLE_RATE", 32)));
  const char* occ = std::getenv("KTEXT_BENCH_FM_OCC");
  const std::string_view kind = occ ? occ : "table";
  if (kind == "wm")
    o.occurrences = FMOccurrences::wavelet_matrix;
  else if (kind != "table")
    throw std::invalid_argument("KTEXT_BENCH_FM_OCC must be table or wm, not " + std::string(kind));
  return o;
}

bool verify() { return env_int("KTEXT_BENCH_VERIFY", 0) != 0; }

// ---- inputs ----------------------------------------------------------------------------------

/// English-like text: 4096 pseudo-words (1..10 letters drawn by English letter frequency) used
/// with Zipf frequencies (weight 1/rank); a comma after 1 word in 16, a full stop after 1 in 14
/// (the next word capitalized), a line break instead of a space past 72 columns.
Text englishlike_text(std::size_t n, std::uint64_t seed) {
  static const char letters[] = "etaoinshrdlcumwfgypbvkjxqz";
  static const int freq[] = {127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28, 24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1};
  SplitMix64 rng(seed);
  std::vector<int> letter_cdf;
  for (int f : freq) letter_cdf.push_back((letter_cdf.empty() ? 0 : letter_cdf.back()) + f);
  const auto letter = [&] {
    const int u = static_cast<int>(rng() % unsigned(letter_cdf.back()));
    return letters[std::upper_bound(letter_cdf.begin(), letter_cdf.end(), u) - letter_cdf.begin()];
  };
  std::vector<std::string> words(4096);
  std::vector<double> word_cdf;
  for (std::size_t r = 0; r < words.size(); ++r) {
    const std::size_t len = 1 + rng() % 4 + rng() % 4 + rng() % 3;
    for (std::size_t k = 0; k < len; ++k) words[r] += letter();
    word_cdf.push_back((word_cdf.empty() ? 0.0 : word_cdf.back()) + 1.0 / double(r + 1));
  }
  Text t;
  t.reserve(n + 16);
  bool capital = true;
  std::size_t column = 0;
  while (t.size() < n) {
    const double u = double(rng() >> 11) * 0x1.0p-53 * word_cdf.back();
    const auto r = std::min<std::size_t>(std::upper_bound(word_cdf.begin(), word_cdf.end(), u) - word_cdf.begin(), words.size() - 1);
    std::string w = words[r];
    if (capital) w[0] = char(w[0] - 'a' + 'A');
    capital = false;
    const std::uint64_t p = rng() % 224;  // 224 = 16 * 14
    if (p < 14) w += ',';
    else if (p < 30) {
      w += '.';
      capital = true;
    }
    t.insert(t.end(), w.begin(), w.end());
    column += w.size() + 1;
    if (column > 72) {
      t.push_back('\n');
      column = 0;
    } else {
      t.push_back(' ');
    }
  }
  t.resize(n);
  return t;
}

// ---- the dataset in use: text and index, one dataset at a time --------------------------------

struct Loaded {
  std::string name;
  Text text;               // host copy: pattern generation and checks
  std::optional<FM> index;
};

std::map<std::string, std::function<Text()>>& makers() {
  static std::map<std::string, std::function<Text()>> m;
  return m;
}

std::unique_ptr<Loaded>& loaded_slot() {
  static std::unique_ptr<Loaded> slot;
  return slot;
}

/// The text (and with \p with_index the index) of \p name; the previous dataset is freed first.
Loaded& load(const std::string& name, bool with_index) {
  auto& slot = loaded_slot();
  if (!slot || slot->name != name) {
    slot.reset();
    auto l = std::make_unique<Loaded>();
    l->name = name;
    l->text = makers().at(name)();
    slot = std::move(l);
  }
  if (with_index && !slot->index) {
    if (slot->text.size() >= (std::size_t(1) << 31)) throw std::runtime_error("input too large for int32 indices");
    Exec exec;
    const auto text = to_device(slot->text, "ktext_bench::text");
    slot->index.emplace(exec, Kokkos::View<const std::uint8_t*, Mem>(text), index_options());
  }
  return *slot;
}

/// Patterns back to back and their P + 1 offsets, in host memory \p HostMem.
template <class HostMem>
struct Patterns {
  Kokkos::View<std::uint8_t*, HostMem> symbols;
  Kokkos::View<std::int64_t*, HostMem> offsets;
};

/// \p num patterns of length \p m at seeded random positions of \p text, offsets i * m; filled
/// by the host threads (each pattern's position depends only on m, num and i).
template <class HostMem>
Patterns<HostMem> make_patterns(const Text& text, std::size_t m, std::size_t num) {
  Patterns<HostMem> p;
  p.symbols = Kokkos::View<std::uint8_t*, HostMem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::host_patterns"), num * m);
  p.offsets = Kokkos::View<std::int64_t*, HostMem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::host_offsets"), num + 1);
  const std::uint64_t base = SplitMix64(0x6b746578ull * 1000003u + m * 1000000007ull + num)();
  const std::uint64_t starts = text.size() - m + 1;
  const std::uint8_t* t = text.data();
  const auto symbols = p.symbols;
  const auto offsets = p.offsets;
  Kokkos::parallel_for(
      "ktext_bench::make_patterns", Kokkos::RangePolicy<HostExec>(0, num), [=](std::size_t i) {
        const std::uint64_t at = SplitMix64(base + i)() % starts;
        std::copy(t + at, t + at + m, symbols.data() + i * m);
        offsets(i) = std::int64_t(i * m);
      });
  HostExec().fence();
  offsets(num) = std::int64_t(num * m);
  return p;
}

/// \p num patterns for locate: substrings of the text with at most locate_max_occurrences
/// occurrences each, the first of 4 * num candidates that qualify (chosen outside the timing).
/// Real text holds substrings with millions of occurrences (runs of spaces in English prose);
/// locating those measures output size, not the index.
constexpr std::uint64_t locate_max_occurrences = 1024;

template <class FMIndexType>
Patterns<Kokkos::HostSpace> rare_patterns(const Exec& exec, const FMIndexType& index, const Text& text, std::size_t m,
                                          std::size_t num) {
  const auto candidates = make_patterns<Kokkos::HostSpace>(text, m, 4 * num);
  const auto d_symbols = Kokkos::create_mirror_view_and_copy(Mem{}, candidates.symbols);
  const auto d_offsets = Kokkos::create_mirror_view_and_copy(Mem{}, candidates.offsets);
  Kokkos::View<std::uint64_t*, Mem> counts(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::counts"), 4 * num);
  index.count(exec, d_symbols, d_offsets, counts);
  const auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, counts);
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < 4 * num && keep.size() < num; ++i)
    if (hc(i) <= locate_max_occurrences) keep.push_back(i);
  Patterns<Kokkos::HostSpace> p;
  p.symbols = Kokkos::View<std::uint8_t*, Kokkos::HostSpace>("ktext_bench::rare_patterns", keep.size() * m);
  p.offsets = Kokkos::View<std::int64_t*, Kokkos::HostSpace>("ktext_bench::rare_offsets", keep.size() + 1);
  for (std::size_t k = 0; k < keep.size(); ++k) {
    std::copy(candidates.symbols.data() + keep[k] * m, candidates.symbols.data() + (keep[k] + 1) * m, p.symbols.data() + k * m);
    p.offsets(k + 1) = std::int64_t((k + 1) * m);
  }
  return p;
}

/// Overlapping occurrences of \p pattern in \p text, by scanning.
std::uint64_t scan_count(const Text& text, std::string_view pattern) {
  const std::string_view t(reinterpret_cast<const char*>(text.data()), text.size());
  std::uint64_t c = 0;
  for (auto at = t.find(pattern); at != std::string_view::npos; at = t.find(pattern, at + 1)) ++c;
  return c;
}

/// Sets the throughput counters and checks the counts of one batch (every pattern occurs).
template <class HostPatterns, class CountView>
void finish_count(benchmark::State& state, const Loaded& in, const HostPatterns& p, std::size_t m, std::size_t num,
                  const CountView& counts) {
  state.SetItemsProcessed(state.iterations() * std::int64_t(num));
  state.SetBytesProcessed(state.iterations() * std::int64_t(num * m));
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, counts);
  std::uint64_t total = 0, missing = 0;
  for (std::size_t i = 0; i < num; ++i) {
    total += h(i);
    missing += h(i) == 0;
  }
  state.counters["occurrences"] = double(total);
  state.counters["n"] = double(in.text.size());
  if (missing) {
    state.SkipWithError((std::to_string(missing) + " patterns taken from the text have no occurrence").c_str());
    return;
  }
  if (verify())
    for (std::size_t i = 0; i < std::min<std::size_t>(num, 8); ++i) {
      const std::string_view pat(reinterpret_cast<const char*>(p.symbols.data() + i * m), m);
      if (scan_count(in.text, pat) != h(i)) {
        state.SkipWithError(("count of pattern " + std::to_string(i) + " differs from a scan of the text").c_str());
        return;
      }
    }
}

/// The index of \p name with a text of at least m symbols, or a skipped benchmark.
Loaded* load_for(benchmark::State& state, const std::string& name, std::size_t m) {
  Loaded& in = load(name, true);
  if (in.text.size() < m) {
    state.SkipWithError("text shorter than the patterns");
    return nullptr;
  }
  return &in;
}

/// Runs \p body, turning exceptions (construction out of memory, inputs too large) into a
/// skipped benchmark instead of a terminated run.
template <class Body>
void guarded(benchmark::State& state, Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// ---- benchmarks ------------------------------------------------------------------------------

void bm_build(benchmark::State& state, const std::string& name) {
  guarded(state, [&] {
    Loaded& in = load(name, false);
    in.index.reset();  // rebuilt below: hold one index at a time
    const std::size_t n = in.text.size();
    if (n >= (std::size_t(1) << 31)) {
      state.SkipWithError("input too large for int32 indices");
      return;
    }
    const Kokkos::View<const std::uint8_t*, Mem> text = to_device(in.text, "ktext_bench::text");
    const FMIndexOptions options = index_options();
    Exec exec;
    exec.fence();
    std::optional<FM> index;
    for (auto _ : state) {
      state.PauseTiming();
      index.reset();
      exec.fence();
      state.ResumeTiming();
      index.emplace(exec, text, options);
      exec.fence();
    }
    state.SetBytesProcessed(state.iterations() * std::int64_t(n));
    state.counters["n"] = double(n);
    state.counters["index_bytes_per_symbol"] = n ? double(index->bytes()) / double(n) : 0.0;
    state.counters["sigma"] = index->alphabet_size();
    state.counters["sample_rate"] = index->sample_rate();
    state.counters["wavelet_matrix"] = index->occurrences() == FMOccurrences::wavelet_matrix ? 1 : 0;
    in.index = std::move(index);  // kept for this dataset's count and locate benchmarks
  });
}

void bm_count_device(benchmark::State& state, const std::string& name) {
  guarded(state, [&] {
    const auto m = static_cast<std::size_t>(state.range(0)), num = static_cast<std::size_t>(state.range(1));
    Loaded* in = load_for(state, name, m);
    if (!in) return;
    const auto hp = make_patterns<Kokkos::HostSpace>(in->text, m, num);
    // On host backends these are the host views themselves.
    const Kokkos::View<const std::uint8_t*, Mem> patterns = Kokkos::create_mirror_view_and_copy(Mem{}, hp.symbols);
    const Kokkos::View<const std::int64_t*, Mem> offsets = Kokkos::create_mirror_view_and_copy(Mem{}, hp.offsets);
    DView<std::uint64_t> counts(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::counts"), num);
    const FM& index = *in->index;
    Exec exec;
    exec.fence();
    for (auto _ : state) {
      index.count(exec, patterns, offsets, counts);
      exec.fence();
    }
    finish_count(state, *in, hp, m, num, counts);
  });
}

/// Patterns, offsets and counts live in \p HostMem (HostSpace, or pinned host memory); the timed
/// loop copies the patterns and offsets to the backend, counts, and copies the counts back.
template <class HostMem>
void bm_count_host(benchmark::State& state, const std::string& name) {
  guarded(state, [&] {
    const auto m = static_cast<std::size_t>(state.range(0)), num = static_cast<std::size_t>(state.range(1));
    Loaded* in = load_for(state, name, m);
    if (!in) return;
    const auto hp = make_patterns<HostMem>(in->text, m, num);
    Kokkos::View<std::uint64_t*, HostMem> hcounts(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::host_counts"), num);
    DView<std::uint8_t> patterns(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::patterns"), num * m);
    DView<std::int64_t> offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::offsets"), num + 1);
    DView<std::uint64_t> counts(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::counts"), num);
    const FM& index = *in->index;
    Exec exec;
    exec.fence();
    for (auto _ : state) {
      Kokkos::deep_copy(exec, patterns, hp.symbols);
      Kokkos::deep_copy(exec, offsets, hp.offsets);
      index.count(exec, Kokkos::View<const std::uint8_t*, Mem>(patterns), Kokkos::View<const std::int64_t*, Mem>(offsets), counts);
      Kokkos::deep_copy(exec, hcounts, counts);
      exec.fence();
    }
    finish_count(state, *in, hp, m, num, hcounts);  // the counts as copied back
  });
}

void bm_locate(benchmark::State& state, const std::string& name) {
  guarded(state, [&] {
    const auto m = static_cast<std::size_t>(state.range(0)), num = static_cast<std::size_t>(state.range(1));
    Loaded* in = load_for(state, name, m);
    if (!in) return;
    const FM& index = *in->index;
    Exec exec;
    const auto hp = rare_patterns(exec, index, in->text, m, num);
    const std::size_t located = hp.offsets.extent(0) - 1;
    state.counters["patterns"] = double(located);
    const Kokkos::View<const std::uint8_t*, Mem> patterns = Kokkos::create_mirror_view_and_copy(Mem{}, hp.symbols);
    const Kokkos::View<const std::int64_t*, Mem> offsets = Kokkos::create_mirror_view_and_copy(Mem{}, hp.offsets);
    exec.fence();
    FMIndexOccurrences<Mem, Index> occ;
    for (auto _ : state) {
      state.PauseTiming();
      occ = {};  // free the previous result outside the timing
      state.ResumeTiming();
      occ = index.locate(exec, patterns, offsets);
      exec.fence();
    }
    const std::int64_t total = std::int64_t(occ.positions.extent(0));
    state.SetItemsProcessed(state.iterations() * std::int64_t(located));
    state.SetBytesProcessed(state.iterations() * std::int64_t(located * m));
    state.counters["occurrences"] = double(total);
    state.counters["occurrences_per_second"] =
        benchmark::Counter(double(total) * double(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["n"] = double(in->text.size());
    const auto off = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, occ.offsets);
    for (std::size_t i = 0; i < located; ++i)
      if (off(i + 1) <= off(i)) {
        state.SkipWithError("a pattern taken from the text has no located occurrence");
        return;
      }
    if (!verify()) return;
    DView<std::uint64_t> counts(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::counts"), located);
    index.count(exec, patterns, offsets, counts);
    const auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, counts);
    const auto pos = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, occ.positions);
    const std::size_t n = in->text.size();
    for (std::size_t i = 0; i < located; ++i) {
      if (std::uint64_t(off(i + 1) - off(i)) != hc(i)) {
        state.SkipWithError("locate and count disagree");
        return;
      }
      for (std::int64_t k = off(i); k < off(i + 1); ++k) {
        const std::int64_t at = pos(k);
        const bool ok = at >= 0 && std::size_t(at) + m <= n && (k == off(i) || pos(k - 1) < at) &&
                        std::equal(hp.symbols.data() + i * m, hp.symbols.data() + (i + 1) * m, in->text.data() + at);
        if (!ok) {
          state.SkipWithError(("located position " + std::to_string(at) + " of pattern " + std::to_string(i) + " is wrong").c_str());
          return;
        }
      }
    }
  });
}

}  // namespace
}  // namespace ktext::bench

#if defined(KTEXT_HAVE_SDSL)
#include "bench_fm_index_sdsl.hpp"
#endif

namespace ktext::bench {
namespace {

void add_dataset(const std::string& name, std::function<Text()> make, bool pinned) {
  makers()[name] = std::move(make);
  const std::string b = "_" + backend_name + "/" + name;
  benchmark::RegisterBenchmark(("fm_build" + b).c_str(), [name](benchmark::State& s) { bm_build(s, name); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  for (std::int64_t m : {8, 16, 32, 64})
    for (std::int64_t p = 10000; p <= max_patterns(); p *= 10) {
      benchmark::RegisterBenchmark(("fm_count_device" + b).c_str(), [name](benchmark::State& s) { bm_count_device(s, name); })
          ->Args({m, p})
          ->ArgNames({"m", "P"})
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("fm_count_host" + b).c_str(),
                                   [name](benchmark::State& s) { bm_count_host<Kokkos::HostSpace>(s, name); })
          ->Args({m, p})
          ->ArgNames({"m", "P"})
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
      if (pinned)
        benchmark::RegisterBenchmark(("fm_count_pinned" + b).c_str(),
                                     [name](benchmark::State& s) { bm_count_host<Kokkos::SharedHostPinnedSpace>(s, name); })
            ->Args({m, p})
            ->ArgNames({"m", "P"})
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
    }
  for (std::int64_t p : {10000, 100000})
    if (p <= max_patterns())
      benchmark::RegisterBenchmark(("fm_locate" + b).c_str(), [name](benchmark::State& s) { bm_locate(s, name); })
          ->Args({locate_length, p})
          ->ArgNames({"m", "P"})
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
#if defined(KTEXT_HAVE_SDSL)
  if (host_backend) add_sdsl_dataset(name);
#endif
}

}  // namespace

void register_benchmarks() {
  benchmark::AddCustomContext("ktext_backend", backend_name);
  benchmark::AddCustomContext("ktext_concurrency", std::to_string(Exec().concurrency()));
  benchmark::AddCustomContext("ktext_fm_sample_rate", std::to_string(index_options().sample_rate));
  benchmark::AddCustomContext("ktext_fm_occurrences",
                              index_options().occurrences == FMOccurrences::wavelet_matrix ? "wm" : "table");
  Kokkos::push_finalize_hook([] { loaded_slot().reset(); });  // the kept index's views die before Kokkos
  const bool pinned = !host_backend && env_int("KTEXT_BENCH_FM_PINNED", 0) != 0;

  const char* dir = std::getenv("KTEXT_CORPUS_DIR");
  const bool corpus = dir && *dir;
  const char* synthetic_env = std::getenv("KTEXT_BENCH_FM_SYNTHETIC");
  const std::string synthetic = synthetic_env && *synthetic_env ? synthetic_env : corpus ? "none" : "random4,englishlike";
  const long long lg = env_int("KTEXT_BENCH_FM_TEXT_LOG2", 24);
  const std::size_t n = std::size_t(1) << std::clamp(lg, 4LL, 40LL);
  std::stringstream list(synthetic);
  for (std::string kind; std::getline(list, kind, ',');) {
    const std::string name = kind + "_" + size_name(n);
    if (kind == "random4" || kind == "random26" || kind == "random256") {
      const int sigma = std::stoi(kind.substr(6));
      add_dataset(name, [n, sigma] { return random_text(n, sigma, 100 + sigma); }, pinned);
    } else if (kind == "englishlike") {
      add_dataset(name, [n] { return englishlike_text(n, 42); }, pinned);
    } else if (kind != "none" && !kind.empty()) {
      std::fprintf(stderr, "ktext bench: unknown KTEXT_BENCH_FM_SYNTHETIC entry '%s' (random4, random26, random256, englishlike, none)\n",
                   kind.c_str());
    }
  }

  if (corpus) {
    const auto prefix = static_cast<std::uint64_t>(std::max(0LL, env_int("KTEXT_CORPUS_PREFIX", 0)));
    for (const auto& f : corpus_files(dir)) add_dataset(f.filename().string(), [f, prefix] { return read_file(f, prefix); }, pinned);
  }
}

}  // namespace ktext::bench
