// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Deterministic texts that check suffix sorters and indexes: the shapes that break them (runs,
// periods, Fibonacci and Thue-Morse words, NUL bytes, every byte value), seeded random texts,
// and the mixed text `ktext crosscheck` uses by default.

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ktext::oracle {

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

namespace detail {

// A fixed LCG (Knuth's MMIX constants): the crosscheck text must not depend on the standard
// library's engines.
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed) {}
  std::uint32_t next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state_ >> 33);
  }
  std::uint32_t below(std::uint32_t bound) { return next() % bound; }

 private:
  std::uint64_t state_;
};

inline void append(std::vector<std::uint8_t>& t, const std::string& s) { t.insert(t.end(), s.begin(), s.end()); }

inline void english_like(std::vector<std::uint8_t>& t, Lcg& rng, std::size_t bytes) {
  static const char* const words[] = {
      "the",   "of",     "and",   "to",     "in",    "a",      "is",    "that",  "for",    "it",
      "as",    "was",    "with",  "be",     "by",    "on",     "not",   "he",    "this",   "are",
      "or",    "his",    "from",  "at",     "which", "but",    "have",  "an",    "had",    "they",
      "you",   "were",   "their", "one",    "all",   "we",     "can",   "her",   "has",    "there",
      "been",  "if",     "more",  "when",   "will",  "would",  "who",   "so",    "no",     "suffix",
      "array", "string", "index", "kokkos", "text",  "sorted", "order", "prefix", "double", "rank"};
  const std::size_t count = sizeof(words) / sizeof(words[0]);
  const std::size_t end = t.size() + bytes;
  bool capital = true;
  while (t.size() < end) {
    std::string w = words[rng.below(static_cast<std::uint32_t>(count))];
    if (capital) w[0] = static_cast<char>(w[0] - 'a' + 'A');
    capital = false;
    append(t, w);
    const std::uint32_t r = rng.below(100);
    if (r < 6) {
      append(t, ".");
      append(t, rng.below(4) == 0 ? "\n" : " ");
      capital = true;
    } else if (r < 10) {
      append(t, ", ");
    } else {
      append(t, " ");
    }
  }
  t.resize(end);
}

}  // namespace detail

/// The 1 MiB text `ktext crosscheck` runs without arguments: English-like prose, repeats of tens
/// of kilobytes, runs of one byte, every byte value, NUL runs, a periodic stretch and random
/// bytes. Deterministic on every platform (its own generator).
inline std::vector<std::uint8_t> crosscheck_text() {
  constexpr std::size_t kSize = std::size_t(1) << 20;
  std::vector<std::uint8_t> t;
  t.reserve(kSize + 4096);
  detail::Lcg rng(20240601);

  detail::english_like(t, rng, 320 * 1024);

  // Long repeats: a 48 KiB slice of the prose three times, the last copy with a few mutations,
  // so that suffixes share prefixes of tens of kilobytes.
  const std::vector<std::uint8_t> slice(t.begin() + 1000, t.begin() + 1000 + 48 * 1024);
  for (int copy = 0; copy < 3; ++copy) {
    const std::size_t at = t.size();
    t.insert(t.end(), slice.begin(), slice.end());
    if (copy == 2)
      for (int m = 0; m < 8; ++m) t[at + rng.below(static_cast<std::uint32_t>(slice.size()))] ^= 0x20;
  }

  // Runs of one byte: one long A^n block and many short runs of varied bytes and lengths.
  t.insert(t.end(), 64 * 1024, std::uint8_t('a'));
  for (int r = 0; r < 256; ++r) t.insert(t.end(), 1 + rng.below(200), static_cast<std::uint8_t>(rng.below(256)));

  // Every byte value: ascending, descending, and each value repeated, so all 256 symbols occur.
  for (int v = 0; v < 256; ++v) t.push_back(static_cast<std::uint8_t>(v));
  for (int v = 255; v >= 0; --v) t.push_back(static_cast<std::uint8_t>(v));
  for (int v = 0; v < 256; ++v) t.insert(t.end(), 16, static_cast<std::uint8_t>(v));

  // NUL runs: a long one and short ones between text, since 0 is an ordinary symbol.
  t.insert(t.end(), 32 * 1024, std::uint8_t(0));
  for (int r = 0; r < 512; ++r) {
    t.insert(t.end(), 1 + rng.below(16), std::uint8_t(0));
    detail::append(t, "nul");
  }

  // A periodic stretch (period 7) to exercise many equal-rank groups.
  for (int i = 0; i < 32 * 1024; ++i) t.push_back(static_cast<std::uint8_t>("abcabdx"[i % 7]));

  // Pseudo-random bytes fill the rest; a final repeat of the text's start closes it.
  while (t.size() < kSize - 4096) t.push_back(static_cast<std::uint8_t>(rng.next() >> 7));
  const std::vector<std::uint8_t> head(t.begin(), t.begin() + 4096);
  t.insert(t.end(), head.begin(), head.end());
  t.resize(kSize);
  return t;
}

}  // namespace ktext::oracle
