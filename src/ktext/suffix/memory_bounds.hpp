// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file memory_bounds.hpp
/// \brief Bytes the text algorithms hold in their execution space's memory, so a caller can
/// tell before allocating whether an input fits (suffix_array_peak_bytes_bound is in
/// suffix_array.hpp). Workspace figures count what an algorithm allocates beyond its arguments.

#include <cstdint>

#include "ktext/core/index_type.hpp"
#include "ktext/suffix/suffix_array.hpp"

namespace ktext {

/// \brief Workspace of lcp() with \p Index indices: the PLCP array, w n bytes.
template <class Index>
constexpr std::uint64_t lcp_workspace_bytes(std::uint64_t n) noexcept {
  return n * sizeof(Index);
}

/// \brief Workspace of unbwt() on \p n byte symbols: (4 + 5w) n bytes for the w-byte indices it
/// picks (4 while n + 1 rows fit int32_t, else 8).
constexpr std::uint64_t unbwt_workspace_bytes(std::uint64_t n) noexcept {
  const std::uint64_t w = index_fits<std::int32_t>(n + 1) ? 4 : 8;
  return n * (4 + 5 * w);
}

/// \brief Workspace of check_suffix_array() with \p Index indices in a memory space the host
/// cannot read: the inverse suffix array, w n bytes (on hosts, byte texts need O(sigma)).
template <class Index>
constexpr std::uint64_t check_suffix_array_workspace_bytes(std::uint64_t n) noexcept {
  return n * sizeof(Index);
}

/// \brief Peak bytes of building an FMIndex of \p n bytes with \p Index positions: the suffix
/// array's working memory (text included, with \p algorithm) plus the n-byte BWT; the finished
/// index is smaller.
template <class Index>
constexpr std::uint64_t fm_index_build_peak_bytes_bound(
    std::uint64_t n, SuffixArrayAlgorithm algorithm = SuffixArrayAlgorithm::automatic) noexcept {
  return suffix_array_peak_bytes_bound<std::uint8_t, Index>(n, algorithm) + n;
}

}  // namespace ktext
