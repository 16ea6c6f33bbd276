// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <ktext/suffix/suffix_array.hpp>

#include "report.hpp"
#include "suffix_runs.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace ktext::cli {

template <class I>
SuffixArrayRun<I> build_on(Backend backend, const std::uint8_t* text, std::uint64_t n,
                           const ktext::SuffixArrayOptions& options);

template <class I>
void require_device_memory(Backend backend, std::uint64_t n) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (backend != Backend::Cuda) return;
  std::size_t free_bytes = 0, total_bytes = 0;
  // When the driver cannot say, the allocation itself reports the shortage.
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return;
  const std::uint64_t need = ktext::suffix_array_peak_bytes_bound<std::uint8_t, I>(n);
  if (need > free_bytes)
    throw io_error("the cuda backend needs " + std::to_string(need) + " bytes (" + human_bytes(need) + ") for n = " +
                   std::to_string(n) + ", " + std::to_string(free_bytes) + " (" + human_bytes(free_bytes) +
                   ") free on the GPU; try --backend openmp");
#else
  (void)backend, (void)n;
#endif
}

template <class I>
SuffixArrayRun<I> build_suffix_array(Backend backend, const std::uint8_t* text, std::uint64_t n,
                                     const ktext::SuffixArrayOptions& options) {
  require_device_memory<I>(backend, n);
  try {
    return build_on<I>(backend, text, n, options);
  } catch (const ktext::OutOfMemoryError& e) {
    throw io_error(std::string(e.what()) + (backend == Backend::Cuda ? "; try --backend openmp" : ""));
  }
}

template <class I>
SuffixArrayRun<I> build_on(Backend backend, const std::uint8_t* text, std::uint64_t n,
                           const ktext::SuffixArrayOptions& options) {
  return with_exec_space(backend, [&](const auto& exec) {
    using Exec = std::decay_t<decltype(exec)>;
    using Mem = typename Exec::memory_space;
    using HostText = Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    using HostSa = Kokkos::View<I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    SuffixArrayRun<I> run;
    run.sa = HostArray<I>(n);
    HostText h_text(text, n);
    HostSa h_sa(run.sa.data(), n);
    if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible) {
      // Host backends work on the caller's buffers: no copies, no second n-byte text.
      Stopwatch watch;
      run.stats = ktext::suffix_array(exec, h_text, h_sa, options);
      exec.fence("ktext cli: suffix_array");
      run.seconds = watch.seconds();
    } else {
      Kokkos::View<std::uint8_t*, Mem> d_text(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::text"), n);
      Kokkos::View<I*, Mem> d_sa(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::sa"), n);
      Kokkos::deep_copy(exec, d_text, h_text);
      exec.fence("ktext cli: text copied");
      Stopwatch watch;
      run.stats = ktext::suffix_array(exec, d_text, d_sa, options);
      exec.fence("ktext cli: suffix_array");
      run.seconds = watch.seconds();
      Kokkos::deep_copy(exec, h_sa, d_sa);
      exec.fence("ktext cli: sa copied");
    }
    return run;
  });
}

template void require_device_memory<std::int32_t>(Backend, std::uint64_t);
template void require_device_memory<std::int64_t>(Backend, std::uint64_t);
template SuffixArrayRun<std::int32_t> build_suffix_array<std::int32_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                        const ktext::SuffixArrayOptions&);
template SuffixArrayRun<std::int64_t> build_suffix_array<std::int64_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                        const ktext::SuffixArrayOptions&);

}  // namespace ktext::cli
