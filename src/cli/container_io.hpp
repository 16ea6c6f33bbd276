// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// BWT container files (src/ktext/core/container.hpp) written through OutputFile and read back
// with every check; the BWT-specific rules (metadata present, sizes consistent) live here.

#include <cstdint>
#include <string>
#include <vector>

#include <ktext/core/container.hpp>

#include "io.hpp"

namespace ktext::cli {

/// Writes a container of kind bwt: metadata n, primary_index, symbol_width = 1, section 'bwt'.
void write_bwt_container(OutputFile& out, const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary);

/// A BWT read from a container; \c data points into \c bytes.
struct BwtContainer {
  std::vector<std::uint8_t> bytes;
  ktext::container::Container container;
  std::uint64_t n = 0;
  std::uint64_t primary = 0;
  const std::uint8_t* data = nullptr;
};

/// Verifies a container of kind bwt; throws ktext::FormatError ("<name>: <why>", exit 3).
BwtContainer read_bwt_container(std::vector<std::uint8_t> bytes, const std::string& name);

/// Kind-specific checks of an already verified container (used by info too).
void check_bwt_container(const ktext::container::Container& c);

/// Re-throws a FormatError from \p f prefixed with \p name.
template <class F>
decltype(auto) with_file_name(const std::string& name, F&& f) {
  try {
    return f();
  } catch (const ktext::FormatError& e) {
    throw ktext::FormatError(name + ": " + e.what());
  }
}

}  // namespace ktext::cli
