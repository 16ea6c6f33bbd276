// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file wavelet_matrix.hpp
/// \brief Wavelet matrix \cite ClaudeNavarroOrdonez2015 answers access, rank and select over a
/// sequence of n symbols from an alphabet of sigma in O(log sigma) rank/select steps, in
/// n * ceil(log2 sigma) bits plus the rank/select directories.
///
/// Level l holds bit l (from the most significant) of every symbol's code, in the order of the
/// previous level stably partitioned by the previous bit (zeros first); z_l counts the zeros of
/// level l. Unlike the wavelet tree it needs no node boundaries, so it suits large alphabets.
/// Construction per level: one pass writes the bits and counts ones per word, a scan of those
/// counts, and one stable scatter; the text is never re-sorted.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/succinct/impl/ktext_wavelet_levels.hpp"
#include "ktext/succinct/rank_select.hpp"

namespace ktext {

template <class MemorySpace, class Symbol>
class WaveletMatrix;

namespace impl {
template <class MemorySpace>
struct WaveletMatrixBuild;
}  // namespace impl

/// \brief Wavelet matrix over symbols of type \p Symbol (uint8_t, uint16_t or uint32_t).
/// \tparam MemorySpace where it lives; queries run on execution spaces that can read it.
template <class MemorySpace, class Symbol = std::uint8_t>
class WaveletMatrix {
  static_assert(Kokkos::is_memory_space_v<MemorySpace>, "ktext::WaveletMatrix: MemorySpace must be a Kokkos memory space");
  static_assert(std::is_same_v<Symbol, std::uint8_t> || std::is_same_v<Symbol, std::uint16_t> ||
                    std::is_same_v<Symbol, std::uint32_t>,
                "ktext::WaveletMatrix: Symbol must be uint8_t, uint16_t or uint32_t");

 public:
  using memory_space = MemorySpace;
  using symbol_type = Symbol;
  static constexpr std::uint64_t npos = RankSelect<MemorySpace>::npos;

  WaveletMatrix() = default;

  /// \brief Builds the matrix of \p text (a rank-1 view of Symbol accessible from \p exec). Waits.
  /// \throws InputError for a symbol outside options.alphabet_size; OutOfMemoryError.
  /// \complexity O(n log sigma) work in ceil(log2 sigma) passes.
  template <class ExecSpace, class TextView>
  WaveletMatrix(const ExecSpace& exec, const TextView& text, const WaveletOptions& options = {}) {
    static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::WaveletMatrix: first argument must be an execution space");
    static_assert(impl::is_rank1_view_v<TextView> && impl::accessible_from_v<ExecSpace, TextView>,
                  "ktext::WaveletMatrix: text must be a rank-1 view accessible from the execution space");
    static_assert(std::is_same_v<typename TextView::non_const_value_type, Symbol>,
                  "ktext::WaveletMatrix: the text must hold Symbol values");
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                  "ktext::WaveletMatrix: MemorySpace must be accessible from the execution space");
    impl::translate_out_of_memory("ktext::WaveletMatrix", [&] {
      alphabet_ = impl::wavelet_alphabet<MemorySpace>(exec, text, options, "ktext::WaveletMatrix");
      impl::WaveletMatrixBuild<MemorySpace>::build(exec, text, *this);
    });
  }

  /// \brief As above on the default instance of MemorySpace's execution space.
  template <class TextView, class = std::enable_if_t<Kokkos::is_view_v<TextView>>>
  explicit WaveletMatrix(const TextView& text, const WaveletOptions& options = {})
      : WaveletMatrix(typename MemorySpace::execution_space{}, text, options) {}

  /// \brief Sequence length n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t size() const { return n_; }
  /// \brief Alphabet size: distinct symbols (minimal alphabet) or the given size.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t alphabet_size() const { return alphabet_.sigma; }
  /// \brief Number of levels, ceil(log2 sigma).
  [[nodiscard]] KOKKOS_INLINE_FUNCTION int levels() const { return levels_; }
  /// \brief Bytes held in the memory space.
  [[nodiscard]] std::size_t space_bytes() const { return rs_.space_bytes() + zeros_.span() * 8 + alphabet_.bytes(); }

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

  /// \brief Code of the symbol at position \p i < n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t access_code(std::uint64_t i) const {
    std::uint64_t c = 0;
    for (int l = 0; l < levels_; ++l) {
      const std::uint64_t base = std::uint64_t(l) * stride_;
      const std::uint64_t ones = rs_.rank1(base + i) - ones_before_level(l);
      const bool bit = rs_.access(base + i);
      c = (c << 1) | (bit ? 1 : 0);
      i = bit ? zeros_(l) + ones : i - ones;
    }
    return c;
  }
  /// \brief Symbol at position \p i < n.
  /// \complexity O(log sigma) rank queries.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION Symbol access(std::uint64_t i) const { return symbol_of(access_code(i)); }

  /// \brief Occurrences of code \p code (< sigma) in [0, i), i <= n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t rank_code(std::uint64_t code, std::uint64_t i) const {
    std::uint64_t p = 0;
    return rank_code(code, i, p);
  }
  /// \brief Occurrences of \p symbol in [0, i), i <= n; 0 for a symbol outside the alphabet.
  /// \complexity O(log sigma) rank queries.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t rank(std::uint64_t symbol, std::uint64_t i) const {
    const std::uint64_t code = code_of(symbol);
    return code < alphabet_.sigma ? rank_code(code, i) : 0;
  }

  /// \brief Position of the k-th occurrence (k from 1) of \p symbol, or npos when there is none.
  /// \complexity O(log sigma) rank and select queries.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t select(std::uint64_t symbol, std::uint64_t k) const {
    const std::uint64_t code = code_of(symbol);
    if (code >= alphabet_.sigma || k == 0) return npos;
    std::uint64_t p = 0;
    if (k > rank_code(code, n_, p)) return npos;
    std::uint64_t pos = p + k - 1;
    for (int l = levels_ - 1; l >= 0; --l) {
      const std::uint64_t base = std::uint64_t(l) * stride_;
      const std::uint64_t ones_before = ones_before_level(l);
      if ((code >> (levels_ - 1 - l)) & 1)
        pos = rs_.select1(ones_before + (pos - zeros_(l)) + 1) - base;
      else
        pos = rs_.select0((base - ones_before) + pos + 1) - base;
    }
    return pos;
  }

  /// \brief Positions in [0, n) whose code is below \p code (any code; 2^levels() and above
  /// count all). codes_below(alphabet_size()) == size() holds for every matrix built from a text, and
  /// read_wavelet() refuses files whose bits break it.
  /// \complexity O(log sigma) rank queries.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t codes_below(std::uint64_t code) const {
    if (levels_ == 0 || code >= (std::uint64_t(1) << levels_)) return code > 0 ? n_ : 0;
    std::uint64_t below = 0, b = 0, e = n_;
    for (int l = 0; l < levels_; ++l) {
      const std::uint64_t base = std::uint64_t(l) * stride_;
      const std::uint64_t before = ones_before_level(l);
      const std::uint64_t ones_b = rs_.rank1(base + b) - before, ones_e = rs_.rank1(base + e) - before;
      if ((code >> (levels_ - 1 - l)) & 1) {
        below += (e - ones_e) - (b - ones_b);  // a 0 where the code has a 1: smaller
        b = zeros_(l) + ones_b;
        e = zeros_(l) + ones_e;
      } else {
        b -= ones_b;
        e -= ones_e;
      }
    }
    return below;
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
                  "ktext::WaveletMatrix: the matrix must be accessible from the execution space");
    impl::run_wavelet_queries(exec, "ktext::WaveletMatrix", *this, op, a, b, out, order);
  }
  /// \brief As above on the default instance of MemorySpace's execution space; waits.
  template <class AView, class BView, class OutView>
  void query(WaveletQuery op, const AView& a, const BView& b, const OutView& out,
             QueryOrder order = QueryOrder::automatic) const {
    using Exec = typename MemorySpace::execution_space;
    query(Exec{}, op, a, b, out, order);
    Exec{}.fence("ktext::WaveletMatrix::query");
  }

  /// \brief "access", "rank" or "select".
  static const char* op_name(WaveletQuery op) { return impl::wavelet_query_name(op); }

 private:
  friend struct impl::WaveletMatrixBuild<MemorySpace>;

  KOKKOS_INLINE_FUNCTION std::uint64_t ones_before_level(int l) const { return zeros_(levels_ + l); }

  /// rank_code(), leaving in \p p the start of the code's range on the last level.
  KOKKOS_INLINE_FUNCTION std::uint64_t rank_code(std::uint64_t code, std::uint64_t i, std::uint64_t& p) const {
    p = 0;
    for (int l = 0; l < levels_; ++l) {
      const std::uint64_t base = std::uint64_t(l) * stride_;
      const std::uint64_t before = ones_before_level(l);
      const std::uint64_t ones_p = rs_.rank1(base + p) - before;
      const std::uint64_t ones_i = rs_.rank1(base + i) - before;
      if ((code >> (levels_ - 1 - l)) & 1) {
        p = zeros_(l) + ones_p;
        i = zeros_(l) + ones_i;
      } else {
        p -= ones_p;
        i -= ones_i;
      }
    }
    return i - p;
  }

  RankSelect<MemorySpace> rs_;
  /// zeros_(l): zeros of level l; zeros_(levels + l): ones of the levels before l.
  Kokkos::View<const std::uint64_t*, MemorySpace> zeros_;
  impl::WaveletAlphabet<MemorySpace> alphabet_;
  std::uint64_t n_ = 0;
  std::uint64_t stride_ = 0;
  int levels_ = 0;
};

namespace impl {

/// Levels of \p wm from \p text; \p wm.alphabet_ is set. Waits.
template <class MemorySpace>
struct WaveletMatrixBuild {
  /// Completes \p wm (alphabet set) from the level words of n symbols: the rank directory and
  /// every level's zeros. Waits.
  template <class Symbol, class ExecSpace>
  static void assemble(const ExecSpace& exec, WaveletMatrix<MemorySpace, Symbol>& wm,
                       const Kokkos::View<const std::uint64_t*, MemorySpace>& words, std::uint64_t n) {
    const int levels = code_bits(wm.alphabet_.sigma);
    const std::uint64_t stride = level_stride(n);
    wm.n_ = n;
    wm.levels_ = levels;
    wm.stride_ = stride;
    const RankSelect<MemorySpace> rs(exec, BitVector<MemorySpace>::from_words(words, stride * std::uint64_t(levels)));
    // zeros(l): zeros of level l; zeros(levels + l): ones of the levels before l.
    const auto zeros = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletMatrix::zeros", 2 * levels + 1);
    Kokkos::parallel_for(
        "ktext::WaveletMatrix::zeros", impl::Range<ExecSpace>(exec, 0, 2 * levels + 1), KOKKOS_LAMBDA(int k) {
          if (k < levels) {
            zeros(k) = n - (rs.rank1(std::uint64_t(k) * stride + n) - rs.rank1(std::uint64_t(k) * stride));
          } else {
            zeros(k) = rs.rank1(std::uint64_t(k - levels) * stride);
          }
        });
    exec.fence("ktext::WaveletMatrix::zeros");
    wm.rs_ = rs;
    wm.zeros_ = zeros;
  }

  /// The matrix of n symbols of \p alphabet from its level words (as level_words()). Waits.
  template <class Symbol, class ExecSpace>
  static WaveletMatrix<MemorySpace, Symbol> from_parts(const ExecSpace& exec, const WaveletAlphabet<MemorySpace>& alphabet,
                                                       const Kokkos::View<const std::uint64_t*, MemorySpace>& words,
                                                       std::uint64_t n) {
    WaveletMatrix<MemorySpace, Symbol> wm;
    wm.alphabet_ = alphabet;
    assemble(exec, wm, words, n);
    return wm;
  }

  /// Levels of \p wm from \p text; \p wm.alphabet_ is set. Waits.
  template <class Symbol, class ExecSpace, class TextView>
  static void build(const ExecSpace& exec, const TextView& text, WaveletMatrix<MemorySpace, Symbol>& wm) {
    const std::uint64_t n = text.extent(0);
    const int levels = code_bits(wm.alphabet_.sigma);
    const std::uint64_t stride = level_stride(n);
    const auto words = zeroed_view<std::uint64_t, MemorySpace>(
        exec, "ktext::WaveletMatrix::bits", BitVector<MemorySpace>::word_count(stride * std::uint64_t(levels)));
    if (levels > 0) {
      auto cur = wavelet_codes<Symbol>(exec, text, wm.alphabet_, "ktext::WaveletMatrix::codes");
      auto next = PackedCodes<Symbol, MemorySpace>(exec, "ktext::WaveletMatrix::codes_next", n);
      const auto ones_before = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::WaveletMatrix::word_ones",
                                                                               (n + 63) / 64 + 1);
      for (int l = 0; l < levels; ++l) {
        const int shift = levels - 1 - l;
        const std::uint64_t first_word = std::uint64_t(l) * stride / 64;
        const std::uint64_t ones = write_level(exec, cur, n, words, std::uint64_t(l) * stride, ones_before,
                                               KOKKOS_LAMBDA(Symbol c) { return ((std::uint64_t(c) >> shift) & 1) != 0; });
        if (l + 1 == levels) break;
        // Stable partition by the bit: zeros first, then ones.
        const std::uint64_t zeros = n - ones;
        partition_level(
            exec, cur, next, n, n, words, first_word, ones_before,
            KOKKOS_LAMBDA(Symbol, bool bit) { return zeros & (0 - std::uint64_t(bit)); },
            "ktext::WaveletMatrix::partition");
        std::swap(cur, next);
      }
    }
    assemble(exec, wm, words, n);
  }
};

}  // namespace impl
}  // namespace ktext
