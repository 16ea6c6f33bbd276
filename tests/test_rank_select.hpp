// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// BitVector and RankSelect per backend: rank0/rank1, select0/select1 and access against a naive
// scan and SDSL (bit_vector with rank_support_v5 and select_support_mcl, host builds with
// libsdsl-dev) at every word, 512-bit block and 2^16-bit edge and at k = 0, 1, count, count + 1;
// all-zero, all-one, 10/50/90% and adversarial bit vectors at the pasta sizes 2^k + {0, 7, 723,
// 1347}; the single queries inside a user kernel; batched queries on device and host views
// (several chunks of the host path); argument checks. EliasFano: access and rank inside a
// kernel and the decoded words against the same shapes and sparse ones (1/32, 1/1000, a single
// one, clusters), its space against 2 + log2(n / m) bits per one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <ktext/core/error.hpp>
#include <ktext/succinct/bit_vector.hpp>
#include <ktext/succinct/elias_fano.hpp>
#include <ktext/succinct/rank_select.hpp>

#include "test_inputs.hpp"
#include "test_succinct_helpers.hpp"
#include "test_views.hpp"

#if defined(KTEXT_HAVE_SDSL)
#include <sdsl/bit_vectors.hpp>
#endif

namespace {

using namespace ktext::test;
using BV = ktext::BitVector<Mem>;
using RS = ktext::RankSelect<Mem>;
using ktext::BitQuery;
constexpr std::uint64_t npos = RS::npos;

/// One entry (0 or 1) per bit.
using Bits = std::vector<std::uint8_t>;

// ---------------------------------------------------------------------------------------------
// Bit vectors

Bits density_bits(std::uint64_t n, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution d(density);
  Bits b(n);
  for (auto& x : b) x = d(rng) ? 1 : 0;
  return b;
}

/// 99% of the ones in the last 1% of the positions: that 1% all ones, and one in a hundred of
/// as many ones again spread over the rest (long stretches with no select sample).
Bits tail_bits(std::uint64_t n, std::uint64_t seed) {
  Bits b(n, 0);
  const std::uint64_t tail = std::max<std::uint64_t>(1, n / 100);
  for (std::uint64_t i = n - std::min(tail, n); i < n; ++i) b[i] = 1;
  std::mt19937_64 rng(seed);
  const std::uint64_t head = n - std::min(tail, n);
  for (std::uint64_t k = 0; head > 0 && k < tail / 99; ++k) b[rng() % head] = 1;
  return b;
}

Bits reversed(Bits b) {
  std::reverse(b.begin(), b.end());
  return b;
}

Bits complemented(Bits b) {
  for (auto& x : b) x ^= 1;
  return b;
}

/// The shapes every size is tested with.
std::vector<std::pair<std::string, Bits>> shapes(std::uint64_t n, std::uint64_t seed) {
  return {{"zeros", Bits(n, 0)},
          {"ones", Bits(n, 1)},
          {"density10", density_bits(n, 0.1, seed)},
          {"density50", density_bits(n, 0.5, seed + 1)},
          {"density90", density_bits(n, 0.9, seed + 2)},
          {"ones_at_end", tail_bits(n, seed + 3)},
          {"ones_at_start", reversed(tail_bits(n, seed + 4))},
          {"zeros_at_end", complemented(tail_bits(n, seed + 5))}};
}

// ---------------------------------------------------------------------------------------------
// Oracles

/// Ones in [0, p) for every p of \p ps, by one scan.
std::vector<std::uint64_t> naive_rank1(const Bits& bits, const std::vector<std::uint64_t>& ps) {
  std::vector<std::uint64_t> out(ps.size());
  std::uint64_t i = 0, r = 0;
  for (const std::size_t q : argsort(ps)) {
    for (; i < ps[q]; ++i) r += bits[i];
    out[q] = r;
  }
  return out;
}

/// Position of the k-th \p bit for every k of \p ks (npos for 0 and beyond the count), by one scan.
std::vector<std::uint64_t> naive_select(const Bits& bits, std::uint8_t bit, const std::vector<std::uint64_t>& ks) {
  std::vector<std::uint64_t> out(ks.size());
  std::uint64_t pos = 0, seen = 0;
  for (const std::size_t q : argsort(ks)) {
    const std::uint64_t k = ks[q];
    for (; pos < bits.size() && seen < k; ++pos) seen += bits[pos] == bit;
    out[q] = k != 0 && seen == k ? pos - 1 : npos;
  }
  return out;
}

std::uint64_t ones_in(const Bits& bits) { return std::uint64_t(std::count(bits.begin(), bits.end(), std::uint8_t(1))); }

#if defined(KTEXT_HAVE_SDSL)
/// SDSL's answers for the same queries: rank_support_v5 and select_support_mcl (select only for
/// 1 <= k <= count; SDSL leaves the rest undefined, they get npos).
struct Sdsl {
  sdsl::bit_vector bv;
  explicit Sdsl(const Bits& bits) : bv(bits.size(), 0) {
    for (std::size_t i = 0; i < bits.size(); ++i) bv[i] = bits[i];
  }
  template <std::uint8_t B>
  std::vector<std::uint64_t> rank(const std::vector<std::uint64_t>& ps) const {
    sdsl::rank_support_v5<B> r(&bv);
    std::vector<std::uint64_t> out;
    for (const auto p : ps) out.push_back(r.rank(p));
    return out;
  }
  template <std::uint8_t B>
  std::vector<std::uint64_t> select(const std::vector<std::uint64_t>& ks, std::uint64_t count) const {
    std::vector<std::uint64_t> out(ks.size(), npos);
    if (count == 0) return out;
    sdsl::select_support_mcl<B> s(&bv);
    for (std::size_t q = 0; q < ks.size(); ++q)
      if (ks[q] >= 1 && ks[q] <= count) out[q] = s.select(ks[q]);
    return out;
  }
};
#endif

// ---------------------------------------------------------------------------------------------
// The structure under test

RS build(const Bits& bits) { return RS(Exec{}, BV(Exec{}, to_device(bits, "bits"))); }

/// Batched answers of \p op on device views.
template <class T>
std::vector<std::uint64_t> batched(const RS& rs, BitQuery op, const std::vector<T>& in) {
  auto d_in = to_device(in, "queries");
  Kokkos::View<std::uint64_t*, Mem> out("answers", in.size());
  rs.query(Exec{}, op, d_in, out);
  return to_host(out);
}

/// Checks \p bits at the positions and counts of query_positions / select_counts.
void check_bits(const Bits& bits, const std::string& what, std::uint64_t seed, std::size_t sampled = 20000) {
  const std::uint64_t n = bits.size();
  const RS rs = build(bits);
  const std::uint64_t ones = ones_in(bits);
  ASSERT_EQ(rs.size(), n) << what;
  ASSERT_EQ(rs.count_ones(), ones) << what;
  ASSERT_EQ(rs.count_zeros(), n - ones) << what;

  const auto ps = query_positions(n, sampled, seed);
  const auto want_rank1 = naive_rank1(bits, ps);
  std::vector<std::uint64_t> want_rank0(ps.size());
  for (std::size_t q = 0; q < ps.size(); ++q) want_rank0[q] = ps[q] - want_rank1[q];
  auto at = [&](const std::vector<std::uint64_t>& v) { return [&v](std::size_t q) { return "argument " + std::to_string(v[q]); }; };
  expect_answers(batched(rs, BitQuery::rank1, ps), want_rank1, what + " rank1", at(ps));
  expect_answers(batched(rs, BitQuery::rank0, ps), want_rank0, what + " rank0", at(ps));

  std::vector<std::uint64_t> inside, want_access;
  for (const auto p : ps)
    if (p < n) inside.push_back(p), want_access.push_back(bits[p]);
  expect_answers(batched(rs, BitQuery::access, inside), want_access, what + " access", at(inside));

  // The select counts, and those whose answer is the first one (zero) at or after each edge.
  auto ks1 = select_counts(ones, sampled, seed + 10);
  auto ks0 = select_counts(n - ones, sampled, seed + 11);
  if (n > exhaustive_limit)
    for (std::size_t q = 0; q < ps.size(); ++q) ks1.push_back(want_rank1[q] + 1), ks0.push_back(want_rank0[q] + 1);
  const auto want_select1 = naive_select(bits, 1, ks1);
  const auto want_select0 = naive_select(bits, 0, ks0);
  expect_answers(batched(rs, BitQuery::select1, ks1), want_select1, what + " select1", at(ks1));
  expect_answers(batched(rs, BitQuery::select0, ks0), want_select0, what + " select0", at(ks0));

#if defined(KTEXT_HAVE_SDSL)
  const Sdsl sdsl(bits);
  expect_answers(want_rank1, sdsl.rank<1>(ps), what + " naive rank1 vs SDSL", at(ps));
  expect_answers(batched(rs, BitQuery::rank0, ps), sdsl.rank<0>(ps), what + " rank0 vs SDSL", at(ps));
  expect_answers(batched(rs, BitQuery::select1, ks1), sdsl.select<1>(ks1, ones), what + " select1 vs SDSL", at(ks1));
  expect_answers(batched(rs, BitQuery::select0, ks0), sdsl.select<0>(ks0, n - ones), what + " select0 vs SDSL", at(ks0));
#endif
}

/// Every shape at the sizes 2^k + {0, 7, 723, 1347}, k in [k_begin, k_end).
void pasta_sweep(int k_begin, int k_end) {
  for (int k = k_begin; k < k_end; ++k)
    for (const std::uint64_t extra : {0, 7, 723, 1347}) {
      const std::uint64_t n = (std::uint64_t(1) << k) + extra;
      for (const auto& [name, bits] : shapes(n, 1000 * std::uint64_t(k) + extra))
        if (ktext::test::take_case()) check_bits(bits, name + " n=" + std::to_string(n), n, 4000);
    }
}

// ---------------------------------------------------------------------------------------------
// Tests

TEST(rank_select, select_in_word_matches_a_scan) {
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> words = {1, ~std::uint64_t(0), std::uint64_t(1) << 63, 0x8000000000000001ull, 0x00ff00ff00ff00ffull,
                                      0xff00000000000000ull};
  for (int b = 0; b < 64; ++b) words.push_back(std::uint64_t(1) << b), words.push_back(~(std::uint64_t(1) << b));
  for (int s = 0; s < 2000; ++s) words.push_back(rng() & rng() & (s % 2 ? rng() : ~std::uint64_t(0)));
  for (const std::uint64_t x : words) {
    std::uint64_t r = 0;
    for (int bit = 0; bit < 64; ++bit)
      if ((x >> bit) & 1) ASSERT_EQ(ktext::impl::select_in_word(x, ++r), bit) << std::hex << x << std::dec << " r=" << r;
  }
}

TEST(rank_select, empty_and_tiny) {
  const RS empty = build({});
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(batched(empty, BitQuery::rank1, std::vector<std::uint64_t>{0}), std::vector<std::uint64_t>{0});
  EXPECT_EQ(batched(empty, BitQuery::select1, std::vector<std::uint64_t>{0, 1, 2}), std::vector<std::uint64_t>(3, npos));
  EXPECT_EQ(batched(empty, BitQuery::select0, std::vector<std::uint64_t>{0, 1}), std::vector<std::uint64_t>(2, npos));
  for (const std::uint64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129})
    for (const auto& [name, bits] : shapes(n, n))
      if (ktext::test::take_case()) check_bits(bits, name + " n=" + std::to_string(n), n);
}

TEST(rank_select, pasta_sizes_up_to_2_12) { pasta_sweep(0, 13); }
TEST(rank_select, pasta_sizes_2_13_to_2_16) { pasta_sweep(13, 17); }
TEST(rank_select, pasta_sizes_2_17_to_2_20) { pasta_sweep(17, 21); }

TEST(rank_select, every_position_around_the_l1_edges) {
  // Three L1 ranges and a bit, every position and every k.
  const std::uint64_t n = 3 * 65536 + 1;
  const Bits bits = density_bits(n, 0.5, 17);
  const RS rs = build(bits);
  std::vector<std::uint64_t> all(n + 1);
  for (std::uint64_t p = 0; p <= n; ++p) all[p] = p;
  auto at = [&](std::size_t q) { return "argument " + std::to_string(q); };
  expect_answers(batched(rs, BitQuery::rank1, all), naive_rank1(bits, all), "rank1", at);
  expect_answers(batched(rs, BitQuery::select1, all), naive_select(bits, 1, all), "select1", at);
  expect_answers(batched(rs, BitQuery::select0, all), naive_select(bits, 0, all), "select0", at);
}

TEST(rank_select, large_sampled) {
  const std::uint64_t n = (std::uint64_t(1) << 24) + 723;
  check_bits(density_bits(n, 0.5, 21), "density50 n=2^24+723", 21);
  check_bits(tail_bits(n, 22), "ones_at_end n=2^24+723", 22);
  check_bits(complemented(density_bits(n + 624, 0.02, 23)), "density98 n=2^24+1347", 23);
}

/// Every single query of a RankSelect, called from a user kernel: access, rank1, rank0, and
/// select1/select0 with the position as k.
struct SingleQueries {
  RS rs;
  Kokkos::View<const std::uint64_t*, Mem> args;
  Kokkos::View<std::uint64_t* [5], Mem> out;
  KOKKOS_FUNCTION void operator()(std::size_t q) const {
    const std::uint64_t p = args(q);
    out(q, 0) = p < rs.size() ? (rs.access(p) ? 1 : 0) : (rs.bits()[p - 1] ? 3 : 2);
    out(q, 1) = rs.rank1(p);
    out(q, 2) = rs.rank0(p);
    out(q, 3) = rs.select1(p);
    out(q, 4) = rs.select0(p);
  }
};

TEST(rank_select, single_queries_in_a_user_kernel) {
  const std::uint64_t n = 200003;
  const Bits bits = density_bits(n, 0.3, 5);
  const RS rs = build(bits);
  const auto ps = query_positions(n, 5000, 6);
  const auto d_ps = to_device(ps, "positions");
  Kokkos::View<std::uint64_t* [5], Mem> out("out", ps.size());
  Kokkos::parallel_for("ktext::test::rank_select::user_kernel", Kokkos::RangePolicy<Exec>(Exec{}, 0, ps.size()),
                       SingleQueries{rs, d_ps, out});
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  const auto r1 = naive_rank1(bits, ps);
  const auto s1 = naive_select(bits, 1, ps);
  const auto s0 = naive_select(bits, 0, ps);
  for (std::size_t q = 0; q < ps.size(); ++q) {
    const std::uint64_t p = ps[q];
    ASSERT_EQ(h(q, 0), p < n ? bits[p] : 2u + bits[p - 1]) << p;
    ASSERT_EQ(h(q, 1), r1[q]) << p;
    ASSERT_EQ(h(q, 2), p - r1[q]) << p;
    ASSERT_EQ(h(q, 3), s1[q]) << p;
    ASSERT_EQ(h(q, 4), s0[q]) << p;
  }
}

/// Results of \p op on views in HostSpace (with a device execution space: the chunked path) or
/// in SharedHostPinnedSpace (on a GPU: read and written in place by the kernel).
template <class In, class Out, class Space = Kokkos::HostSpace>
std::vector<std::uint64_t> batched_on_host(const RS& rs, BitQuery op, const std::vector<In>& in) {
  Kokkos::View<In*, Space> h_in("host_queries", in.size());
  Kokkos::View<Out*, Space> h_out("host_answers", in.size());
  std::copy(in.begin(), in.end(), h_in.data());
  rs.query(Exec{}, op, h_in, h_out);
  return std::vector<std::uint64_t>(h_out.data(), h_out.data() + in.size());
}

TEST(rank_select, batched_queries_on_host_views) {
  const std::uint64_t n = 5'000'000;
  const Bits bits = density_bits(n, 0.5, 8);
  const RS rs = build(bits);
  // A chunk of ktext::impl::host_query_chunk per staging slot and a part, so a slot is reused;
  // 32-bit positions and answers.
  const std::size_t count = ktext::impl::staging_slots * ktext::impl::host_query_chunk + 12345;
  std::vector<std::uint32_t> ps(count);
  std::mt19937_64 rng(9);
  for (auto& p : ps) p = std::uint32_t(rng() % (n + 1));
  std::vector<std::uint64_t> ps64(ps.begin(), ps.end());
  auto at = [&](std::size_t q) { return "argument " + std::to_string(ps[q]); };
  const auto want = naive_rank1(bits, ps64);
  expect_answers(batched_on_host<std::uint32_t, std::uint32_t>(rs, BitQuery::rank1, ps), want, "host rank1", at);
  expect_answers(batched(rs, BitQuery::rank1, ps), want, "device rank1", at);
  expect_answers(batched_on_host<std::uint32_t, std::uint32_t, Kokkos::SharedHostPinnedSpace>(rs, BitQuery::rank1, ps),
                 want, "pinned host rank1", at);
  // A bad query in the last chunk is named by its index in the whole batch.
  const std::size_t bad = count - 5;
  const std::uint32_t kept = ps[bad];
  ps[bad] = std::uint32_t(n + 1);
  try {
    (void)batched_on_host<std::uint32_t, std::uint32_t>(rs, BitQuery::rank1, ps);
    ADD_FAILURE() << "no exception";
  } catch (const ktext::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("query " + std::to_string(bad) + " "), std::string::npos) << e.what();
  }
  ps[bad] = kept;
  // A short batch of each other operation.
  ps.resize(100000);
  ps64.resize(100000);
  for (auto& p : ps) p %= std::uint32_t(n);
  std::copy(ps.begin(), ps.end(), ps64.begin());
  std::vector<std::uint64_t> want_access;
  for (const auto p : ps) want_access.push_back(bits[p]);
  expect_answers(batched_on_host<std::uint32_t, std::uint64_t>(rs, BitQuery::access, ps), want_access, "host access", at);
  expect_answers(batched_on_host<std::uint32_t, std::uint64_t>(rs, BitQuery::select1, ps), naive_select(bits, 1, ps64),
                 "host select1", at);
  expect_answers(batched_on_host<std::uint32_t, std::uint64_t>(rs, BitQuery::select0, ps), naive_select(bits, 0, ps64),
                 "host select0", at);
  auto want_rank0 = naive_rank1(bits, ps64);
  for (std::size_t q = 0; q < ps.size(); ++q) want_rank0[q] = ps[q] - want_rank0[q];
  expect_answers(batched_on_host<std::uint32_t, std::uint64_t>(rs, BitQuery::rank0, ps), want_rank0, "host rank0", at);
  // Empty batches.
  EXPECT_TRUE((batched_on_host<std::uint64_t, std::uint64_t>(rs, BitQuery::rank1, {}).empty()));
  EXPECT_TRUE(batched(rs, BitQuery::rank1, std::vector<std::uint64_t>{}).empty());
}

TEST(rank_select, batched_queries_check_their_arguments) {
  const std::uint64_t n = 1000;
  const RS rs = build(density_bits(n, 0.5, 10));
  auto throws_on = [&](BitQuery op, std::vector<std::uint64_t> args) {
    EXPECT_THROW(batched(rs, op, args), ktext::InputError) << RS::op_name(op) << " on device views";
    EXPECT_THROW((batched_on_host<std::uint64_t, std::uint64_t>(rs, op, args)), ktext::InputError)
        << RS::op_name(op) << " on host views";
  };
  throws_on(BitQuery::access, {0, 5, n});
  throws_on(BitQuery::rank1, {n, n + 1});
  throws_on(BitQuery::rank0, {std::uint64_t(1) << 40});
  throws_on(BitQuery::access, {~std::uint64_t(0)});
  // The largest valid arguments pass; select takes any k.
  EXPECT_NO_THROW(batched(rs, BitQuery::access, std::vector<std::uint64_t>{n - 1}));
  EXPECT_NO_THROW(batched(rs, BitQuery::rank1, std::vector<std::uint64_t>{n}));
  EXPECT_EQ(batched(rs, BitQuery::select1, std::vector<std::uint64_t>{~std::uint64_t(0), n + 1}), std::vector<std::uint64_t>(2, npos));
  // The message names the first bad query.
  try {
    batched(rs, BitQuery::rank1, std::vector<std::uint64_t>{1, 2, n + 5, n + 6});
    ADD_FAILURE() << "no exception";
  } catch (const ktext::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("query 2"), std::string::npos) << e.what();
  }
  // Extents that do not match.
  Kokkos::View<std::uint64_t*, Mem> in("in", 10), out("out", 9);
  EXPECT_THROW(rs.query(Exec{}, BitQuery::rank1, in, out), ktext::InputError);
  Kokkos::View<std::uint64_t*, Kokkos::HostSpace> h_in("h_in", 10), h_out("h_out", 11);
  EXPECT_THROW(rs.query(Exec{}, BitQuery::rank1, h_in, h_out), ktext::InputError);
}

/// bit i = i is a multiple of 3 or of 7.
struct ThreeOrSeven {
  KOKKOS_FUNCTION bool operator()(std::uint64_t i) const { return i % 3 == 0 || i % 7 == 0; }
};

TEST(rank_select, bit_vector_construction) {
  for (const std::uint64_t n : {0, 1, 63, 64, 65, 511, 512, 513, 1000, 4097}) {
    const std::string what = "n=" + std::to_string(n);
    // Any non-zero value is a one, for any integer type.
    std::vector<std::uint32_t> values(n);
    Bits want(n);
    for (std::uint64_t i = 0; i < n; ++i) values[i] = std::uint32_t((i * 2654435761u) >> 7) % 5 * 0x10001u, want[i] = values[i] != 0;
    const BV from_values(Exec{}, to_device(values, "values"));
    const BV from_pred = BV::from_predicate(Exec{}, n, ThreeOrSeven{});
    ASSERT_EQ(from_values.size(), n) << what;
    ASSERT_EQ(from_pred.size(), n) << what;
    EXPECT_EQ(BV::word_count(n), (n / 512 + 1) * 8) << what;
    const auto words = to_host(from_values.words());
    const auto pred_words = to_host(from_pred.words());
    ASSERT_EQ(words.size(), BV::word_count(n)) << what;
    ASSERT_EQ(pred_words.size(), BV::word_count(n)) << what;
    for (std::uint64_t i = 0; i < 64 * words.size(); ++i) {
      const bool got = (words[i / 64] >> (i % 64)) & 1, got_pred = (pred_words[i / 64] >> (i % 64)) & 1;
      ASSERT_EQ(got, i < n && want[i]) << what << " bit " << i;
      ASSERT_EQ(got_pred, i < n && (i % 3 == 0 || i % 7 == 0)) << what << " predicate bit " << i;
    }
    EXPECT_EQ(from_values.space_bytes(), 8 * BV::word_count(n)) << what;
    // Wrapping words: too short throws, exactly enough works.
    if (BV::word_count(n) > 0) {
      Kokkos::View<std::uint64_t*, Mem> short_words("short", BV::word_count(n) - 1);
      EXPECT_THROW(BV::from_words(short_words, n), ktext::InputError) << what;
    }
    const BV wrapped = BV::from_words(from_values.words(), n);
    const RS rs(Exec{}, wrapped);
    EXPECT_EQ(rs.count_ones(), ones_in(want)) << what;
  }
  Kokkos::View<std::uint64_t*, Mem> none("none", 0);
  EXPECT_THROW(BV::from_words(none, 0), ktext::InputError);
}

// ---------------------------------------------------------------------------------------------
// EliasFano

using EF = ktext::EliasFano<Mem>;

/// find() at each position: out(q) = 2 * ones before it + its bit.
struct EliasFanoFind {
  EF ef;
  Kokkos::View<const std::uint64_t*, Mem> ps;
  Kokkos::View<std::uint64_t*, Mem> out;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t q) const {
    std::uint64_t before = 0;
    const bool bit = ef.find(ps(q), before);
    out(q) = 2 * before + (bit ? 1 : 0);
  }
};

Bits sparse_bits(std::uint64_t n, std::uint64_t one_in, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Bits b(n, 0);
  for (auto& x : b) x = rng() % one_in == 0 ? 1 : 0;
  return b;
}

/// Runs of 100 ones every 10^4 positions, and nothing else.
Bits clustered_bits(std::uint64_t n) {
  Bits b(n, 0);
  for (std::uint64_t i = 0; i < n; ++i) b[i] = i % 10000 < 100 ? 1 : 0;
  return b;
}

void check_elias_fano(const Bits& bits, const std::string& what, std::uint64_t seed) {
  const std::uint64_t n = bits.size();
  const RS rs = build(bits);
  const EF ef(Exec{}, rs);
  ASSERT_EQ(ef.size(), n) << what;
  ASSERT_EQ(ef.count_ones(), ones_in(bits)) << what;
  std::vector<std::uint64_t> ps;
  for (const auto p : query_positions(n, 20000, seed))
    if (p < n) ps.push_back(p);
  const auto want_rank = naive_rank1(bits, ps);
  const auto d_ps = to_device(ps, "ps");
  Kokkos::View<std::uint64_t*, Mem> out("out", ps.size());
  Kokkos::parallel_for("ktext::test::elias_fano", Kokkos::RangePolicy<Exec>(Exec{}, 0, ps.size()),
                       EliasFanoFind{ef, d_ps, out});
  const auto got = to_host(out);
  for (std::size_t q = 0; q < ps.size(); ++q)
    ASSERT_EQ(got[q], 2 * want_rank[q] + bits[ps[q]]) << what << " at position " << ps[q];
  // The decoded words are the bit vector's, padding included.
  const auto words = to_host(Kokkos::View<const std::uint64_t*, Mem>(ef.to_words(Exec{})));
  const auto want = to_host(rs.bits().words());
  ASSERT_EQ(words, want) << what;
}

TEST(rank_select, elias_fano_shapes_at_pasta_sizes) {
  for (int k = 0; k < 17; k += 2)
    for (const std::uint64_t extra : {0, 7, 723, 1347}) {
      const std::uint64_t n = (std::uint64_t(1) << k) + extra;
      auto cases = shapes(n, 77 * std::uint64_t(k) + extra);
      cases.push_back({"one_in_32", sparse_bits(n, 32, n)});
      cases.push_back({"one_in_1000", sparse_bits(n, 1000, n + 1)});
      Bits single(n, 0);
      single[n / 2] = 1;
      cases.push_back({"single", single});
      cases.push_back({"clusters", clustered_bits(n)});
      for (const auto& [name, bits] : cases)
        if (ktext::test::take_case()) check_elias_fano(bits, name + " n=" + std::to_string(n), n);
    }
}

TEST(rank_select, elias_fano_large_and_space) {
  const std::uint64_t n = (std::uint64_t(1) << 23) + 1347;
  for (const std::uint64_t one_in : {2, 32, 4096}) {
    const Bits bits = sparse_bits(n, one_in, one_in);
    check_elias_fano(bits, "one_in_" + std::to_string(one_in), one_in);
    const EF ef(Exec{}, build(bits));
    const std::uint64_t m = ef.count_ones();
    // b = floor(log2(n / m)); then m b low bits, m + n / 2^b + 1 upper bits, a 64-bit hint
    // per 64 buckets, and a spare word after the packed parts.
    int b = 0;
    while ((std::uint64_t(2) << b) <= n / m) ++b;
    EXPECT_EQ(ef.low_bits(), b) << one_in;
    const std::uint64_t buckets = (n >> b) + 1;
    const std::uint64_t want = ((m * b + 63) / 64 + 1 + (m + buckets + 63) / 64 + 1 + (buckets >> 6) + 1) * 8;
    EXPECT_EQ(ef.space_bytes(), want) << one_in;
    EXPECT_LE(double(ef.space_bytes()) * 8 / double(m), b + 3.2) << one_in;
  }
  EXPECT_EQ(EF().size(), 0u);
}

TEST(rank_select, default_instances_and_space) {
  const std::uint64_t n = (std::uint64_t(1) << 22) + 7;
  const Bits bits = density_bits(n, 0.5, 11);
  const BV bv(Exec{}, to_device(bits, "bits"));
  const RS rs(bv);  // on the default instance of the memory space's execution space
  std::vector<std::uint64_t> ps{0, 1, 4097, n - 1, n};
  Kokkos::View<std::uint64_t*, Mem> out("out", ps.size());
  rs.query(BitQuery::rank1, to_device(ps, "ps"), out);
  EXPECT_EQ(to_host(out), naive_rank1(bits, ps));
  // Bits, 16-bit L2 counts per 512 bits, 64-bit L1 counts per 2^16 and the select samples:
  // under 5% above the bits.
  EXPECT_GE(rs.space_bytes(), n / 8);
  EXPECT_LE(double(rs.space_bytes()), 1.05 * double(n) / 8 + 4096) << rs.space_bytes();
  EXPECT_EQ(std::string(RS::op_name(BitQuery::select0)), "select0");
}

}  // namespace
