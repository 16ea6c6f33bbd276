// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Benchmarks of ktext::suffix_array on one backend (KTEXT_BENCH_EXEC) against libdivsufsort
// (divsufsort(), one host thread) in the same binary.
//
// Names: suffix_array_<Backend>/<dataset> and divsufsort/<dataset>; with KTEXT_BENCH_SA_INDEX64=1
// also suffix_array64_<Backend>/<dataset> (64-bit output indices on every input).
// Datasets:
//   synthetic, 2^20 .. 2^24 bytes every factor 4 (KTEXT_BENCH_SA_MIN_LOG2 / KTEXT_BENCH_SA_MAX_LOG2):
//     random4 (ACGT), random26 (a-z), random256 (all bytes), a_n (A^n), fibonacci (Fibonacci word
//     over {a, b}), thue_morse (Thue-Morse word over {a, b}), period8 (8 random letters
//     repeated), versions16 (16 versions of one random-letter document, each after the first
//     with 0.1% of its letters replaced: a versioned collection, similar genomes), each suffixed
//     with _<size>;
//   corpus: every regular file of the directory $KTEXT_CORPUS_DIR (checksum lists and compressed
//     files skipped), named by file name, cut to $KTEXT_CORPUS_PREFIX bytes when that is set.
// Each input is generated or read once per process. The text is copied to the backend's memory
// and the SA view allocated before the timed loop; the timed loop is the suffix array call and a
// fence (work buffers are allocated inside the call, as divsufsort allocates its buckets).
// Counters: bytes_per_second (input bytes), peak_bytes_per_input_byte (SuffixArrayStats::peak_bytes
// / n; for divsufsort text + SA + its bucket arrays), rounds (doubling rounds), n, index_bytes (4,
// or 8 for suffix_array64_ and for inputs of 2^31 bytes or more, which the stages and the peer skip).
// KTEXT_BENCH_VERIFY=1 compares the ktext result with divsufsort's once per benchmark.
// KTEXT_BENCH_PEERS=0 leaves the peers out. Also per dataset: bwt_<Backend>, unbwt_<Backend> and
// lcp_<Backend> time the stages built on the suffix array, bwt_from_text_<Backend> the whole
// ktext::bwt and bwt_two_steps_<Backend> suffix_array then bwt_from_suffix_array, allocations
// included in both (KTEXT_BENCH_STAGES=0 leaves all five out).
// KTEXT_BENCH_SA_GROUP_LIMIT sets SuffixArrayOptions::segmented_group_limit (1: radix sorts only).
// KTEXT_BENCH_SA_TILE_LIMIT sets SuffixArrayOptions::tile_group_limit (1: no tile sort).
// KTEXT_BENCH_SA_LONG_APART=0 clears SuffixArrayOptions::sort_long_groups_apart.
// KTEXT_BENCH_SA_BATCH sets SuffixArrayOptions::batch_entries (0: the default stretch).
// KTEXT_BENCH_SA_SCATTER_WINDOW sets SuffixArrayOptions::scatter_window (0: the backend's).
// KTEXT_BENCH_SA_SCATTER_PARTS sets SuffixArrayOptions::scatter_parts (0: the backend's; 1: none).
// KTEXT_BENCH_SA_KEY_WORDS sets SuffixArrayOptions::initial_key_words (0: the estimate on GPUs).
// KTEXT_BENCH_SA_KEY_PART sets SuffixArrayOptions::initial_key_part (1: whole, 2: top, else
// automatic).
// These options apply to suffix_array_, suffix_array64_, bwt_from_text_ and bwt_two_steps_.
// KTEXT_BENCH_SA_REDUCTION=1 never reduces DC3's sample (SampleReduction::never); counter
// reductions: the levels that did.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ktext/suffix.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>

#include "bench_common.hpp"

#include <ktext_oracles/divsufsort.hpp>
#include <ktext_oracles/texts.hpp>

namespace ktext::bench {
namespace {

using TextPtr = std::shared_ptr<const Text>;

// ---- inputs ----------------------------------------------------------------------------------

/// \p copies versions of one random-letter document, n / copies letters long (the last one cut
/// to n), every version after the first with 0.1% of its letters replaced by random letters.
Text versions_text(std::size_t n, std::size_t copies, std::uint64_t seed) {
  const std::size_t length = std::max<std::size_t>(1, n / copies);
  const Text document = random_text(length, 26, seed);
  std::mt19937_64 rng(seed + 1);
  Text t;
  t.reserve(n);
  for (std::size_t c = 0; t.size() < n; ++c) {
    Text version = document;
    for (std::size_t k = 0; c > 0 && k < length / 1000; ++k) version[rng() % length] = std::uint8_t('a' + rng() % 26);
    t.insert(t.end(), version.begin(), version.begin() + static_cast<std::ptrdiff_t>(std::min(length, n - t.size())));
  }
  return t;
}

Text periodic_text(std::size_t n, std::size_t period, std::uint64_t seed) {
  const Text unit = random_text(period, 26, seed);
  Text t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = unit[i % period];
  return t;
}

/// Inputs by dataset name, made on first use and shared by the ktext and peer benchmarks.
class Inputs {
 public:
  void add(const std::string& name, std::function<Text()> make) { makers_[name] = std::move(make); }
  TextPtr get(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(name);
    if (it != cache_.end()) return it->second;
    auto t = std::make_shared<const Text>(makers_.at(name)());
    cache_[name] = t;
    return t;
  }

 private:
  std::map<std::string, std::function<Text()>> makers_;
  std::map<std::string, TextPtr> cache_;
  std::mutex mutex_;
};

Inputs& inputs() {
  static Inputs in;
  return in;
}

// ---- benchmarks ------------------------------------------------------------------------------

#if defined(KTEXT_HAVE_DIVSUFSORT)
std::vector<std::int32_t> divsufsort_sa(const Text& t) {
  std::vector<std::int32_t> sa(t.size());
  ktext::oracle::divsufsort_suffix_array(t.data(), sa.data(), t.size());
  return sa;
}
#endif

/// A dataset on the backend with its (not yet computed) int32 suffix array; empty when the
/// input is too large for int32 indices (the benchmark is then skipped with that message).
struct DeviceInput {
  TextPtr host;
  std::size_t n = 0;
  Kokkos::View<std::uint8_t*, Mem> text;
  Kokkos::View<std::int32_t*, Mem> sa;
};

std::optional<DeviceInput> device_input(benchmark::State& state, const std::string& dataset) {
  DeviceInput in;
  in.host = inputs().get(dataset);
  in.n = in.host->size();
  if (in.n >= (std::size_t(1) << 31)) {
    state.SkipWithError("input too large for int32 indices");
    return std::nullopt;
  }
  in.text = to_device(*in.host, "ktext_bench::text");
  in.sa = Kokkos::View<std::int32_t*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::sa"), in.n);
  return in;
}

/// The options the KTEXT_BENCH_SA_ variables set (see the top of this file).
inline ktext::SuffixArrayOptions bench_options() {
  ktext::SuffixArrayOptions options;
  options.segmented_group_limit = static_cast<std::size_t>(std::max(0LL, env_int("KTEXT_BENCH_SA_GROUP_LIMIT", 0)));
  options.tile_group_limit = static_cast<std::size_t>(std::max(0LL, env_int("KTEXT_BENCH_SA_TILE_LIMIT", 0)));
  options.sort_long_groups_apart = env_int("KTEXT_BENCH_SA_LONG_APART", 1) != 0;
  options.batch_entries = static_cast<std::size_t>(std::max(0LL, env_int("KTEXT_BENCH_SA_BATCH", 0)));
  options.scatter_window = static_cast<std::size_t>(std::max(0LL, env_int("KTEXT_BENCH_SA_SCATTER_WINDOW", 0)));
  options.scatter_parts = static_cast<std::size_t>(std::max(0LL, env_int("KTEXT_BENCH_SA_SCATTER_PARTS", 0)));
  options.initial_key_words = static_cast<std::size_t>(std::max(0LL, env_int("KTEXT_BENCH_SA_KEY_WORDS", 0)));
  const long long part = env_int("KTEXT_BENCH_SA_KEY_PART", 0);
  if (part == 1) options.initial_key_part = ktext::InitialKeyPart::whole;
  if (part == 2) options.initial_key_part = ktext::InitialKeyPart::top;
  // 1: doubling, 2: DC3, else the backend's default.
  const long long algorithm = env_int("KTEXT_BENCH_SA_ALGORITHM", 0);
  if (algorithm == 1) options.algorithm = ktext::SuffixArrayAlgorithm::doubling;
  if (algorithm == 2) options.algorithm = ktext::SuffixArrayAlgorithm::difference_cover;
  if (env_int("KTEXT_BENCH_SA_REDUCTION", 0) == 1) options.sample_reduction = ktext::SampleReduction::never;
  return options;
}

/// ktext::suffix_array with \p I indices: int32_t for the standard names (int64_t from 2^31 on,
/// as the CLI picks), int64_t for suffix_array64_ (below 2^32 symbols it sorts with 32-bit
/// positions into the 64-bit output; compare its peak with 18n).
template <class I>
void bm_ktext_as(benchmark::State& state, const TextPtr& t) {
  const std::size_t n = t->size();
  const auto text = to_device(*t, "ktext_bench::text");
  Kokkos::View<I*, Mem> sa(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::sa"), n);
  Exec exec;
  exec.fence();
  ktext::SuffixArrayStats stats;
  const ktext::SuffixArrayOptions options = bench_options();
  for (auto _ : state) {
    stats = ktext::suffix_array(exec, Kokkos::View<const std::uint8_t*, Mem>(text), sa, options);
    exec.fence();
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(n));
  state.counters["peak_bytes_per_input_byte"] = n ? double(stats.peak_bytes) / double(n) : 0.0;
  state.counters["rounds"] = stats.rounds;
  state.counters["reductions"] = stats.reductions;
  state.counters["n"] = double(n);
  state.counters["index_bytes"] = double(sizeof(I));
#if defined(KTEXT_HAVE_DIVSUFSORT)
  if (env_int("KTEXT_BENCH_VERIFY", 0) && n < (std::size_t(1) << 31)) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, sa);
    const auto ref = divsufsort_sa(*t);
    if (!std::equal(ref.begin(), ref.end(), h.data(), [](std::int32_t r, I v) { return I(r) == v; }))
      state.SkipWithError("ktext SA differs from divsufsort");
  }
#endif
}

void bm_ktext(benchmark::State& state, const std::string& dataset, bool index64) {
  const TextPtr t = inputs().get(dataset);
  if (index64 || t->size() >= (std::size_t(1) << 31)) bm_ktext_as<std::int64_t>(state, t);
  else bm_ktext_as<std::int32_t>(state, t);
}

/// The stages built on a suffix array, each timed alone on the backend: the BWT from the SA,
/// its inverse, and the LCP array. The SA (and the BWT for the inverse) are made before the loop.
enum class Stage { Bwt, Unbwt, Lcp };

void bm_stage(benchmark::State& state, const std::string& dataset, Stage stage) {
  const auto in = device_input(state, dataset);
  if (!in) return;
  const TextPtr& t = in->host;
  const std::size_t n = in->n;
  const auto& text = in->text;
  const auto& sa = in->sa;
  Exec exec;
  Kokkos::View<std::int32_t*, Mem> lcp(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::lcp"), n);
  Kokkos::View<std::uint8_t*, Mem> bwt(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::bwt"), n);
  Kokkos::View<std::uint8_t*, Mem> back(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::back"), n);
  ktext::suffix_array(exec, text, sa);
  const std::uint64_t primary = ktext::bwt_from_suffix_array(exec, text, sa, bwt);
  exec.fence();
  for (auto _ : state) {
    if (stage == Stage::Bwt) ktext::bwt_from_suffix_array(exec, text, sa, bwt);
    if (stage == Stage::Unbwt) ktext::unbwt(exec, bwt, primary, back);
    if (stage == Stage::Lcp) ktext::lcp(exec, text, sa, lcp);
    exec.fence();
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(n));
  state.counters["n"] = double(n);
  if (stage == Stage::Unbwt && env_int("KTEXT_BENCH_VERIFY", 0)) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, back);
    if (!std::equal(t->begin(), t->end(), h.data())) state.SkipWithError("unbwt did not give the text back");
  }
}

/// The whole BWT of a text on the backend, allocations included: ktext::bwt (where DC3 runs, its
/// merge writes the BWT), or in two steps, suffix_array then bwt_from_suffix_array with the
/// suffix array allocated alike. The two are compared once before timing.
void bm_bwt_from_text(benchmark::State& state, const std::string& dataset, bool two_steps) {
  const auto in = device_input(state, dataset);
  if (!in) return;
  const std::size_t n = in->n;
  const auto& text = in->text;
  Exec exec;
  using Out = Kokkos::View<std::uint8_t*, Mem>;
  const ktext::SuffixArrayOptions options = bench_options();
  const auto one_call = [&](const Out& out) { return ktext::bwt(exec, text, out, options); };
  const auto in_two_steps = [&](const Out& out) {
    Kokkos::View<std::int32_t*, Mem> sa(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::bwt_sa"), n);
    ktext::suffix_array(exec, text, sa, options);
    return ktext::bwt_from_suffix_array(exec, text, sa, out);
  };
  Out out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::bwt"), n);
  {
    Out other(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ktext_bench::bwt_other"), n);
    const std::uint64_t p1 = one_call(out), p2 = in_two_steps(other);
    const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
    const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, other);
    if (p1 != p2 || !std::equal(a.data(), a.data() + n, b.data())) {
      state.SkipWithError("ktext::bwt and the two steps differ");
      return;
    }
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(two_steps ? in_two_steps(out) : one_call(out));
    exec.fence();
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(n));
  state.counters["n"] = double(n);
}

#if defined(KTEXT_HAVE_DIVSUFSORT)
void bm_divsufsort(benchmark::State& state, const std::string& dataset) {
  const TextPtr t = inputs().get(dataset);
  const std::size_t n = t->size();
  if (n >= (std::size_t(1) << 31)) {
    state.SkipWithError("input too large for int32 indices");
    return;
  }
  std::vector<std::int32_t> sa(n);
  for (auto _ : state) {
    ktext::oracle::divsufsort_suffix_array(t->data(), sa.data(), n);
    benchmark::DoNotOptimize(sa.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(n));
  // text + SA + bucket_A (256 ints) + bucket_B (65536 ints), as allocated by divsufsort().
  const double peak = double(n) * 5.0 + 4.0 * (256 + 65536);
  state.counters["peak_bytes_per_input_byte"] = n ? peak / double(n) : 0.0;
  state.counters["n"] = double(n);
}
#endif

void add_dataset(const std::string& name, std::function<Text()> make, bool peers) {
  inputs().add(name, std::move(make));
  for (bool index64 : {false, true}) {
    if (index64 && env_int("KTEXT_BENCH_SA_INDEX64", 0) == 0) continue;
    benchmark::RegisterBenchmark(((index64 ? "suffix_array64_" : "suffix_array_") + backend_name + "/" + name).c_str(),
                                 [name, index64](benchmark::State& s) { bm_ktext(s, name, index64); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  if (env_int("KTEXT_BENCH_STAGES", 1) != 0) {
    for (auto [label, stage] : {std::pair{"bwt_", Stage::Bwt}, std::pair{"unbwt_", Stage::Unbwt}, std::pair{"lcp_", Stage::Lcp}})
      benchmark::RegisterBenchmark((label + backend_name + "/" + name).c_str(),
                                   [name, stage = stage](benchmark::State& s) { bm_stage(s, name, stage); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    for (bool two_steps : {false, true})
      benchmark::RegisterBenchmark(
          ((two_steps ? "bwt_two_steps_" : "bwt_from_text_") + backend_name + "/" + name).c_str(),
          [name, two_steps](benchmark::State& s) { bm_bwt_from_text(s, name, two_steps); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  }
#if defined(KTEXT_HAVE_DIVSUFSORT)
  if (peers)
    benchmark::RegisterBenchmark(("divsufsort/" + name).c_str(), [name](benchmark::State& s) { bm_divsufsort(s, name); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
#else
  (void)peers;
#endif
}

}  // namespace

void register_benchmarks() {
  benchmark::AddCustomContext("ktext_backend", backend_name);
  benchmark::AddCustomContext("ktext_concurrency", std::to_string(Exec().concurrency()));
  const bool peers = env_int("KTEXT_BENCH_PEERS", 1) != 0;

  const long long lo = env_int("KTEXT_BENCH_SA_MIN_LOG2", 20), hi = env_int("KTEXT_BENCH_SA_MAX_LOG2", 24);
  for (long long lg = lo; lg <= hi; lg += 2) {
    const std::size_t n = std::size_t(1) << lg;
    const std::string sz = "_" + size_name(n);
    for (int sigma : {4, 26, 256})
      add_dataset("random" + std::to_string(sigma) + sz, [n, sigma] { return random_text(n, sigma, 100 + sigma); }, peers);
    add_dataset("a_n" + sz, [n] { return Text(n, std::uint8_t('a')); }, peers);
    add_dataset("fibonacci" + sz, [n] { return oracle::fibonacci_text(n); }, peers);
    add_dataset("thue_morse" + sz, [n] { return oracle::thue_morse_text(n); }, peers);
    add_dataset("period8" + sz, [n] { return periodic_text(n, 8, 7); }, peers);
    add_dataset("versions16" + sz, [n] { return versions_text(n, 16, 11); }, peers);
  }

  if (const char* dir = std::getenv("KTEXT_CORPUS_DIR"); dir && *dir) {
    const auto prefix = static_cast<std::uint64_t>(std::max(0LL, env_int("KTEXT_CORPUS_PREFIX", 0)));
    for (const auto& f : corpus_files(dir)) add_dataset(f.filename().string(), [f, prefix] { return read_file(f, prefix); }, peers);
  }
}

}  // namespace ktext::bench
