// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Suffix array files: raw little-endian signed integers (mksary-compatible) or NumPy .npy
// (format 1.0, '<i4' / '<i8', shape (n,), data 64-byte aligned).

#include <cstdint>
#include <string>
#include <variant>

#include "host_array.hpp"
#include "io.hpp"

namespace ktext::cli {

enum class SaFormat { Raw, Npy };

/// The complete .npy header for \p n integers of \p width bytes, padded to a multiple of 64.
std::string npy_header(int width, std::uint64_t n);

/// Writes \p sa as integers of \p width bytes (4 or 8); every value must fit.
template <class I>
void write_sa(OutputFile& out, const I* sa, std::uint64_t n, int width, SaFormat format);

/// A suffix array read back from a file, in the width the file holds.
struct LoadedSa {
  int width = 0;
  SaFormat format = SaFormat::Raw;
  std::variant<HostArray<std::int32_t>, HostArray<std::int64_t>> values;
};

/// Reads the SA of a text of \p n bytes; \p width 0 infers a raw file's width from its size.
/// A file that cannot be an SA of n entries (size, header, dtype) throws ktext::FormatError
/// (a verification failure, exit 3); unreadable files throw CliError (exit 2).
LoadedSa read_sa(InputFile& in, std::uint64_t n, int width);

}  // namespace ktext::cli
