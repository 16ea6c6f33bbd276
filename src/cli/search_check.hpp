// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The search stage of `ktext crosscheck`: patterns drawn from the text, answered on every
// backend by the FM-index and on the host by binary search over a verified suffix array.

#include <cstdint>
#include <vector>

#include <ktext/suffix/suffix_array_types.hpp>

#include "backend.hpp"
#include "fm_runs.hpp"

namespace ktext::cli {

/// What the suffix array says: counts of every pattern, positions of the `located` subset.
struct SearchExpectation {
  PatternBatch patterns;       ///< counted
  PatternBatch located;        ///< located (those with few enough occurrences)
  std::vector<std::uint64_t> counts;
  Occurrences occurrences;     ///< of `located`
};

/// Deterministic patterns for a text: substrings of lengths 1..40 at seeded positions, random
/// byte strings, the empty pattern, one longer than the text and every single byte value;
/// answered by binary search over \p sa (the text's suffix array).
template <class I>
SearchExpectation expected_search(const std::vector<std::uint8_t>& text, const I* sa);

struct SearchStageRun {
  double index_seconds = 0;   ///< FM-index construction
  double search_seconds = 0;  ///< count and locate, pattern copies included
  std::uint64_t index_bytes = 0;
  bool matches = false;       ///< counts and positions equal the expectation
};

/// Builds the FM-index of \p text on \p backend and checks its answers against \p expected.
SearchStageRun run_search_stage(Backend backend, const std::vector<std::uint8_t>& text, const SearchExpectation& expected,
                                const ktext::SuffixArrayOptions& options);

extern template SearchExpectation expected_search<std::int32_t>(const std::vector<std::uint8_t>&, const std::int32_t*);
extern template SearchExpectation expected_search<std::int64_t>(const std::vector<std::uint8_t>&, const std::int64_t*);

}  // namespace ktext::cli
