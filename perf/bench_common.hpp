#pragma once
// Shared helpers of the ktext benchmark bodies: the backend under test, deterministic inputs,
// environment knobs. Each body defines ktext::bench::register_benchmarks(), called by the shared
// main (bench_main.cpp) after Kokkos::initialize.

#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#ifndef KTEXT_BENCH_EXEC
#error "KTEXT_BENCH_EXEC must name the execution space (set by ktext_add_backend_benchmark)"
#endif
#ifndef KTEXT_BENCH_BACKEND_NAME
#define KTEXT_BENCH_BACKEND_NAME "unknown"
#endif

namespace ktext::bench {

void register_benchmarks();  // defined by the benchmark body

using Exec = KTEXT_BENCH_EXEC;
using Mem = typename Exec::memory_space;
inline const std::string backend_name = KTEXT_BENCH_BACKEND_NAME;

/// True when the backend's memory is host memory (host peers are registered only there).
inline constexpr bool host_backend = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;

/// splitmix64: deterministic, seedable, fast; every benchmark input is a function of its seed.
struct SplitMix64 {
  std::uint64_t s;
  explicit SplitMix64(std::uint64_t seed) : s(seed) {}
  std::uint64_t operator()() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

/// Integer from the environment variable \p name, or \p fallback when unset or unparsable.
inline long long env_int(const char* name, long long fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v, &end, 0);
  return (end && *end == '\0') ? x : fallback;
}

/// Copies a host vector into a new view in the backend's memory space (outside timed loops).
template <class T>
Kokkos::View<T*, Mem> to_device(const std::vector<T>& v, const std::string& label) {
  Kokkos::View<T*, Mem> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), v.size());
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(v.data(), v.size());
  Kokkos::deep_copy(d, h);
  return d;
}

/// n uniformly random values of type T with only the low \p bits bits set (bits = all by default).
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, int bits = 8 * sizeof(T)) {
  SplitMix64 rng(seed);
  const std::uint64_t mask = bits >= 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << bits) - 1);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng() & mask);
  return v;
}

/// Human-readable size suffix: 1048576 -> "1Mi", 65536 -> "64Ki", others in bytes.
inline std::string size_name(std::uint64_t n) {
  if (n >= (1ull << 20) && n % (1ull << 20) == 0) return std::to_string(n >> 20) + "Mi";
  if (n >= (1ull << 10) && n % (1ull << 10) == 0) return std::to_string(n >> 10) + "Ki";
  return std::to_string(n);
}

}  // namespace ktext::bench
