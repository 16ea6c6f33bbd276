// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Sets of byte strings that check string sorters (duplicates, one string repeated, long shared
// prefixes, empty strings, every byte value, mixed lengths), the reference order by
// std::stable_sort and the LCP of sorted neighbours by direct comparison.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ktext::oracle {

/// Strings back to back: string i is chars[offsets[i], offsets[i+1]).
struct StringSet {
  std::vector<std::uint8_t> chars;
  std::vector<std::int64_t> offsets{0};
  std::size_t size() const { return offsets.size() - 1; }
  void add(const std::uint8_t* p, std::size_t len) {
    chars.insert(chars.end(), p, p + len);
    offsets.push_back(std::int64_t(chars.size()));
  }
  void add(const std::string& s) { add(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()); }
  const std::uint8_t* data(std::size_t i) const { return chars.data() + offsets[i]; }
  std::size_t length(std::size_t i) const { return std::size_t(offsets[i + 1] - offsets[i]); }
};

/// memcmp order, a proper prefix first (LC_ALL=C sort).
inline int compare_strings(const std::uint8_t* a, std::size_t la, const std::uint8_t* b, std::size_t lb) {
  const int c = std::min(la, lb) == 0 ? 0 : std::memcmp(a, b, std::min(la, lb));
  if (c != 0) return c;
  return la < lb ? -1 : (la > lb ? 1 : 0);
}

/// The stable order of the strings (equal strings in input order).
template <class I = std::int64_t>
std::vector<I> stable_sort_order(const StringSet& s) {
  std::vector<I> order(s.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = I(i);
  std::stable_sort(order.begin(), order.end(), [&](I a, I b) {
    return compare_strings(s.data(std::size_t(a)), s.length(std::size_t(a)), s.data(std::size_t(b)), s.length(std::size_t(b))) < 0;
  });
  return order;
}

/// lcp[r] = common prefix of the strings of ranks r - 1 and r; lcp[0] = 0.
template <class I>
std::vector<I> sorted_lcp(const StringSet& s, const std::vector<I>& order) {
  std::vector<I> lcp(order.size(), 0);
  for (std::size_t r = 1; r < order.size(); ++r) {
    const auto a = std::size_t(order[r - 1]), b = std::size_t(order[r]);
    const std::size_t limit = std::min(s.length(a), s.length(b));
    std::size_t l = 0;
    while (l < limit && s.data(a)[l] == s.data(b)[l]) ++l;
    lcp[r] = I(l);
  }
  return lcp;
}

/// n random strings of lengths [min_len, max_len] over bytes [lo, lo + sigma).
inline StringSet random_strings(std::size_t n, std::size_t min_len, std::size_t max_len, std::uint32_t sigma,
                                std::uint32_t seed, std::uint8_t lo = 0) {
  std::mt19937_64 rng(seed);
  StringSet s;
  std::vector<std::uint8_t> buf;
  for (std::size_t i = 0; i < n; ++i) {
    buf.resize(min_len + rng() % (max_len - min_len + 1));
    for (auto& c : buf) c = std::uint8_t(lo + rng() % sigma);
    s.add(buf.data(), buf.size());
  }
  return s;
}

/// URL-like strings: a few hosts, nested paths, numbered pages.
inline StringSet url_strings(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  static const char* hosts[] = {"https://www.example.org/", "https://en.wikipedia.org/wiki/", "http://ktext.dev/docs/",
                                "https://archive.example.com/2024/"};
  static const char* words[] = {"index", "news", "sports", "string", "sort", "gpu", "radix", "merge", "suffix", "array"};
  StringSet s;
  for (std::size_t i = 0; i < n; ++i) {
    std::string u = hosts[rng() % 4];
    const int depth = 1 + int(rng() % 4);
    for (int d = 0; d < depth; ++d) u += std::string(words[rng() % 10]) + (d + 1 < depth ? "/" : "");
    u += "?page=" + std::to_string(rng() % 100000);
    s.add(u);
  }
  return s;
}

/// Paths sharing a \p prefix_len-byte prefix, then a short random tail (a few tails repeat).
inline StringSet shared_prefix_strings(std::size_t n, std::size_t prefix_len, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::string prefix = "/";
  while (prefix.size() < prefix_len) prefix += "srv/data/archive/"[prefix.size() % 17];
  prefix.resize(prefix_len);
  StringSet s;
  for (std::size_t i = 0; i < n; ++i) {
    std::string t = prefix;
    const std::size_t tail = rng() % 12;
    for (std::size_t k = 0; k < tail; ++k) t += char('a' + rng() % 3);
    s.add(t);
  }
  return s;
}

/// n strings drawn from \p distinct random ones (many duplicates).
inline StringSet duplicate_strings(std::size_t n, std::size_t distinct, std::uint32_t seed) {
  const StringSet pool = random_strings(distinct, 0, 20, 4, seed, 'a');
  std::mt19937_64 rng(seed + 1);
  StringSet s;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = rng() % distinct;
    s.add(pool.data(k), pool.length(k));
  }
  return s;
}

/// \p n copies of one string of \p len bytes.
inline StringSet repeated_string(std::size_t n, std::size_t len) {
  StringSet s;
  std::vector<std::uint8_t> one(len);
  for (std::size_t i = 0; i < len; ++i) one[i] = std::uint8_t("abc"[i % 3]);
  for (std::size_t i = 0; i < n; ++i) s.add(one.data(), one.size());
  return s;
}

/// The shapes that break string sorters, about \p n strings each.
inline std::vector<std::pair<std::string, StringSet>> named_string_sets(std::size_t n, std::uint32_t seed) {
  std::vector<std::pair<std::string, StringSet>> sets;
  sets.emplace_back("random_bytes", random_strings(n, 0, 24, 256, seed));
  sets.emplace_back("short_binary", random_strings(n, 0, 6, 2, seed + 1, 'a'));
  sets.emplace_back("nul_and_ff", random_strings(n, 0, 10, 2, seed + 2, 0));
  sets.emplace_back("urls", url_strings(n, seed + 3));
  sets.emplace_back("shared_prefix_200", shared_prefix_strings(n, 200, seed + 4));
  sets.emplace_back("duplicates", duplicate_strings(n, n / 50 + 1, seed + 5));
  sets.emplace_back("one_repeated", repeated_string(n, 37));
  StringSet empty;
  for (std::size_t i = 0; i < n; ++i) empty.add(nullptr, 0);
  sets.emplace_back("empty_strings", std::move(empty));
  StringSet bytes;  // every byte value alone, as a prefix of another, and twice
  for (int v = 255; v >= 0; --v) {
    const std::uint8_t one[3] = {std::uint8_t(v), std::uint8_t(v), std::uint8_t(255 - v)};
    bytes.add(one, 1);
    bytes.add(one, 3);
    bytes.add(one, 2);
    bytes.add(one, 1);
  }
  sets.emplace_back("every_byte", std::move(bytes));
  return sets;
}

}  // namespace ktext::oracle
