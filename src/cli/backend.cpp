// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "backend.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace ktext::cli {

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::Serial: return "serial";
    case Backend::OpenMP: return "openmp";
    case Backend::Cuda: return "cuda";
  }
  return "?";
}

std::vector<Backend> compiled_backends() {
  std::vector<Backend> out;
#if defined(KOKKOS_ENABLE_SERIAL)
  out.push_back(Backend::Serial);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  out.push_back(Backend::OpenMP);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  out.push_back(Backend::Cuda);
#endif
  return out;
}

std::string compiled_backends_text() {
  std::string text;
  for (Backend b : compiled_backends()) {
    if (!text.empty()) text += ' ';
    text += b == Backend::Serial ? "Serial" : b == Backend::OpenMP ? "OpenMP" : "Cuda";
  }
  return text;
}

std::optional<Backend> parse_backend(const std::string& name) {
  if (name == "auto") return std::nullopt;
  Backend b;
  if (name == "serial") b = Backend::Serial;
  else if (name == "openmp") b = Backend::OpenMP;
  else if (name == "cuda") b = Backend::Cuda;
  else throw usage_error("unknown backend '" + name + "' (auto, cuda, openmp, serial)");
  for (Backend c : compiled_backends())
    if (c == b) return b;
  throw usage_error("--backend " + name + ": this ktext was built without it (built: " + compiled_backends_text() + ")");
}

KokkosSession::KokkosSession(const GlobalOptions& options) {
#if defined(KOKKOS_ENABLE_CUDA)
  // CUDA loads each kernel at its first launch by default (lazy loading), inside the command's
  // timed work: dna (50 MB) bwt took 31-37 ms lazy and 20-22 ms eager on an H100, the whole
  // process 0.39-0.54 s either way. Loading them when CUDA starts keeps `seconds` to the work
  // (as Kokkos' own start is kept out); a CUDA_MODULE_LOADING set by the user wins.
  ::setenv("CUDA_MODULE_LOADING", "EAGER", 0);
#endif
  Kokkos::InitializationSettings settings;
  // Kokkos' warnings (OMP_PROC_BIND hints) would break the one-line error contract on stderr.
  settings.set_disable_warnings(true);
  if (options.threads > 0) {
    // Kokkos aborts, or the system refuses threads, far above the processors there are.
    const int available = std::max(1, int(std::thread::hardware_concurrency()));
    int threads = options.threads;
    if (threads > available) {
      if (!options.quiet)
        std::fprintf(stderr, "ktext: --threads %d is more than the %d processors here; using %d\n", threads, available,
                     available);
      threads = available;
    }
    settings.set_num_threads(threads);
  }
  if (options.device >= 0) {
    // Kokkos::initialize aborts on a device it does not have: refuse it here, readably.
    const int devices = Kokkos::num_devices();  // -1: this build has no GPU backend
    if (devices >= 0 && options.device >= devices)
      throw usage_error("--device " + std::to_string(options.device) + ": this machine has " + std::to_string(devices) +
                        " GPU" + (devices == 1 ? "" : "s") + (devices > 0 ? " (0 to " + std::to_string(devices - 1) + ")" : ""));
    if (devices >= 0) settings.set_device_id(options.device);
  }
  Kokkos::initialize(settings);
}

KokkosSession::~KokkosSession() { Kokkos::finalize(); }

void warm_up(Backend b) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (b != Backend::Cuda) return;
  // The first Kokkos reduction or scan of a process costs more on CUDA: on an H100 the first
  // one, the alphabet's scan over 256 entries, took 5.3-6.9 ms where later ones take 0.05
  // (KTEXT_BENCH_PHASES on corpus files and on 300 kB texts). One small scan and one
  // reduction here move that to the start, as module loading is (CUDA_MODULE_LOADING above),
  // out of the command's `seconds`.
  using Policy = Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::uint64_t>>;
  const Kokkos::Cuda exec;
  std::uint32_t count = 0;
  Kokkos::parallel_scan(
      "ktext_cli::warm_up_scan", Policy(exec, 0, 1024),
      KOKKOS_LAMBDA(std::uint64_t, std::uint32_t & next, bool) { ++next; }, count);
  std::uint64_t sum = 0, max = 0;
  Kokkos::parallel_reduce(
      "ktext_cli::warm_up_reduce", Policy(exec, 0, std::uint64_t(1) << 20),
      KOKKOS_LAMBDA(std::uint64_t i, std::uint64_t & s, std::uint64_t & m) {
        s += i;
        if (i > m) m = i;
      },
      sum, max);
  exec.fence("ktext_cli::warm_up");
#else
  (void)b;
#endif
}

bool gpu_present() {
#if defined(KOKKOS_ENABLE_CUDA)
  return Kokkos::num_devices() > 0;
#else
  return false;
#endif
}

Backend resolve_backend(std::optional<Backend> requested) {
  if (requested) {
    if (*requested == Backend::Cuda && !gpu_present()) throw io_error("--backend cuda: no GPU is visible");
    return *requested;
  }
  if (gpu_present()) return Backend::Cuda;
#if defined(KOKKOS_ENABLE_OPENMP)
  return Backend::OpenMP;
#else
  return Backend::Serial;
#endif
}

std::vector<Backend> usable_backends() {
  std::vector<Backend> out;
  for (Backend b : compiled_backends())
    if (b != Backend::Cuda || gpu_present()) out.push_back(b);
  return out;
}

}  // namespace ktext::cli
