// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// What the FM-index tests (test_fm_index.hpp) and the index-file tests (test_fm_index_file.hpp)
// share: patterns and their naive oracle, the index built and queried on the backend under
// test, and comparisons that report the first difference.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/fm_index.hpp>

#include "test_oracles.hpp"
#include "test_views.hpp"

namespace ktext::test {

using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------------------------------------
// Patterns and the naive oracle

/// Patterns back to back with P + 1 offsets, as the batched queries take them.
struct Patterns {
  Bytes bytes;
  std::vector<std::int64_t> offsets = {0};
  void add(const Bytes& p) {
    bytes.insert(bytes.end(), p.begin(), p.end());
    offsets.push_back(std::int64_t(bytes.size()));
  }
  [[nodiscard]] std::size_t size() const { return offsets.size() - 1; }
  [[nodiscard]] Bytes get(std::size_t i) const { return Bytes(bytes.begin() + offsets[i], bytes.begin() + offsets[i + 1]); }
};

inline std::string describe(const Bytes& p) {
  std::ostringstream s;
  s << "pattern of length " << p.size() << " [";
  for (std::size_t i = 0; i < p.size() && i < 48; ++i) s << (i ? " " : "") << int(p[i]);
  if (p.size() > 48) s << " ...";
  s << "]";
  return s.str();
}

/// Every start of an exact (overlapping) occurrence of \p p in \p t, ascending; the empty
/// pattern occurs at 0..n.
inline std::vector<std::int64_t> naive_positions(const Bytes& t, const Bytes& p) {
  std::vector<std::int64_t> out;
  if (p.empty()) {
    for (std::size_t i = 0; i <= t.size(); ++i) out.push_back(std::int64_t(i));
    return out;
  }
  for (auto it = t.begin();; ++it) {
    it = std::search(it, t.end(), p.begin(), p.end());
    if (it == t.end()) break;
    out.push_back(std::int64_t(it - t.begin()));
  }
  return out;
}

struct Oracle {
  std::vector<std::uint64_t> counts;
  std::vector<std::vector<std::int64_t>> positions;
};

inline Oracle naive_oracle(const Bytes& t, const Patterns& ps) {
  Oracle o;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    o.positions.push_back(naive_positions(t, ps.get(i)));
    o.counts.push_back(o.positions.back().size());
  }
  return o;
}

/// The patterns of the sweep: random substrings, random strings over the text's alphabet,
/// prefix, suffix, the whole text, the empty pattern, longer than the text, absent bytes,
/// all 256 single bytes, NUL bytes.
inline Patterns sweep_patterns(const Bytes& t, std::uint32_t seed, int substrings, int randoms) {
  std::mt19937_64 rng(seed);
  const std::size_t n = t.size();
  Patterns ps;
  bool present[256] = {};
  for (auto c : t) present[c] = true;
  Bytes alphabet;
  for (int c = 0; c < 256; ++c)
    if (present[c]) alphabet.push_back(std::uint8_t(c));
  if (n > 0) {
    for (int k = 0; k < substrings; ++k) {
      const std::size_t len = 1 + rng() % std::min<std::size_t>(40, n);
      const std::size_t start = rng() % (n - len + 1);
      ps.add(Bytes(t.begin() + start, t.begin() + start + len));
    }
    ps.add(Bytes(t.begin(), t.begin() + std::min<std::size_t>(n, 7)));  // prefix
    ps.add(Bytes(t.end() - std::min<std::size_t>(n, 7), t.end()));      // suffix: ends at n
    ps.add(t);                                                            // the whole text
  }
  for (int k = 0; k < randoms && !alphabet.empty(); ++k) {
    const std::size_t len = 1 + rng() % (k % 2 == 0 ? 4 : 40);
    Bytes p(len);
    for (auto& c : p) c = alphabet[rng() % alphabet.size()];
    ps.add(p);
  }
  ps.add({});  // the empty pattern
  {
    Bytes longer = t;  // longer than the text, a prefix of it
    longer.push_back(n > 0 ? t[0] : 'a');
    ps.add(longer);
  }
  int absent = -1;
  for (int c = 255; c >= 0 && absent < 0; --c)
    if (!present[c]) absent = c;
  if (absent >= 0) {
    const std::uint8_t a = std::uint8_t(absent);
    ps.add({a});
    ps.add({a, a});
    if (n > 0) {
      const std::size_t len = std::min<std::size_t>(n, 6);
      const std::size_t start = rng() % (n - len + 1);
      Bytes sub(t.begin() + start, t.begin() + start + len);
      Bytes p = sub;
      p.push_back(a);
      ps.add(p);
      p = sub;
      p.insert(p.begin(), a);
      ps.add(p);
      p = sub;
      p.insert(p.begin() + len / 2, a);
      ps.add(p);
    }
  }
  for (int c = 0; c < 256; ++c) ps.add({std::uint8_t(c)});
  ps.add({0, 0});
  ps.add({'a', 0, 'b'});
  ps.add({0, 'b', 0, 0, 'a'});
  ps.add({'b', 0, 0, 'a', 0});
  ps.add({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  return ps;
}

/// The patterns whose locate fits a budget of LF steps at sample rate \p rate (a position p
/// walks p mod s steps; every occurrence costs at least one): all absent ones, then greedily.
inline std::vector<std::size_t> locate_subset(const Oracle& o, std::uint32_t rate, std::uint64_t budget) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < o.counts.size(); ++i) {
    std::uint64_t cost = 0;
    for (auto p : o.positions[i]) cost += 1 + std::uint64_t(p) % rate;
    if (cost <= budget) {
      budget -= cost;
      chosen.push_back(i);
    }
  }
  return chosen;
}

inline Patterns select(const Patterns& ps, const std::vector<std::size_t>& which) {
  Patterns out;
  for (auto i : which) out.add(ps.get(i));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The index under test

template <class Index>
using Fm = ktext::FMIndex<Mem, Index>;

/// The index of \p t; \p occ = wavelet_matrix also makes its sample marks sparse.
template <class Index>
Fm<Index> build(const Bytes& t, std::uint32_t rate, ktext::FMOccurrences occ = ktext::FMOccurrences::table) {
  auto text = to_device(t, "text");
  ktext::FMIndexOptions options;
  options.sample_rate = rate;
  options.occurrences = occ;
  return Fm<Index>(Exec{}, text, options);
}

inline std::string occ_name(ktext::FMOccurrences occ) {
  return occ == ktext::FMOccurrences::table ? "table" : "wm";
}

template <class Index>
std::vector<std::uint64_t> batched_count(const Fm<Index>& index, const Patterns& ps) {
  auto patterns = to_device(ps.bytes, "patterns");
  auto offsets = to_device(ps.offsets, "offsets");
  Kokkos::View<std::uint64_t*, Mem> counts("counts", ps.size());
  index.count(Exec{}, patterns, offsets, counts);
  Exec{}.fence();
  return to_host(counts);
}

/// Batched locate, split per pattern (positions as int64).
template <class Index>
std::vector<std::vector<std::int64_t>> batched_locate(const Fm<Index>& index, const Patterns& ps) {
  auto patterns = to_device(ps.bytes, "patterns");
  auto offsets = to_device(ps.offsets, "offsets");
  const auto occ = index.locate(Exec{}, patterns, offsets);
  const auto off = to_host(occ.offsets);
  const auto pos = to_host(occ.positions);
  std::vector<std::vector<std::int64_t>> out(ps.size());
  EXPECT_EQ(off.size(), ps.size() + 1);
  if (off.size() != ps.size() + 1 || off.front() != 0 || std::uint64_t(off.back()) != pos.size()) {
    ADD_FAILURE() << "locate offsets are malformed: " << off.size() << " entries, last " << (off.empty() ? -1 : off.back())
                  << ", " << pos.size() << " positions";
    return out;
  }
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (off[i + 1] < off[i]) {
      ADD_FAILURE() << "locate offsets decrease at " << i;
      return out;
    }
    out[i].assign(pos.begin() + off[i], pos.begin() + off[i + 1]);
  }
  return out;
}

/// Reports the first pattern whose count or positions differ (the vectors can be huge).
inline void expect_same(const std::string& what, const Patterns& ps, const std::vector<std::uint64_t>& want,
                 const std::vector<std::uint64_t>& got) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      ADD_FAILURE() << what << ": " << describe(ps.get(i)) << " (#" << i << "): expected count " << want[i] << ", got " << got[i];
      return;
    }
}

inline void expect_same(const std::string& what, const Patterns& ps, const std::vector<std::vector<std::int64_t>>& want,
                 const std::vector<std::vector<std::int64_t>>& got) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      std::size_t k = 0;
      while (k < want[i].size() && k < got[i].size() && want[i][k] == got[i][k]) ++k;
      ADD_FAILURE() << what << ": " << describe(ps.get(i)) << " (#" << i << "): expected " << want[i].size()
                    << " positions, got " << got[i].size() << "; first difference at entry " << k << " (expected "
                    << (k < want[i].size() ? want[i][k] : -1) << ", got " << (k < got[i].size() ? got[i][k] : -1) << ")";
      return;
    }
}

/// Everything about one text's inputs that does not depend on the index.
struct Case {
  std::string label;
  Bytes text;
  Patterns patterns;
  Oracle oracle;
  Bytes bwt;
  std::uint64_t primary = 0;
  std::vector<std::int64_t> sa;  // empty unless checked
  int sigma = 0;
};

inline Case make_case(const std::string& label, const Bytes& t, const Patterns& ps, bool with_sa) {
  Case c{label, t, ps, naive_oracle(t, ps), {}, 0, {}, 0};
  {
    auto text = to_device(t, "text");
    Kokkos::View<std::uint8_t*, Mem> out("bwt", t.size());
    c.primary = ktext::bwt(Exec{}, text, out);
    c.bwt = to_host(out);
  }
  if (with_sa) c.sa = reference_suffix_array<std::int64_t>(t);
  bool present[256] = {};
  for (auto x : t) present[x] = true;
  c.sigma = int(std::count(present, present + 256, true));
  return c;
}

}  // namespace ktext::test
