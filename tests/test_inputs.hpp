// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Deterministic test inputs: the shapes that break suffix sorters (runs, periods, Fibonacci and
// Thue–Morse words, NUL bytes, every byte value) and seeded random texts.

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ktext::test {

template <class S = std::uint8_t>
std::vector<S> random_text(std::size_t n, std::uint32_t sigma, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> d(0, sigma - 1);
  std::vector<S> t(n);
  for (auto& c : t) c = static_cast<S>(d(rng));
  return t;
}

inline std::vector<std::uint8_t> run_text(std::size_t n, std::uint8_t c = 'a') { return std::vector<std::uint8_t>(n, c); }

inline std::vector<std::uint8_t> fibonacci_text(std::size_t n) {
  std::string a = "a", b = "ab";
  while (b.size() < n) {
    std::string c = b + a;
    a = std::move(b);
    b = std::move(c);
  }
  return std::vector<std::uint8_t>(b.begin(), b.begin() + n);
}

inline std::vector<std::uint8_t> thue_morse_text(std::size_t n) {
  std::vector<std::uint8_t> t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = (__builtin_popcountll(i) & 1) ? 'b' : 'a';
  return t;
}

inline std::vector<std::uint8_t> periodic_text(std::size_t n, const std::string& period) {
  std::vector<std::uint8_t> t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = static_cast<std::uint8_t>(period[i % period.size()]);
  return t;
}

/// Every byte value, NUL runs and repeats: 0..255, then zeros, then a repeat of the start.
inline std::vector<std::uint8_t> all_bytes_text(std::size_t n) {
  std::vector<std::uint8_t> t(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = i % 700;
    t[i] = r < 256 ? std::uint8_t(r) : (r < 400 ? 0 : std::uint8_t((r * 7) & 0xff));
  }
  return t;
}

/// Named inputs of length n for sweeps.
inline std::vector<std::pair<std::string, std::vector<std::uint8_t>>> named_texts(std::size_t n, std::uint32_t seed) {
  return {{"random2", random_text(n, 2, seed)},
          {"random4", random_text(n, 4, seed + 1)},
          {"random26", random_text(n, 26, seed + 2)},
          {"random256", random_text(n, 256, seed + 3)},
          {"run", run_text(n)},
          {"zeros", run_text(n, 0)},
          {"fibonacci", fibonacci_text(n)},
          {"thue_morse", thue_morse_text(n)},
          {"period3", periodic_text(n, "abc")},
          {"period_nul", periodic_text(n, std::string("a\0b\0\0", 5))},
          {"all_bytes", all_bytes_text(n)}};
}

}  // namespace ktext::test
