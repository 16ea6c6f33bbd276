// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// ktext::FMIndex on a backend chosen at run time: built from a text or loaded from an index
// file, then queried with batches of host patterns. Instantiated once, in fm_runs.cpp.

#include <cstdint>
#include <memory>
#include <vector>

#include <ktext/core/container.hpp>
#include <ktext/suffix/suffix_array_types.hpp>

#include "backend.hpp"
#include "io.hpp"

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

/// An FM-index living on one backend. Must be destroyed before the KokkosSession.
class SearchEngine {
 public:
  virtual ~SearchEngine() = default;
  virtual std::uint64_t n() const = 0;
  virtual std::uint64_t primary_index() const = 0;
  virtual std::uint32_t sample_rate() const = 0;
  virtual int alphabet_size() const = 0;
  /// Bytes the index holds in the backend's memory.
  virtual std::uint64_t bytes() const = 0;
  /// Occurrence counts of every pattern of the batch (copies included).
  virtual std::vector<std::uint64_t> count(const PatternBatch& batch) = 0;
  /// Every occurrence of every pattern. Throws ktext::FormatError when the index is inconsistent.
  virtual Occurrences locate(const PatternBatch& batch) = 0;
  /// Writes the index as a ktext fm_index container; returns the bytes written.
  virtual std::uint64_t write(OutputFile& out) const = 0;
};

/// Builds the index of \p n bytes (32-bit positions when n < 2^31); \p seconds gets the build time.
std::unique_ptr<SearchEngine> build_search_engine(Backend backend, const std::uint8_t* text, std::uint64_t n,
                                                  std::uint32_t sample_rate, const ktext::SuffixArrayOptions& options,
                                                  double& seconds);

/// Loads a verified fm_index container (ktext::fm_index_file_check is applied; FormatError on
/// inconsistent contents).
std::unique_ptr<SearchEngine> load_search_engine(Backend backend, const ktext::container::Container& c);

}  // namespace ktext::cli
