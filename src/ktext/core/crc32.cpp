// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ktext/core/crc32.hpp"

#include <zlib.h>

namespace ktext::container {

std::uint32_t crc32_of(const void* data, std::uint64_t size, std::uint32_t crc) {
  // zlib takes uInt lengths: feed it pieces of at most 1 GiB.
  auto* p = static_cast<const Bytef*>(data);
  uLong c = crc;
  while (size > 0) {
    const std::uint64_t chunk = size > (std::uint64_t(1) << 30) ? (std::uint64_t(1) << 30) : size;
    c = ::crc32(c, p, static_cast<uInt>(chunk));
    p += chunk;
    size -= chunk;
  }
  return static_cast<std::uint32_t>(c);
}

}  // namespace ktext::container
