// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The enabled backends produce bit-identical suffix arrays, sorts, string sorts, FM-index
// answers and rank/select and wavelet answers on large seeded inputs.
#include <gtest/gtest.h>

#include <ktext/ktext.hpp>
#include <ktext_oracles/string_sets.hpp>
#include <tuple>

#include "test_inputs.hpp"

namespace {

template <class Exec, class T>
Kokkos::View<T*, typename Exec::memory_space> on(const std::vector<T>& v) {
  Kokkos::View<T*, typename Exec::memory_space> d("d", v.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return d;
}

template <class View>
auto host(const View& d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, d);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

template <class Exec>
std::vector<std::int32_t> sa_on(const std::vector<std::uint8_t>& t) {
  auto text = on<Exec>(t);
  Kokkos::View<std::int32_t*, typename Exec::memory_space> sa("sa", t.size());
  ktext::suffix_array(Exec{}, text, sa);
  return host(sa);
}

/// BWT (with the primary index appended) and LCP, both derived from the backend's own SA.
template <class Exec>
std::pair<std::vector<std::uint8_t>, std::vector<std::int32_t>> bwt_lcp_on(const std::vector<std::uint8_t>& t) {
  auto text = on<Exec>(t);
  Kokkos::View<std::int32_t*, typename Exec::memory_space> sa("sa", t.size()), lcp("lcp", t.size());
  Kokkos::View<std::uint8_t*, typename Exec::memory_space> bwt("bwt", t.size());
  ktext::suffix_array(Exec{}, text, sa);
  const std::uint64_t primary = ktext::bwt_from_suffix_array(Exec{}, text, sa, bwt);
  ktext::lcp(Exec{}, text, sa, lcp);
  auto b = host(bwt);
  for (int s = 0; s < 64; s += 8) b.push_back(std::uint8_t(primary >> s));
  return {b, host(lcp)};
}

/// Patterns for an FM-index over \p t: random substrings (mostly long, a few of 2 to 6 symbols),
/// random strings over the text's symbols, the empty pattern and one with an absent byte.
std::pair<std::vector<std::uint8_t>, std::vector<std::int64_t>> fm_patterns(const std::vector<std::uint8_t>& t,
                                                                            std::size_t count, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> bytes;
  std::vector<std::int64_t> offsets = {0};
  auto add = [&](auto begin, auto end) {
    bytes.insert(bytes.end(), begin, end);
    offsets.push_back(std::int64_t(bytes.size()));
  };
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t len = k % 500 == 0 ? 2 + rng() % 5 : 6 + rng() % 35;
    if (k % 4 == 3) {
      std::vector<std::uint8_t> p(len);
      for (auto& c : p) c = t[rng() % t.size()];
      add(p.begin(), p.end());
    } else {
      const std::size_t start = rng() % (t.size() - len + 1);
      add(t.begin() + start, t.begin() + start + len);
    }
  }
  add(t.begin(), t.begin());  // the empty pattern: every position
  const std::uint8_t absent[2] = {t[0], 0xff};
  add(absent, absent + 2);
  return {bytes, offsets};
}

/// Counts, locate offsets and positions, and the index file of an FM-index built on Exec.
template <class Exec, class Index>
std::tuple<std::vector<std::uint64_t>, std::vector<std::int64_t>, std::vector<Index>, std::vector<std::uint8_t>> fm_index_on(
    const std::vector<std::uint8_t>& t, std::uint32_t sample_rate, const std::vector<std::uint8_t>& patterns,
    const std::vector<std::int64_t>& offsets) {
  auto text = on<Exec>(t);
  ktext::FMIndexOptions options;
  options.sample_rate = sample_rate;
  const ktext::FMIndex<typename Exec::memory_space, Index> index(Exec{}, text, options);
  auto p = on<Exec>(patterns);
  auto o = on<Exec>(offsets);
  Kokkos::View<std::uint64_t*, typename Exec::memory_space> counts("counts", offsets.size() - 1);
  index.count(Exec{}, p, o, counts);
  const auto occ = index.locate(Exec{}, p, o);
  std::vector<std::uint8_t> file;
  ktext::write_fm_index(Exec{}, index, [&](const void* bytes, std::size_t n) {
    file.insert(file.end(), static_cast<const std::uint8_t*>(bytes), static_cast<const std::uint8_t*>(bytes) + n);
  });
  return {host(counts), host(occ.offsets), host(occ.positions), file};
}

template <class Tuple>
void expect_same_fm_index(const Tuple& got, const Tuple& want, const char* what) {
  EXPECT_EQ(std::get<0>(got), std::get<0>(want)) << what << ": counts";
  EXPECT_EQ(std::get<1>(got), std::get<1>(want)) << what << ": locate offsets";
  EXPECT_EQ(std::get<2>(got), std::get<2>(want)) << what << ": locate positions";
  EXPECT_TRUE(std::get<3>(got) == std::get<3>(want)) << what << ": index files differ";
}

template <class Exec>
std::vector<std::int64_t> sorted_values_on(const std::vector<std::uint64_t>& keys) {
  std::vector<std::int64_t> idx(keys.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = std::int64_t(i);
  auto k = on<Exec>(keys);
  auto v = on<Exec>(idx);
  ktext::sort_pairs(Exec{}, k, v, 0, 40);
  Exec{}.fence();
  return host(v);
}

TEST(cross_backend, suffix_array_bit_exact) {
  for (const auto& [name, t] : ktext::test::named_texts(1 << 20, 31337)) {
    const auto reference = sa_on<Kokkos::Serial>(t);
#if defined(KOKKOS_ENABLE_OPENMP)
    EXPECT_EQ(sa_on<Kokkos::OpenMP>(t), reference) << name;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    EXPECT_EQ(sa_on<Kokkos::Cuda>(t), reference) << name;
#endif
  }
}

TEST(cross_backend, bwt_and_lcp_bit_exact) {
  for (const auto& [name, t] : ktext::test::named_texts(1 << 16, 4242)) {
    const auto reference = bwt_lcp_on<Kokkos::Serial>(t);
#if defined(KOKKOS_ENABLE_OPENMP)
    EXPECT_EQ(bwt_lcp_on<Kokkos::OpenMP>(t), reference) << name;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    EXPECT_EQ(bwt_lcp_on<Kokkos::Cuda>(t), reference) << name;
#endif
  }
}

TEST(cross_backend, stable_sort_bit_exact) {
  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> keys(3'000'000);
  for (auto& k : keys) k = rng() % 1000003;  // many ties: stability decides the values' order
  const auto reference = sorted_values_on<Kokkos::Serial>(keys);
#if defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_EQ(sorted_values_on<Kokkos::OpenMP>(keys), reference);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  EXPECT_EQ(sorted_values_on<Kokkos::Cuda>(keys), reference);
#endif
}

/// Order and LCP of a string set sorted on Exec.
template <class Exec>
std::pair<std::vector<std::int32_t>, std::vector<std::int64_t>> string_sort_on(const ktext::oracle::StringSet& s) {
  auto chars = on<Exec>(s.chars);
  auto offsets = on<Exec>(s.offsets);
  Kokkos::View<std::int32_t*, typename Exec::memory_space> order("order", s.size());
  Kokkos::View<std::int64_t*, typename Exec::memory_space> lcp("lcp", s.size());
  ktext::string_sort(Exec{}, chars, offsets, order, lcp);
  return {host(order), host(lcp)};
}

TEST(cross_backend, string_sort_bit_exact) {
  for (const auto& [name, s] : ktext::oracle::named_string_sets(200'000, 2024)) {
    const auto reference = string_sort_on<Kokkos::Serial>(s);
    EXPECT_EQ(reference.first, ktext::oracle::stable_sort_order<std::int32_t>(s)) << name;
#if defined(KOKKOS_ENABLE_OPENMP)
    EXPECT_EQ(string_sort_on<Kokkos::OpenMP>(s), reference) << name;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    EXPECT_EQ(string_sort_on<Kokkos::Cuda>(s), reference) << name;
#endif
  }
}

TEST(cross_backend, fm_index_bit_exact) {
  // A DNA-like and a text-like input of about 10^6 symbols, 10^4 patterns each; int32_t at the
  // default sample rate and int64_t at another.
  const auto dna = ktext::test::random_text(1'000'003, 4, 777);
  const auto [dna_patterns, dna_offsets] = fm_patterns(dna, 10'000, 1);
  const auto dna_reference = fm_index_on<Kokkos::Serial, std::int32_t>(dna, 32, dna_patterns, dna_offsets);
  ASSERT_EQ(std::get<0>(dna_reference).size(), dna_offsets.size() - 1);
  EXPECT_EQ(std::get<0>(dna_reference).back(), 0u);                  // the absent byte
  EXPECT_EQ(std::get<0>(dna_reference)[10'000], dna.size() + 1);     // the empty pattern
  EXPECT_GT(std::get<2>(dna_reference).size(), dna.size() + 7'500);  // every substring occurs
  const auto text = ktext::test::random_text(999'999, 26, 778);
  const auto [text_patterns, text_offsets] = fm_patterns(text, 10'000, 2);
  const auto text_reference = fm_index_on<Kokkos::Serial, std::int64_t>(text, 7, text_patterns, text_offsets);
#if defined(KOKKOS_ENABLE_OPENMP)
  expect_same_fm_index(fm_index_on<Kokkos::OpenMP, std::int32_t>(dna, 32, dna_patterns, dna_offsets), dna_reference, "OpenMP dna");
  expect_same_fm_index(fm_index_on<Kokkos::OpenMP, std::int64_t>(text, 7, text_patterns, text_offsets), text_reference,
                       "OpenMP text");
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  expect_same_fm_index(fm_index_on<Kokkos::Cuda, std::int32_t>(dna, 32, dna_patterns, dna_offsets), dna_reference, "Cuda dna");
  expect_same_fm_index(fm_index_on<Kokkos::Cuda, std::int64_t>(text, 7, text_patterns, text_offsets), text_reference,
                       "Cuda text");
#endif
}

/// Seeded queries over \p n positions: mostly uniform, some at the 512-bit block edges, and
/// arguments one past the end (n + 1 as select's k).
std::vector<std::uint64_t> succinct_arguments(std::uint64_t n, std::uint64_t bound, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(count);
  for (std::size_t q = 0; q < count; ++q) v[q] = q % 7 == 0 ? std::min<std::uint64_t>(rng() % (n / 512 + 1) * 512, bound) : rng() % (bound + 1);
  return v;
}

/// Every batched operation of a RankSelect built on Exec over \p bits, answers concatenated,
/// with the structure's size in bytes and its number of ones.
template <class Exec>
std::vector<std::uint64_t> rank_select_on(const std::vector<std::uint8_t>& bits) {
  const std::uint64_t n = bits.size();
  const ktext::RankSelect<typename Exec::memory_space> rs(Exec{}, ktext::BitVector<typename Exec::memory_space>(Exec{}, on<Exec>(bits)));
  std::vector<std::uint64_t> all = {rs.count_ones(), rs.space_bytes()};
  const auto positions = on<Exec>(succinct_arguments(n, n, 1'000'000, 11));
  const auto inside = on<Exec>(succinct_arguments(n, n - 1, 1'000'000, 12));
  const auto ks = on<Exec>(succinct_arguments(n, n + 1, 1'000'000, 13));
  Kokkos::View<std::uint64_t*, typename Exec::memory_space> out("out", 1'000'000);
  for (const auto op : {ktext::BitQuery::access, ktext::BitQuery::rank0, ktext::BitQuery::rank1, ktext::BitQuery::select0,
                        ktext::BitQuery::select1}) {
    rs.query(Exec{}, op, op == ktext::BitQuery::access ? inside : op == ktext::BitQuery::rank0 || op == ktext::BitQuery::rank1 ? positions : ks, out);
    const auto h = host(out);
    all.insert(all.end(), h.begin(), h.end());
  }
  return all;
}

/// Access, rank and select answers of a wavelet structure W built on Exec over \p text.
template <class Exec, template <class, class> class W, class S>
std::vector<std::uint64_t> wavelet_on(const std::vector<S>& text, std::uint64_t sigma) {
  const std::uint64_t n = text.size();
  const W<typename Exec::memory_space, S> w(Exec{}, on<Exec>(text));
  std::vector<std::uint64_t> all = {w.alphabet_size(), std::uint64_t(w.levels()), w.space_bytes()};
  const auto symbols = on<Exec>(succinct_arguments(sigma, sigma, 500'000, 14));
  const auto positions = on<Exec>(succinct_arguments(n, n, 500'000, 15));
  const auto inside = on<Exec>(succinct_arguments(n, n - 1, 500'000, 16));
  const auto ks = on<Exec>(succinct_arguments(n / sigma, 2 * n / sigma, 500'000, 17));
  Kokkos::View<std::uint64_t*, typename Exec::memory_space> out("out", 500'000);
  for (const auto op : {ktext::WaveletQuery::access, ktext::WaveletQuery::rank, ktext::WaveletQuery::select}) {
    if (op == ktext::WaveletQuery::access)
      w.query(Exec{}, op, inside, inside, out);
    else
      w.query(Exec{}, op, symbols, op == ktext::WaveletQuery::rank ? positions : ks, out);
    const auto h = host(out);
    all.insert(all.end(), h.begin(), h.end());
  }
  return all;
}

TEST(cross_backend, rank_select_bit_exact) {
  for (const double density : {0.01, 0.5, 0.97}) {
    std::mt19937_64 rng(std::uint64_t(density * 1000));
    std::bernoulli_distribution d(density);
    std::vector<std::uint8_t> bits(1'000'003);
    for (auto& b : bits) b = d(rng);
    const auto reference = rank_select_on<Kokkos::Serial>(bits);
#if defined(KOKKOS_ENABLE_OPENMP)
    EXPECT_TRUE(rank_select_on<Kokkos::OpenMP>(bits) == reference) << "OpenMP density " << density;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    EXPECT_TRUE(rank_select_on<Kokkos::Cuda>(bits) == reference) << "Cuda density " << density;
#endif
  }
}

template <template <class, class> class W>
void expect_same_wavelet(const char* what) {
  const auto bytes = ktext::test::random_text(1'000'003, 256, 91);
  const auto wide = ktext::test::random_text<std::uint32_t>(300'007, 70'000, 92);
  const auto reference = wavelet_on<Kokkos::Serial, W>(bytes, 256);
  const auto wide_reference = wavelet_on<Kokkos::Serial, W>(wide, 70'000);
#if defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_TRUE((wavelet_on<Kokkos::OpenMP, W>(bytes, 256) == reference)) << what << " OpenMP bytes";
  EXPECT_TRUE((wavelet_on<Kokkos::OpenMP, W>(wide, 70'000) == wide_reference)) << what << " OpenMP uint32";
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  EXPECT_TRUE((wavelet_on<Kokkos::Cuda, W>(bytes, 256) == reference)) << what << " Cuda bytes";
  EXPECT_TRUE((wavelet_on<Kokkos::Cuda, W>(wide, 70'000) == wide_reference)) << what << " Cuda uint32";
#endif
}

TEST(cross_backend, wavelet_tree_bit_exact) { expect_same_wavelet<ktext::WaveletTree>("WaveletTree"); }
TEST(cross_backend, wavelet_matrix_bit_exact) { expect_same_wavelet<ktext::WaveletMatrix>("WaveletMatrix"); }

}  // namespace
