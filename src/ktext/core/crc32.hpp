// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file crc32.hpp
/// \brief The checksum of ktext container files: zlib's CRC-32 (polynomial 0xEDB88320).
/// Compiled into the ktext_container library (crc32.cpp), which links zlib privately, so
/// users of ktext need neither zlib's header nor its include path.

#include <cstdint>

namespace ktext::container {

/// \brief CRC-32 of \p size bytes at \p data, continuing from \p crc (0 to start); any size.
[[nodiscard]] std::uint32_t crc32_of(const void* data, std::uint64_t size, std::uint32_t crc = 0);

}  // namespace ktext::container
