// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file string_sort_types.hpp
/// \brief Statistics of ktext::string_sort and the bound of its memory.

#include <cstddef>
#include <cstdint>

namespace ktext {

/// \brief What a run of string_sort used.
struct StringSortStats {
  std::size_t peak_bytes = 0;       ///< peak bytes held in the memory space, the arguments included
  int passes = 0;                   ///< radix passes (each sorts the strings still tied)
  std::uint64_t skipped_bytes = 0;  ///< bytes of common prefixes stepped over without sorting
};

/// \brief Upper bound of the peak bytes string_sort holds in the execution space's memory for
/// \p n strings of \p total_bytes bytes with \p Index (the element type of the order), the
/// arguments included (chars, 8-byte offsets, the order and, with \p with_lcp, the LCP array of
/// w-byte values): per string 3w + 16 bytes of work buffers (indices twice, segment ids, 64-bit
/// keys twice), two pairs of segment tables of half as many entries (w + 8 bytes each), a list
/// of the groups that teams sort one by one (8 bytes per 17 strings at most) and a byte per tile
/// of at least 16 strings, four 64-bit counters and the 256 symbol codes, in one store of whole
/// 8-byte words, at least the argument check's 259 (2072 bytes).
template <class Index>
constexpr std::uint64_t string_sort_peak_bytes_bound(std::uint64_t n, std::uint64_t total_bytes,
                                                     bool with_lcp = false) noexcept {
  const std::uint64_t w = sizeof(Index);
  const std::uint64_t arguments = total_bytes + 8 * (n + 1) + w * n + (with_lcp ? w * n : 0);
  const std::uint64_t store =
      n * (3 * w + 16) + 2 * (w + 8) * (n / 2 + 1) + 8 * (n / 17 + 1) + (n / 16 + 8) + 4 * 8 + 512 + 7;
  return arguments + (store > 2072 ? store : 2072);
}

}  // namespace ktext
