// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The suffix-array file reader of `ktext check` (ktext::cli::read_sa): raw little-endian
// integers of 4 or 8 bytes, or NumPy .npy. Input: one control byte, then the file.
//   control bits 0-1: --width (0 = inferred, 4, 8; 3 = inferred)
//   control bit 2:    n from the next two bytes (little-endian), else from the file's size
//   control bit 3:    also read the file through a pipe (no size known beforehand)
// Checked: a file read_sa accepts holds exactly n entries of its width after its header, and
// the values are the file's integers; a regular file and a pipe of the same bytes agree
// wherever the size cannot change the answer; a refusal is a ktext::FormatError or CliError.

#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <variant>
#include <vector>

#include <ktext/core/error.hpp>
#include <ktext/core/little_endian.hpp>

#include "errors.hpp"
#include "fuzz_check.hpp"
#include "io.hpp"
#include "memory_file.hpp"
#include "sa_file.hpp"

namespace {

using ktext::cli::InputFile;
using ktext::cli::LoadedSa;

std::optional<LoadedSa> read(ktext_fuzz::MemoryFile file, std::uint64_t n, int width) {
  try {
    InputFile in = file.open_path([](const std::string& path) { return InputFile::open(path); });
    return ktext::cli::read_sa(in, n, width);
  } catch (const ktext::FormatError&) {
    return std::nullopt;
  } catch (const ktext::cli::CliError&) {
    return std::nullopt;
  }
  // Anything else escaping the reader (std::out_of_range from an empty .npy 'shape' did, see
  // regressions/sa_file/npy_empty_shape) is a finding: libFuzzer reports it as a crash.
}

std::vector<std::int64_t> values_of(const LoadedSa& sa) {
  return std::visit(
      [](const auto& a) {
        std::vector<std::int64_t> v(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) v[i] = std::int64_t(a.data()[i]);
        return v;
      },
      sa.values);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t control = data[0];
  ++data, --size;
  static const int widths[4] = {0, 4, 8, 0};
  const int width = widths[control & 3];
  std::uint64_t n;
  if (control & 4) {
    if (size < 2) return 0;
    n = std::uint64_t(data[0]) | std::uint64_t(data[1]) << 8;
    data += 2, size -= 2;
  } else {
    n = size / std::uint64_t(width == 8 ? 8 : 4);
  }

  const std::optional<LoadedSa> file = read(ktext_fuzz::MemoryFile::regular(data, size), n, width);
  const bool npy = size >= 6 && std::memcmp(data, "\x93NUMPY", 6) == 0;
  if (file) {
    const int w = file->width;
    FUZZ_CHECK(w == 4 || w == 8, "width not 4 or 8");
    FUZZ_CHECK(width == 0 || w == width, "width differs from --width");
    FUZZ_CHECK((file->format == ktext::cli::SaFormat::Npy) == npy, "format does not follow the magic");
    FUZZ_CHECK(std::holds_alternative<ktext::cli::HostArray<std::int32_t>>(file->values) == (w == 4),
               "values not stored in the file's width");
    const std::vector<std::int64_t> values = values_of(*file);
    FUZZ_CHECK(values.size() == n, "not n entries");
    FUZZ_CHECK(size >= n * std::uint64_t(w), "file shorter than its entries");
    const std::size_t header = size - std::size_t(n * std::uint64_t(w));
    FUZZ_CHECK(npy ? header >= 10 : header == 0, "raw file with bytes beyond n entries");
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t raw = ktext::little_endian::load(data + header + i * std::uint64_t(w), w);
      const std::int64_t expected = w == 4 ? std::int64_t(std::int32_t(std::uint32_t(raw))) : std::int64_t(raw);
      FUZZ_CHECK(values[i] == expected, "a value differs from the file's integer");
    }
  }
  // A pipe has no size: only a raw file's inferred width may differ (4 unless n >= 2^31).
  if ((control & 8) && (width != 0 || npy)) {
    const std::optional<LoadedSa> piped = read(ktext_fuzz::MemoryFile::pipe(data, size), n, width);
    FUZZ_CHECK(piped.has_value() == file.has_value(), "a pipe and a regular file of the same bytes disagree");
    if (file) {
      FUZZ_CHECK(piped->width == file->width && piped->format == file->format, "pipe read differs");
      FUZZ_CHECK(values_of(*piped) == values_of(*file), "pipe values differ");
    }
  }
  return 0;
}
