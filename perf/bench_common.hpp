// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Shared helpers of the ktext benchmark bodies: the backend under test, deterministic inputs,
// environment knobs. Each body defines ktext::bench::register_benchmarks(), called by the shared
// main (bench_main.cpp) after Kokkos::initialize.

#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
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

/// Bytes of a benchmark text.
using Text = std::vector<std::uint8_t>;

/// n random symbols: ACGT for sigma 4, letters from 'a' for sigma <= 26, else bytes 0..sigma-1.
inline Text random_text(std::size_t n, int sigma, std::uint64_t seed) {
  static const char dna[] = "ACGT";
  SplitMix64 rng(seed);
  Text t(n);
  for (auto& c : t) {
    const auto r = static_cast<unsigned>(rng() % unsigned(sigma));
    c = sigma == 4 ? std::uint8_t(dna[r]) : sigma <= 26 ? std::uint8_t('a' + r) : std::uint8_t(r);
  }
  return t;
}

/// Reads at most \p limit bytes (0 = all) of \p path.
inline Text read_file(const std::filesystem::path& path, std::uint64_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("ktext bench: cannot open " + path.string());
  std::uint64_t size = std::filesystem::file_size(path);
  if (limit && limit < size) size = limit;
  Text t(size);
  in.read(reinterpret_cast<char*>(t.data()), static_cast<std::streamsize>(size));
  if (std::uint64_t(in.gcount()) != size) throw std::runtime_error("ktext bench: short read of " + path.string());
  return t;
}

/// Files of a corpus directory that are not texts: hidden files, checksums, archives, notes.
inline bool skipped_corpus_file(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  const std::string ext = p.extension().string();
  return name.empty() || name[0] == '.' || name.rfind("SHA256SUMS", 0) == 0 || name.rfind("checksums", 0) == 0 ||
         ext == ".sha256" || ext == ".xz" || ext == ".gz" || ext == ".zst" || ext == ".md" || ext == ".json";
}

/// The texts of a corpus directory (skipped_corpus_file() left out), sorted by name; a message
/// on stderr when there are none.
inline std::vector<std::filesystem::path> corpus_files(const char* dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && !skipped_corpus_file(e.path())) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) std::fprintf(stderr, "ktext bench: no corpus files in %s\n", dir);
  return files;
}

}  // namespace ktext::bench
