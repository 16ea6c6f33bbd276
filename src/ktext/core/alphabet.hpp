// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file alphabet.hpp
/// \brief The alphabet map of a text: the symbols that occur, numbered 0..sigma-1 in their
/// order. The suffix array packs these dense codes into its sort keys (21 DNA letters per
/// 64-bit key instead of 8 bytes; order kept, so packed keys compare like the symbol strings),
/// and the FM-index stores its BWT as codes of ceil(log2 sigma) bits.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/primitives/histogram.hpp"

namespace ktext::impl {

/// Largest symbol value for which a code table is built; larger integer alphabets use the
/// symbols themselves as codes.
inline constexpr std::uint64_t max_code_table = std::uint64_t(1) << 20;

template <class MemorySpace>
struct AlphabetMap {
  /// Code of a symbol that does not occur.
  static constexpr std::uint32_t absent = ~std::uint32_t(0);

  Kokkos::View<const std::uint32_t*, MemorySpace> codes;    ///< symbol -> code or absent; empty: identity
  Kokkos::View<const std::uint32_t*, MemorySpace> symbols;  ///< code -> symbol; empty unless asked for
  std::uint64_t sigma = 0;  ///< number of distinct codes (identity: the largest symbol + 1)
  int bits = 1;             ///< bits per code, at least 1

  /// Code of \p symbol; \p symbol must be below codes.extent(0) when there is a table.
  KOKKOS_INLINE_FUNCTION std::uint64_t code(std::uint64_t symbol) const {
    return codes.extent(0) ? codes(symbol) : symbol;
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t symbol) const { return code(symbol); }
  /// Symbol of \p code < sigma (built with symbols, or identity).
  KOKKOS_INLINE_FUNCTION std::uint64_t symbol(std::uint64_t code) const {
    return symbols.extent(0) ? symbols(code) : code;
  }

  [[nodiscard]] std::size_t bytes() const { return (codes.span() + symbols.span()) * sizeof(std::uint32_t); }
};

/// The map of the symbols with a non-zero count in \p counts (one entry per symbol value).
/// \p who labels the buffers; \p with_symbols also builds the inverse. Waits (sigma is needed
/// on the host).
template <class MemorySpace, class ExecSpace, class CountView>
AlphabetMap<MemorySpace> alphabet_from_counts(const ExecSpace& exec, const CountView& counts, const char* who,
                                              bool with_symbols) {
  using Policy = impl::Range<ExecSpace>;
  using Map = AlphabetMap<MemorySpace>;
  const std::size_t table = counts.extent(0);
  Map a;
  const std::string prefix(who);
  if (table > Map::absent) throw InputError(prefix + ": alphabet table past 2^32 - 1 entries");
  auto codes = uninitialized_view<std::uint32_t, MemorySpace>(exec, (prefix + "::alphabet_codes").c_str(), table);
  // A 32-bit running count (codes are 32-bit; tables are far smaller than 2^32): Kokkos 4.6's
  // Cuda scan moves 8-byte values as two words, and compute-sanitizer racecheck reports a
  // write-write hazard between two threads on the second word.
  std::uint32_t sigma = 0;
  Kokkos::parallel_scan(
      "ktext::alphabet::codes", Policy(exec, 0, table),
      KOKKOS_LAMBDA(std::size_t c, std::uint32_t & next, bool final) {
        const bool present = counts(c) != 0;
        if (final) codes(c) = present ? next : Map::absent;
        if (present) ++next;
      },
      sigma);
  a.codes = codes;
  a.sigma = sigma;
  a.bits = bit_width(sigma > 0 ? sigma - 1 : 0);
  if (with_symbols) {
    auto symbols = uninitialized_view<std::uint32_t, MemorySpace>(exec, (prefix + "::alphabet_symbols").c_str(), sigma);
    Kokkos::parallel_for(
        "ktext::alphabet::symbols", Policy(exec, 0, table), KOKKOS_LAMBDA(std::size_t c) {
          if (codes(c) != Map::absent) symbols(codes(c)) = std::uint32_t(c);
        });
    a.symbols = symbols;
  }
  return a;
}

/// The map of the symbols of \p text (uint8_t, uint16_t or uint32_t): a table over every
/// symbol value up to the largest one, or the identity when that exceeds max_code_table.
/// Waits.
/// \p symbol_counts, when given, receives the table's histogram (empty for the identity).
template <class MemorySpace, class ExecSpace, class TextView>
AlphabetMap<MemorySpace> text_alphabet(const ExecSpace& exec, const TextView& text, const char* who,
                                       bool with_symbols,
                                       Kokkos::View<std::uint64_t*, MemorySpace>* symbol_counts = nullptr) {
  using S = typename TextView::non_const_value_type;
  std::uint64_t table = std::uint64_t(1) << (8 * sizeof(S) < 20 ? 8 * sizeof(S) : 20);
  if constexpr (sizeof(S) == 4) {
    std::uint32_t max_symbol = 0;
    Kokkos::parallel_reduce(
        "ktext::alphabet::max_symbol", impl::Range<ExecSpace>(exec, 0, text.extent(0)),
        KOKKOS_LAMBDA(std::size_t i, std::uint32_t & m) { m = text(i) > m ? text(i) : m; },
        Kokkos::Max<std::uint32_t>(max_symbol));
    if (max_symbol >= max_code_table) {
      AlphabetMap<MemorySpace> a;
      a.sigma = std::uint64_t(max_symbol) + 1;
      a.bits = bit_width(max_symbol);
      return a;
    }
    table = std::uint64_t(max_symbol) + 1;
  }
  const auto counts = zeroed_view<std::uint64_t, MemorySpace>(exec, (std::string(who) + "::histogram").c_str(), table);
  histogram(exec, text, counts);
  if (symbol_counts != nullptr) *symbol_counts = counts;
  return alphabet_from_counts<MemorySpace>(exec, counts, who, with_symbols);
}

}  // namespace ktext::impl
