// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file byte_loads.hpp
/// \brief Eight bytes at any offset of a byte array, read in at most two aligned word loads.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>

#include "ktext/core/little_endian.hpp"

namespace ktext::impl {

/// Bytes data[at, at + 8) as a little-endian word (byte \p at in bits 0-7); bytes at or past
/// \p size read as 0, and nothing outside [data, data + size) is read.
///
/// Why: comparing two strings a byte at a time stops at the first difference, so each load
/// waits for the one before it, and each load of a warp reading at 32 random places passes
/// through L1 once per sector it touches. The suffix array's initial heads so took 23 sector
/// passes per suffix (ncu on an H200: 1.17 ms for xml's 33 M sample suffixes, 1.40 for dna's, at
/// 20% of DRAM throughput) and 0.50 and 0.55 ms with this. Loops that read a fixed number of
/// bytes with no early exit already have all their loads in flight; for them this only adds
/// instructions (the initial key pieces were slower with it). On devices the word is two
/// aligned 8-byte loads (one where \p at is aligned), shifted together; where those would
/// reach outside the array, the bytes are read one by one.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t load_bytes8(const std::uint8_t* data, std::uint64_t size,
                                                      std::uint64_t at) {
  if (at >= size) return 0;
  KOKKOS_IF_ON_DEVICE((
      const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(data);
      const std::uintptr_t base = (begin + at) & ~std::uintptr_t(7);
      // base <= data + at < data + size, so base - begin < size where base >= begin.
      if (base >= begin && size - (base - begin) >= 16) {
        const std::uint64_t* word = reinterpret_cast<const std::uint64_t*>(base);
        const unsigned shift = 8u * unsigned(begin + at - base);
        const std::uint64_t low = word[0];
        return shift == 0 ? low : (low >> shift) | (word[1] << (64u - shift));
      }))
  KOKKOS_IF_ON_HOST((
      if (little_endian::host_is_little_endian() && size - at >= 8) {
        std::uint64_t word;
        std::memcpy(&word, data + at, 8);
        return word;
      }))
  std::uint64_t word = 0;
  const std::uint64_t count = size - at < 8 ? size - at : 8;
  for (std::uint64_t t = 0; t < count; ++t) word |= std::uint64_t(data[at + t]) << (8 * t);
  return word;
}

}  // namespace ktext::impl
