// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Where a benchmark's time goes, by Kokkos label: with KTEXT_BENCH_PHASES=FILE set, every
// parallel_for/reduce/scan and every profiling region (the primitives' regions name the path,
// e.g. "ktext::exclusive_scan[CUB]") is timed between two fences, and FILE gets one line per
// label: kind, calls, total milliseconds, label, longest first. The fences serialize work that
// would otherwise overlap, so run it on one benchmark (--benchmark_filter) and read the totals as
// a breakdown, not as the benchmark's time. Regions include the kernels inside them.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ktext::bench::phases {

using Clock = std::chrono::steady_clock;

struct Total {
  std::uint64_t calls = 0;
  double ms = 0;
};

struct State {
  std::map<std::pair<std::string, std::string>, Total> totals;  // (kind, label)
  std::map<std::uint64_t, std::pair<std::string, Clock::time_point>> kernels;  // open kernels by id
  std::vector<std::pair<std::string, Clock::time_point>> regions;              // open regions
  std::uint64_t next_id = 0;
  std::string file;
};

inline State& state() {
  static State s;
  return s;
}

inline Clock::time_point fenced_now() {
  Kokkos::fence("ktext::bench::phases");
  return Clock::now();
}

inline void add(const char* kind, const std::string& label, Clock::time_point begin) {
  auto& t = state().totals[{kind, label}];
  ++t.calls;
  t.ms += std::chrono::duration<double, std::milli>(fenced_now() - begin).count();
}

inline void begin_kernel(const char* kind, const char* name, std::uint64_t* id) {
  *id = state().next_id++;
  state().kernels[*id] = {std::string(kind) + '\t' + name, fenced_now()};
}
inline void on_begin_for(const char* name, std::uint32_t, std::uint64_t* id) { begin_kernel("for", name, id); }
inline void on_begin_reduce(const char* name, std::uint32_t, std::uint64_t* id) { begin_kernel("reduce", name, id); }
inline void on_begin_scan(const char* name, std::uint32_t, std::uint64_t* id) { begin_kernel("scan", name, id); }
inline void on_end_kernel(std::uint64_t id) {
  auto& open = state().kernels;
  const auto it = open.find(id);
  if (it == open.end()) return;
  const auto& [kind_label, begin] = it->second;
  const auto tab = kind_label.find('\t');
  add(kind_label.substr(0, tab).c_str(), kind_label.substr(tab + 1), begin);
  open.erase(it);
}
inline void on_push(const char* name) { state().regions.emplace_back(name, fenced_now()); }
inline void on_pop() {
  auto& open = state().regions;
  if (open.empty()) return;
  const auto [name, begin] = open.back();
  open.pop_back();
  add("region", name, begin);
}

/// Installs the callbacks when KTEXT_BENCH_PHASES names a file. Call after Kokkos::initialize.
inline void start() {
  const char* file = std::getenv("KTEXT_BENCH_PHASES");
  if (file == nullptr || *file == '\0') return;
  namespace kt = Kokkos::Tools::Experimental;
  state().file = file;
  kt::set_begin_parallel_for_callback(on_begin_for);
  kt::set_end_parallel_for_callback(on_end_kernel);
  kt::set_begin_parallel_reduce_callback(on_begin_reduce);
  kt::set_end_parallel_reduce_callback(on_end_kernel);
  kt::set_begin_parallel_scan_callback(on_begin_scan);
  kt::set_end_parallel_scan_callback(on_end_kernel);
  kt::set_push_region_callback(on_push);
  kt::set_pop_region_callback(on_pop);
}

/// Writes the totals to the file (if any). Call before Kokkos::finalize.
inline void finish() {
  if (state().file.empty()) return;
  std::vector<std::pair<std::pair<std::string, std::string>, Total>> rows(state().totals.begin(), state().totals.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.ms > b.second.ms; });
  std::ofstream out(state().file);
  out << "kind\tcalls\tms\tlabel\n";
  for (const auto& [key, t] : rows) out << key.first << '\t' << t.calls << '\t' << t.ms << '\t' << key.second << '\n';
}

}  // namespace ktext::bench::phases
