// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Every profiling region, kernel and allocation the library makes carries the ktext:: prefix, so
// a Kokkos Tools profile of an application attributes them to ktext (after ArborX's
// tstKokkosToolsAnnotations). Kokkos Tools callbacks record what each library call does; only
// the calls themselves are watched, not the tests' own setup.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <ktext/ktext.hpp>
#include <ktext_oracles/string_sets.hpp>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "test_inputs.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;
namespace kt = Kokkos::Tools::Experimental;

struct Event {
  std::string kind;   // region, parallel_for, parallel_reduce, parallel_scan, allocation
  std::string label;
  std::string inside;  // the innermost open region of a vendor path ([KokkosKernels], [CUB]), if any
};

struct Trace {
  std::vector<Event> events;
  std::vector<std::string> top_regions;  // regions opened directly by the watched call
};

Trace* recording = nullptr;
std::vector<std::string> open_regions;

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/// Regions in which a vendor library runs: its own kernels and allocations are allowed there.
bool vendor_region(const std::string& r) {
  return starts_with(r, "ktext::") && (ends_with(r, "[KokkosKernels]") || ends_with(r, "[CUB]"));
}

void record(const char* kind, const char* label) {
  if (!recording) return;
  std::string inside;
  for (auto it = open_regions.rbegin(); it != open_regions.rend(); ++it)
    if (vendor_region(*it)) {
      inside = *it;
      break;
    }
  recording->events.push_back({kind, label, inside});
}

void on_push(const char* name) {
  if (!recording) return;
  record("region", name);
  if (open_regions.empty()) recording->top_regions.push_back(name);
  open_regions.push_back(name);
}
void on_pop() {
  if (recording && !open_regions.empty()) open_regions.pop_back();
}
void on_for(const char* name, std::uint32_t, std::uint64_t*) { record("parallel_for", name); }
void on_reduce(const char* name, std::uint32_t, std::uint64_t*) { record("parallel_reduce", name); }
void on_scan(const char* name, std::uint32_t, std::uint64_t*) { record("parallel_scan", name); }
void on_allocate(Kokkos::Profiling::SpaceHandle, const char* label, const void*, std::uint64_t) {
  record("allocation", label);
}

/// Labels that are neither ours nor derived from ours, each with the reason it is allowed.
struct Exception {
  const char* kind;
  const char* label_prefix;
  const char* why;
};
const Exception exceptions[] = {
    // Per-instance reduction and scan scratch that Kokkos grows on demand inside whichever
    // parallel_reduce / parallel_scan first needs more; it is named by Kokkos, not by the caller.
    {"allocation", "Kokkos::Serial::scratch_mem", "Kokkos' reduction/scan scratch (Serial)"},
    {"allocation", "Kokkos::OpenMP::scratch_mem", "Kokkos' reduction/scan scratch (OpenMP)"},
    // The same for Kokkos::Cuda, plus the buffer for functors too large to pass as kernel
    // arguments (InternalScratch{Flags,Space,Unified,Functor} in Kokkos 4.6's
    // Kokkos_Cuda_Instance.cpp; not yet seen in a CUDA run of this test).
    {"allocation", "Kokkos::InternalScratch", "Kokkos' reduction/scan/functor scratch (Cuda)"},
    // Kokkos 4.6's Cuda TeamPolicy launches take a level-1 team scratch buffer from a pool of
    // its own at every launch, even with no level-1 scratch requested (resize_team_scratch_space
    // in Kokkos_Cuda_Instance.cpp): DC3's merge by teams. Seen on an H100 in this test.
    {"allocation", "Kokkos::CudaSpace::TeamScratchMemory", "Kokkos' team scratch pool (Cuda)"},
    // Kokkos::deep_copy between host views splits large copies over the OpenMP threads with a
    // parallel_for of its own (sort_pairs copying its result back from the scratch buffers);
    // a deep copy takes no label, so there is no name of ours to derive one from.
    {"parallel_for", "Kokkos::Impl::host_space_deepcopy", "Kokkos' parallel host deep_copy"},
};

/// Why \p e is acceptable, or an empty string when it is not.
std::string accepted(const Event& e) {
  if (starts_with(e.label, "ktext::")) return "ours";
  // Kokkos' names derived from ours: "Kokkos::View::initialization [ktext::x]" and the like.
  const auto open = e.label.find('[');
  if (starts_with(e.label, "Kokkos::") && open != std::string::npos && e.label.compare(open + 1, 7, "ktext::") == 0)
    return "derived from ours";
  if (!e.inside.empty() && e.kind != "region") return "vendor code inside " + e.inside;
  if (!e.inside.empty() && e.kind == "region") return "vendor region inside " + e.inside;
  for (const auto& x : exceptions)
    if (e.kind == x.kind && starts_with(e.label, x.label_prefix)) return x.why;
  return {};
}

/// Installs the callbacks for the lifetime of the object, restoring the previous ones after.
class Callbacks {
 public:
  Callbacks() : saved_(kt::get_callbacks()) {
    kt::set_push_region_callback(on_push);
    kt::set_pop_region_callback(on_pop);
    kt::set_begin_parallel_for_callback(on_for);
    kt::set_begin_parallel_reduce_callback(on_reduce);
    kt::set_begin_parallel_scan_callback(on_scan);
    kt::set_allocate_data_callback(on_allocate);
  }
  ~Callbacks() { kt::set_callbacks(saved_); }
  Callbacks(const Callbacks&) = delete;
  Callbacks& operator=(const Callbacks&) = delete;

 private:
  kt::EventSet saved_;
};

/// Runs \p f (library calls only) with recording on and returns what it did.
template <class F>
Trace watch(F&& f) {
  Trace t;
  Callbacks callbacks;
  open_regions.clear();
  recording = &t;
  try {
    f();
    Exec{}.fence("ktext::test::labels: watched call done");
  } catch (...) {
    recording = nullptr;
    throw;
  }
  recording = nullptr;
  EXPECT_TRUE(open_regions.empty()) << "a region was left open";
  return t;
}

/// Every event of \p t is acceptable; returns the number checked.
std::size_t expect_prefixed(const Trace& t, const std::string& what) {
  for (const auto& e : t.events)
    EXPECT_FALSE(accepted(e).empty()) << what << ": " << e.kind << " \"" << e.label << "\" lacks the ktext:: prefix"
                                      << (e.inside.empty() ? "" : " (inside " + e.inside + ")");
  return t.events.size();
}

/// \p f is one public primitive call: it opens exactly one top-level region, \p region, and
/// everything it does is prefixed.
template <class F>
void expect_primitive(const std::string& region, F&& f) {
  const Trace t = watch(std::forward<F>(f));
  EXPECT_EQ(t.top_regions, std::vector<std::string>{region});
  expect_prefixed(t, region);
}

const char* path(bool cub, const char* portable = "[Kokkos]") { return cub ? "[CUB]" : portable; }

// Functors rather than lambdas: CUDA forbids device lambdas in the private members that test
// bodies are.
struct Even {
  KOKKOS_FUNCTION bool operator()(std::uint64_t x) const { return x % 2 == 0; }
};
struct OddIndex {
  KOKKOS_FUNCTION bool operator()(std::size_t i) const { return i % 2 == 1; }
};
template <class View>
struct ReadAt {
  View v;
  KOKKOS_FUNCTION std::int64_t operator()(std::size_t i) const { return std::int64_t(v(i)); }
};
struct Sum {
  KOKKOS_FUNCTION std::int64_t identity() const { return 0; }
  KOKKOS_FUNCTION std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};
template <class View>
struct WriteAt {
  View v;
  KOKKOS_FUNCTION void operator()(std::size_t i, std::int64_t x) const { v(i) = x; }
};

std::vector<std::uint64_t> random_u64(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = rng();
  return v;
}

// Odd bit counts leave the sorted pairs in the scratch buffers on the portable path, so the
// copy back is exercised as well.
TEST(labels, primitives) {
  namespace ki = ktext::impl;
  const std::size_t n = 100003;
  auto keys = to_device(random_u64(n, 1));
  std::vector<std::int64_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0);
  auto vals = to_device(iota);
  Kokkos::View<std::uint64_t*, Mem> keys_tmp("keys_tmp", n);
  Kokkos::View<std::int64_t*, Mem> vals_tmp("vals_tmp", n), out("out", n);
  constexpr bool sort_cub = ki::sort_pairs_cub_avail<Exec, std::uint64_t, std::int64_t>::value;
  expect_primitive(std::string("ktext::sort_pairs") + path(sort_cub),
                   [&] { ktext::sort_pairs(Exec{}, keys, vals, keys_tmp, vals_tmp, 0, 24); });
  expect_primitive(std::string("ktext::sort_pairs") + path(sort_cub), [&] { ktext::sort_pairs(Exec{}, keys, vals, 0, 40); });

  std::vector<std::int32_t> offsets_h;
  for (std::size_t s = 0; s <= n; s += 997) offsets_h.push_back(std::int32_t(s));
  offsets_h.push_back(std::int32_t(n));
  auto offsets = to_device(offsets_h);
  auto seg_keys = to_device(std::vector<std::uint32_t>(n, 7));
  auto seg_vals = to_device(std::vector<std::int32_t>(n, 3));
  constexpr bool seg_cub = ki::segmented_sort_cub_avail<Exec, std::uint32_t, std::int32_t>::value;
  expect_primitive(std::string("ktext::segmented_sort_pairs") + path(seg_cub, "[KokkosKernels]"),
                   [&] { ktext::segmented_sort_pairs(Exec{}, offsets, seg_keys, seg_vals); });

  constexpr bool scan_cub = ki::scan_cub_avail<Exec, std::int64_t>::value;
  expect_primitive(std::string("ktext::exclusive_scan") + path(scan_cub), [&] { ktext::exclusive_scan(Exec{}, vals, out); });
  expect_primitive(std::string("ktext::inclusive_scan") + path(scan_cub), [&] { ktext::inclusive_scan(Exec{}, vals, out); });
  expect_primitive(std::string("ktext::inclusive_scan_max") + path(scan_cub),
                   [&] { ktext::inclusive_scan_max(Exec{}, vals, out); });
  expect_primitive(std::string("ktext::inclusive_scan_apply") + ki::ScanApply<Exec>::path, [&] {
    ktext::inclusive_scan_apply<std::int64_t>(Exec{}, n, ReadAt<decltype(vals)>{vals}, Sum{}, WriteAt<decltype(out)>{out});
  });

  const std::string select_path = ki::Select<Exec>::path;
  auto flags = to_device(std::vector<std::uint8_t>(n, 1));
  Kokkos::View<std::uint64_t*, Mem> kept("kept", n);
  expect_primitive("ktext::select_flagged" + select_path,
                   [&] { ktext::select_flagged(Exec{}, keys, flags, kept); });
  expect_primitive("ktext::select_if" + select_path, [&] { ktext::select_if(Exec{}, keys, kept, Even{}); });
  expect_primitive("ktext::select_by_index" + select_path,
                   [&] { ktext::select_by_index(Exec{}, keys, kept, OddIndex{}); });
  expect_primitive("ktext::select_indices" + select_path,
                   [&] { ktext::select_indices(Exec{}, n, out, OddIndex{}); });

  auto bytes = to_device(random_text(n, 256, 5));
  Kokkos::View<std::uint64_t*, Mem> bins("bins", 256);
  // Bytes on CUDA take ktext's own kernel ("[CUDA]"), 16-bit symbols CUB's.
  expect_primitive(std::string("ktext::histogram") + ki::Histogram<Exec, std::uint8_t>::path,
                   [&] { ktext::histogram(Exec{}, bytes, bins); });
  auto wide = to_device(random_text<std::uint32_t>(n, 1000, 6));
  expect_primitive(std::string("ktext::histogram") + ki::Histogram<Exec, std::uint32_t>::path,
                   [&] { ktext::histogram(Exec{}, wide, bins); });

  std::vector<std::int32_t> identity(n);
  for (std::size_t i = 0; i < n; ++i) identity[i] = std::int32_t(i);
  auto perm = to_device(identity);  // a permutation: scatter through it writes each slot once
  expect_primitive("ktext::gather[Kokkos]", [&] { ktext::gather(Exec{}, vals, perm, out); });
  expect_primitive("ktext::scatter[Kokkos]", [&] { ktext::scatter(Exec{}, vals, perm, out); });
  auto uperm = to_device(std::vector<std::uint32_t>(identity.begin(), identity.end()));
  Kokkos::View<std::uint32_t*, Mem> idx_tmp("idx_tmp", n);
  expect_primitive("ktext::scatter[Kokkos partitioned]",
                   [&] { ktext::scatter_partitioned(Exec{}, vals, uperm, out, vals_tmp, idx_tmp, 8); });

  // Empty inputs still name their path.
  Kokkos::View<std::uint64_t*, Mem> none("none", 0);
  Kokkos::View<std::int64_t*, Mem> none_vals("none_vals", 0);
  expect_primitive(std::string("ktext::sort_pairs") + path(sort_cub), [&] { ktext::sort_pairs(Exec{}, none, none_vals); });
  expect_primitive(std::string("ktext::exclusive_scan") + path(scan_cub),
                   [&] { ktext::exclusive_scan(Exec{}, none_vals, none_vals); });
}

template <class Text>
void suffix_workload(const Text& text, const std::string& what) {
  using I = std::int32_t;
  const std::size_t n = text.extent(0);
  Kokkos::View<I*, Mem> sa("sa", n), isa("isa", n), lcp("lcp", n);
  Kokkos::View<typename Text::non_const_value_type*, Mem> bwt("bwt", n), bwt2("bwt2", n), back("back", n);
  std::uint64_t primary = 0;
  std::size_t events = 0;
  events += expect_prefixed(watch([&] { ktext::suffix_array(Exec{}, text, sa); }), what + " suffix_array");
  events += expect_prefixed(watch([&] { EXPECT_TRUE(ktext::check_suffix_array(Exec{}, text, sa).valid); }),
                            what + " check_suffix_array");
  events += expect_prefixed(watch([&] { ktext::inverse_suffix_array(Exec{}, sa, isa); }), what + " inverse_suffix_array");
  events += expect_prefixed(watch([&] { ktext::lcp(Exec{}, text, sa, lcp); }), what + " lcp");
  events += expect_prefixed(watch([&] { primary = ktext::bwt_from_suffix_array(Exec{}, text, sa, bwt); }),
                            what + " bwt_from_suffix_array");
  events += expect_prefixed(watch([&] { EXPECT_EQ(ktext::bwt(Exec{}, text, bwt2), primary); }), what + " bwt");
  events += expect_prefixed(watch([&] { ktext::unbwt(Exec{}, bwt, primary, back); }), what + " unbwt");
  EXPECT_GT(events, 20u) << "the callbacks recorded nothing: the test would pass vacuously";
}

TEST(labels, suffix_algorithms) {
  // Repeats force several doubling rounds and batches; 32-bit symbols take the parallel check.
  auto text = periodic_text(20000, "abracadabra");
  const auto tail = random_text(30000, 4, 7);
  text.insert(text.end(), tail.begin(), tail.end());
  suffix_workload(to_device(text), "bytes");
  suffix_workload(to_device(random_text<std::uint32_t>(30000, 70000, 8)), "uint32");
  // DC3 through reduced texts at every level, right after the initial sort and after a round.
  const auto periodic = to_device(periodic_text(30000, "abracadabra"));
  Kokkos::View<std::int32_t*, Mem> sa("sa", periodic.extent(0));
  for (auto when : {ktext::SampleReduction::initial, ktext::SampleReduction::first_round}) {
    ktext::SuffixArrayOptions options;
    options.sample_reduction = when;
    ktext::SuffixArrayStats stats;
    expect_prefixed(watch([&] { stats = ktext::suffix_array(Exec{}, periodic, sa, options); }), "reduced suffix_array");
    EXPECT_GE(stats.reductions, 1);
  }
}

// DC3 holds the sample's ranks with a tail that takes the head flags, then the rounds' scratch,
// then the rest's order: one allocation where there were up to four, each of which waits for a
// GPU (perf/README). A reduced sample frees the block before it recurses, so the level above
// allocates its ranks again and the rest's order apart.
TEST(labels, dc3_holds_its_sample_scratch_in_one_allocation) {
  const auto allocations = [](const Trace& t, const char* label) {
    return std::count_if(t.events.begin(), t.events.end(),
                         [&](const Event& e) { return e.kind == "allocation" && e.label == label; });
  };
  // Two copies of a random text: pairs of suffixes that agree far past the initial key, so
  // rounds run, in groups far too small to reduce.
  const auto once = random_text(20000, 26, 11);
  auto copies = once;
  copies.insert(copies.end(), once.begin(), once.end());
  const auto text = to_device(copies);
  Kokkos::View<std::int32_t*, Mem> sa("sa", text.extent(0));
  ktext::SuffixArrayStats stats;
  const Trace t = watch([&] { stats = ktext::suffix_array(Exec{}, text, sa); });
  EXPECT_GE(stats.rounds, 1) << "no round used the tail as scratch";
  EXPECT_EQ(stats.reductions, 0);
  EXPECT_EQ(allocations(t, "ktext::suffix_array::isa12"), 1);
  // The merge's tile boundaries (devices only) too: the tail holds them past the rest's order.
  for (const char* apart : {"ktext::suffix_array::isa", "ktext::suffix_array::heads", "ktext::suffix_array::rest_order",
                            "ktext::suffix_array::merge_splits"})
    EXPECT_EQ(allocations(t, apart), 0) << apart;

  const auto periodic = to_device(periodic_text(30000, "abracadabra"));
  Kokkos::View<std::int32_t*, Mem> sa_periodic("sa", periodic.extent(0));
  ktext::SuffixArrayOptions options;
  options.sample_reduction = ktext::SampleReduction::initial;
  const Trace r = watch([&] { stats = ktext::suffix_array(Exec{}, periodic, sa_periodic, options); });
  ASSERT_GE(stats.reductions, 1);
  // A block per level, and the ranks and the rest's order again at each level that reduced.
  EXPECT_EQ(allocations(r, "ktext::suffix_array::isa12"), 2 * stats.reductions + 1);
  EXPECT_EQ(allocations(r, "ktext::suffix_array::rest_order"), stats.reductions);
  EXPECT_EQ(allocations(r, "ktext::suffix_array::heads"), 0);
}

// DC3's initial sort takes 32-bit key pieces where its output and the held tail hold two
// buffers of them (a 64-bit output holds both): 60-bit keys (26 symbols: 5 bits, 12 a key) in
// two pieces, one of them gathered from the text at random, where 16-bit pieces take four.
// Doubling every suffix has no spare memory for them and keeps 16-bit pieces.
TEST(labels, dc3_sorts_the_sample_by_32bit_key_pieces) {
  const auto launches = [](const Trace& t, const char* label) {
    return std::count_if(t.events.begin(), t.events.end(),
                         [&](const Event& e) { return e.kind == "parallel_for" && e.label == label; });
  };
  const auto text = to_device(random_text(50000, 26, 12));
  const char* keys = "ktext::suffix_array::initial_keys";
  Kokkos::View<std::int32_t*, Mem> sa("sa", text.extent(0));
  ktext::SuffixArrayStats stats;
  const Trace narrow = watch([&] { stats = ktext::suffix_array(Exec{}, text, sa); });
  EXPECT_EQ(stats.initial_prefix, 12u);
  EXPECT_EQ(launches(narrow, keys), 2);
  EXPECT_EQ(std::count_if(narrow.events.begin(), narrow.events.end(),
                          [](const Event& e) { return e.kind == "allocation" && e.label == "ktext::suffix_array::keys"; }),
            0);
  Kokkos::View<std::int64_t*, Mem> sa64("sa64", text.extent(0));
  EXPECT_EQ(launches(watch([&] { ktext::suffix_array(Exec{}, text, sa64); }), keys), 2);
  ktext::SuffixArrayOptions doubling;
  doubling.algorithm = ktext::SuffixArrayAlgorithm::doubling;
  EXPECT_EQ(launches(watch([&] { ktext::suffix_array(Exec{}, text, sa, doubling); }), keys), 4);
}

TEST(labels, dc3_partitions_the_initial_ranks) {
  // With 32-bit and 64-bit outputs the partition takes the sample's other key buffer, and with a
  // 32-bit output the head flags then go to the output's memory past the ranks: no allocation.
  const auto launches = [](const Trace& t, const char* label) {
    return std::count_if(t.events.begin(), t.events.end(),
                         [&](const Event& e) { return e.kind == "parallel_for" && e.label == label; });
  };
  const auto allocations = [](const Trace& t, const char* label) {
    return std::count_if(t.events.begin(), t.events.end(),
                         [&](const Event& e) { return e.kind == "allocation" && e.label == label; });
  };
  const char* writes = "ktext::scatter_partitioned[Kokkos]";
  const auto text = to_device(random_text(50000, 26, 13));
  Kokkos::View<std::int32_t*, Mem> sa("sa", text.extent(0));
  Kokkos::View<std::int64_t*, Mem> sa64("sa64", text.extent(0));
  ktext::SuffixArrayOptions parts;
  parts.scatter_parts = 256;
  const Trace narrow = watch([&] { ktext::suffix_array(Exec{}, text, sa, parts); });
  EXPECT_EQ(launches(narrow, writes), 1);
  EXPECT_EQ(allocations(narrow, "ktext::suffix_array::heads"), 0);
  EXPECT_EQ(launches(watch([&] { ktext::suffix_array(Exec{}, text, sa64, parts); }), writes), 1);
  // None with one part, nor by default where the ranks fit one cache window (50000 do).
  parts.scatter_parts = 1;
  EXPECT_EQ(launches(watch([&] { ktext::suffix_array(Exec{}, text, sa, parts); }), writes), 0);
  EXPECT_EQ(launches(watch([&] { ktext::suffix_array(Exec{}, text, sa); }), writes), 0);
  // Doubling into a 32-bit output holds no second key buffer.
  parts.scatter_parts = 256;
  parts.algorithm = ktext::SuffixArrayAlgorithm::doubling;
  EXPECT_EQ(launches(watch([&] { ktext::suffix_array(Exec{}, text, sa, parts); }), writes), 0);
}

TEST(labels, fm_index) {
  const auto text_h = random_text(50000, 4, 9);
  auto text = to_device(text_h);
  using Fm = ktext::FMIndex<Mem, std::int32_t>;
  Fm index;
  expect_prefixed(watch([&] { index = Fm(Exec{}, text); }), "FMIndex build");
  std::vector<std::uint8_t> patterns_h;
  std::vector<std::int64_t> offsets_h{0};
  for (std::size_t p = 0; p < 100; ++p) {
    patterns_h.insert(patterns_h.end(), text_h.begin() + 97 * p, text_h.begin() + 97 * p + 1 + p % 9);
    offsets_h.push_back(std::int64_t(patterns_h.size()));
  }
  auto patterns = to_device(patterns_h);
  auto offsets = to_device(offsets_h);
  Kokkos::View<std::uint64_t*, Mem> counts("counts", 100);
  expect_prefixed(watch([&] { index.count(Exec{}, patterns, offsets, counts); }), "FMIndex::count");
  expect_prefixed(watch([&] { (void)index.locate(Exec{}, patterns, offsets); }), "FMIndex::locate");
  std::vector<std::uint8_t> file;
  expect_prefixed(watch([&] {
                    ktext::write_fm_index(index, [&](const void* p, std::size_t size) {
                      file.insert(file.end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + size);
                    });
                  }),
                  "write_fm_index");
  expect_prefixed(watch([&] { (void)ktext::read_fm_index<std::int32_t>(Exec{}, file.data(), file.size()); }),
                  "read_fm_index");
}

TEST(labels, string_sort) {
  // Duplicates and a shared prefix: skips, several passes, finished groups of equal strings.
  auto set = ktext::oracle::url_strings(20000, 4);
  for (int k = 0; k < 500; ++k) set.add("https://www.example.org/same/path/again");
  auto chars = to_device(set.chars);
  auto offsets = to_device(set.offsets);
  Kokkos::View<std::int32_t*, Mem> order("order", set.size()), lcp("lcp", set.size());
  const std::size_t events = expect_prefixed(watch([&] { ktext::string_sort(Exec{}, chars, offsets, order, lcp); }),
                                             "string_sort");
  // On hosts the host sort: its check, work buffer, windows and groups (and with several threads
  // the counts, scatters and copies of the groups they split together).
  const bool host = ktext::impl::string_sort_host_avail<Exec>::value;
  EXPECT_GT(events, host ? 4u : 20u) << "the callbacks recorded nothing: the test would pass vacuously";
  if (host) {  // and the portable passes, which hosts run only when asked
    using Chars = decltype(chars);
    using Offsets = decltype(offsets);
    using Order = decltype(order);
    const std::size_t portable = expect_prefixed(watch([&] {
      ktext::impl::string_sort_checked<Exec, Chars, Offsets, Order, Order, false>(Exec{}, chars, offsets, order, &lcp);
    }),
                                                 "string_sort portable");
    EXPECT_GT(portable, 20u) << "the callbacks recorded nothing: the test would pass vacuously";
  }
}

/// Batched queries of \p s on device views and on host views (the chunked path of a device
/// backend), with the arguments \p a and \p b.
template <class Structure, class Op>
void watch_queries(const Structure& s, Op op, const char* name, const std::vector<std::uint64_t>& a,
                   const std::vector<std::uint64_t>& b) {
  auto d_a = to_device(a);
  auto d_b = to_device(b);
  Kokkos::View<std::uint64_t*, Mem> out("out", a.size());
  Kokkos::View<std::uint64_t*, Kokkos::HostSpace> h_a("h_a", a.size()), h_b("h_b", b.size()), h_out("h_out", a.size());
  std::copy(a.begin(), a.end(), h_a.data());
  std::copy(b.begin(), b.end(), h_b.data());
  if constexpr (std::is_same_v<Op, ktext::BitQuery>) {
    expect_prefixed(watch([&] { s.query(Exec{}, op, d_a, out); }), std::string(name) + " on device views");
    expect_prefixed(watch([&] { s.query(Exec{}, op, h_a, h_out); }), std::string(name) + " on host views");
  } else {
    expect_prefixed(watch([&] { s.query(Exec{}, op, d_a, d_b, out); }), std::string(name) + " on device views");
    expect_prefixed(watch([&] { s.query(Exec{}, op, h_a, h_b, h_out); }), std::string(name) + " on host views");
  }
}

template <class Structure, class Symbol>
void watch_wavelet(const std::vector<Symbol>& text_h, const ktext::WaveletOptions& options, const std::string& what) {
  auto text = to_device(text_h);
  Structure s;
  expect_prefixed(watch([&] { s = Structure(Exec{}, text, options); }), what + " build");
  const std::vector<std::uint64_t> symbols(1000, text_h[3]), positions(1000, text_h.size() / 2);
  watch_queries(s, ktext::WaveletQuery::access, (what + " access").c_str(), positions, positions);
  watch_queries(s, ktext::WaveletQuery::rank, (what + " rank").c_str(), symbols, positions);
  watch_queries(s, ktext::WaveletQuery::select, (what + " select").c_str(), symbols, positions);
}

TEST(labels, succinct) {
  const auto bytes = to_device(random_text(100000, 2, 31));
  ktext::BitVector<Mem> bits;
  ktext::RankSelect<Mem> rs;
  expect_prefixed(watch([&] { bits = ktext::BitVector<Mem>(Exec{}, bytes); }), "BitVector from bytes");
  expect_prefixed(watch([&] { bits = ktext::BitVector<Mem>::from_predicate(Exec{}, 100000, OddIndex{}); }),
                  "BitVector::from_predicate");
  expect_prefixed(watch([&] { rs = ktext::RankSelect<Mem>(Exec{}, bits); }), "RankSelect build");
  const std::vector<std::uint64_t> positions(1000, 777);
  for (const auto op : {ktext::BitQuery::access, ktext::BitQuery::rank0, ktext::BitQuery::rank1, ktext::BitQuery::select0,
                        ktext::BitQuery::select1})
    watch_queries(rs, op, ktext::RankSelect<Mem>::op_name(op), positions, positions);
  const auto text = random_text(50000, 200, 32);
  watch_wavelet<ktext::WaveletTree<Mem>>(text, {}, "WaveletTree");
  watch_wavelet<ktext::WaveletMatrix<Mem>>(text, {}, "WaveletMatrix");
  const auto wide = random_text<std::uint32_t>(50000, 3000, 33);
  watch_wavelet<ktext::WaveletTree<Mem, std::uint32_t>>(wide, ktext::WaveletOptions{4000}, "WaveletTree given alphabet");
  watch_wavelet<ktext::WaveletMatrix<Mem, std::uint32_t>>(wide, {}, "WaveletMatrix uint32");
  auto large = wide;
  large[0] = 4000000000u;  // beyond any code table
  watch_wavelet<ktext::WaveletMatrix<Mem, std::uint32_t>>(large, {}, "WaveletMatrix large symbols");
}

struct Fill {
  Kokkos::View<int*, Mem> v;
  KOKKOS_FUNCTION void operator()(int i) const { v(i) = i; }
};

// The checker itself: foreign labels are refused unless a vendor region encloses them.
TEST(labels, checker_refuses_foreign_labels) {
  Kokkos::View<int*, Mem> v("v", 10);
  const Trace t = watch([&] {
    Kokkos::parallel_for("foreign_kernel", Kokkos::RangePolicy<Exec>(Exec{}, 0, 10), Fill{v});
    Kokkos::View<int*, Mem> a("foreign_allocation", 10);
    Kokkos::View<int*, Mem> b("ktext::test::initialized", 10);  // "Kokkos::View::initialization [ktext::...]"
    Kokkos::Profiling::ScopedRegion vendor("ktext::test[KokkosKernels]");
    Kokkos::parallel_for("KokkosSparse::inside_vendor_region", Kokkos::RangePolicy<Exec>(Exec{}, 0, 10), Fill{v});
  });
  std::vector<std::string> got;  // the refused labels, a zero initialization's " via memset" dropped
  for (const auto& e : t.events)
    if (accepted(e).empty()) got.push_back(ends_with(e.label, " via memset") ? e.label.substr(0, e.label.size() - 11) : e.label);
  const std::vector<std::string> want{"foreign_kernel", "foreign_allocation", "Kokkos::View::initialization [foreign_allocation]"};
  EXPECT_EQ(got, want);
}

}  // namespace
