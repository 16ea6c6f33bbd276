// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of src/ktext/core/container.hpp (host-only): round trip, and every corruption,
// truncation and overflow refused with ktext::FormatError without reading past the buffer.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <ktext/core/container.hpp>
#include <string>
#include <vector>

namespace {

namespace kc = ktext::container;
using Bytes = std::vector<std::uint8_t>;

Bytes sample_container(const std::string& payload = "annbaa", kc::Kind kind = kc::Kind::bwt) {
  static std::string keep;  // the writer references section bytes until write()
  keep = payload;
  static const std::uint32_t extra[3] = {1, 2, 3};
  kc::Writer w(kind);
  w.set_meta(kc::kMetaPrimaryIndex, 4);
  w.set_meta(kc::kMetaN, keep.size());
  w.add_section(kc::kSectionBwt, keep.data(), keep.size(), 1);
  w.add_section(7, extra, sizeof extra, 4);
  return w.bytes();
}

void put_le(Bytes& b, std::size_t at, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i) b[at + std::size_t(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

// Recomputes the table and header CRCs after a deliberate edit, so the edit itself is tested.
void reseal(Bytes& b) {
  const std::uint32_t count = b[12] | b[13] << 8 | b[14] << 16 | std::uint32_t(b[15]) << 24;
  put_le(b, 16, kc::crc32_of(b.data() + 64, std::uint64_t(count) * 32), 4);
  put_le(b, 20, 0, 4);
  put_le(b, 20, kc::crc32_of(b.data(), 64), 4);
}

std::string error_of(const Bytes& b, std::optional<kc::Kind> kind = kc::Kind::bwt) {
  // A copy of exactly b.size() bytes, so ASan catches any read past the end.
  std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[b.size() + (b.empty() ? 1 : 0)]);
  if (!b.empty()) std::memcpy(exact.get(), b.data(), b.size());
  try {
    (void)kc::read_container(exact.get(), b.size(), kind);
  } catch (const ktext::FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(Container, RoundTrip) {
  const Bytes b = sample_container();
  ASSERT_EQ(b.size() % 1, 0u);
  EXPECT_EQ(std::memcmp(b.data(), "KTEXT\0", 6), 0);
  const kc::Container c = kc::read_container(b, kc::Kind::bwt);
  EXPECT_EQ(c.version, kc::kFormatVersion);
  EXPECT_EQ(c.kind, kc::Kind::bwt);
  EXPECT_EQ(c.file_size, b.size());
  ASSERT_EQ(c.sections.size(), 3u);
  for (const kc::Section& s : c.sections) EXPECT_EQ(s.offset % 64, 0u) << s.name();
  EXPECT_EQ(c.meta(kc::kMetaN), 6u);
  EXPECT_EQ(c.meta(kc::kMetaPrimaryIndex), 4u);
  EXPECT_FALSE(c.meta(kc::kMetaSymbolWidth));
  const kc::Section& bwt = c.require(kc::kSectionBwt);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bwt.data), bwt.size), "annbaa");
  const kc::Section* extra = c.find(7);
  ASSERT_NE(extra, nullptr);
  EXPECT_EQ(extra->element_width, 4u);
  EXPECT_EQ(extra->size, 12u);
  EXPECT_NO_THROW((void)kc::read_container(b));  // any kind
}

TEST(Container, EveryFlippedByteIsRefused) {
  const Bytes good = sample_container();
  for (std::size_t i = 0; i < good.size(); ++i) {
    Bytes b = good;
    b[i] ^= 0x20;
    EXPECT_NE(error_of(b), "") << "flipped byte " << i;
  }
}

TEST(Container, EveryTruncationIsRefused) {
  const Bytes good = sample_container();
  for (std::size_t len = 0; len < good.size(); ++len) {
    const Bytes b(good.begin(), good.begin() + std::ptrdiff_t(len));
    const std::string e = error_of(b);
    EXPECT_NE(e, "") << len;
    if (len >= 6) EXPECT_NE(e.find("truncated"), std::string::npos) << len << ": " << e;
  }
  Bytes longer = good;
  longer.push_back(0);
  EXPECT_NE(error_of(longer), "");
}

TEST(Container, PreciseMessages) {
  const Bytes good = sample_container();
  Bytes b = good;
  b[0] = 'X';
  EXPECT_EQ(error_of(b), "not a ktext file");
  EXPECT_EQ(error_of(Bytes{'h', 'i'}), "not a ktext file");

  b = good;
  put_le(b, 6, 7, 2);
  reseal(b);
  EXPECT_EQ(error_of(b), "format version 7 is newer than this ktext (1)");

  b = good;
  put_le(b, 8, 3, 4);
  reseal(b);
  EXPECT_EQ(error_of(b), "this is a wavelet_tree file, expected bwt");
  EXPECT_EQ(error_of(b, std::nullopt), "");

  b = good;
  b[40] = 1;
  EXPECT_EQ(error_of(b), "checksum mismatch in the header");

  b = good;
  b[64 + 33] ^= 1;  // entry 1's crc field
  EXPECT_EQ(error_of(b), "checksum mismatch in the section table");

  const kc::Container c = kc::read_container(good);
  b = good;
  b[c.require(kc::kSectionBwt).offset + 2] ^= 1;
  EXPECT_EQ(error_of(b), "checksum mismatch in section 'bwt'");

  b = Bytes(good.begin(), good.end() - 3);
  EXPECT_NE(error_of(b).find("truncated: section 2 ('section 7') ends at byte " + std::to_string(good.size()) + " of a " +
                             std::to_string(good.size() - 3) + "-byte file"),
            std::string::npos)
      << error_of(b);
}

TEST(Container, HostileSizesDoNotOverflow) {
  const Bytes good = sample_container();
  // Section 2's size so large that offset + size wraps around.
  Bytes b = good;
  put_le(b, 64 + 2 * 32 + 16, ~std::uint64_t(0) - 63, 8);
  reseal(b);
  EXPECT_NE(error_of(b).find("overflows"), std::string::npos) << error_of(b);
  // A huge section count.
  b = good;
  put_le(b, 12, 0xffffffffu, 4);
  put_le(b, 20, 0, 4);
  put_le(b, 20, kc::crc32_of(b.data(), 64), 4);
  EXPECT_NE(error_of(b).find("section count"), std::string::npos) << error_of(b);
  // A section count whose table runs past the end.
  b = good;
  put_le(b, 12, 4000, 4);
  put_le(b, 20, 0, 4);
  put_le(b, 20, kc::crc32_of(b.data(), 64), 4);
  EXPECT_NE(error_of(b).find("truncated: the section table ends"), std::string::npos) << error_of(b);
  // Misaligned, overlapping, and a metadata count that does not fit its section.
  b = good;
  put_le(b, 64 + 32 + 8, 65, 8);
  reseal(b);
  EXPECT_NE(error_of(b).find("aligned"), std::string::npos) << error_of(b);
  b = good;
  put_le(b, 64 + 8, 0, 8);
  reseal(b);
  EXPECT_NE(error_of(b).find("overlaps"), std::string::npos) << error_of(b);
  b = good;
  const kc::Container c = kc::read_container(good);
  const std::uint64_t meta = c.require(kc::kSectionMeta).offset;
  put_le(b, meta, ~std::uint64_t(0) / 16, 8);
  put_le(b, 64 + 4, kc::crc32_of(b.data() + meta, c.require(kc::kSectionMeta).size), 4);
  reseal(b);
  EXPECT_NE(error_of(b).find("metadata entry count"), std::string::npos) << error_of(b);
}

TEST(Container, EmptySectionsAndNoMetadataKeys) {
  kc::Writer w(kc::Kind::fm_index);
  w.add_section(9, nullptr, 0, 8);
  const Bytes b = w.bytes();
  const kc::Container c = kc::read_container(b, kc::Kind::fm_index);
  EXPECT_TRUE(c.metadata.empty());
  EXPECT_EQ(c.find(9)->size, 0u);
  EXPECT_EQ(error_of(b), "this is a fm_index file, expected bwt");
}

}  // namespace
