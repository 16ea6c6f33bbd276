// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file container.hpp
/// \brief ktext container files: a versioned, checksummed, memory-mappable file format shared
/// by the BWT, FM-index and wavelet-tree outputs. Host-only code.
///
/// Byte layout (all integers little-endian):
///
/// \code
/// offset  size  field
/// ------  ----  ---------------------------------------------------------------
///      0     6  magic "KTEXT\0"
///      6     2  u16 format version (kFormatVersion = 1)
///      8     4  u32 kind (1 = bwt, 2 = fm_index, 3 = wavelet_tree, 4 = wavelet_matrix)
///     12     4  u32 section count S (at most kMaxSections)
///     16     4  u32 CRC-32 of the section table (S * 32 bytes)
///     20     4  u32 CRC-32 of these 64 header bytes, computed with this field zeroed
///     24     8  u64 file size in bytes
///     32    32  zero
///     64  32*S  section table; entry i:
///                 +0  u32 section id (1 = meta, 2 = bwt, 3 = sample_marks, 4 = samples,
///                     5 = levels, 6 = alphabet; others reserved)
///                 +4  u32 CRC-32 of the section's bytes
///                 +8  u64 offset of the section from the start of the file
///                +16  u64 size of the section in bytes
///                +24  u32 element width in bytes (1, 2, 4 or 8)
///                +28  u32 reserved, zero
///      ...          sections, in table order, each at an offset that is a multiple of 64,
///                   separated by zero padding (checked: no checksum covers it); the last one
///                   ends the file.
/// \endcode
///
/// The metadata section (id 1, width 8) holds u64 count C, then C pairs (u64 key, u64 value),
/// keys strictly increasing; known keys: 1 = n, 2 = primary_index, 3 = symbol_width,
/// 4 = sample_rate, 5 = occurrences, 6 = alphabet_size, 7 = alphabet_dense. What each kind
/// stores is documented with its reader (fm_index_file.hpp, succinct/wavelet_file.hpp).
///
/// The CRC-32 is zlib's (`crc32()`, polynomial 0xEDB88320). read_container() checks, in order:
/// magic, version, header CRC, kind, the table's bounds and CRC, every section's bounds (with
/// checked 64-bit arithmetic), alignment, order and zero padding, the file size, every
/// section's CRC and the metadata's shape; each failure throws ktext::FormatError with a one-line message. It never
/// reads outside the buffer it is given.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ktext/core/crc32.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/little_endian.hpp"

namespace ktext::container {

/// \brief What a container holds.
enum class Kind : std::uint32_t { bwt = 1, fm_index = 2, wavelet_tree = 3, wavelet_matrix = 4 };

/// \brief Well-known section ids.
enum SectionId : std::uint32_t {
  kSectionMeta = 1,
  kSectionBwt = 2,
  kSectionSampleMarks = 3,
  kSectionSamples = 4,
  kSectionLevels = 5,
  kSectionAlphabet = 6
};

/// \brief Well-known metadata keys.
enum MetaKey : std::uint64_t {
  kMetaN = 1,
  kMetaPrimaryIndex = 2,
  kMetaSymbolWidth = 3,
  kMetaSampleRate = 4,
  kMetaOccurrences = 5,
  kMetaAlphabetSize = 6,
  kMetaAlphabetDense = 7
};

inline constexpr char kMagic[6] = {'K', 'T', 'E', 'X', 'T', '\0'};
inline constexpr std::uint16_t kFormatVersion = 1;
inline constexpr std::size_t kHeaderSize = 64;
inline constexpr std::size_t kEntrySize = 32;
inline constexpr std::uint64_t kAlignment = 64;
inline constexpr std::uint32_t kMaxSections = 4096;
inline constexpr std::uint64_t kMaxMetaEntries = 4096;

/// \brief "bwt", "fm_index", "wavelet_tree", "wavelet_matrix", or "kind N" for an unknown value.
inline std::string kind_name(std::uint32_t kind) {
  switch (kind) {
    case 1: return "bwt";
    case 2: return "fm_index";
    case 3: return "wavelet_tree";
    case 4: return "wavelet_matrix";
    default: return "kind " + std::to_string(kind);
  }
}

/// \brief "meta", "bwt", "sample_marks", "samples", "levels", "alphabet", or "section N".
inline std::string section_name(std::uint32_t id) {
  switch (id) {
    case kSectionMeta: return "meta";
    case kSectionBwt: return "bwt";
    case kSectionSampleMarks: return "sample_marks";
    case kSectionSamples: return "samples";
    case kSectionLevels: return "levels";
    case kSectionAlphabet: return "alphabet";
    default: return "section " + std::to_string(id);
  }
}

/// \brief "n", "primary_index", "symbol_width", "sample_rate", "occurrences", "alphabet_size",
/// "alphabet_dense", or "key_N".
inline std::string meta_key_name(std::uint64_t key) {
  switch (key) {
    case kMetaN: return "n";
    case kMetaPrimaryIndex: return "primary_index";
    case kMetaSymbolWidth: return "symbol_width";
    case kMetaSampleRate: return "sample_rate";
    case kMetaOccurrences: return "occurrences";
    case kMetaAlphabetSize: return "alphabet_size";
    case kMetaAlphabetDense: return "alphabet_dense";
    default: return "key_" + std::to_string(key);
  }
}

namespace impl {

/// a + b, or nullopt on overflow.
inline std::optional<std::uint64_t> add(std::uint64_t a, std::uint64_t b) {
  if (a > UINT64_MAX - b) return std::nullopt;
  return a + b;
}

/// a * b, or nullopt on overflow.
inline std::optional<std::uint64_t> mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return std::nullopt;
  return a * b;
}

inline std::uint64_t align_up(std::uint64_t v) { return (v + kAlignment - 1) / kAlignment * kAlignment; }

[[noreturn]] inline void fail(const std::string& message) { throw FormatError(message); }

}  // namespace impl

/// \brief One section of a read container; \c data points into the caller's buffer.
struct Section {
  std::uint32_t id = 0;
  std::uint32_t crc = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t element_width = 1;
  const std::uint8_t* data = nullptr;
  /// \brief section_name(id).
  [[nodiscard]] std::string name() const { return section_name(id); }
};

/// \brief A verified container. It views the buffer given to read_container(), which must
/// outlive it.
struct Container {
  std::uint16_t version = 0;
  Kind kind = Kind::bwt;
  std::uint64_t file_size = 0;
  std::vector<Section> sections;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> metadata;  ///< (key, value), keys ascending

  /// \brief The section with id \p id, or nullptr.
  [[nodiscard]] const Section* find(std::uint32_t id) const {
    for (const Section& s : sections)
      if (s.id == id) return &s;
    return nullptr;
  }
  /// \brief The value of metadata key \p key, or nullopt.
  [[nodiscard]] std::optional<std::uint64_t> meta(std::uint64_t key) const {
    for (const auto& kv : metadata)
      if (kv.first == key) return kv.second;
    return std::nullopt;
  }
  /// \brief The value of a required key; FormatError naming it when missing.
  [[nodiscard]] std::uint64_t require_meta(std::uint64_t key) const {
    if (auto v = meta(key)) return *v;
    impl::fail("the " + kind_name(std::uint32_t(kind)) + " file has no '" + meta_key_name(key) + "' in its metadata");
  }
  /// \brief The section with id \p id; FormatError naming it when missing.
  [[nodiscard]] const Section& require(std::uint32_t id) const {
    if (const Section* s = find(id)) return *s;
    impl::fail("the " + kind_name(std::uint32_t(kind)) + " file has no section '" + section_name(id) + "'");
  }
};

/// \brief True when \p size bytes at \p data start with the magic (a cheap sniff, no checks).
[[nodiscard]] inline bool has_magic(const std::uint8_t* data, std::size_t size) {
  return size >= sizeof kMagic && std::memcmp(data, kMagic, sizeof kMagic) == 0;
}

/// \brief Verifies and parses a container of \p size bytes at \p data.
/// \param data the buffer; the returned Container points into it.
/// \param size the buffer's length in bytes.
/// \param expected the kind the caller can use; nullopt accepts any known kind.
/// \throws FormatError with a one-line message on any inconsistency.
[[nodiscard]] inline Container read_container(const std::uint8_t* data, std::size_t size,
                                              std::optional<Kind> expected = std::nullopt) {
  using impl::fail;
  using little_endian::load;
  const std::uint64_t file = size;
  const std::string of_file = " of a " + std::to_string(file) + "-byte file";
  if (size < sizeof kMagic) {
    if (size > 0 && std::memcmp(data, kMagic, size) == 0)
      fail("truncated: the header ends at byte " + std::to_string(kHeaderSize) + of_file);
    fail("not a ktext file");
  }
  if (std::memcmp(data, kMagic, sizeof kMagic) != 0) fail("not a ktext file");
  if (size < kHeaderSize) fail("truncated: the header ends at byte " + std::to_string(kHeaderSize) + of_file);

  Container c;
  c.version = static_cast<std::uint16_t>(load(data + 6, 2));
  if (c.version > kFormatVersion)
    fail("format version " + std::to_string(c.version) + " is newer than this ktext (" + std::to_string(kFormatVersion) + ")");
  if (c.version == 0) fail("format version 0 is not a valid ktext version");
  std::uint8_t header[kHeaderSize];
  std::memcpy(header, data, kHeaderSize);
  const std::uint32_t header_crc = static_cast<std::uint32_t>(load(header + 20, 4));
  little_endian::store(header + 20, 0, 4);
  if (crc32_of(header, kHeaderSize) != header_crc) fail("checksum mismatch in the header");
  for (std::size_t i = 32; i < kHeaderSize; ++i)
    if (header[i] != 0) fail("the header's reserved bytes are not zero");

  const std::uint32_t kind = static_cast<std::uint32_t>(load(data + 8, 4));
  if (kind < 1 || kind > 4) fail("unknown container kind " + std::to_string(kind));
  c.kind = static_cast<Kind>(kind);
  if (expected && *expected != c.kind)
    fail("this is a " + kind_name(kind) + " file, expected " + kind_name(std::uint32_t(*expected)));

  const std::uint32_t count = static_cast<std::uint32_t>(load(data + 12, 4));
  if (count > kMaxSections) fail("implausible section count " + std::to_string(count));
  const std::uint32_t table_crc = static_cast<std::uint32_t>(load(data + 16, 4));
  c.file_size = load(data + 24, 8);
  const std::uint64_t table_end = kHeaderSize + std::uint64_t(count) * kEntrySize;  // <= 64 + 4096 * 32
  if (table_end > file) fail("truncated: the section table ends at byte " + std::to_string(table_end) + of_file);
  if (crc32_of(data + kHeaderSize, table_end - kHeaderSize) != table_crc) fail("checksum mismatch in the section table");

  std::uint64_t previous_end = table_end;
  c.sections.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint8_t* e = data + kHeaderSize + std::size_t(i) * kEntrySize;
    Section s;
    s.id = static_cast<std::uint32_t>(load(e, 4));
    s.crc = static_cast<std::uint32_t>(load(e + 4, 4));
    s.offset = load(e + 8, 8);
    s.size = load(e + 16, 8);
    s.element_width = static_cast<std::uint32_t>(load(e + 24, 4));
    const std::string label = "section " + std::to_string(i) + " ('" + s.name() + "')";
    if (load(e + 28, 4) != 0) fail(label + ": reserved field is not zero");
    for (const Section& other : c.sections)
      if (other.id == s.id) fail(label + " appears twice");
    if (s.element_width != 1 && s.element_width != 2 && s.element_width != 4 && s.element_width != 8)
      fail(label + ": element width " + std::to_string(s.element_width) + " is not 1, 2, 4 or 8");
    if (s.offset % kAlignment != 0) fail(label + ": offset " + std::to_string(s.offset) + " is not 64-byte aligned");
    if (s.offset < previous_end)
      fail(label + ": offset " + std::to_string(s.offset) + " overlaps the bytes before it (which end at " +
           std::to_string(previous_end) + ")");
    if (s.size % s.element_width != 0)
      fail(label + ": size " + std::to_string(s.size) + " is not a multiple of its element width " +
           std::to_string(s.element_width));
    const auto end = impl::add(s.offset, s.size);
    if (!end) fail(label + ": offset + size overflows");
    if (*end > file) fail("truncated: " + label + " ends at byte " + std::to_string(*end) + of_file);
    // Padding is not covered by any checksum, so it must be zero.
    for (std::uint64_t p = previous_end; p < s.offset; ++p)
      if (data[p] != 0) fail(label + ": non-zero padding at byte " + std::to_string(p));
    s.data = data + s.offset;
    previous_end = *end;
    c.sections.push_back(s);
  }
  if (c.file_size > file)
    fail("truncated: the header says " + std::to_string(c.file_size) + " bytes, the file has " + std::to_string(file));
  if (c.file_size != file || previous_end != file)
    fail("the header says " + std::to_string(c.file_size) + " bytes, the sections end at byte " +
         std::to_string(previous_end) + ", the file has " + std::to_string(file) + " bytes (trailing garbage?)");
  for (const Section& s : c.sections)
    if (crc32_of(s.data, s.size) != s.crc) fail("checksum mismatch in section '" + s.name() + "'");

  if (const Section* meta = c.find(kSectionMeta)) {
    if (meta->size < 8) fail("the metadata section is shorter than its 8-byte count");
    const std::uint64_t entries = load(meta->data, 8);
    if (entries > kMaxMetaEntries) fail("implausible metadata entry count " + std::to_string(entries));
    if (meta->size != 8 + entries * 16)
      fail("the metadata section has " + std::to_string(meta->size) + " bytes; " + std::to_string(entries) +
           " entries need " + std::to_string(8 + entries * 16));
    for (std::uint64_t i = 0; i < entries; ++i) {
      const std::uint64_t key = load(meta->data + 8 + 16 * i, 8);
      const std::uint64_t value = load(meta->data + 16 + 16 * i, 8);
      if (!c.metadata.empty() && key <= c.metadata.back().first) fail("metadata keys are not strictly increasing");
      c.metadata.emplace_back(key, value);
    }
  }
  return c;
}

/// \brief read_container() on a byte vector.
[[nodiscard]] inline Container read_container(const std::vector<std::uint8_t>& bytes,
                                              std::optional<Kind> expected = std::nullopt) {
  return read_container(bytes.data(), bytes.size(), expected);
}

/// \brief Assembles a container: metadata and sections are registered (section bytes are
/// referenced, not copied, and must outlive the writer), then written out in one pass.
class Writer {
 public:
  explicit Writer(Kind kind) : kind_(kind) {}

  /// \brief Sets metadata key \p key to \p value (replacing an earlier value).
  void set_meta(std::uint64_t key, std::uint64_t value) {
    for (auto& kv : meta_)
      if (kv.first == key) {
        kv.second = value;
        return;
      }
    if (meta_.size() >= kMaxMetaEntries) throw InputError("ktext::container: too many metadata entries");
    meta_.emplace_back(key, value);
  }

  /// \brief Adds a data section of \p size bytes of \p element_width-byte elements (stored
  /// little-endian by the caller). Its CRC is computed now.
  void add_section(std::uint32_t id, const void* data, std::uint64_t size, std::uint32_t element_width = 1) {
    if (id == kSectionMeta) throw InputError("ktext::container: section id 1 is the metadata section");
    if (element_width != 1 && element_width != 2 && element_width != 4 && element_width != 8)
      throw InputError("ktext::container: element width must be 1, 2, 4 or 8");
    if (pending_.size() + 1 >= kMaxSections) throw InputError("ktext::container: too many sections");
    for (const auto& p : pending_)
      if (p.id == id) throw InputError("ktext::container: duplicate section id " + std::to_string(id));
    pending_.push_back({id, static_cast<const std::uint8_t*>(data), size, element_width, crc32_of(data, size)});
  }

  /// \brief Writes the container through \p sink(const void* bytes, std::size_t count).
  template <class Sink>
  void write(Sink&& sink) const {
    // The metadata section: count, then (key, value) pairs sorted by key.
    auto meta = meta_;
    std::sort(meta.begin(), meta.end());
    std::vector<std::uint8_t> meta_bytes(8 + 16 * meta.size());
    little_endian::store(meta_bytes.data(), meta.size(), 8);
    for (std::size_t i = 0; i < meta.size(); ++i) {
      little_endian::store(meta_bytes.data() + 8 + 16 * i, meta[i].first, 8);
      little_endian::store(meta_bytes.data() + 16 + 16 * i, meta[i].second, 8);
    }
    std::vector<Pending> all;
    all.push_back({kSectionMeta, meta_bytes.data(), meta_bytes.size(), 8, crc32_of(meta_bytes.data(), meta_bytes.size())});
    all.insert(all.end(), pending_.begin(), pending_.end());

    const std::uint64_t table_end = kHeaderSize + all.size() * kEntrySize;
    std::vector<std::uint8_t> table(all.size() * kEntrySize);
    std::vector<std::uint64_t> offsets(all.size());
    std::uint64_t pos = table_end;
    for (std::size_t i = 0; i < all.size(); ++i) {
      offsets[i] = impl::align_up(pos);
      std::uint8_t* e = table.data() + i * kEntrySize;
      little_endian::store(e, all[i].id, 4);
      little_endian::store(e + 4, all[i].crc, 4);
      little_endian::store(e + 8, offsets[i], 8);
      little_endian::store(e + 16, all[i].size, 8);
      little_endian::store(e + 24, all[i].width, 4);
      pos = offsets[i] + all[i].size;
    }
    std::uint8_t header[kHeaderSize] = {};
    std::memcpy(header, kMagic, sizeof kMagic);
    little_endian::store(header + 6, kFormatVersion, 2);
    little_endian::store(header + 8, std::uint32_t(kind_), 4);
    little_endian::store(header + 12, all.size(), 4);
    little_endian::store(header + 16, crc32_of(table.data(), table.size()), 4);
    little_endian::store(header + 24, pos, 8);
    little_endian::store(header + 20, crc32_of(header, kHeaderSize), 4);

    sink(static_cast<const void*>(header), kHeaderSize);
    if (!table.empty()) sink(static_cast<const void*>(table.data()), table.size());
    static const std::uint8_t zeros[kAlignment] = {};
    std::uint64_t written = table_end;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (offsets[i] > written) sink(static_cast<const void*>(zeros), static_cast<std::size_t>(offsets[i] - written));
      // Large sections go out in pieces so std::size_t never truncates a count.
      const std::uint8_t* p = all[i].data;
      std::uint64_t left = all[i].size;
      while (left > 0) {
        const std::uint64_t chunk = left > (std::uint64_t(1) << 30) ? (std::uint64_t(1) << 30) : left;
        sink(static_cast<const void*>(p), static_cast<std::size_t>(chunk));
        p += chunk;
        left -= chunk;
      }
      written = offsets[i] + all[i].size;
    }
  }

  /// \brief The whole container in memory.
  [[nodiscard]] std::vector<std::uint8_t> bytes() const {
    std::vector<std::uint8_t> out;
    write([&](const void* p, std::size_t n) {
      auto* b = static_cast<const std::uint8_t*>(p);
      out.insert(out.end(), b, b + n);
    });
    return out;
  }

  /// \brief Streams the container to \p file; throws ktext::Error when a write fails.
  void write_to(std::FILE* file) const {
    write([&](const void* p, std::size_t n) {
      if (std::fwrite(p, 1, n, file) != n) throw Error("ktext::container: write failed");
    });
  }

 private:
  struct Pending {
    std::uint32_t id;
    const std::uint8_t* data;
    std::uint64_t size;
    std::uint32_t width;
    std::uint32_t crc;
  };
  Kind kind_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> meta_;
  std::vector<Pending> pending_;
};

}  // namespace ktext::container
