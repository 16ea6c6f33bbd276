// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_lf_walk.hpp
/// \brief The host LF walk that proves a stored transform: bwt_file_verify() and
/// fm_index_file_verify() run it on files from untrusted sources. Host-only code.
///
/// A transform in the libsais convention (bwt.hpp: n symbols, the sentinel's row `primary`
/// left out) defines LF on the n + 1 rows of T$: LF(r) = 1 + C[c] + rank_c(j) for the symbol c
/// at j = r - (r > primary). LF is injective on the rows other than `primary` and never yields
/// row 0, so a walk from row 0 (text position n) that first meets the primary row after exactly
/// n steps has visited every row once: the transform is one cycle, that of a text, and the walk
/// has told each row its text position. Anything else (two bytes swapped, say) splits the rows
/// into several cycles, and the walk meets the primary row early or not at all.

#include <cstdint>
#include <string>
#include <vector>

#include "ktext/core/error.hpp"

namespace ktext::impl {

/// LF of every transform position j (that is, of row j + (j >= primary)), as T.
template <class T>
std::vector<T> host_lf_table(const std::uint8_t* bwt, std::uint64_t n) {
  std::uint64_t next[256] = {};
  for (std::uint64_t j = 0; j < n; ++j) ++next[bwt[j]];
  std::uint64_t sum = 1;  // row 0 is the sentinel's suffix
  for (auto& c : next) {
    const std::uint64_t count = c;
    c = sum;
    sum += count;
  }
  std::vector<T> lf(n);
  for (std::uint64_t j = 0; j < n; ++j) lf[j] = T(next[bwt[j]]++);
  return lf;
}

/// Walks LF from row 0 (position n) down to position 0, calling \p visit(row, position) on each
/// row reached, position n first, up to the primary row or n steps (the primary row is visited
/// only when met after exactly n steps). Returns the number of steps after which the walk met
/// the primary row (n exactly for a valid transform; less when it met it early, n + 1 when it
/// did not meet it at all). \p visit may throw to stop the walk.
/// \pre primary in [1, n] (0 for n = 0).
/// \complexity O(n) time; 4(n + 1) bytes of host memory (8(n + 1) when n + 1 > 2^32 - 1).
/// \throws OutOfMemoryError when the LF table does not fit.
template <class Visit>
std::uint64_t host_lf_walk(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, Visit&& visit) {
  auto walk = [&](const auto& lf) {
    std::uint64_t row = 0;
    for (std::uint64_t steps = 0;; ++steps) {
      if (row == primary) {
        if (steps == n) visit(row, std::uint64_t(0));
        return steps;
      }
      if (steps == n) return n + 1;
      visit(row, n - steps);
      row = std::uint64_t(lf[row - (row > primary ? 1 : 0)]);
    }
  };
  return translate_out_of_memory("ktext: LF walk", [&] {
    if (n < 0xffffffffu) return walk(host_lf_table<std::uint32_t>(bwt, n));
    return walk(host_lf_table<std::uint64_t>(bwt, n));
  });
}

/// Why a walk that met the primary row after \p steps (host_lf_walk's result) proves no text
/// of \p n symbols.
inline std::string lf_walk_failure(std::uint64_t steps, std::uint64_t n) {
  return "the LF walk from the last position " +
         (steps > n ? std::string("never reaches the first")
                    : "reaches the first after " + std::to_string(steps) + " of " + std::to_string(n) + " steps");
}

}  // namespace ktext::impl
