// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Alphabet reduction for the initial sort: map the symbols that occur to dense codes 0..sigma-1
// so that as many symbols as possible pack into one 64-bit key (21 DNA letters instead of 8
// bytes). The map preserves order, so packed keys compare like the symbol strings.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "ktext/core/index_type.hpp"
#include "ktext/primitives/histogram.hpp"
#include "ktext/primitives/scan.hpp"

namespace ktext::impl {

/// Largest symbol value for which a code table is built; larger integer alphabets use the
/// symbols themselves as codes.
inline constexpr std::uint64_t max_code_table = std::uint64_t(1) << 20;

template <class ExecSpace>
struct Alphabet {
  Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space> code;  // empty: identity
  std::uint64_t sigma = 0;  // number of distinct codes (an upper bound in identity mode)
  int bits = 1;             // bits per code
  int per_key = 64;         // codes packed into one 64-bit key

  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t symbol) const {
    return code.extent(0) ? code(symbol) : symbol;
  }
};

template <class ExecSpace, class TextView>
Alphabet<ExecSpace> reduce_alphabet(const ExecSpace& exec, const TextView& text) {
  using S = typename TextView::non_const_value_type;
  using Mem = typename ExecSpace::memory_space;
  Alphabet<ExecSpace> a;
  std::uint64_t table = std::uint64_t(1) << (8 * sizeof(S) < 20 ? 8 * sizeof(S) : 20);
  if constexpr (sizeof(S) == 4) {
    std::uint32_t max_symbol = 0;
    Kokkos::parallel_reduce(
        "ktext::suffix_array::max_symbol", Kokkos::RangePolicy<ExecSpace>(exec, 0, text.extent(0)),
        KOKKOS_LAMBDA(std::size_t i, std::uint32_t & m) { m = text(i) > m ? text(i) : m; },
        Kokkos::Max<std::uint32_t>(max_symbol));
    if (max_symbol >= max_code_table) {
      a.sigma = std::uint64_t(max_symbol) + 1;
      a.bits = bit_width(max_symbol);
      a.per_key = 64 / a.bits;
      return a;
    }
    table = std::uint64_t(max_symbol) + 1;
  }
  Kokkos::View<std::uint64_t*, Mem> counts(Kokkos::view_alloc(exec, "ktext::suffix_array::histogram"), table);
  histogram(exec, text, counts);
  a.code = Kokkos::View<std::uint32_t*, Mem>(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext::suffix_array::codes"),
                                             table);
  auto code = a.code;
  Kokkos::parallel_for(
      "ktext::suffix_array::present", Kokkos::RangePolicy<ExecSpace>(exec, 0, table),
      KOKKOS_LAMBDA(std::size_t c) { code(c) = counts(c) != 0 ? 1u : 0u; });
  a.sigma = exclusive_scan(exec, code, code);
  a.bits = bit_width(a.sigma > 0 ? a.sigma - 1 : 0);
  a.per_key = 64 / a.bits;
  return a;
}

}  // namespace ktext::impl
