// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file little_endian.hpp
/// \brief The little-endian integer codec of ktext's files (containers, suffix-array files):
/// single values of 1 to 8 bytes and whole arrays. Host-only; byte-by-byte, so correct on any
/// host, with the copies skipped where the host order already is little-endian.

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ktext::little_endian {

/// \brief Whether the host stores integers little-endian (then arrays need no conversion).
/// False where the compiler does not say: the portable paths are correct everywhere.
constexpr bool host_is_little_endian() noexcept {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
  return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
#else
  return false;
#endif
}

/// \brief Writes the low \p width bytes of \p value (1 <= width <= 8) at \p dst, least
/// significant first.
inline void store(std::uint8_t* dst, std::uint64_t value, int width) noexcept {
  for (int b = 0; b < width; ++b) dst[b] = static_cast<std::uint8_t>(value >> (8 * b));
}

/// \brief The unsigned value of the \p width bytes (1 <= width <= 8) at \p src.
[[nodiscard]] inline std::uint64_t load(const std::uint8_t* src, int width) noexcept {
  std::uint64_t v = 0;
  for (int b = 0; b < width; ++b) v |= std::uint64_t(src[b]) << (8 * b);
  return v;
}

/// \brief \p n values as \p width bytes each (1 <= width <= 8) at \p dst (n * width bytes).
/// Values wider than \p width lose their high bytes: the caller checks that they fit.
template <class T>
void encode(std::uint8_t* dst, const T* values, std::uint64_t n, int width) noexcept {
  static_assert(std::is_integral_v<T>, "ktext::little_endian::encode: integer values");
  if (host_is_little_endian() && std::size_t(width) == sizeof(T)) {
    if (n > 0) std::memcpy(dst, values, n * sizeof(T));
    return;
  }
  for (std::uint64_t i = 0; i < n; ++i)
    store(dst + i * std::uint64_t(width), static_cast<std::uint64_t>(values[i]), width);
}

/// \brief \p n values of \p width bytes each (1 <= width <= 8) at \p src into \p values;
/// narrower values are sign-extended when \p T is signed, zero-extended otherwise. Values
/// wider than \p T lose their high bytes: the caller checks \p width.
template <class T>
void decode(T* values, const std::uint8_t* src, std::uint64_t n, int width) noexcept {
  static_assert(std::is_integral_v<T>, "ktext::little_endian::decode: integer values");
  if (host_is_little_endian() && std::size_t(width) == sizeof(T)) {
    if (n > 0) std::memcpy(values, src, n * sizeof(T));
    return;
  }
  const int shift = 64 - 8 * width;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t v = load(src + i * std::uint64_t(width), width);
    if constexpr (std::is_signed_v<T>) {
      // Sign-extend from width bytes (arithmetic shift of the two's-complement value).
      values[i] =
          static_cast<T>(shift == 0 ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v << shift) >> shift);
    } else {
      values[i] = static_cast<T>(v);
    }
  }
}

/// \brief Converts \p n values read as raw little-endian bytes into host order, in place
/// (after reading a file straight into an array). Nothing to do on little-endian hosts.
template <class T>
void to_host_order(T* values, std::uint64_t n) noexcept {
  static_assert(std::is_integral_v<T>, "ktext::little_endian::to_host_order: integer values");
  if constexpr (host_is_little_endian() || sizeof(T) == 1) {
    (void)values, (void)n;
  } else {
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint8_t bytes[sizeof(T)];
      std::memcpy(bytes, &values[i], sizeof(T));
      values[i] = static_cast<T>(load(bytes, int(sizeof(T))));
    }
  }
}

/// \brief Converts \p n host-order values into their little-endian bytes, in place (before
/// writing the array out as it is). The same byte reversal as to_host_order().
template <class T>
void from_host_order(T* values, std::uint64_t n) noexcept {
  to_host_order(values, n);
}

}  // namespace ktext::little_endian
