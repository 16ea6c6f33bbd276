// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared main of the ktext benchmarks: Kokkos is initialized for the whole Google Benchmark run
// (Kokkos options such as --kokkos-num-threads are consumed first, the rest goes to benchmark);
// the benchmark body registers its benchmarks after Kokkos is up (corpus files, backend name);
// KTEXT_BENCH_PHASES=FILE writes the time per Kokkos label (bench_phases.hpp).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include "bench_phases.hpp"

namespace ktext::bench {
void register_benchmarks();  // defined by each benchmark body (bench_*.hpp)
}

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
      rc = 1;
    } else {
      ktext::bench::register_benchmarks();
      ktext::bench::phases::start();
      benchmark::RunSpecifiedBenchmarks();
      ktext::bench::phases::finish();
      benchmark::Shutdown();
    }
  }
  Kokkos::finalize();
  return rc;
}
