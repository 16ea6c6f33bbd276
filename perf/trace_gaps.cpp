// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A Kokkos Tools library that writes one run's timeline, for perf/trace_gaps.py: what the GPU did
// (CUPTI activity records of kernels, copies and fills, in device time) and what the host did
// meanwhile (CUDA runtime calls from CUPTI; Kokkos allocations, frees, fences, kernels and
// regions from the Kokkos Tools callbacks), all on CUPTI's clock. It asks Kokkos for no global
// fences, so the run keeps its own overlap; the benchmarks' KTEXT_BENCH_PHASES fences every kernel
// instead, which shows kernel times but hides the gaps between kernels that this file is for.
//
//   g++ -O2 -std=c++17 -shared -fPIC perf/trace_gaps.cpp -I$CUDA/include -L$CUDA/lib64 -lcupti -o libktext_trace_gaps.so
//   KTEXT_TRACE=run.tsv KOKKOS_TOOLS_LIBS=$PWD/libktext_trace_gaps.so ktext --backend cuda bwt ...
//   perf/trace_gaps.py run.tsv ktext::bwt::sa
//
// Lines: kind, start ns, end ns, name, detail; kinds K kernel, C copy, S fill, R runtime call,
// P Kokkos kernel (host side), G region, F fence, A allocation, X free.
#include <cupti.h>
#include <cxxabi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::FILE* out = nullptr;
std::mutex lock;
struct Open {
  std::string name;
  std::uint64_t begin;
};
std::vector<Open> regions, kernels, fences;

std::uint64_t now() {
  std::uint64_t t = 0;
  cuptiGetTimestamp(&t);
  return t;
}

std::string clean(const char* raw) {
  int status = 0;
  char* d = abi::__cxa_demangle(raw, nullptr, nullptr, &status);
  std::string s = status == 0 && d ? d : raw;
  std::free(d);
  for (auto& c : s)
    if (c == '\t' || c == '\n') c = ' ';
  if (s.size() > 300) s.resize(300);  // template arguments of Kokkos' launch wrappers
  return s;
}

void line(const char* kind, std::uint64_t begin, std::uint64_t end, const std::string& name,
          const std::string& detail = {}) {
  const std::lock_guard<std::mutex> l(lock);
  if (out)
    std::fprintf(out, "%s\t%llu\t%llu\t%s\t%s\n", kind, static_cast<unsigned long long>(begin),
                 static_cast<unsigned long long>(end), name.c_str(), detail.c_str());
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *size = std::size_t(8) << 20;
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  CUpti_Activity* r = nullptr;
  char detail[128];
  while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
    if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(r);
      std::snprintf(detail, sizeof detail, "grid=%d block=%d stream=%u", k->gridX, k->blockX, k->streamId);
      line("K", k->start, k->end, clean(k->name), detail);
    } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(r);
      std::snprintf(detail, sizeof detail, "bytes=%llu kind=%u", static_cast<unsigned long long>(m->bytes),
                    unsigned(m->copyKind));
      line("C", m->start, m->end, "copy", detail);
    } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(r);
      std::snprintf(detail, sizeof detail, "bytes=%llu", static_cast<unsigned long long>(m->bytes));
      line("S", m->start, m->end, "fill", detail);
    } else if (r->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
      const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(r);
      const char* name = nullptr;
      cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name);
      line("R", a->start, a->end, name ? name : "?");
    }
  }
  std::free(buffer);
}

void flush() {
  cuptiActivityFlushAll(1);
  const std::lock_guard<std::mutex> l(lock);
  if (out) std::fflush(out);
}

void begin_kernel(const char* kind, const char* name, std::uint64_t* id) {
  const std::lock_guard<std::mutex> l(lock);
  *id = kernels.size();
  kernels.push_back({std::string(kind) + ":" + name, now()});
}

void end_kernel(std::uint64_t id) {
  Open o;
  {
    const std::lock_guard<std::mutex> l(lock);
    o = kernels[id];
  }
  line("P", o.begin, now(), o.name);
}

}  // namespace

struct SpaceHandle {
  char name[64];
};
struct ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};

extern "C" {
void kokkosp_request_tool_settings(const std::uint32_t, ToolSettings* settings) {
  settings->requires_global_fencing = false;
}
void kokkosp_init_library(const int, const std::uint64_t, const std::uint32_t, void*) {
  const char* file = std::getenv("KTEXT_TRACE");
  out = std::fopen(file ? file : "trace.tsv", "w");
  cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  for (auto kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
                    CUPTI_ACTIVITY_KIND_RUNTIME})
    cuptiActivityEnable(kind);
  std::atexit(flush);  // records still buffered when the program ends without finalizing Kokkos
}
void kokkosp_finalize_library() { flush(); }
void kokkosp_begin_parallel_for(const char* name, std::uint32_t, std::uint64_t* id) { begin_kernel("for", name, id); }
void kokkosp_begin_parallel_reduce(const char* name, std::uint32_t, std::uint64_t* id) {
  begin_kernel("reduce", name, id);
}
void kokkosp_begin_parallel_scan(const char* name, std::uint32_t, std::uint64_t* id) { begin_kernel("scan", name, id); }
void kokkosp_end_parallel_for(std::uint64_t id) { end_kernel(id); }
void kokkosp_end_parallel_reduce(std::uint64_t id) { end_kernel(id); }
void kokkosp_end_parallel_scan(std::uint64_t id) { end_kernel(id); }
void kokkosp_push_profile_region(const char* name) {
  const std::lock_guard<std::mutex> l(lock);
  regions.push_back({name, now()});
}
void kokkosp_pop_profile_region() {
  Open o;
  {
    const std::lock_guard<std::mutex> l(lock);
    if (regions.empty()) return;
    o = regions.back();
    regions.pop_back();
  }
  line("G", o.begin, now(), o.name);
}
void kokkosp_begin_fence(const char* name, std::uint32_t, std::uint64_t* id) {
  const std::lock_guard<std::mutex> l(lock);
  *id = fences.size();
  fences.push_back({name, now()});
}
void kokkosp_end_fence(std::uint64_t id) {
  Open o;
  {
    const std::lock_guard<std::mutex> l(lock);
    o = fences[id];
  }
  line("F", o.begin, now(), o.name);
}
void kokkosp_allocate_data(SpaceHandle space, const char* name, const void*, std::uint64_t size) {
  const auto t = now();
  line("A", t, t, name, std::string(space.name) + " " + std::to_string(size));
}
void kokkosp_deallocate_data(SpaceHandle space, const char* name, const void*, std::uint64_t size) {
  const auto t = now();
  line("X", t, t, name, std::string(space.name) + " " + std::to_string(size));
}
}
