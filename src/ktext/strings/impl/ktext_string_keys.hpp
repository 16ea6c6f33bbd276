// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The strings of a string sort as bytes and offsets, and the 64-bit keys its passes sort: a
// segment id, the next bytes from a depth, and how many of them exist.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "ktext/core/byte_loads.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/gallop.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/popcount.hpp"

namespace ktext::impl {

/// The bytes a string set uses, numbered: a byte's code is 1 + the number of used byte values
/// below it, and 0 stands past a string's end, so that codes keep the order of the bytes and a
/// string that ends sorts before any byte (NUL included). Codes take bit_width(sigma) bits:
/// dictionary words and names (fewer than 128 byte values) 7 instead of 8 plus a count, DNA 3,
/// so that one 64-bit key holds 9 or 21 symbols instead of 7 bytes.
struct StringAlphabet {
  std::uint64_t present[4] = {0, 0, 0, 0};  // bit c: byte value c occurs
  std::uint32_t below[4] = {0, 0, 0, 0};    // used byte values below 64 w
  int bits = 8;

  static StringAlphabet of(const std::uint64_t (&used)[4]) {
    StringAlphabet a;
    std::uint32_t sigma = 0;
    for (int w = 0; w < 4; ++w) {
      a.present[w] = used[w];
      a.below[w] = sigma;
      sigma += std::uint32_t(popcount64(used[w]));
    }
    a.bits = sigma == 0 ? 1 : bit_width(std::uint64_t(sigma));
    return a;
  }
  /// Every byte value (for callers that have not looked at the bytes).
  static StringAlphabet all() {
    const std::uint64_t every[4] = {~std::uint64_t(0), ~std::uint64_t(0), ~std::uint64_t(0), ~std::uint64_t(0)};
    return of(every);
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t code(std::uint8_t c) const {
    const int w = c >> 6;
    const std::uint64_t word = w == 0 ? present[0] : w == 1 ? present[1] : w == 2 ? present[2] : present[3];
    const std::uint32_t base = w == 0 ? below[0] : w == 1 ? below[1] : w == 2 ? below[2] : below[3];
    return 1 + std::uint64_t(base) + std::uint64_t(popcount64(word & ((std::uint64_t(1) << (c & 63)) - 1)));
  }
};

/// Bits of one pass's 64-bit keys: [segment id][k symbol codes of the window], codes as
/// StringAlphabet numbers them (0 past a string's end).
struct StringKeyLayout {
  int k = 7;         // window symbols
  int bits = 9;      // bits per symbol
  int seg_bits = 0;  // bits of the segment id above them
  KOKKOS_INLINE_FUNCTION int seg_shift() const { return bits * k; }
  [[nodiscard]] int total_bits() const { return seg_bits + bits * k; }
  KOKKOS_INLINE_FUNCTION std::uint64_t segment(std::uint64_t key) const {
    return seg_bits == 0 ? 0 : key >> seg_shift();
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t symbol(std::uint64_t key, int t) const {
    return (key >> (bits * (k - 1 - t))) & ((std::uint64_t(1) << bits) - 1);
  }
  /// The string ends inside the window: its last symbol is past the end.
  KOKKOS_INLINE_FUNCTION bool ended(std::uint64_t key) const { return symbol(key, k - 1) == 0; }
  /// Symbols of the window that exist.
  KOKKOS_INLINE_FUNCTION int count(std::uint64_t key) const {
    int t = 0;
    while (t < k && symbol(key, t) != 0) ++t;
    return t;
  }
  /// Leading symbols two windows of one segment share, at most the shorter count.
  KOKKOS_INLINE_FUNCTION int common(std::uint64_t a, std::uint64_t b) const {
    int t = 0;
    while (t < k && symbol(a, t) == symbol(b, t) && symbol(a, t) != 0) ++t;
    return t;
  }
  /// The widest window of this alphabet with no segment id (the team sorts' keys).
  KOKKOS_INLINE_FUNCTION StringKeyLayout window_only() const {
    StringKeyLayout w = *this;
    w.seg_bits = 0;
    w.k = 64 / bits;
    return w;
  }
};

/// The widest window that leaves room for \p segments ids.
inline StringKeyLayout string_key_layout(std::uint64_t segments, const StringAlphabet& alphabet) {
  StringKeyLayout layout;
  layout.bits = alphabet.bits;
  layout.seg_bits = segments > 1 ? bit_width(segments - 1) : 0;
  layout.k = (64 - layout.seg_bits) / layout.bits;
  if (layout.k < 1)
    throw InputError("ktext::string_sort: " + std::to_string(segments) + " segments do not fit a 64-bit key");
  return layout;
}

/// Leading bytes chars[a, a + limit) and chars[b, b + limit) share, compared eight at a time
/// (load_bytes8): a byte-at-a-time loop waits for each load before issuing the next, and long
/// shared prefixes made it the slowest kernel of a pass. Two aligned loads per eight bytes
/// instead of eight byte loads, as in the suffix array's initial heads (PackedKey::same_prefix).
template <class Chars>
KOKKOS_INLINE_FUNCTION std::uint64_t common_prefix(const Chars& chars, std::uint64_t a, std::uint64_t b,
                                                   std::uint64_t limit) {
  static_assert(sizeof(typename Chars::value_type) == 1 &&
                    !std::is_same_v<typename Chars::array_layout, Kokkos::LayoutStride>,
                "ktext::impl::common_prefix: contiguous bytes");
  for (std::uint64_t l = 0; l < limit; l += 8) {
    const std::uint64_t x = load_bytes8(chars.data(), chars.extent(0), a + l) ^
                            load_bytes8(chars.data(), chars.extent(0), b + l);
    if (x != 0) {
      const std::uint64_t at = l + std::uint64_t(countr_zero64(x) >> 3);
      return at < limit ? at : limit;
    }
  }
  return limit;
}

/// Strings as bytes and n + 1 offsets, and the code of each byte value (StringAlphabet, in a
/// table: a symbol's code is then one load that the cache holds, where computing it took a
/// dozen instructions).
template <class Chars, class Offsets, class Codes>
struct ByteStrings {
  Chars chars;
  Offsets offsets;
  Codes codes;
  KOKKOS_INLINE_FUNCTION std::uint64_t begin(std::uint64_t i) const { return std::uint64_t(offsets(i)); }
  KOKKOS_INLINE_FUNCTION std::uint64_t length(std::uint64_t i) const {
    return std::uint64_t(offsets(i + 1)) - std::uint64_t(offsets(i));
  }
  /// Window bits (the codes of k symbols, 0 past the end) of string i from depth d (d <= its
  /// length).
  KOKKOS_INLINE_FUNCTION std::uint64_t window(std::uint64_t i, std::uint64_t d, const StringKeyLayout& layout) const {
    const std::uint64_t at = begin(i) + d, rest = length(i) - d;
    const int c = rest < std::uint64_t(layout.k) ? int(rest) : layout.k;
    std::uint64_t w = 0;
    for (int t = 0; t < layout.k; ++t) w = (w << layout.bits) | (t < c ? std::uint64_t(codes(chars(at + t))) : 0);
    return w;
  }
  /// Bytes strings i and j share from depth d on (both at least d long).
  KOKKOS_INLINE_FUNCTION std::uint64_t common_from(std::uint64_t i, std::uint64_t j, std::uint64_t d) const {
    const std::uint64_t li = length(i), lj = length(j);
    return common_prefix(chars, begin(i) + d, begin(j) + d, (li < lj ? li : lj) - d);
  }
};

}  // namespace ktext::impl
