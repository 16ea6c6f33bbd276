// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// WaveletTree and WaveletMatrix per backend, for 8-, 16- and 32-bit symbols: access, rank and
// select against a naive table of every symbol's positions and SDSL (wt_int and wm_int, host
// builds with libsdsl-dev) on the named texts (runs, periods, Fibonacci, Thue-Morse, NUL bytes,
// every byte), alphabets of 1, 2, 3, 255, 256 and 2^16 symbols, sparse minimal alphabets, given
// alphabets with absent symbols, sizes around powers of two and n = 0, 1, 2; the single queries
// inside a user kernel; batched queries on device and host views; argument checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <ktext/core/error.hpp>
#include <ktext/core/container.hpp>
#include <ktext/succinct/wavelet_file.hpp>
#include <ktext/succinct/wavelet_matrix.hpp>
#include <ktext/succinct/wavelet_tree.hpp>

#include "test_inputs.hpp"
#include "test_succinct_helpers.hpp"
#include "test_views.hpp"

#if defined(KTEXT_HAVE_SDSL)
#include <sdsl/wavelet_trees.hpp>
#endif

namespace {

using namespace ktext::test;
using ktext::WaveletOptions;
using ktext::QueryOrder;
using ktext::WaveletQuery;
template <class S>
using Tree = ktext::WaveletTree<Mem, S>;
template <class S>
using Matrix = ktext::WaveletMatrix<Mem, S>;
constexpr std::uint64_t npos = ktext::RankSelect<Mem>::npos;
using U64s = std::vector<std::uint64_t>;

template <class S, class T>
std::vector<S> cast(const std::vector<T>& v) {
  return std::vector<S>(v.begin(), v.end());
}

/// The naive oracle: every symbol's positions in order.
struct Occurrences {
  std::map<std::uint64_t, U64s> at;
  template <class S>
  explicit Occurrences(const std::vector<S>& text) {
    for (std::size_t i = 0; i < text.size(); ++i) at[text[i]].push_back(i);
  }
  [[nodiscard]] const U64s& of(std::uint64_t c) const {
    static const U64s none;
    const auto it = at.find(c);
    return it == at.end() ? none : it->second;
  }
  [[nodiscard]] std::uint64_t rank(std::uint64_t c, std::uint64_t i) const {
    const auto& p = of(c);
    return std::uint64_t(std::lower_bound(p.begin(), p.end(), i) - p.begin());
  }
  [[nodiscard]] std::uint64_t select(std::uint64_t c, std::uint64_t k) const {
    const auto& p = of(c);
    return k >= 1 && k <= p.size() ? p[k - 1] : npos;
  }
};

/// Symbol, position (or k) and the oracle's answer of each query.
struct Batch {
  U64s a, b, want;
  void add(std::uint64_t x, std::uint64_t y, std::uint64_t w) { a.push_back(x), b.push_back(y), want.push_back(w); }
  [[nodiscard]] std::string describe(std::size_t q) const { return "(" + std::to_string(a[q]) + ", " + std::to_string(b[q]) + ")"; }
};

/// Batched answers of \p op on device views.
template <class W>
U64s batched(const W& w, WaveletQuery op, const U64s& a, const U64s& b, QueryOrder order = QueryOrder::automatic) {
  auto d_a = to_device(a, "a");
  auto d_b = to_device(b, "b");
  Kokkos::View<std::uint64_t*, Mem> out("answers", a.size());
  w.query(Exec{}, op, d_a, d_b, out, order);
  return to_host(out);
}

/// The same on host views of \p Space: HostSpace (with a device execution space, the chunked
/// path through staging) or SharedHostPinnedSpace (read in place, or copied by DMA when sorted).
template <class W, class Space = Kokkos::HostSpace>
U64s batched_on_host(const W& w, WaveletQuery op, const U64s& a, const U64s& b, QueryOrder order = QueryOrder::automatic) {
  Kokkos::View<std::uint64_t*, Space> h_a("host_a", a.size()), h_b("host_b", b.size()), out("host_out", a.size());
  std::copy(a.begin(), a.end(), h_a.data());
  std::copy(b.begin(), b.end(), h_b.data());
  w.query(Exec{}, op, h_a, h_b, out, order);
  return U64s(out.data(), out.data() + a.size());
}

/// The queries a structure over \p text is checked with: access at query_positions; rank and
/// select for up to 12 present symbols (the smallest, the largest, seeded others) and the
/// absent ones of \p absent, rank at every position of small texts, else at the edges and a
/// sample, select at every k of small counts, else select_counts.
struct Queries {
  Batch access, rank, select;
};

template <class S>
Queries make_queries(const std::vector<S>& text, const Occurrences& occ, const U64s& absent, std::uint64_t seed) {
  const std::uint64_t n = text.size();
  Queries q;
  for (const auto p : query_positions(n, 3000, seed))
    if (p < n) q.access.add(p, p, text[p]);
  U64s present;
  for (const auto& [c, _] : occ.at) present.push_back(c);
  std::mt19937_64 rng(seed);
  U64s symbols;
  if (present.size() <= 12) {
    symbols = present;
  } else {
    symbols = {present.front(), present.back()};
    for (int s = 0; s < 10; ++s) symbols.push_back(present[rng() % present.size()]);
  }
  U64s positions;
  if (n <= 2048) {
    for (std::uint64_t p = 0; p <= n; ++p) positions.push_back(p);
  } else {
    positions = {0, 1, 2, n - 1, n};
    add_edges(positions, n, {64, 512, 65536}, 200, seed);
    for (int s = 0; s < 300; ++s) positions.push_back(rng() % (n + 1));
  }
  for (const auto c : symbols) {
    for (const auto p : positions) q.rank.add(c, p, occ.rank(c, p));
    for (const auto k : select_counts(occ.of(c).size(), 2000, seed + c)) q.select.add(c, k, occ.select(c, k));
  }
  for (const auto c : absent) {
    for (const std::uint64_t p : {std::uint64_t(0), n / 2, n}) q.rank.add(c, p, 0);
    for (const std::uint64_t k : {0, 1, 2}) q.select.add(c, k, npos);
  }
  return q;
}

/// Checks \p w's batched answers to \p q, in the batch's order and sorted by locality.
template <class W>
void expect_queries(const W& w, const Queries& q, const std::string& what) {
  auto check = [&](WaveletQuery op, const Batch& b) {
    for (const auto order : {QueryOrder::as_given, QueryOrder::by_locality})
      expect_answers(batched(w, op, b.a, b.b, order), b.want,
                     what + " " + W::op_name(op) + (order == QueryOrder::as_given ? "" : " by locality"),
                     [&](std::size_t i) { return b.describe(i); });
  };
  check(WaveletQuery::access, q.access);
  check(WaveletQuery::rank, q.rank);
  check(WaveletQuery::select, q.select);
}

#if defined(KTEXT_HAVE_SDSL)
/// SDSL's answers to the queries SDSL defines (present symbols, 1 <= k <= count); the others
/// keep the oracle's answers.
template <class SdslWt, class S>
Queries sdsl_answers(const std::vector<S>& text, const Occurrences& occ, Queries q) {
  sdsl::int_vector<> iv(text.size(), 0, 32);
  for (std::size_t i = 0; i < text.size(); ++i) iv[i] = text[i];
  SdslWt wt;
  sdsl::construct_im(wt, iv);
  for (std::size_t i = 0; i < q.access.a.size(); ++i) q.access.want[i] = wt[q.access.a[i]];
  for (std::size_t i = 0; i < q.rank.a.size(); ++i)
    if (!occ.of(q.rank.a[i]).empty()) q.rank.want[i] = wt.rank(q.rank.b[i], q.rank.a[i]);
  for (std::size_t i = 0; i < q.select.a.size(); ++i) {
    const std::uint64_t k = q.select.b[i];
    if (k >= 1 && k <= occ.of(q.select.a[i]).size()) q.select.want[i] = wt.select(k, q.select.a[i]);
  }
  return q;
}
#endif

template <class S>
std::uint64_t distinct(const std::vector<S>& text) {
  return Occurrences(text).at.size();
}

std::uint64_t ceil_log2(std::uint64_t x) {
  std::uint64_t b = 0;
  while ((std::uint64_t(1) << b) < x) ++b;
  return b;
}

/// Builds a wavelet tree and a wavelet matrix of \p text and checks both.
template <class S>
void check_text(const std::vector<S>& text, const WaveletOptions& options, const std::string& what, std::uint64_t seed,
                U64s absent = {}) {
  const Occurrences occ(text);
  const std::uint64_t max_symbol = text.empty() ? 0 : *std::max_element(text.begin(), text.end());
  // Symbols without occurrences: those of the caller, one past the largest, one beyond any Symbol.
  absent.push_back(max_symbol + 1);
  absent.push_back(std::uint64_t(1) << 40);
  const Queries q = make_queries(text, occ, absent, seed);
  const std::uint64_t sigma = options.alphabet_size ? options.alphabet_size : distinct(text);
  const auto d_text = to_device(text, "text");
  const std::string where = what + " (n=" + std::to_string(text.size()) + ")";

  const Tree<S> wt(Exec{}, d_text, options);
  EXPECT_EQ(wt.size(), text.size()) << where;
  EXPECT_EQ(wt.alphabet_size(), sigma) << where;
  EXPECT_EQ(std::uint64_t(wt.levels()), ceil_log2(sigma)) << where;
  expect_queries(wt, q, where + " tree");

  const Matrix<S> wm(Exec{}, d_text, options);
  EXPECT_EQ(wm.size(), text.size()) << where;
  EXPECT_EQ(wm.alphabet_size(), sigma) << where;
  EXPECT_EQ(std::uint64_t(wm.levels()), ceil_log2(sigma)) << where;
  expect_queries(wm, q, where + " matrix");

#if defined(KTEXT_HAVE_SDSL)
  if (!text.empty()) {
    expect_queries(wt, sdsl_answers<sdsl::wt_int<>>(text, occ, q), where + " tree vs SDSL wt_int");
    expect_queries(wm, sdsl_answers<sdsl::wm_int<>>(text, occ, q), where + " matrix vs SDSL wm_int");
  }
#endif
}

/// \p text, then that many seeded symbols below \p sigma: every symbol of a fully used alphabet.
template <class S>
std::vector<S> with_random_tail(std::vector<S> text, std::size_t extra, std::uint32_t sigma, std::uint32_t seed) {
  const auto tail = random_text<S>(extra, sigma, seed);
  text.insert(text.end(), tail.begin(), tail.end());
  return text;
}

template <class S>
std::vector<S> iota_text(std::size_t n, std::uint64_t step = 1) {
  std::vector<S> t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = S(i * step);
  return t;
}

// ---------------------------------------------------------------------------------------------
// Tests

TEST(wavelet, named_texts_around_block_sizes) {
  for (const std::size_t n : {0, 1, 2, 3, 63, 64, 65, 511, 512, 513, 4097, 65537})
    for (const auto& [name, text] : named_texts(n, std::uint32_t(n)))
      check_text(text, {}, name, n);
}

TEST(wavelet, named_texts_as_wide_symbols) {
  for (const std::size_t n : {1, 2, 1000, 65536})
    for (const auto& [name, text] : named_texts(n, std::uint32_t(n) + 7)) {
      check_text(cast<std::uint16_t>(text), {}, name + " uint16", n);
      check_text(cast<std::uint32_t>(text), {}, name + " uint32", n);
    }
}

TEST(wavelet, pasta_sizes) {
  for (const int k : {6, 9, 12, 16, 18})
    for (const std::size_t extra : {0, 7, 723, 1347}) {
      const std::size_t n = (std::size_t(1) << k) + extra;
      check_text(random_text(n, 256, std::uint32_t(n)), {}, "random256", n);
      check_text(random_text(n, 3, std::uint32_t(n) + 1), {}, "random3", n);
    }
}

TEST(wavelet, alphabet_sizes) {
  // 1 symbol: no levels at all.
  check_text(run_text(1000, 'x'), {}, "sigma=1 uint8", 1);
  check_text(cast<std::uint16_t>(run_text(1000, 0)), {}, "sigma=1 uint16", 2);
  check_text(std::vector<std::uint32_t>(4097, 123456), {}, "sigma=1 uint32", 3);
  // 2 and 3 symbols.
  check_text(random_text(10000, 2, 4), {}, "sigma=2", 4);
  check_text(random_text<std::uint32_t>(10000, 3, 5), {}, "sigma=3 uint32", 5);
  // 255 and 256: every symbol present.
  check_text(with_random_tail(iota_text<std::uint8_t>(255), 20000, 255, 6), {}, "sigma=255", 6);
  check_text(with_random_tail(iota_text<std::uint8_t>(256), 20000, 256, 7), {}, "sigma=256", 7);
  check_text(all_bytes_text(70000), {}, "all bytes", 8);
  // 2^16, every symbol present, and 2^16 given for a text that uses some.
  auto full16 = iota_text<std::uint16_t>(65536);
  std::shuffle(full16.begin(), full16.end(), std::mt19937_64(9));
  check_text(with_random_tail(full16, 100000, 65536, 10), {}, "sigma=2^16 uint16", 10);
  check_text(cast<std::uint32_t>(with_random_tail(full16, 50000, 65536, 11)), {}, "sigma=2^16 uint32", 11);
  check_text(random_text<std::uint16_t>(50000, 40000, 12), WaveletOptions{65536}, "given 2^16 uint16", 12, {40000, 65535});
}

TEST(wavelet, sparse_minimal_alphabets) {
  // Multiples of 3: the codes are dense, the symbols not; the gaps are absent symbols.
  auto times3 = [](auto text) {
    for (auto& c : text) c = static_cast<typename decltype(text)::value_type>(c * 3);
    return text;
  };
  check_text(times3(random_text(30000, 86, 13)), {}, "multiples of 3 uint8", 13, {1, 2, 4, 254});
  check_text(times3(random_text<std::uint16_t>(30000, 21845, 14)), {}, "multiples of 3 uint16", 14, {1, 65534});
  check_text(times3(random_text<std::uint32_t>(30000, 300000, 15)), {}, "multiples of 3 uint32", 15, {1, 899998});
  // A few symbols far apart.
  std::vector<std::uint32_t> far = {7, 1000, 250000, 1000000};
  std::vector<std::uint32_t> text;
  for (const auto c : random_text<std::uint32_t>(5000, 4, 16)) text.push_back(far[c]);
  check_text(text, {}, "four far symbols uint32", 16, {8, 999999, 1048575});
}

TEST(wavelet, given_alphabets) {
  // Symbols 0..9 of an alphabet of 200: 10..199 answer rank 0 and select npos, and so do symbols
  // at or beyond 200.
  check_text(random_text(20000, 10, 17), WaveletOptions{200}, "10 of 200", 17, {10, 100, 199, 200, 255});
  check_text(random_text<std::uint32_t>(20000, 1000, 18), WaveletOptions{5000}, "1000 of 5000", 18, {1000, 4999, 5000});
  check_text(random_text<std::uint16_t>(3000, 3, 19), WaveletOptions{3}, "exactly 3", 19);
  check_text(std::vector<std::uint8_t>{}, WaveletOptions{256}, "empty of 256", 20, {0, 255});
  check_text(std::vector<std::uint8_t>{5}, WaveletOptions{256}, "one of 256", 21, {0, 6});
  // A symbol at or beyond the given size is refused.
  const auto d = to_device(std::vector<std::uint8_t>{1, 2, 200, 3}, "text");
  EXPECT_THROW(Tree<std::uint8_t>(Exec{}, d, WaveletOptions{200}), ktext::InputError);
  EXPECT_THROW(Matrix<std::uint8_t>(Exec{}, d, WaveletOptions{200}), ktext::InputError);
  EXPECT_NO_THROW(Tree<std::uint8_t>(Exec{}, d, WaveletOptions{201}));
  // The tree's node tables take alphabets up to 2^26.
  const auto d32 = to_device(std::vector<std::uint32_t>{1, 2}, "text32");
  EXPECT_THROW(Tree<std::uint32_t>(Exec{}, d32, WaveletOptions{(std::uint64_t(1) << 26) + 1}), ktext::InputError);
}

/// \p w written as a container and read back.
template <class W>
W round_trip(const W& w) {
  std::vector<std::uint8_t> file;
  ktext::write_wavelet(Exec{}, w, [&](const void* p, std::size_t n) {
    file.insert(file.end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + n);
  });
  return ktext::read_wavelet<W>(Exec{}, ktext::container::read_container(file));
}

TEST(wavelet, large_symbols) {
  // Symbols of 2^20 and above have no code table: the distinct symbols, sorted, are the
  // alphabet, found by binary search; the levels are those of sigma, not of the largest symbol.
  for (const std::uint32_t top : {(std::uint32_t(1) << 21) + 5, 4000000000u, ~std::uint32_t(0)}) {
    SCOPED_TRACE(top);
    const std::vector<std::uint32_t> far = {3, std::uint32_t(1) << 20, top};
    std::vector<std::uint32_t> text;
    for (const auto c : random_text<std::uint32_t>(20000, 3, top % 1000)) text.push_back(far[c]);
    const Occurrences occ(text);
    const Queries q = make_queries(text, occ, {0, 4, 1u << 20 | 1, top - 1, ~std::uint32_t(0) - 1}, top % 1000);
    const auto d = to_device(text, "text");
    const Tree<std::uint32_t> tree(Exec{}, d);
    const Matrix<std::uint32_t> matrix(Exec{}, d);
    EXPECT_EQ(tree.alphabet_size(), 3u);
    EXPECT_EQ(matrix.alphabet_size(), 3u);
    EXPECT_TRUE(tree.minimal_alphabet() && matrix.minimal_alphabet());
    EXPECT_EQ(to_host(tree.alphabet_symbols()), far);
    expect_queries(tree, q, "large symbols tree");
    expect_queries(matrix, q, "large symbols matrix");
    // Files keep the sorted symbols; loading searches them the same way.
    expect_queries(round_trip(tree), q, "large symbols tree from a file");
    expect_queries(round_trip(matrix), q, "large symbols matrix from a file");
  }
  // Many distinct large symbols: sigma = 5000 codes for values spread over 2^32.
  std::vector<std::uint32_t> text;
  for (const auto c : random_text<std::uint32_t>(30000, 5000, 24)) text.push_back(c * 858993u + 1048576u);
  const Occurrences occ(text);
  const Queries q = make_queries(text, occ, {0, 1048575, 1048577, ~std::uint32_t(0)}, 24);
  const auto d = to_device(text, "text");
  const Tree<std::uint32_t> tree(Exec{}, d);
  EXPECT_LE(tree.alphabet_size(), 5000u);
  expect_queries(tree, q, "5000 spread symbols tree");
  expect_queries(Matrix<std::uint32_t>(Exec{}, d), q, "5000 spread symbols matrix");
}

/// access, rank and select of a structure called from a user kernel, the position doubling as
/// select's k; access only below n.
template <class W>
struct SingleQueries {
  W w;
  Kokkos::View<const std::uint64_t*, Mem> symbols, positions;
  Kokkos::View<std::uint64_t* [4], Mem> out;
  KOKKOS_FUNCTION void operator()(std::size_t q) const {
    const std::uint64_t c = symbols(q), p = positions(q);
    out(q, 0) = p < w.size() ? std::uint64_t(w.access(p)) : npos;
    out(q, 1) = w.rank(c, p);
    out(q, 2) = w.select(c, p);
    out(q, 3) = w.codes_below(w.code_of(c));
  }
};

template <class W, class S>
void check_single_queries(const std::vector<S>& text, const std::string& what) {
  const W w(Exec{}, to_device(text, "text"));
  const Occurrences occ(text);
  std::mt19937_64 rng(24);
  const std::uint64_t n = text.size();
  U64s symbols, positions;
  for (int s = 0; s < 20000; ++s) {
    symbols.push_back(s % 50 == 0 ? 1000 + rng() % 10 : text[rng() % n]);  // a few absent symbols
    positions.push_back(s % 3 == 0 ? rng() % 200 : rng() % (n + 1));      // small positions double as select's k
  }
  Kokkos::View<std::uint64_t* [4], Mem> out("out", symbols.size());
  Kokkos::parallel_for("ktext::test::wavelet::user_kernel", Kokkos::RangePolicy<Exec>(Exec{}, 0, symbols.size()),
                       SingleQueries<W>{w, to_device(symbols, "symbols"), to_device(positions, "positions"), out});
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  for (std::size_t q = 0; q < symbols.size(); ++q) {
    const std::uint64_t c = symbols[q], p = positions[q];
    ASSERT_EQ(h(q, 0), p < n ? std::uint64_t(text[p]) : npos) << what << " access " << p;
    ASSERT_EQ(h(q, 1), occ.rank(c, p)) << what << " rank " << c << " " << p;
    ASSERT_EQ(h(q, 2), occ.select(c, p)) << what << " select " << c << " " << p;
    // Codes follow the symbols' order; an absent symbol has the code past the last.
    std::uint64_t below = 0;
    for (const auto& [symbol, at] : occ.at) below += symbol < c ? at.size() : 0;
    ASSERT_EQ(h(q, 3), occ.of(c).empty() ? n : below) << what << " codes_below " << c;
  }
}

TEST(wavelet, single_queries_in_a_user_kernel) {
  const auto bytes = random_text(100000, 200, 25);
  check_single_queries<Tree<std::uint8_t>>(bytes, "tree uint8");
  check_single_queries<Matrix<std::uint8_t>>(bytes, "matrix uint8");
  const auto wide = random_text<std::uint32_t>(100000, 900, 26);
  check_single_queries<Tree<std::uint32_t>>(wide, "tree uint32");
  check_single_queries<Matrix<std::uint32_t>>(wide, "matrix uint32");
}

template <class W, class S>
void check_host_views(const std::vector<S>& text, const std::string& what) {
  const W w(Exec{}, to_device(text, "text"));
  const Occurrences occ(text);
  const Queries q = make_queries(text, occ, {}, 27);
  auto check = [&](WaveletQuery op, const Batch& b) {
    for (const auto order : {QueryOrder::as_given, QueryOrder::by_locality}) {
      const std::string how = std::string(W::op_name(op)) + (order == QueryOrder::as_given ? "" : " by locality");
      expect_answers(batched_on_host(w, op, b.a, b.b, order), b.want, what + " host " + how,
                     [&](std::size_t i) { return b.describe(i); });
      expect_answers(batched_on_host<W, Kokkos::SharedHostPinnedSpace>(w, op, b.a, b.b, order), b.want,
                     what + " pinned " + how, [&](std::size_t i) { return b.describe(i); });
    }
  };
  check(WaveletQuery::access, q.access);
  check(WaveletQuery::rank, q.rank);
  check(WaveletQuery::select, q.select);
  EXPECT_TRUE(batched_on_host(w, WaveletQuery::rank, {}, {}).empty());
}

TEST(wavelet, batched_queries_on_host_views) {
  const auto text = random_text<std::uint16_t>(300000, 3000, 28);
  check_host_views<Tree<std::uint16_t>>(text, "tree");
  check_host_views<Matrix<std::uint16_t>>(text, "matrix");
}

/// Batches of a chunk and a part, sorted by locality on every path, against the oracle: every
/// position's symbol, rank at seeded positions, select at seeded k (some beyond the count, some
/// of absent symbols), and the first of two invalid queries named in the error.
template <class W>
void check_sorted_chunks(const std::string& what) {
  const std::uint64_t n = (std::uint64_t(1) << 16) + 723;
  const auto text = random_text(n, 256, 31);
  const W w(Exec{}, to_device(text, "text"));
  const Occurrences occ(text);
  const std::uint64_t count = ktext::impl::host_query_chunk + 1347;
  std::mt19937_64 rng(32);
  Batch access, rank, select;
  for (std::uint64_t q = 0; q < count; ++q) {
    const std::uint64_t p = rng() % n, c = text[rng() % n];
    access.add(p, p, text[p]);
    const std::uint64_t i = rng() % (n + 1);
    rank.add(c, i, occ.rank(c, i));
    const std::uint64_t s = q % 97 == 0 ? 256 + q : c, k = q % 89 == 0 ? occ.of(c).size() + 1 : 1 + rng() % occ.of(c).size();
    select.add(s, k, occ.select(s, k));
  }
  const auto order = QueryOrder::by_locality;
  auto describe = [](const Batch& b) { return [&b](std::size_t i) { return b.describe(i); }; };
  expect_answers(batched(w, WaveletQuery::access, access.a, access.b, order), access.want, what + " access", describe(access));
  expect_answers(batched_on_host(w, WaveletQuery::rank, rank.a, rank.b, order), rank.want, what + " host rank", describe(rank));
  expect_answers(batched_on_host<W, Kokkos::SharedHostPinnedSpace>(w, WaveletQuery::select, select.a, select.b, order),
                 select.want, what + " pinned select", describe(select));
  expect_answers(batched(w, WaveletQuery::select, select.a, select.b, QueryOrder::automatic), select.want,
                 what + " select, automatic order", describe(select));
  // Two positions out of range; the error names the first, whatever order ran them.
  access.a[count - 5] = n;
  access.a[count / 3] = n + 9;
  const std::string first = "query " + std::to_string(count / 3) + " is out of range";
  for (int path = 0; path < 3; ++path) {
    try {
      if (path == 0) batched(w, WaveletQuery::access, access.a, access.b, order);
      if (path == 1) batched_on_host(w, WaveletQuery::access, access.a, access.b, order);
      if (path == 2) batched_on_host<W, Kokkos::SharedHostPinnedSpace>(w, WaveletQuery::access, access.a, access.b, order);
      ADD_FAILURE() << what << ": no error on path " << path;
    } catch (const ktext::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(first), std::string::npos) << what << " path " << path << ": " << e.what();
    }
  }
}

TEST(wavelet, batched_queries_sorted_by_locality_in_chunks) {
  check_sorted_chunks<Tree<std::uint8_t>>("tree");
  check_sorted_chunks<Matrix<std::uint8_t>>("matrix");
}

template <class W>
void check_argument_errors(const std::string& what) {
  const std::uint64_t n = 1000;
  const W w(Exec{}, to_device(random_text(n, 7, 29), "text"));
  auto throws_on = [&](WaveletQuery op, const U64s& a, const U64s& b) {
    EXPECT_THROW(batched(w, op, a, b), ktext::InputError) << what << " " << W::op_name(op) << " on device views";
    EXPECT_THROW(batched_on_host(w, op, a, b), ktext::InputError) << what << " " << W::op_name(op) << " on host views";
  };
  throws_on(WaveletQuery::access, {0, n}, {0, 0});
  throws_on(WaveletQuery::access, {~std::uint64_t(0)}, {0});
  throws_on(WaveletQuery::rank, {1, 1}, {n, n + 1});
  throws_on(WaveletQuery::rank, {1}, {std::uint64_t(1) << 50});
  EXPECT_NO_THROW(batched(w, WaveletQuery::access, U64s{n - 1}, U64s{~std::uint64_t(0)})) << what << ": access ignores b";
  EXPECT_NO_THROW(batched(w, WaveletQuery::rank, U64s{~std::uint64_t(0)}, U64s{n})) << what;
  EXPECT_EQ(batched(w, WaveletQuery::select, U64s{1, ~std::uint64_t(0)}, U64s{~std::uint64_t(0), 1}), U64s(2, npos)) << what;
  // Extents that do not match.
  Kokkos::View<std::uint64_t*, Mem> a("a", 10), b("b", 9), out("out", 10), short_out("short_out", 9);
  EXPECT_THROW(w.query(Exec{}, WaveletQuery::rank, a, b, out), ktext::InputError) << what;
  EXPECT_THROW(w.query(Exec{}, WaveletQuery::select, a, a, short_out), ktext::InputError) << what;
  Kokkos::View<std::uint64_t*, Kokkos::HostSpace> h_a("h_a", 10), h_b("h_b", 11), h_out("h_out", 10);
  EXPECT_THROW(w.query(Exec{}, WaveletQuery::rank, h_a, h_b, h_out), ktext::InputError) << what;
}

TEST(wavelet, batched_queries_check_their_arguments) {
  check_argument_errors<Tree<std::uint8_t>>("tree");
  check_argument_errors<Matrix<std::uint8_t>>("matrix");
}

TEST(wavelet, default_instances_and_space) {
  const std::uint64_t n = 1 << 20;
  const auto text = random_text(n, 256, 30);
  const auto d = to_device(text, "text");
  const Tree<std::uint8_t> wt(d);  // on the default instance of the memory space's execution space
  const Matrix<std::uint8_t> wm(d);
  const U64s ps = {0, 1, n / 2, n - 1};
  Kokkos::View<std::uint64_t*, Mem> out("out", ps.size());
  const auto d_ps = to_device(ps, "ps");
  wt.query(WaveletQuery::access, d_ps, d_ps, out);
  EXPECT_EQ(to_host(out), (U64s{text[0], text[1], text[n / 2], text[n - 1]}));
  wm.query(WaveletQuery::access, d_ps, d_ps, out);
  EXPECT_EQ(to_host(out), (U64s{text[0], text[1], text[n / 2], text[n - 1]}));
  // n log sigma bits, the rank/select directories (under 5%) and small tables.
  for (const std::size_t bytes : {wt.space_bytes(), wm.space_bytes()}) {
    EXPECT_GE(bytes, n);
    EXPECT_LE(double(bytes), 1.05 * double(n) + 65536) << bytes;
  }
}

}  // namespace
