// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file wavelet_tree.hpp
/// \brief Level-wise wavelet tree \cite GrossiGuptaVitter2003 in the GPU layout of
/// \cite FranzrebBurtscherRudolph2025, which answers access, rank and select in O(log sigma) steps.
///
/// Level l holds, for every symbol whose code is longer than l bits, bit l of its code, with the
/// symbols ordered by their first l bits (node by node). The layout is "extended": a node's
/// start on its level is the cumulative count C[lo] of the codes below its first code, so node
/// boundaries need no rank queries, and each node's rank at its start is precomputed.
///
/// Codes are reduced for alphabets that are not powers of two: a node over codes [lo, hi)
/// splits at lo + 2^(ceil(log2(hi - lo)) - 1), so a node never stores a bit that is the same for
/// all its symbols, and the last symbols of an alphabet just above a power of two get shorter
/// codes. Left children are complete trees, so the symbols whose codes have ended always sit at
/// the end of a level: level l stores the bits of its first n_l positions only.
///
/// Each level is built from the previous one by a stable partition inside every node, from the
/// level's bits and a scan of their per-word counts; the text is never re-sorted. The build moves
/// each symbol's path code (WaveletTreeShape), so a level costs what a wavelet matrix level
/// costs. Node tables take 16 bytes per symbol (24 while building), so the tree takes alphabets
/// of up to 2^26 symbols; WaveletMatrix has no such tables.

#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/histogram.hpp"
#include "ktext/succinct/impl/ktext_wavelet_levels.hpp"
#include "ktext/succinct/rank_select.hpp"

namespace ktext {

template <class MemorySpace, class Symbol>
class WaveletTree;

namespace impl {
template <class MemorySpace>
struct WaveletTreeBuild;

/// Where a node over codes [lo, hi) (hi - lo >= 2) splits: its left child is complete.
KOKKOS_INLINE_FUNCTION std::uint64_t wavelet_split(std::uint64_t lo, std::uint64_t hi) {
  const int k = 64 - countl_zero64(hi - lo - 1);
  return lo + (std::uint64_t(1) << (k - 1));
}
}  // namespace impl

/// \brief Wavelet tree over symbols of type \p Symbol (uint8_t, uint16_t or uint32_t).
/// \tparam MemorySpace where it lives; queries run on execution spaces that can read it.
template <class MemorySpace, class Symbol = std::uint8_t>
class WaveletTree {
  static_assert(Kokkos::is_memory_space_v<MemorySpace>, "ktext::WaveletTree: MemorySpace must be a Kokkos memory space");
  static_assert(std::is_same_v<Symbol, std::uint8_t> || std::is_same_v<Symbol, std::uint16_t> ||
                    std::is_same_v<Symbol, std::uint32_t>,
                "ktext::WaveletTree: Symbol must be uint8_t, uint16_t or uint32_t");

 public:
  using memory_space = MemorySpace;
  using symbol_type = Symbol;
  static constexpr std::uint64_t npos = RankSelect<MemorySpace>::npos;
  /// \brief Largest alphabet the tree takes (its node tables grow with sigma).
  static constexpr std::uint64_t max_alphabet = std::uint64_t(1) << 26;
  static constexpr int max_levels = 32;

  WaveletTree() = default;

  /// \brief Builds the tree of \p text (a rank-1 view of Symbol accessible from \p exec). Waits.
  /// \throws InputError for a symbol outside options.alphabet_size or an alphabet above
  ///         max_alphabet; OutOfMemoryError.
  /// \complexity O(n log sigma) work in ceil(log2 sigma) passes.
  template <class ExecSpace, class TextView>
  WaveletTree(const ExecSpace& exec, const TextView& text, const WaveletOptions& options = {}) {
    static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::WaveletTree: first argument must be an execution space");
    static_assert(impl::is_rank1_view_v<TextView> && impl::accessible_from_v<ExecSpace, TextView>,
                  "ktext::WaveletTree: text must be a rank-1 view accessible from the execution space");
    static_assert(std::is_same_v<typename TextView::non_const_value_type, Symbol>,
                  "ktext::WaveletTree: the text must hold Symbol values");
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                  "ktext::WaveletTree: MemorySpace must be accessible from the execution space");
    if (options.alphabet_size > max_alphabet)
      throw InputError("ktext::WaveletTree: alphabet size " + std::to_string(options.alphabet_size) +
                       " is above 2^26; use ktext::WaveletMatrix");
    impl::translate_out_of_memory("ktext::WaveletTree", [&] {
      Kokkos::View<std::uint64_t*, MemorySpace> symbol_counts;
      alphabet_ = impl::wavelet_alphabet<MemorySpace>(exec, text, options, "ktext::WaveletTree", &symbol_counts);
      if (alphabet_.sigma > max_alphabet)
        throw InputError("ktext::WaveletTree: the text's alphabet needs " + std::to_string(alphabet_.sigma) +
                         " codes (one per distinct symbol), more than 2^26; use ktext::WaveletMatrix");
      impl::WaveletTreeBuild<MemorySpace>::build(exec, text, symbol_counts, *this);
    });
  }

  /// \brief As above on the default instance of MemorySpace's execution space.
  template <class TextView, class = std::enable_if_t<Kokkos::is_view_v<TextView>>>
  explicit WaveletTree(const TextView& text, const WaveletOptions& options = {})
      : WaveletTree(typename MemorySpace::execution_space{}, text, options) {}

  /// \brief Sequence length n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t size() const { return n_; }
  /// \brief Alphabet size: distinct symbols (minimal alphabet) or the given size.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t alphabet_size() const { return alphabet_.sigma; }
  /// \brief Number of levels: the longest code, ceil(log2 sigma).
  [[nodiscard]] KOKKOS_INLINE_FUNCTION int levels() const { return levels_; }
  /// \brief Bytes held in the memory space.
  [[nodiscard]] std::size_t space_bytes() const {
    return rs_.space_bytes() + (counts_.span() + node_ranks_.span() + level_info_.span()) * 8 + alphabet_.bytes();
  }

  /// \brief The levels' bits, level after level, each padded to whole 512-bit blocks (for files).
  [[nodiscard]] Kokkos::View<const std::uint64_t*, MemorySpace> level_words() const { return rs_.bits().words(); }
  /// \brief Whether the codes number the symbols that occur (a minimal alphabet) rather than
  /// being the symbols themselves.
  [[nodiscard]] bool minimal_alphabet() const { return alphabet_.dense; }
  /// \brief The symbols of a minimal alphabet in code order; empty when codes are the symbols.
  [[nodiscard]] Kokkos::View<const std::uint32_t*, MemorySpace> alphabet_symbols() const {
    return alphabet_.dense ? alphabet_.map.symbols : Kokkos::View<const std::uint32_t*, MemorySpace>();
  }

  /// \brief Code (0..sigma-1) of \p symbol, or alphabet_size() when it has none.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t code_of(std::uint64_t symbol) const { return alphabet_.code(symbol); }
  /// \brief Symbol of code \p code < alphabet_size().
  [[nodiscard]] KOKKOS_INLINE_FUNCTION Symbol symbol_of(std::uint64_t code) const { return Symbol(alphabet_.symbol(code)); }

  /// \brief Symbol at position \p i < n.
  /// \complexity O(log sigma) rank queries.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION Symbol access(std::uint64_t i) const {
    std::uint64_t lo = 0, hi = alphabet_.sigma, p = 0, pos = i;
    for (int l = 0; hi - lo >= 2; ++l) {
      const std::uint64_t mid = impl::wavelet_split(lo, hi);
      const std::uint64_t start = level_offset(l) + counts_(lo);
      const std::uint64_t before = node_ranks_(node_index(l, p));
      const bool bit = rs_.access(start + pos);
      const std::uint64_t ones = rs_.rank1(start + pos) - before;
      pos = bit ? ones : pos - ones;
      (bit ? lo : hi) = mid;
      p = 2 * p + (bit ? 1 : 0);
    }
    return symbol_of(lo);
  }

  /// \brief Occurrences of code \p code (< sigma) in [0, i), i <= n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t rank_code(std::uint64_t code, std::uint64_t i) const {
    std::uint64_t lo = 0, hi = alphabet_.sigma, p = 0, pos = i;
    for (int l = 0; hi - lo >= 2; ++l) {
      const std::uint64_t mid = impl::wavelet_split(lo, hi);
      const std::uint64_t start = level_offset(l) + counts_(lo);
      const std::uint64_t ones = rs_.rank1(start + pos) - node_ranks_(node_index(l, p));
      const bool bit = code >= mid;
      pos = bit ? ones : pos - ones;
      (bit ? lo : hi) = mid;
      p = 2 * p + (bit ? 1 : 0);
    }
    return pos;
  }
  /// \brief Occurrences of \p symbol in [0, i), i <= n; 0 for a symbol outside the alphabet.
  /// \complexity O(log sigma) rank queries.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t rank(std::uint64_t symbol, std::uint64_t i) const {
    const std::uint64_t code = code_of(symbol);
    return code < alphabet_.sigma ? rank_code(code, i) : 0;
  }

  /// \brief Position of the k-th occurrence (k from 1) of \p symbol, or npos when there is none.
  /// \complexity O(log sigma) select queries, after one rank.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t select(std::uint64_t symbol, std::uint64_t k) const {
    const std::uint64_t code = code_of(symbol);
    if (code >= alphabet_.sigma || k == 0 || k > rank_code(code, n_)) return npos;
    // The path from the root: each node's start on its level, its rank there, and the branch.
    std::uint64_t starts[max_levels], befores[max_levels];
    bool bits[max_levels];
    std::uint64_t lo = 0, hi = alphabet_.sigma, p = 0;
    int depth = 0;
    for (; hi - lo >= 2; ++depth) {
      const std::uint64_t mid = impl::wavelet_split(lo, hi);
      starts[depth] = level_offset(depth) + counts_(lo);
      befores[depth] = node_ranks_(node_index(depth, p));
      bits[depth] = code >= mid;
      (bits[depth] ? lo : hi) = mid;
      p = 2 * p + (bits[depth] ? 1 : 0);
    }
    std::uint64_t pos = k - 1;
    for (int l = depth - 1; l >= 0; --l) {
      const std::uint64_t g = bits[l] ? rs_.select1(befores[l] + pos + 1) : rs_.select0(starts[l] - befores[l] + pos + 1);
      pos = g - starts[l];
    }
    return pos;
  }

  /// \brief Positions in [0, n) whose code is below \p code (any code; alphabet_size() and
  /// above count all), as WaveletMatrix::codes_below.
  /// \complexity O(1): the tree keeps the cumulative counts.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t codes_below(std::uint64_t code) const {
    return code < alphabet_.sigma ? counts_(code) : n_;
  }

  /// \brief Batched queries: out(q) = access(a(q)), rank(a(q), b(q)) or select(a(q), b(q)),
  /// with select's npos for a missing occurrence. \p b is ignored for access (pass \p a).
  /// Each argument is read once; waits. Views the execution space reads (device views, or
  /// pinned host views on a GPU) are used in place; other host views go through pinned staging
  /// in overlapped chunks. Answers are converted to out's type (npos needs 64 bits). \p order
  /// says whether the batch is first grouped by where each query starts (QueryOrder; by default
  /// large batches on a device are).
  /// \throws InputError naming the first position out of range (out is then unspecified).
  template <class ExecSpace, class AView, class BView, class OutView>
  void query(const ExecSpace& exec, WaveletQuery op, const AView& a, const BView& b, const OutView& out,
             QueryOrder order = QueryOrder::automatic) const {
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                  "ktext::WaveletTree: the tree must be accessible from the execution space");
    impl::run_wavelet_queries(exec, "ktext::WaveletTree", *this, op, a, b, out, order);
  }
  /// \brief As above on the default instance of MemorySpace's execution space; waits.
  template <class AView, class BView, class OutView>
  void query(WaveletQuery op, const AView& a, const BView& b, const OutView& out,
             QueryOrder order = QueryOrder::automatic) const {
    using Exec = typename MemorySpace::execution_space;
    query(Exec{}, op, a, b, out, order);
    Exec{}.fence("ktext::WaveletTree::query");
  }

  /// \brief "access", "rank" or "select".
  static const char* op_name(WaveletQuery op) { return impl::wavelet_query_name(op); }

 private:
  friend struct impl::WaveletTreeBuild<MemorySpace>;

  /// Bit offset of level l in the concatenated levels.
  KOKKOS_INLINE_FUNCTION std::uint64_t level_offset(int l) const { return level_info_(2 * l); }
  /// Index of node p of level l in node_ranks_.
  KOKKOS_INLINE_FUNCTION std::uint64_t node_index(int l, std::uint64_t p) const { return level_info_(2 * l + 1) + p; }

  RankSelect<MemorySpace> rs_;
  Kokkos::View<const std::uint64_t*, MemorySpace> counts_;      ///< C[c]: positions with a code below c (sigma + 1)
  Kokkos::View<const std::uint64_t*, MemorySpace> node_ranks_;  ///< ones before each node's start, level by level
  Kokkos::View<const std::uint64_t*, MemorySpace> level_info_;  ///< per level: bit offset, first node index
  impl::WaveletAlphabet<MemorySpace> alphabet_;
  std::uint64_t n_ = 0;
  int levels_ = 0;
};

namespace impl {

/// Where the codes of a tree over [0, sigma) go, level by level. Only the nodes on the right
/// spine (those that end at sigma) can be incomplete: spine node d covers [lo[d], sigma) and
/// splits at lo[d] + 2^(k[d] - 1), k[d] = ceil(log2 of its size). The split bits k[d] - 1 are
/// the set bits of sigma - 1, highest first, so a code leaves the spine at depth e = the number
/// of those bits it has before the first it lacks (to the left, or as the leaf sigma - 1 when
/// it has them all); below there every node is complete and the code's bits are its own.
///
/// The build moves path codes instead of codes: a code's branches from the root, read as bits
/// and left-aligned to the tree's height, so that level l reads bit height - 1 - l and a node's
/// index on its level (its path read as a binary number) is the top l bits, as in a wavelet
/// matrix. For a power-of-two alphabet the path code is the code.
struct WaveletTreeShape {
  static constexpr int max_levels = 32;
  std::uint64_t spine_bits;          ///< sigma - 1
  int height;                        ///< the longest code, ceil(log2 sigma)
  std::uint64_t lo[max_levels + 2];  ///< spine node starts (the leaf sigma - 1 last); then sigma

  explicit WaveletTreeShape(std::uint64_t sigma)
      : spine_bits(sigma > 0 ? sigma - 1 : 0), height(64 - countl_zero64(sigma > 0 ? sigma - 1 : 0)) {
    std::uint64_t start = 0, rest = spine_bits;
    for (int d = 0; d < max_levels + 2; ++d) {
      lo[d] = start;
      if (rest == 0) {
        start = sigma;
        continue;
      }
      const std::uint64_t top = std::uint64_t(1) << (63 - countl_zero64(rest));
      start += top;
      rest -= top;
    }
  }

  /// The path code of code \p c < sigma.
  KOKKOS_INLINE_FUNCTION std::uint64_t path_code(std::uint64_t c) const {
    const std::uint64_t lacking = ~c & spine_bits;
    if (lacking == 0) {  // the leaf sigma - 1: right at every spine node
      const int e = popcount64(spine_bits);
      return ((std::uint64_t(1) << e) - 1) << (height - e);
    }
    const int first = 63 - countl_zero64(lacking);  // the split where c goes left
    const int e = popcount64(spine_bits >> first >> 1);
    const std::uint64_t path = (((std::uint64_t(1) << e) - 1) << (first + 1)) | (c & ((std::uint64_t(1) << first) - 1));
    return path << (height - e - first - 1);
  }

  /// The first code of node \p q on level \p l (q < 2^l: its path) and of its right child.
  KOKKOS_INLINE_FUNCTION void node(std::uint64_t q, int l, std::uint64_t& node_lo, std::uint64_t& mid) const {
    const int e = l == 0 ? 0 : countl_zero64(~(q << (64 - l)));  // spine nodes on its path
    const std::uint64_t spine_lo = lo[e < l ? e : l];
    int bits = 64 - countl_zero64(spine_bits - spine_lo);  // k of that spine node
    node_lo = spine_lo;
    if (e < l) {  // then left, then l - e - 1 bits of q inside a complete subtree
      bits -= l - e;
      node_lo += (q & ((std::uint64_t(1) << (l - e - 1)) - 1)) << bits;
    }
    mid = node_lo + (std::uint64_t(1) << (bits - 1));
  }
};

/// The internal nodes of a tree over codes [0, sigma), level by level ([lo, hi) with
/// hi - lo >= 2), left to right. Left children are complete, so on every level they come first
/// and a node's index on its level is its path read as a binary number.
inline std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> wavelet_tree_nodes(std::uint64_t sigma) {
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> nodes;
  if (sigma >= 2) nodes.push_back({{0, sigma}});
  while (!nodes.empty()) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> next;
    for (const auto& [lo, hi] : nodes.back()) {
      const std::uint64_t mid = wavelet_split(lo, hi);
      if (mid - lo >= 2) next.push_back({lo, mid});
      if (hi - mid >= 2) next.push_back({mid, hi});
    }
    if (next.empty()) break;
    nodes.push_back(std::move(next));
  }
  return nodes;
}

template <class MemorySpace>
struct WaveletTreeBuild {
  using U64 = Kokkos::View<std::uint64_t*, MemorySpace>;
  using Nodes = std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>>;

  /// Bit offset of every level from the level lengths (each padded to 512 bits); the total last.
  static std::vector<std::uint64_t> level_offsets(const std::vector<std::uint64_t>& lengths) {
    std::vector<std::uint64_t> offsets(lengths.size() + 1, 0);
    for (std::size_t l = 0; l < lengths.size(); ++l) offsets[l + 1] = offsets[l] + level_stride(lengths[l]);
    return offsets;
  }

  /// Completes \p wt (alphabet and n set) from its level words (\p lengths[l] bits on level l)
  /// and the cumulative code counts C: the rank directory, the level table and the node ranks.
  /// Waits.
  template <class Symbol, class ExecSpace>
  static void assemble(const ExecSpace& exec, WaveletTree<MemorySpace, Symbol>& wt,
                       const Kokkos::View<const std::uint64_t*, MemorySpace>& words, const Nodes& nodes,
                       const std::vector<std::uint64_t>& lengths, const Kokkos::View<const std::uint64_t*, MemorySpace>& counts) {
    const int levels = int(nodes.size());
    if (levels > WaveletTree<MemorySpace, Symbol>::max_levels) throw Error("ktext::WaveletTree: too many levels");
    const auto offsets = level_offsets(lengths);
    auto h_info = Kokkos::View<std::uint64_t*, Kokkos::HostSpace>("ktext::WaveletTree::host_levels", 2 * levels + 1);
    std::uint64_t node_total = 0;
    for (int l = 0; l < levels; ++l) {
      h_info(2 * l) = offsets[l];
      h_info(2 * l + 1) = node_total;
      node_total += nodes[l].size();
    }
    auto h_node_lo = Kokkos::View<std::uint64_t*, Kokkos::HostSpace>("ktext::WaveletTree::host_nodes", 2 * node_total);
    for (int l = 0, k = 0; l < levels; ++l)
      for (const auto& node : nodes[l]) {
        h_node_lo(2 * k) = node.first;
        h_node_lo(2 * k + 1) = offsets[l];
        ++k;
      }
    const auto node_lo = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletTree::nodes", 2 * node_total);
    const auto info = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletTree::levels", 2 * levels + 1);
    Kokkos::deep_copy(exec, node_lo, h_node_lo);
    Kokkos::deep_copy(exec, info, h_info);
    const RankSelect<MemorySpace> rs(exec, BitVector<MemorySpace>::from_words(words, offsets.back()));
    const U64 node_ranks = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletTree::node_ranks", node_total);
    Kokkos::parallel_for(
        "ktext::WaveletTree::node_ranks", impl::Range<ExecSpace>(exec, 0, node_total),
        KOKKOS_LAMBDA(std::uint64_t k) { node_ranks(k) = rs.rank1(node_lo(2 * k + 1) + counts(node_lo(2 * k))); });
    exec.fence("ktext::WaveletTree::node_ranks");  // the host tables above outlive their copies
    wt.levels_ = levels;
    wt.rs_ = rs;
    wt.level_info_ = info;
    wt.counts_ = counts;
    wt.node_ranks_ = node_ranks;
  }

  /// The tree of n symbols of \p alphabet from its level words (as level_words()), the level
  /// lengths and the cumulative code counts C (sigma + 1 entries), all consistent. Waits.
  template <class Symbol, class ExecSpace>
  static WaveletTree<MemorySpace, Symbol> from_parts(const ExecSpace& exec, const WaveletAlphabet<MemorySpace>& alphabet,
                                                     const Kokkos::View<const std::uint64_t*, MemorySpace>& words,
                                                     std::uint64_t n, const std::vector<std::uint64_t>& lengths,
                                                     const Kokkos::View<const std::uint64_t*, MemorySpace>& counts) {
    WaveletTree<MemorySpace, Symbol> wt;
    wt.alphabet_ = alphabet;
    wt.n_ = n;
    assemble(exec, wt, words, wavelet_tree_nodes(alphabet.sigma), lengths, counts);
    return wt;
  }

  /// Levels, counts and node ranks of \p wt from \p text; \p wt.alphabet_ is set, and
  /// \p symbol_counts is the text's histogram by symbol value when the alphabet has a code table
  /// (else empty). Waits.
  template <class Symbol, class ExecSpace, class TextView>
  static void build(const ExecSpace& exec, const TextView& text, const Kokkos::View<std::uint64_t*, MemorySpace>& symbol_counts,
                    WaveletTree<MemorySpace, Symbol>& wt) {
    using Policy = impl::Range<ExecSpace>;
    const std::uint64_t n = text.extent(0);
    const std::uint64_t sigma = wt.alphabet_.sigma;
    wt.n_ = n;
    auto cur = wavelet_codes<Symbol>(exec, text, wt.alphabet_, "ktext::WaveletTree::codes");

    // C, the cumulative counts of the codes.
    const U64 counts = zeroed_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletTree::counts", sigma + 1);
    if (wt.alphabet_.dense && symbol_counts.extent(0) != 0) {
      // The alphabet counted the symbols already: code c counts what its symbol counted.
      const auto alphabet = wt.alphabet_;
      Kokkos::parallel_for(
          "ktext::WaveletTree::code_counts", Policy(exec, 0, sigma),
          KOKKOS_LAMBDA(std::uint64_t c) { counts(c) = symbol_counts(alphabet.symbol(c)); });
    } else {
      ktext::histogram(exec, Kokkos::View<const Symbol*, MemorySpace, Kokkos::MemoryUnmanaged>(cur.data(), n),
                       Kokkos::subview(counts, Kokkos::make_pair(std::uint64_t(0), sigma)));
    }
    ktext::exclusive_scan(exec, counts, counts);
    const auto h_counts = host_copy(exec, counts, "ktext::WaveletTree::host_counts");
    exec.fence("ktext::WaveletTree::counts");

    const Nodes nodes = wavelet_tree_nodes(sigma);
    const int levels = int(nodes.size());
    std::vector<std::uint64_t> lengths(levels);
    // A level's nodes cover codes [0, last hi); the codes after it have ended.
    for (int l = 0; l < levels; ++l) lengths[l] = h_counts(nodes[l].back().second);
    const auto offsets = level_offsets(lengths);
    const auto words = zeroed_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletTree::bits",
                                                               BitVector<MemorySpace>::word_count(offsets.back()));
    if (levels > 0) {
      auto next = PackedCodes<Symbol, MemorySpace>(exec, "ktext::WaveletTree::codes_next", n);
      const auto ones_before = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletTree::word_ones",
                                                                               (n + 63) / 64 + 1);
      const WaveletTreeShape shape(sigma);
      const int height = shape.height;
      if ((sigma & (sigma - 1)) != 0)
        Kokkos::parallel_for(
            "ktext::WaveletTree::path_codes", Policy(exec, 0, cur.groups(n)), KOKKOS_LAMBDA(std::uint64_t g) {
              Symbol c[8];
              cur.load_group(g, c);
              for (int k = 0; k < 8; ++k) c[k] = 8 * g + k < n ? Symbol(shape.path_code(c[k])) : Symbol(0);
              cur.store_group(g, c);
            });
      // Each node's partition bases on the level: the start of its right child minus its ones
      // before it, and those ones. The codes of a GPU warp mostly share one node.
      std::uint64_t most_nodes = 0;
      for (const auto& level : nodes) most_nodes = level.size() > most_nodes ? level.size() : most_nodes;
      const auto node_bases = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletTree::node_bases", 2 * most_nodes);
      for (int l = 0; l < levels; ++l) {
        const std::uint64_t m = lengths[l];
        const std::uint64_t first_word = offsets[l] / 64;
        const int shift = height - 1 - l;
        write_level(exec, cur, m, words, offsets[l], ones_before,
                    KOKKOS_LAMBDA(Symbol p) { return ((std::uint64_t(p) >> shift) & 1) != 0; });
        if (l + 1 == levels) break;
        Kokkos::parallel_for(
            "ktext::WaveletTree::node_bases", Policy(exec, 0, nodes[l].size()), KOKKOS_LAMBDA(std::uint64_t q) {
              std::uint64_t lo, mid;
              shape.node(q, l, lo, mid);
              const std::uint64_t before = level_rank(words, first_word, ones_before, counts(lo));
              node_bases(2 * q) = before;
              node_bases(2 * q + 1) = counts(mid) - before;
            });
        // Stable partition inside every node: zeros to the left child, ones to the right one,
        // whose start is C[mid]. Codes that have ended keep their final place.
        partition_level(
            exec, cur, next, n, m, words, first_word, ones_before,
            KOKKOS_LAMBDA(Symbol p, bool right) { return node_bases(2 * (std::uint64_t(p) >> shift >> 1) + (right ? 1 : 0)); },
            "ktext::WaveletTree::partition");
        std::swap(cur, next);
      }
    }
    assemble(exec, wt, words, nodes, lengths, counts);
  }
};

}  // namespace impl
}  // namespace ktext
