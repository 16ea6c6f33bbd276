// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared main of the ktext benchmarks: Kokkos is initialized for the whole Google Benchmark run
// (Kokkos options such as --kokkos-num-threads are consumed first, the rest goes to benchmark);
// the benchmark body registers its benchmarks after Kokkos is up (corpus files, backend name).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

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
      benchmark::RunSpecifiedBenchmarks();
      benchmark::Shutdown();
    }
  }
  Kokkos::finalize();
  return rc;
}
