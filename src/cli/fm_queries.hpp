// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Batches of host patterns answered by an FMIndex on any backend: used by `search` and by
// `crosscheck`'s search stage. Header-only: templates over the index's backend.

#include <cstdint>
#include <vector>

#include <ktext/core/error.hpp>
#include <ktext/suffix/fm_index.hpp>

#include "run.hpp"

namespace ktext::cli {

/// Patterns back to back: pattern i is symbols[offsets[i], offsets[i + 1]).
struct PatternBatch {
  std::vector<std::uint8_t> symbols;
  std::vector<std::uint64_t> offsets{0};
  std::size_t size() const { return offsets.size() - 1; }
  void add(const std::uint8_t* p, std::size_t m) {
    symbols.insert(symbols.end(), p, p + m);
    offsets.push_back(symbols.size());
  }
  void clear() {
    symbols.clear();
    offsets.assign(1, 0);
  }
};

/// Positions of pattern i: positions[offsets[i], offsets[i + 1]), ascending.
struct Occurrences {
  std::vector<std::int64_t> offsets;
  std::vector<std::int64_t> positions;
};

/// Occurrence counts of every pattern of \p batch (copies to and from the backend included).
template <class Exec, class Mem, class I>
std::vector<std::uint64_t> count_patterns(const Exec& exec, const ktext::FMIndex<Mem, I>& index, const PatternBatch& batch) {
  const auto symbols = mirror(exec, batch.symbols.data(), batch.symbols.size(), "ktext_cli::patterns");
  const auto offsets = mirror(exec, batch.offsets.data(), batch.offsets.size(), "ktext_cli::pattern_offsets");
  std::vector<std::uint64_t> counts(batch.size());
  const auto d_counts = result_view(exec, counts.data(), counts.size(), "ktext_cli::counts");
  index.count(exec, symbols, offsets, d_counts);
  to_host(exec, d_counts, counts.data());
  return counts;
}

/// Every occurrence of every pattern of \p batch; FormatError when the index is inconsistent.
template <class Exec, class Mem, class I>
Occurrences locate_patterns(const Exec& exec, const ktext::FMIndex<Mem, I>& index, const PatternBatch& batch) {
  const auto symbols = mirror(exec, batch.symbols.data(), batch.symbols.size(), "ktext_cli::patterns");
  const auto offsets = mirror(exec, batch.offsets.data(), batch.offsets.size(), "ktext_cli::pattern_offsets");
  const auto found = index.locate(exec, symbols, offsets);
  Occurrences out;
  out.offsets.resize(found.offsets.extent(0));
  Kokkos::deep_copy(exec, Kokkos::View<std::int64_t*, Kokkos::HostSpace>(out.offsets.data(), out.offsets.size()),
                    found.offsets);
  const auto positions = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, found.positions);
  exec.fence("ktext_cli::locate_patterns");
  out.positions.resize(positions.extent(0));
  for (std::size_t k = 0; k < out.positions.size(); ++k) {
    if (positions(k) < 0)
      throw ktext::FormatError(
          "the index is inconsistent: an occurrence has no sampled position within reach, or one past the end of "
          "the text (ktext info --verify says why)");
    out.positions[k] = positions(k);
  }
  return out;
}

}  // namespace ktext::cli
