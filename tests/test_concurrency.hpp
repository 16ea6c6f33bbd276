// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The library called from several host threads at once, each thread with its own instance of
// the backend (Kokkos::Experimental::partition_space): suffix arrays, string sorts, wavelet
// matrix queries and FM-index counts must come out exactly as the oracles say, as they do from
// one thread. Nothing in ktext may keep state that two instances share without a lock.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <ktext/ktext.hpp>

#include "test_inputs.hpp"
#include "test_oracles.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;
using Bytes = std::vector<std::uint8_t>;

/// A copy of \p v in Mem, allocated and filled on \p exec.
template <class T>
Kokkos::View<T*, Mem> copy_on(const Exec& exec, const std::vector<T>& v, const char* label) {
  Kokkos::View<T*, Mem> d(Kokkos::view_alloc(exec, std::string(label), Kokkos::WithoutInitializing), v.size());
  Kokkos::deep_copy(exec, d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  exec.fence();
  return d;
}

template <class View>
std::vector<typename View::non_const_value_type> back_on(const Exec& exec, const View& d) {
  std::vector<typename View::non_const_value_type> v(d.extent(0));
  Kokkos::deep_copy(exec,
                    Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        v.data(), v.size()),
                    d);
  exec.fence();
  return v;
}

/// One thread's work: a text of its own, and what the oracles say about it.
struct Job {
  Bytes text;
  std::vector<std::int32_t> sa;             // naive suffix sort
  std::vector<std::int64_t> string_offsets;  // the text cut into strings
  std::vector<std::int32_t> string_order;    // std::stable_sort of them
  std::vector<std::uint64_t> rank_at;        // rank queries: symbol, position
  std::vector<std::uint64_t> rank_symbol;
  std::vector<std::uint64_t> ranks;
  Bytes patterns;
  std::vector<std::int64_t> pattern_offsets;
  std::vector<std::uint64_t> counts;
};

Job make_job(int t) {
  Job j;
  j.text = random_text(3000 + 977 * std::size_t(t), 2 + 37 * t, std::uint32_t(900 + t));
  const std::size_t n = j.text.size();
  j.sa = naive_suffix_array<std::int32_t>(j.text);
  std::mt19937 gen{std::uint32_t(t)};
  j.string_offsets.push_back(0);
  while (std::size_t(j.string_offsets.back()) < n)
    j.string_offsets.push_back(std::min<std::int64_t>(std::int64_t(n), j.string_offsets.back() + std::int64_t(gen() % 9)));
  const std::size_t strings = j.string_offsets.size() - 1;
  j.string_order.resize(strings);
  std::iota(j.string_order.begin(), j.string_order.end(), 0);
  auto str = [&](std::int32_t i) {
    return Bytes(j.text.begin() + j.string_offsets[std::size_t(i)], j.text.begin() + j.string_offsets[std::size_t(i) + 1]);
  };
  std::stable_sort(j.string_order.begin(), j.string_order.end(), [&](std::int32_t a, std::int32_t b) { return str(a) < str(b); });
  for (int q = 0; q < 500; ++q) {
    const std::uint64_t c = j.text[gen() % n], i = gen() % (n + 1);
    j.rank_symbol.push_back(c);
    j.rank_at.push_back(i);
    j.ranks.push_back(std::uint64_t(std::count(j.text.begin(), j.text.begin() + std::ptrdiff_t(i), std::uint8_t(c))));
  }
  j.pattern_offsets.push_back(0);
  for (int p = 0; p < 200; ++p) {
    const std::size_t at = gen() % n, m = 1 + gen() % 6;
    const Bytes pat(j.text.begin() + std::ptrdiff_t(at), j.text.begin() + std::ptrdiff_t(std::min(n, at + m)));
    j.patterns.insert(j.patterns.end(), pat.begin(), pat.end());
    j.pattern_offsets.push_back(std::int64_t(j.patterns.size()));
    std::uint64_t count = 0;
    for (std::size_t k = 0; k + pat.size() <= n; ++k) count += std::equal(pat.begin(), pat.end(), j.text.begin() + std::ptrdiff_t(k));
    j.counts.push_back(count);
  }
  return j;
}

/// Runs \p j on \p exec; returns what went wrong, or nothing.
std::string run_job(const Exec& exec, const Job& j) {
  try {
    const auto text = copy_on(exec, j.text, "ktext_test::text");
    Kokkos::View<std::int32_t*, Mem> sa(Kokkos::view_alloc(exec, "ktext_test::sa"), j.text.size());
    ktext::suffix_array(exec, text, sa);
    if (back_on(exec, sa) != j.sa) return "suffix array differs";

    const auto offsets = copy_on(exec, j.string_offsets, "ktext_test::offsets");
    Kokkos::View<std::int32_t*, Mem> order(Kokkos::view_alloc(exec, "ktext_test::order"), j.string_order.size());
    ktext::string_sort(exec, text, offsets, order);
    if (back_on(exec, order) != j.string_order) return "string order differs";

    const ktext::WaveletMatrix<Mem, std::uint8_t> wm(exec, text);
    const auto symbols = copy_on(exec, j.rank_symbol, "ktext_test::symbols");
    const auto at = copy_on(exec, j.rank_at, "ktext_test::at");
    Kokkos::View<std::uint64_t*, Mem> ranks(Kokkos::view_alloc(exec, "ktext_test::ranks"), j.ranks.size());
    wm.query(exec, ktext::WaveletQuery::rank, symbols, at, ranks);
    if (back_on(exec, ranks) != j.ranks) return "wavelet matrix ranks differ";

    const ktext::FMIndex<Mem, std::int32_t> fm(exec, text);
    const auto patterns = copy_on(exec, j.patterns, "ktext_test::patterns");
    const auto pattern_offsets = copy_on(exec, j.pattern_offsets, "ktext_test::pattern_offsets");
    Kokkos::View<std::uint64_t*, Mem> counts(Kokkos::view_alloc(exec, "ktext_test::counts"), j.counts.size());
    fm.count(exec, patterns, pattern_offsets, counts);
    if (back_on(exec, counts) != j.counts) return "FM-index counts differ";
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
  return {};
}

/// Threads to run: 4, but OpenMP partitions its threads among the instances and refuses an
/// instance without one.
int thread_count() {
#if defined(KOKKOS_ENABLE_OPENMP)
  if (std::is_same_v<Exec, Kokkos::OpenMP>) return std::clamp(Exec{}.concurrency(), 1, 4);
#endif
  return 4;
}

TEST(concurrency, threads_with_their_own_instances_get_exact_results) {
  const int kThreads = thread_count();
  std::vector<Job> jobs;
  for (int t = 0; t < kThreads; ++t) jobs.push_back(make_job(t));
  // Reference run: the same jobs one after another on the default instance.
  for (int t = 0; t < kThreads; ++t) ASSERT_EQ(run_job(Exec{}, jobs[std::size_t(t)]), "") << "job " << t << " alone";

  const auto instances = Kokkos::Experimental::partition_space(Exec{}, std::vector<int>(kThreads, 1));
  ASSERT_EQ(instances.size(), std::size_t(kThreads));
  for (int round = 0; round < 3; ++round) {
    std::vector<std::string> errors(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        // Each thread runs its own job, then its neighbour's: every job runs on two instances.
        errors[std::size_t(t)] = run_job(instances[std::size_t(t)], jobs[std::size_t(t)]);
        if (errors[std::size_t(t)].empty())
          errors[std::size_t(t)] = run_job(instances[std::size_t(t)], jobs[std::size_t((t + 1) % kThreads)]);
      });
    for (auto& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[std::size_t(t)], "") << "thread " << t << ", round " << round;
  }
}

}  // namespace
