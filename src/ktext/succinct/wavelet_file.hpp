// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file wavelet_file.hpp
/// \brief Wavelet tree and wavelet matrix files: ktext containers (core/container.hpp) of kind
/// wavelet_tree or wavelet_matrix.
///
/// Contents:
/// - metadata: n, symbol_width (1, 2 or 4 bytes), alphabet_size sigma, alphabet_dense (1: a
///   minimal alphabet, its symbols stored; 0: the codes are the symbols 0..sigma-1);
/// - section 'levels' (width 8): the levels' bits as level_words() holds them, level after
///   level, each level padded with zero bits to whole 512-bit blocks, then one zero block;
/// - section 'alphabet' (width = symbol_width), when dense: the sigma symbols, ascending.
/// The rank directories are not stored: loading rebuilds them from the bits (one pass).
///
/// Loading checks the container and then the structure: metadata in range, the alphabet
/// strictly ascending within the symbol width, the section sizes, and every padding bit zero.
/// For a tree it derives each node's size from the bits above it (so the level lengths and the
/// symbol counts follow from the bits and cannot disagree with them). Any file that passes
/// these checks is the tree or matrix of exactly one sequence: no stored value can send a query
/// outside the structure. Every failure throws ktext::FormatError with a one-line reason.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "ktext/core/allocate.hpp"
#include "ktext/core/container.hpp"
#include "ktext/core/range.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/little_endian.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/succinct/wavelet_matrix.hpp"
#include "ktext/succinct/wavelet_tree.hpp"

namespace ktext {

/// \brief What a wavelet container says about its structure, after wavelet_file_check().
struct WaveletFileInfo {
  container::Kind kind = container::Kind::wavelet_tree;
  std::uint64_t n = 0;
  std::uint32_t symbol_width = 1;  ///< bytes per symbol
  std::uint64_t sigma = 0;         ///< alphabet size
  bool dense = false;              ///< a minimal alphabet, its symbols stored
  int levels = 0;
  std::vector<std::uint64_t> symbols;       ///< the stored alphabet (dense), ascending
  std::vector<std::uint64_t> level_lengths;  ///< bits of every level
  std::vector<std::uint64_t> counts;         ///< tree: C, the cumulative code counts (sigma + 1)
  std::vector<std::uint64_t> words;          ///< the levels' bits, decoded
};

namespace impl {

template <class Structure>
struct wavelet_kind;
template <class M, class S>
struct wavelet_kind<WaveletTree<M, S>> {
  static constexpr container::Kind value = container::Kind::wavelet_tree;
};
template <class M, class S>
struct wavelet_kind<WaveletMatrix<M, S>> {
  static constexpr container::Kind value = container::Kind::wavelet_matrix;
};

}  // namespace impl

/// \brief Checks a verified wavelet_tree or wavelet_matrix container completely (see the file
/// comment) and decodes it on the host.
/// \throws FormatError naming the first inconsistency.
inline WaveletFileInfo wavelet_file_check(const container::Container& c) {
  namespace kc = container;
  auto fail = [](const std::string& why) { throw FormatError(why); };
  if (c.kind != kc::Kind::wavelet_tree && c.kind != kc::Kind::wavelet_matrix)
    fail("this is a " + kc::kind_name(std::uint32_t(c.kind)) + " file, expected a wavelet tree or matrix");
  WaveletFileInfo info;
  info.kind = c.kind;
  const bool tree = c.kind == kc::Kind::wavelet_tree;
  info.n = c.require_meta(kc::kMetaN);
  const std::uint64_t width = c.require_meta(kc::kMetaSymbolWidth);
  info.sigma = c.require_meta(kc::kMetaAlphabetSize);
  const std::uint64_t dense = c.require_meta(kc::kMetaAlphabetDense);
  if (width != 1 && width != 2 && width != 4) fail("symbol width " + std::to_string(width) + " is not 1, 2 or 4");
  info.symbol_width = std::uint32_t(width);
  if (dense > 1) fail("alphabet_dense is " + std::to_string(dense) + ", not 0 or 1");
  info.dense = dense == 1;
  if (info.n >= (std::uint64_t(1) << 56)) fail("n = " + std::to_string(info.n) + " is implausible");
  const std::uint64_t symbol_values = std::uint64_t(1) << (8 * width);
  if (info.sigma > symbol_values)
    fail("alphabet size " + std::to_string(info.sigma) + " exceeds the " + std::to_string(width) + "-byte symbols");
  if (info.n > 0 && info.sigma == 0) fail("a sequence of " + std::to_string(info.n) + " symbols has an empty alphabet");
  if (tree && info.sigma > (std::uint64_t(1) << 26)) fail("alphabet size " + std::to_string(info.sigma) + " is above a tree's 2^26");
  info.levels = impl::code_bits(info.sigma);

  if (info.dense) {
    const kc::Section& a = c.require(kc::kSectionAlphabet);
    if (a.element_width != width || a.size != info.sigma * width)
      fail("section 'alphabet' holds " + std::to_string(a.size) + " bytes of width " + std::to_string(a.element_width) +
           "; " + std::to_string(info.sigma) + " symbols of width " + std::to_string(width) + " need " +
           std::to_string(info.sigma * width));
    info.symbols.resize(info.sigma);
    for (std::uint64_t k = 0; k < info.sigma; ++k) {
      info.symbols[k] = little_endian::load(a.data + k * width, int(width));
      if (k > 0 && info.symbols[k] <= info.symbols[k - 1]) fail("section 'alphabet' is not strictly ascending");
    }
  } else if (c.find(kc::kSectionAlphabet)) {
    fail("section 'alphabet' is present, but alphabet_dense is 0");
  }

  // The level lengths: n on every level of a matrix; for a tree, from the node sizes, which the
  // bits of the level above give (checked against the section's size as they are found).
  const kc::Section& levels = c.require(kc::kSectionLevels);
  if (levels.element_width != 8 || levels.size % 8 != 0)
    fail("section 'levels' has width " + std::to_string(levels.element_width) + " and " + std::to_string(levels.size) +
         " bytes; it holds 64-bit words");
  const std::uint64_t available = levels.size / 8;
  auto words_for = [&](std::uint64_t bits) { return BitVector<Kokkos::HostSpace>::word_count(bits); };
  if (tree) {
    // A bound before decoding: every level holds at most n bits.
    if (available > words_for(impl::level_stride(info.n) * std::uint64_t(info.levels)))
      fail("section 'levels' holds " + std::to_string(available) + " words, more than n = " + std::to_string(info.n) +
           " symbols need");
  } else if (available != words_for(impl::level_stride(info.n) * std::uint64_t(info.levels))) {
    fail("section 'levels' holds " + std::to_string(available) + " words; " + std::to_string(info.levels) +
         " levels of n = " + std::to_string(info.n) + " need " +
         std::to_string(words_for(impl::level_stride(info.n) * std::uint64_t(info.levels))));
  }
  info.words.resize(available);
  little_endian::decode(info.words.data(), levels.data, available, 8);
  std::vector<std::uint64_t> before(available + 1, 0);  // ones before each word
  for (std::uint64_t w = 0; w < available; ++w) before[w + 1] = before[w] + std::uint64_t(impl::popcount64_host(info.words[w]));
  auto ones = [&](std::uint64_t bit) {  // ones before global bit position \p bit (<= 64 * available)
    const std::uint64_t w = bit >> 6, r = bit & 63;
    return before[w] + (r ? std::uint64_t(impl::popcount64_host(info.words[w] << (64 - r))) : 0);
  };

  std::uint64_t offset = 0;
  if (tree) {
    info.counts.assign(info.sigma + 1, 0);
    const auto nodes = impl::wavelet_tree_nodes(info.sigma);
    // Ranges [start, end) of the level's nodes; a leaf's start is its code's C.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    if (!nodes.empty()) ranges.push_back({0, info.n});
    for (std::size_t l = 0; l < nodes.size(); ++l) {
      const std::uint64_t length = ranges.back().second;  // the nodes tile [0, length)
      info.level_lengths.push_back(length);
      if (words_for(offset + length) > available)
        fail("section 'levels' ends inside level " + std::to_string(l) + " (" + std::to_string(available) + " words)");
      std::vector<std::pair<std::uint64_t, std::uint64_t>> next;
      for (std::size_t j = 0; j < nodes[l].size(); ++j) {
        const auto [lo, hi] = nodes[l][j];
        const auto [start, end] = ranges[j];
        const std::uint64_t mid = impl::wavelet_split(lo, hi);
        const std::uint64_t zeros = (end - start) - (ones(offset + end) - ones(offset + start));
        if (mid - lo >= 2)
          next.push_back({start, start + zeros});
        else
          info.counts[lo] = start;
        if (hi - mid >= 2)
          next.push_back({start + zeros, end});
        else
          info.counts[mid] = start + zeros;
      }
      offset += impl::level_stride(length);
      ranges = std::move(next);
    }
    info.counts[info.sigma] = info.n;
    if (available != words_for(offset))
      fail("section 'levels' holds " + std::to_string(available) + " words; the tree's levels need " +
           std::to_string(words_for(offset)));
  } else {
    info.level_lengths.assign(std::size_t(info.levels), info.n);
  }

  // Padding: every bit past a level's length up to the next level, and the spare block.
  offset = 0;
  for (int l = 0; l < int(info.level_lengths.size()); ++l) {
    const std::uint64_t end = offset + impl::level_stride(info.level_lengths[l]);
    if (ones(end) - ones(offset + info.level_lengths[l]) != 0)
      fail("section 'levels' has bits set in the padding of level " + std::to_string(l));
    offset = end;
  }
  if (before[available] - ones(offset) != 0) fail("section 'levels' has bits set past the last level");
  return info;
}

/// \brief Streams \p structure (a WaveletTree or WaveletMatrix) as a container through
/// \p sink(const void*, std::size_t). Copies its parts to the host first, on \p exec: waits.
/// \throws OutOfMemoryError when the host copies do not fit; whatever \p sink throws.
template <class ExecSpace, class Structure, class Sink>
void write_wavelet(const ExecSpace& exec, const Structure& structure, Sink&& sink) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::write_wavelet: first argument must be an execution space");
  namespace kc = container;
  using Symbol = typename Structure::symbol_type;
  impl::translate_out_of_memory("ktext::write_wavelet", [&] {
    const auto h_words = impl::host_copy(exec, structure.level_words(), "ktext::write_wavelet::host_words");
    const auto h_symbols = impl::host_copy(exec, structure.alphabet_symbols(), "ktext::write_wavelet::host_symbols");
    exec.fence("ktext::write_wavelet: parts on the host");
    std::vector<std::uint8_t> words(h_words.extent(0) * 8), symbols(h_symbols.extent(0) * sizeof(Symbol));
    little_endian::encode(words.data(), h_words.data(), h_words.extent(0), 8);
    for (std::size_t k = 0; k < h_symbols.extent(0); ++k)
      little_endian::store(symbols.data() + k * sizeof(Symbol), h_symbols(k), int(sizeof(Symbol)));
    kc::Writer writer(impl::wavelet_kind<Structure>::value);
    const bool dense = structure.minimal_alphabet();
    writer.set_meta(kc::kMetaN, structure.size());
    writer.set_meta(kc::kMetaSymbolWidth, sizeof(Symbol));
    writer.set_meta(kc::kMetaAlphabetSize, structure.alphabet_size());
    writer.set_meta(kc::kMetaAlphabetDense, dense ? 1 : 0);
    writer.add_section(kc::kSectionLevels, words.data(), words.size(), 8);
    if (dense) writer.add_section(kc::kSectionAlphabet, symbols.data(), symbols.size(), sizeof(Symbol));
    writer.write(sink);
  });
}

/// \brief As above on the default instance of the structure's memory space's execution space.
template <class Structure, class Sink, class = std::enable_if_t<!Kokkos::is_execution_space_v<Structure>>>
void write_wavelet(const Structure& structure, Sink&& sink) {
  write_wavelet(typename Structure::memory_space::execution_space{}, structure, std::forward<Sink>(sink));
}

namespace impl {
/// codes_below(code) of a wavelet matrix, as a one-iteration reduction.
template <class Matrix>
struct CodesBelow {
  Matrix wm;
  std::uint64_t code;
  KOKKOS_FUNCTION void operator()(std::uint64_t, std::uint64_t& count) const { count += wm.codes_below(code); }
};
}  // namespace impl

/// \brief Loads a WaveletTree or WaveletMatrix (\p Structure, whose memory space \p exec can
/// reach) from a verified container of its kind. Waits.
/// \throws FormatError when the file is of another kind or symbol width, or inconsistent;
///         OutOfMemoryError.
template <class Structure, class ExecSpace>
Structure read_wavelet(const ExecSpace& exec, const container::Container& c) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::read_wavelet: first argument must be an execution space");
  using Mem = typename Structure::memory_space;
  using Symbol = typename Structure::symbol_type;
  namespace kc = container;
  constexpr kc::Kind kind = impl::wavelet_kind<Structure>::value;
  if (c.kind != kind)
    throw FormatError("this is a " + kc::kind_name(std::uint32_t(c.kind)) + " file, expected " +
                      kc::kind_name(std::uint32_t(kind)));
  const WaveletFileInfo info = wavelet_file_check(c);
  if (info.symbol_width != sizeof(Symbol))
    throw FormatError("the file holds " + std::to_string(info.symbol_width) + "-byte symbols, expected " +
                      std::to_string(sizeof(Symbol)));
  return impl::translate_out_of_memory("ktext::read_wavelet", [&] {
    const auto alphabet =
        impl::wavelet_alphabet_from_symbols<Mem>(exec, info.symbols, info.sigma, info.dense, "ktext::read_wavelet");
    using Unmanaged = Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    const auto words = impl::uninitialized_view<std::uint64_t, Mem>(exec, "ktext::read_wavelet::bits", info.words.size());
    Kokkos::deep_copy(exec, words, Unmanaged(info.words.data(), info.words.size()));
    if constexpr (kind == kc::Kind::wavelet_matrix) {
      const auto wm = impl::WaveletMatrixBuild<Mem>::template from_parts<Symbol>(exec, alphabet, words, info.n);
      // The levels may spell codes up to 2^levels - 1; those past the alphabet have no symbol.
      std::uint64_t below = 0;
      Kokkos::parallel_reduce("ktext::read_wavelet::codes_below", impl::Range<ExecSpace>(exec, 0, 1),
                              impl::CodesBelow<Structure>{wm, info.sigma}, below);
      if (below != info.n)
        throw FormatError("the levels spell " + std::to_string(info.n - below) + " codes beyond the alphabet of " +
                          std::to_string(info.sigma) + " symbols");
      return wm;
    } else {
      const auto counts = impl::uninitialized_view<std::uint64_t, Mem>(exec, "ktext::read_wavelet::counts", info.counts.size());
      Kokkos::deep_copy(exec, counts, Unmanaged(info.counts.data(), info.counts.size()));
      return impl::WaveletTreeBuild<Mem>::template from_parts<Symbol>(exec, alphabet, words, info.n, info.level_lengths,
                                                                      counts);
    }
  });
}

/// \brief read_container() for \p Structure's kind, then read_wavelet().
template <class Structure, class ExecSpace>
Structure read_wavelet(const ExecSpace& exec, const std::uint8_t* data, std::size_t size) {
  const container::Container c = container::read_container(data, size, impl::wavelet_kind<Structure>::value);
  return read_wavelet<Structure>(exec, c);
}

}  // namespace ktext
