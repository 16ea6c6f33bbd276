// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file bwt_file.hpp
/// \brief BWT files: a ktext container (core/container.hpp) of kind bwt, holding a transform in
/// the libsais convention (bwt.hpp) with what inverting it needs.
///
/// Contents: metadata n, primary_index (1..n, 0 for the empty text), symbol_width = 1; section
/// 'bwt' (width 1) with the n transformed bytes. Host-only code.

#include <cstdint>
#include <string>

#include "ktext/core/container.hpp"
#include "ktext/core/error.hpp"
#include "ktext/suffix/impl/ktext_lf_walk.hpp"

namespace ktext {

/// \brief A transform inside a verified bwt container (the bytes stay the container's).
struct BwtFileInfo {
  std::uint64_t n = 0;
  std::uint64_t primary = 0;
  const std::uint8_t* data = nullptr;  ///< the n transformed bytes
};

/// \brief Writes \p n transformed bytes and their primary index as a bwt container to
/// \p sink(const void*, std::size_t).
template <class Sink>
void write_bwt_file(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, Sink&& sink) {
  container::Writer writer(container::Kind::bwt);
  writer.set_meta(container::kMetaN, n);
  writer.set_meta(container::kMetaPrimaryIndex, primary);
  writer.set_meta(container::kMetaSymbolWidth, 1);
  writer.add_section(container::kSectionBwt, bwt, n, 1);
  writer.write(sink);
}

/// \brief Kind-specific checks of a verified bwt container: metadata present, section size
/// equal to n, primary index in range.
/// \throws FormatError naming the first inconsistency.
inline BwtFileInfo bwt_file_check(const container::Container& c) {
  BwtFileInfo info;
  info.n = c.require_meta(container::kMetaN);
  info.primary = c.require_meta(container::kMetaPrimaryIndex);
  if (auto w = c.meta(container::kMetaSymbolWidth); w && *w != 1)
    throw FormatError("symbol width " + std::to_string(*w) + " is not supported (only 1-byte symbols)");
  const container::Section& s = c.require(container::kSectionBwt);
  if (s.element_width != 1)
    throw FormatError("section 'bwt' has element width " + std::to_string(s.element_width) + ", expected 1");
  if (s.size != info.n)
    throw FormatError("metadata says n = " + std::to_string(info.n) + " but section 'bwt' holds " +
                      std::to_string(s.size) + " bytes");
  if (info.n == 0 ? info.primary != 0 : (info.primary < 1 || info.primary > info.n))
    throw FormatError("primary index " + std::to_string(info.primary) + " is not in [1, " + std::to_string(info.n) + "]");
  info.data = s.data;
  return info;
}

/// \brief bwt_file_check(), then one LF walk (impl/ktext_lf_walk.hpp) that proves the transform
/// is that of a text (one cycle through all n + 1 rows), as unbwt() also proves while inverting.
/// \complexity O(n) time on the host, about 4n bytes of host memory (8n past 2^32 rows).
/// \throws FormatError when it is not; OutOfMemoryError.
inline BwtFileInfo bwt_file_verify(const container::Container& c) {
  const BwtFileInfo info = bwt_file_check(c);
  const std::uint64_t steps = impl::host_lf_walk(info.data, info.n, info.primary, [](std::uint64_t, std::uint64_t) {});
  if (steps != info.n)
    throw FormatError("not a Burrows-Wheeler transform with primary index " + std::to_string(info.primary) + ": " +
                      impl::lf_walk_failure(steps, info.n));
  return info;
}

}  // namespace ktext
