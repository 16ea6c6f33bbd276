// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The deterministic inputs of src/oracles (runs, periods, Fibonacci and Thue-Morse words, NUL
// bytes, every byte value, seeded random texts) as the tests use them, and this process's share
// of the sweeps over them.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <ktext_oracles/texts.hpp>

namespace ktext::test {

using oracle::all_bytes_text;
using oracle::fibonacci_text;
using oracle::periodic_text;
using oracle::random_text;
using oracle::run_text;
using oracle::thue_morse_text;

/// Whether the tests run under sanitizers (KTEXT_SANITIZED_TESTS, the openmp-asan and
/// openmp-tsan presets), where the slowest sweeps take fewer sizes: every shape and the
/// boundaries of the smaller sizes still run instrumented, the uninstrumented builds run the rest.
#ifdef KTEXT_SANITIZED_TESTS
inline constexpr bool sanitized_tests = true;
#else
inline constexpr bool sanitized_tests = false;
#endif

/// KTEXT_TEST_CASES=i/k: this process runs the cases of each sweep whose ordinal is i modulo k,
/// so that k processes split a slow test between them (compute-sanitizer runs one test in k
/// processes). Unset, every case runs.
struct CaseShare {
  std::uint64_t index = 0, count = 1;
};

inline CaseShare case_share() {
  static const CaseShare share = [] {
    const char* env = std::getenv("KTEXT_TEST_CASES");
    if (!env || !*env) return CaseShare{};
    unsigned long long i = 0, k = 0;
    char extra = 0;
    if (std::sscanf(env, "%llu/%llu%c", &i, &k, &extra) != 2 || k == 0 || i >= k)
      throw std::invalid_argument("KTEXT_TEST_CASES must be i/k with 0 <= i < k, not '" + std::string(env) + "'");
    return CaseShare{i, k};
  }();
  return share;
}

/// Whether this process runs the next case of a sweep (always, unless KTEXT_TEST_CASES is set).
inline bool take_case() {
  static std::uint64_t next = 0;
  const CaseShare s = case_share();
  return next++ % s.count == s.index;
}

/// Whether this process runs every case (assertions about a whole sweep hold only then).
inline bool all_cases() { return case_share().count == 1; }

/// The oracle's named texts of length n that fall to this process.
inline std::vector<std::pair<std::string, std::vector<std::uint8_t>>> named_texts(std::size_t n, std::uint32_t seed) {
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> kept;
  for (auto& named : oracle::named_texts(n, seed))
    if (take_case()) kept.push_back(std::move(named));
  return kept;
}

}  // namespace ktext::test
