// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file packed_ints.hpp
/// \brief Unsigned integers of a fixed width w (0..64 bits) packed back to back in 64-bit
/// words, value k in bits [k w, k w + w) counted from the least significant bit of word 0.
/// Storage ends with a spare word, so reading a value never needs a bounds test on its
/// second word.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "ktext/core/error.hpp"
#include "ktext/core/popcount.hpp"

namespace ktext::impl {

/// Bits that hold every value up to \p max (0 for max = 0).
inline int packed_width(std::uint64_t max) { return 64 - countl_zero64(max); }

/// Words that hold \p count values of \p width bits, the spare word included.
/// \throws InputError when count * width does not fit 63 bits.
inline std::uint64_t packed_words(std::uint64_t count, int width, const char* who) {
  if (width > 0 && count > (std::uint64_t(1) << 63) / std::uint64_t(width))
    throw InputError(std::string(who) + ": " + std::to_string(count) + " values of " + std::to_string(width) +
                     " bits do not fit a 64-bit bit count");
  return (count * std::uint64_t(width) + 63) / 64 + 1;
}

/// Value \p k of \p width bits.
template <class Words>
KOKKOS_INLINE_FUNCTION std::uint64_t packed_get(const Words& words, std::uint64_t k, int width) {
  if (width == 0) return 0;
  const std::uint64_t bit = k * std::uint64_t(width);
  const std::uint64_t w = bit >> 6;
  const unsigned off = unsigned(bit & 63);
  std::uint64_t v = words(w) >> off;
  if (off != 0 && off + unsigned(width) > 64) v |= words(w + 1) << (64 - off);
  return width == 64 ? v : v & ((std::uint64_t(1) << width) - 1);
}

/// ORs value \p k (its low \p width bits) into zeroed \p words; values may be set from many
/// threads at once, since neighbours share words.
template <class Words>
KOKKOS_INLINE_FUNCTION void packed_atomic_set(const Words& words, std::uint64_t k, int width, std::uint64_t v) {
  if (width == 0) return;
  if (width < 64) v &= (std::uint64_t(1) << width) - 1;
  const std::uint64_t bit = k * std::uint64_t(width);
  const std::uint64_t w = bit >> 6;
  const unsigned off = unsigned(bit & 63);
  Kokkos::atomic_or(&words(w), v << off);
  if (off != 0 && off + unsigned(width) > 64) Kokkos::atomic_or(&words(w + 1), v >> (64 - off));
}

}  // namespace ktext::impl
