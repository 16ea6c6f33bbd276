// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of src/ktext/core/little_endian.hpp (host-only): every width, sign extension,
// arrays through the copying and the converting paths, in-place conversion.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <ktext/core/little_endian.hpp>

namespace {

namespace le = ktext::little_endian;

TEST(little_endian, store_and_load_every_width) {
  const std::uint64_t v = 0x0807060504030201ull;
  for (int width = 1; width <= 8; ++width) {
    std::uint8_t bytes[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0xee};
    le::store(bytes, v, width);
    for (int b = 0; b < width; ++b) EXPECT_EQ(bytes[b], std::uint8_t(b + 1)) << "width " << width;
    for (int b = width; b < 9; ++b)
      EXPECT_EQ(bytes[b], b == 8 ? 0xee : 0) << "width " << width << ": byte past the value";
    const std::uint64_t mask = width == 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * width)) - 1;
    EXPECT_EQ(le::load(bytes, width), v & mask) << "width " << width;
  }
}

TEST(little_endian, arrays_of_the_same_and_other_widths) {
  const std::vector<std::int32_t> values = {0, 1, -1, 0x12345678, INT32_MIN, INT32_MAX};
  for (int width : {4, 8}) {
    std::vector<std::uint8_t> bytes(values.size() * std::size_t(width));
    le::encode(bytes.data(), values.data(), values.size(), width);
    for (std::size_t i = 0; i < values.size(); ++i)
      EXPECT_EQ(
          std::int64_t(le::load(bytes.data() + i * std::size_t(width), width) << (64 - 8 * width)) >> (64 - 8 * width),
          values[i])
          << "width " << width << " entry " << i;
    std::vector<std::int32_t> back32(values.size());
    le::decode(back32.data(), bytes.data(), values.size(), width);
    EXPECT_EQ(back32, values) << "width " << width;
    std::vector<std::int64_t> back64(values.size());
    le::decode(back64.data(), bytes.data(), values.size(), width);  // sign-extended
    EXPECT_EQ(back64, std::vector<std::int64_t>(values.begin(), values.end())) << "width " << width;
  }
  // Unsigned values are zero-extended.
  const std::uint8_t ff[2] = {0xff, 0xff};
  std::uint32_t u = 0;
  le::decode(&u, ff, 1, 2);
  EXPECT_EQ(u, 0xffffu);
  std::int32_t s = 0;
  le::decode(&s, ff, 1, 2);
  EXPECT_EQ(s, -1);
  le::encode(static_cast<std::uint8_t*>(nullptr), static_cast<const std::int64_t*>(nullptr), 0, 8);  // empty: no access
}

TEST(little_endian, in_place_conversion_is_the_file_order) {
  const std::vector<std::uint64_t> values = {0x0102030405060708ull, 0, ~std::uint64_t(0)};
  std::vector<std::uint64_t> raw = values;
  le::from_host_order(raw.data(), raw.size());
  std::vector<std::uint8_t> bytes(raw.size() * 8);
  std::memcpy(bytes.data(), raw.data(), bytes.size());
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(le::load(bytes.data() + 8 * i, 8), values[i]);
  le::to_host_order(raw.data(), raw.size());
  EXPECT_EQ(raw, values);
  EXPECT_EQ(le::host_is_little_endian(), [] {
    const std::uint16_t one = 1;
    std::uint8_t first = 0;
    std::memcpy(&first, &one, 1);
    return first == 1;
  }());
}

}  // namespace
