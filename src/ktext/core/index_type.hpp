// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file index_type.hpp
/// \brief Index types (int32_t below 2^31 symbols, int64_t beyond) and checked size conversions.

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "ktext/core/error.hpp"

namespace ktext {

/// \brief True for the index types ktext algorithms accept: int32_t and int64_t.
template <class I>
inline constexpr bool is_index_type_v = std::is_same_v<I, std::int32_t> || std::is_same_v<I, std::int64_t>;

/// \brief True for the symbol types of texts: bytes and integer alphabets.
template <class S>
inline constexpr bool is_symbol_type_v =
    std::is_same_v<S, std::uint8_t> || std::is_same_v<S, std::uint16_t> || std::is_same_v<S, std::uint32_t>;

/// \brief Whether a text of \p n symbols can be indexed with \p I (every suffix position and n
/// itself must be representable).
template <class I>
constexpr bool index_fits(std::uint64_t n) noexcept {
  return n <= static_cast<std::uint64_t>(std::numeric_limits<I>::max());
}

/// \brief Throws InputError when \p n does not fit \p I; \p what names the caller for the message.
template <class I>
void require_index_fits(std::uint64_t n, const char* what) {
  if (!index_fits<I>(n)) {
    throw InputError(std::string(what) + ": n = " + std::to_string(n) + " does not fit a " +
                     std::to_string(8 * sizeof(I)) + "-bit index; use int64_t indices");
  }
}

/// \brief Number of bits needed to write values in [0, v], at least 1.
constexpr int bit_width(std::uint64_t v) noexcept {
  int w = 1;
  while (w < 64 && (v >> w) != 0) ++w;
  return w;
}

}  // namespace ktext
