// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// FM-index files per backend: round trips between index types, every damaged byte and
// truncation refused, foreign and newer containers refused, and forged containers whose
// samples or marks are inconsistent refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <ktext/core/container.hpp>
#include <ktext/core/crc32.hpp>
#include <ktext/core/little_endian.hpp>
#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/bwt_file.hpp>
#include <ktext/suffix/fm_index.hpp>
#include <ktext/suffix/fm_index_file.hpp>

#include "test_fm_index_helpers.hpp"
#include "test_inputs.hpp"
#include "test_views.hpp"

namespace {

using namespace ktext::test;

// ---------------------------------------------------------------------------------------------
// Files

template <class Index>
Bytes file_of(const Fm<Index>& index) {
  Bytes out;
  ktext::write_fm_index(Exec{}, index, [&](const void* p, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  });
  return out;
}

template <class Index>
Fm<Index> read(const Bytes& file) {
  return ktext::read_fm_index<Index>(Exec{}, file.data(), file.size());
}

/// Rewrites the header CRC after a deliberate change, so the reader gets past it.
void reseal_header(Bytes& file) {
  namespace kc = ktext::container;
  ktext::little_endian::store(file.data() + 20, 0, 4);
  ktext::little_endian::store(file.data() + 20, kc::crc32_of(file.data(), kc::kHeaderSize), 4);
}

/// The message of the FormatError \p f throws, or a failure.
template <class F>
std::string format_error_of(F&& f) {
  try {
    f();
  } catch (const ktext::FormatError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected ktext::FormatError, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected ktext::FormatError, nothing was thrown";
  return {};
}

/// Counts of every pattern and the locates that fit a budget of LF steps.
template <class Index>
void expect_answers(const Fm<Index>& index, const Case& c, const std::string& what) {
  expect_same(what + " count", c.patterns, c.oracle.counts, batched_count(index, c.patterns));
  const auto which = locate_subset(c.oracle, index.sample_rate(), 1u << 16);
  std::vector<std::vector<std::int64_t>> want;
  for (auto i : which) want.push_back(c.oracle.positions[i]);
  const Patterns sub = select(c.patterns, which);
  expect_same(what + " locate", sub, want, batched_locate(index, sub));
}

TEST(fm_index_file, round_trips) {
  for (std::size_t n : {0, 1, 2, 100, 3001}) {
    int number = 0;
    for (const auto& [name, t] : ktext::oracle::named_texts(n, 500 + std::uint32_t(n))) {
      const auto seed = std::uint32_t(number++);  // counts every case, run here or not
      if (!take_case()) continue;
      const Case c = make_case(name, t, sweep_patterns(t, seed, 10, 6), false);
      for (std::uint32_t rate : {1u, 7u, 64u, std::uint32_t(n + 1)}) {
        // The wavelet matrix's sparse marks decode to the same file as the table's dense ones.
        const auto occ = (rate + number) % 2 == 0 ? ktext::FMOccurrences::table : ktext::FMOccurrences::wavelet_matrix;
        const std::string what = name + " n=" + std::to_string(n) + " s=" + std::to_string(rate) + " occ=" + occ_name(occ);
        SCOPED_TRACE(what);
        const auto i32 = build<std::int32_t>(t, rate, occ);
        const auto i64 = build<std::int64_t>(t, rate, occ);
        const Bytes f32 = file_of(i32), f64 = file_of(i64);
        ASSERT_FALSE(f32.empty());
        EXPECT_EQ(f32, file_of(read<std::int32_t>(f32))) << "int32 file -> int32 index -> file";
        EXPECT_EQ(f64, file_of(read<std::int64_t>(f64))) << "int64 file -> int64 index -> file";
        const auto cross64 = read<std::int64_t>(f32);  // 4-byte samples into an int64 index
        EXPECT_EQ(f64, file_of(cross64));
        const auto cross32 = read<std::int32_t>(f64);  // 8-byte samples, small n
        EXPECT_EQ(f32, file_of(cross32));
        const auto via_container =
            ktext::read_fm_index<std::int32_t>(Exec{}, ktext::container::read_container(f64, ktext::container::Kind::fm_index));
        EXPECT_EQ(via_container.primary_index(), c.primary);
        EXPECT_EQ(via_container.sample_rate(), rate);
        EXPECT_EQ(via_container.alphabet_size(), c.sigma);
        expect_answers(read<std::int32_t>(f32), c, what + " int32<-int32");
        expect_answers(read<std::int64_t>(f64), c, what + " int64<-int64");
        expect_answers(cross64, c, what + " int64<-int32");
        expect_answers(cross32, c, what + " int32<-int64");
        expect_answers(via_container, c, what + " container");
        const auto info = ktext::fm_index_file_check(ktext::container::read_container(f32));
        EXPECT_EQ(info.n, n);
        EXPECT_EQ(info.primary, c.primary);
        EXPECT_EQ(info.sample_rate, rate);
        EXPECT_EQ(info.sample_width, 4u);
        EXPECT_EQ(info.samples, n / rate + 1);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

TEST(fm_index_file, overloads_without_an_execution_space) {
  // The index's memory space names the execution space of write_fm_index; read_fm_index takes
  // it as a template argument (Kokkos' default execution space when none is named).
  const auto t = random_text(2000, 26, 7);
  const auto index = build<std::int32_t>(t, 5);
  const Bytes f = file_of(index);
  Bytes without;
  ktext::write_fm_index(index, [&](const void* p, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(p);
    without.insert(without.end(), b, b + n);
  });
  EXPECT_EQ(without, f);
  EXPECT_EQ(file_of(ktext::read_fm_index<std::int32_t, Exec>(f.data(), f.size())), f);
  const auto c = ktext::container::read_container(f, ktext::container::Kind::fm_index);
  EXPECT_EQ(file_of(ktext::read_fm_index<std::int32_t, Exec>(c)), f);
  const auto on_default = ktext::read_fm_index<std::int64_t>(c);
  EXPECT_EQ(on_default.size(), t.size());
  EXPECT_EQ(on_default.primary_index(), index.primary_index());
}

/// Every single-byte change (at \p stride) and every truncation (at \p stride, plus the first
/// 256 and last 256 lengths) must be refused with a FormatError.
template <class Index>
void expect_every_damage_refused(const Bytes& file, std::size_t stride) {
  std::size_t flips = 0, cuts = 0;
  const std::uint8_t changes[3] = {0x01, 0x80, 0xff};
  for (std::size_t i = 0; i < file.size(); i += stride) {
    // Every byte: three changes each; strided: one, in turn.
    for (int j = stride == 1 ? 0 : int(i / stride % 3); j < 3; j += stride == 1 ? 1 : 3) {
      const std::uint8_t x = changes[j];
      Bytes bad = file;
      bad[i] ^= x;
      bool refused = false;
      try {
        (void)read<Index>(bad);
      } catch (const ktext::FormatError&) {
        refused = true;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "byte " << i << " ^ " << int(x) << ": expected FormatError, got " << e.what();
        return;
      }
      if (!refused) {
        ADD_FAILURE() << "byte " << i << " ^ " << int(x) << " of a " << file.size() << "-byte file was accepted";
        return;
      }
      ++flips;
    }
  }
  for (std::size_t len = 0; len < file.size(); ++len) {
    if (len > 256 && len + 256 < file.size() && len % stride != 0) continue;
    const Bytes cut(file.begin(), file.begin() + len);  // exact size: an overread would show
    bool refused = false;
    try {
      (void)read<Index>(cut);
    } catch (const ktext::FormatError&) {
      refused = true;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "truncated to " << len << " bytes: expected FormatError, got " << e.what();
      return;
    }
    if (!refused) {
      ADD_FAILURE() << "truncated to " << len << " of " << file.size() << " bytes was accepted";
      return;
    }
    ++cuts;
  }
  EXPECT_GT(flips, 0u);
  EXPECT_GT(cuts, 0u);
  // Trailing bytes are refused too.
  Bytes longer = file;
  longer.push_back(0);
  EXPECT_THROW((void)read<Index>(longer), ktext::FormatError);
}

TEST(fm_index_file, every_damaged_byte_and_truncation_is_refused) {
  {
    SCOPED_TRACE("small int32 index, every byte");
    const auto t = random_text(150, 26, 11);
    const Bytes f = file_of(build<std::int32_t>(t, 7));
    EXPECT_NO_THROW((void)read<std::int32_t>(f));
    expect_every_damage_refused<std::int32_t>(f, 1);
  }
  {
    SCOPED_TRACE("small int64 index, every byte");
    const auto t = periodic_text(77, std::string("a\0b\0\0", 5));
    const Bytes f = file_of(build<std::int64_t>(t, 3));
    EXPECT_NO_THROW((void)read<std::int64_t>(f));
    expect_every_damage_refused<std::int64_t>(f, 1);
    expect_every_damage_refused<std::int32_t>(f, 1);
  }
  {
    SCOPED_TRACE("empty text, every byte");
    const Bytes f = file_of(build<std::int32_t>(Bytes{}, 5));
    EXPECT_EQ(read<std::int32_t>(f).size(), 0u);
    expect_every_damage_refused<std::int32_t>(f, 1);
  }
  {
    SCOPED_TRACE("larger index, strided");
    const auto t = random_text(100000, 256, 12);
    const Bytes f = file_of(build<std::int64_t>(t, 16));
    EXPECT_NO_THROW((void)read<std::int64_t>(f));
    expect_every_damage_refused<std::int64_t>(f, 61);
  }
}

TEST(fm_index_file, refuses_foreign_and_newer_files) {
  namespace kc = ktext::container;
  const auto t = random_text(300, 4, 21);
  const Bytes good = file_of(build<std::int32_t>(t, 8));
  ASSERT_NO_THROW((void)read<std::int32_t>(good));
  {
    Bytes bad = good;
    bad[0] = 'k';
    EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(bad); }), "");
    bad = good;
    bad[5] = 'X';  // the magic's NUL
    reseal_header(bad);
    EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(bad); }), "");
    const Bytes text_file(t.begin(), t.end());
    EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(text_file); }), "");
  }
  {
    // A newer format version, the header checksum recomputed: the version check itself fires.
    Bytes bad = good;
    ktext::little_endian::store(bad.data() + 6, kc::kFormatVersion + 1, 2);
    reseal_header(bad);
    const std::string message = format_error_of([&] { (void)read<std::int32_t>(bad); });
    EXPECT_NE(message.find("version"), std::string::npos) << message;
    ktext::little_endian::store(bad.data() + 6, 0, 2);
    reseal_header(bad);
    const std::string zero = format_error_of([&] { (void)read<std::int32_t>(bad); });
    EXPECT_NE(zero.find("version"), std::string::npos) << zero;
    // The same change without the new checksum is caught by the checksum or the version check.
    bad = good;
    ktext::little_endian::store(bad.data() + 6, kc::kFormatVersion + 1, 2);
    EXPECT_THROW((void)read<std::int32_t>(bad), ktext::FormatError);
  }
  {
    // Other kinds, relabelled with a valid header checksum.
    for (std::uint32_t kind : {1u, 3u, 0u, 4u, 0xffffffffu}) {
      Bytes bad = good;
      ktext::little_endian::store(bad.data() + 8, kind, 4);
      reseal_header(bad);
      EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(bad); }), "") << "kind " << kind;
    }
  }
  {
    // A genuine bwt container (as a BWT writer makes it).
    auto text = to_device(t, "text");
    Kokkos::View<std::uint8_t*, Mem> out("bwt", t.size());
    const std::uint64_t primary = ktext::bwt(Exec{}, text, out);
    const Bytes h = to_host(out);
    kc::Writer w(kc::Kind::bwt);
    w.set_meta(kc::kMetaN, t.size());
    w.set_meta(kc::kMetaPrimaryIndex, primary);
    w.set_meta(kc::kMetaSymbolWidth, 1);
    w.add_section(kc::kSectionBwt, h.data(), h.size(), 1);
    const Bytes bwt_file = w.bytes();
    ASSERT_NO_THROW((void)kc::read_container(bwt_file));
    const std::string message = format_error_of([&] { (void)read<std::int32_t>(bwt_file); });
    EXPECT_NE(message.find("bwt"), std::string::npos) << message;
    EXPECT_THROW((void)ktext::read_fm_index<std::int64_t>(Exec{}, kc::read_container(bwt_file)), ktext::FormatError);
    EXPECT_THROW((void)ktext::fm_index_file_check(kc::read_container(bwt_file)), ktext::FormatError);
  }
}

/// The parts of an fm_index file, to forge consistent containers with valid checksums.
struct Parts {
  std::uint64_t n = 0, primary = 0, width = 1, rate = 1;
  Bytes bwt;
  std::vector<std::uint64_t> marks;
  std::vector<std::uint64_t> samples;
  std::uint32_t sample_width = 4, marks_width = 8;
  bool with_bwt = true, with_marks = true, with_samples = true, with_rate = true;

  [[nodiscard]] Bytes file() const {
    namespace kc = ktext::container;
    kc::Writer w(kc::Kind::fm_index);
    w.set_meta(kc::kMetaN, n);
    w.set_meta(kc::kMetaPrimaryIndex, primary);
    w.set_meta(kc::kMetaSymbolWidth, width);
    if (with_rate) w.set_meta(kc::kMetaSampleRate, rate);
    // Sections stay alive until w.bytes() below.
    Bytes m(marks.size() * 8), s(samples.size() * sample_width);
    for (std::size_t i = 0; i < marks.size(); ++i) ktext::little_endian::store(m.data() + 8 * i, marks[i], 8);
    for (std::size_t i = 0; i < samples.size(); ++i)
      ktext::little_endian::store(s.data() + sample_width * i, samples[i], int(sample_width));
    if (with_bwt) w.add_section(kc::kSectionBwt, bwt.data(), bwt.size(), 1);
    if (with_marks) w.add_section(kc::kSectionSampleMarks, m.data(), m.size(), marks_width);
    if (with_samples) w.add_section(kc::kSectionSamples, s.data(), s.size(), sample_width);
    return w.bytes();
  }
};

/// The parts of \p index, as write_fm_index() stores them.
template <class Index>
Parts parts_of(const Fm<Index>& index) {
  Parts p;
  p.n = index.size();
  p.primary = index.primary_index();
  p.rate = index.sample_rate();
  p.sample_width = sizeof(Index);
  Kokkos::View<std::uint8_t*, Mem> b("bwt", p.n);
  index.bwt(Exec{}, b);
  Exec{}.fence();
  p.bwt = to_host(b);
  p.marks = to_host(index.sample_marks());
  for (auto v : to_host(index.sampled_positions())) p.samples.push_back(std::uint64_t(v));
  return p;
}

TEST(fm_index_file, refuses_inconsistent_samples_and_marks) {
  // n = 150 at rate 7: positions 0, 7, ..., 147 are sampled (22 rows); n is no multiple of 7.
  const auto t = random_text(150, 3, 31);
  const std::uint32_t rate = 7;
  const auto index = build<std::int32_t>(t, rate);
  const Parts good = parts_of(index);
  ASSERT_EQ(good.samples.size(), 22u);
  ASSERT_EQ(good.file(), file_of(index)) << "the forging writer must match write_fm_index";

  const Case c = make_case("forged", t, sweep_patterns(t, 1, 20, 10), false);
  expect_answers(read<std::int32_t>(good.file()), c, "forged, unchanged");

  // Row of each sample, and the index of the primary row's sample.
  std::vector<std::uint64_t> rows;
  for (std::uint64_t r = 0; r <= good.n; ++r)
    if ((good.marks[r / 64] >> (r % 64)) & 1) rows.push_back(r);
  ASSERT_EQ(rows.size(), good.samples.size());
  const std::size_t primary_k = std::size_t(std::find(rows.begin(), rows.end(), good.primary) - rows.begin());
  ASSERT_LT(primary_k, rows.size());
  ASSERT_EQ(good.samples[primary_k], 0u);
  const std::size_t other_k = primary_k == 0 ? 1 : 0;
  std::uint64_t unmarked = 0;
  while ((good.marks[unmarked / 64] >> (unmarked % 64)) & 1) ++unmarked;

  auto refused = [&](const Parts& p, const char* why) {
    SCOPED_TRACE(why);
    const Bytes f = p.file();
    ASSERT_NO_THROW((void)ktext::container::read_container(f)) << "the forged container itself must be valid";
    EXPECT_NE(format_error_of([&] { (void)read<std::int32_t>(f); }), "");
    EXPECT_NE(format_error_of([&] { (void)read<std::int64_t>(f); }), "");
  };
  {
    Parts p = good;
    p.samples[other_k] += 1;  // 7k + 1: no multiple of the rate, still within the text
    refused(p, "a sample that is no multiple of the sample rate");
  }
  {
    Parts p = good;
    p.samples[other_k] = 3;
    refused(p, "a sample of 3 at rate 7");
  }
  {
    Parts p = good;
    p.samples[other_k] = p.samples[other_k == 1 ? 2 : 1];
    refused(p, "a repeated sample");
  }
  {
    Parts p = good;
    p.samples[other_k] = 154;  // a multiple of 7 past n
    refused(p, "a sample past n");
  }
  {
    Parts p = good;
    std::swap(p.samples[primary_k], p.samples[other_k]);
    refused(p, "position 0 not in the primary row");
  }
  {
    Parts p = good;
    p.marks[good.primary / 64] &= ~(std::uint64_t(1) << (good.primary % 64));
    p.marks[unmarked / 64] |= std::uint64_t(1) << (unmarked % 64);
    refused(p, "the primary row unmarked");
  }
  {
    Parts p = good;
    p.marks[unmarked / 64] |= std::uint64_t(1) << (unmarked % 64);
    refused(p, "one mark too many");
  }
  {
    Parts p = good;
    p.marks[rows[other_k] / 64] &= ~(std::uint64_t(1) << (rows[other_k] % 64));
    refused(p, "one mark too few");
  }
  {
    Parts p = good;
    p.marks[rows[other_k] / 64] &= ~(std::uint64_t(1) << (rows[other_k] % 64));
    p.marks.back() |= std::uint64_t(1) << 63;  // row 191 > n
    refused(p, "a mark past row n");
  }
  {
    Parts p = good;
    p.marks.push_back(0);
    refused(p, "a mark word too many");
  }
  {
    Parts p = good;
    p.rate = 0;
    refused(p, "sample rate 0");
  }
  {
    Parts p = good;
    p.rate = 8;  // 19 samples expected, 22 stored
    refused(p, "another sample rate");
  }
  {
    Parts p = good;
    p.primary = 0;
    refused(p, "primary index 0");
  }
  {
    Parts p = good;
    p.primary = p.n + 1;
    refused(p, "primary index past n");
  }
  {
    Parts p = good;
    p.primary = rows[other_k];  // a sampled row, but not the one of position 0
    refused(p, "primary index elsewhere");
  }
  {
    Parts p = good;
    p.width = 2;
    refused(p, "symbol width 2");
  }
  {
    Parts p = good;
    p.n -= 1;
    refused(p, "n one short of the BWT");
  }
  {
    Parts p = good;
    p.bwt.pop_back();
    refused(p, "BWT one short of n");
  }
  {
    Parts p = good;
    p.sample_width = 2;
    refused(p, "2-byte samples");
  }
  {
    Parts p = good;
    p.marks_width = 4;
    refused(p, "4-byte mark words");
  }
  {
    Parts p = good;
    p.samples.pop_back();
    refused(p, "a sample missing");
  }
  for (int which = 0; which < 4; ++which) {
    Parts p = good;
    (which == 0 ? p.with_bwt : which == 1 ? p.with_marks : which == 2 ? p.with_samples : p.with_rate) = false;
    refused(p, "a section or key missing");
  }
  {
    // A mark moved to another row passes the documented checks; the reader may refuse it,
    // but an index it returns must still count exactly and locate one position per occurrence.
    Parts p = good;
    p.marks[rows[other_k] / 64] &= ~(std::uint64_t(1) << (rows[other_k] % 64));
    p.marks[unmarked / 64] |= std::uint64_t(1) << (unmarked % 64);
    try {
      const auto index = read<std::int32_t>(p.file());
      expect_same("misplaced mark count", c.patterns, c.oracle.counts, batched_count(index, c.patterns));
      const auto got = batched_locate(index, c.patterns);
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].size(), c.oracle.counts[i]) << describe(c.patterns.get(i));
    } catch (const ktext::FormatError&) {
    }
  }
  {
    Parts p = good;
    p.sample_width = 8;  // 8-byte samples are fine for either index type
    EXPECT_NO_THROW((void)read<std::int32_t>(p.file()));
    expect_answers(read<std::int64_t>(p.file()), c, "forged with 8-byte samples");
  }
}

/// Rows on the LF cycle through row 0 of a transform, counted naively (an independent oracle
/// of whether the transform is that of a text: it is when all n + 1 rows are on it).
std::uint64_t rows_on_cycle(const Bytes& bwt, std::uint64_t primary) {
  const std::uint64_t n = bwt.size();
  auto symbol = [&](std::uint64_t r) { return int(bwt[r - (r > primary ? 1 : 0)]); };
  std::vector<std::uint64_t> lf(n + 1, 0);
  for (std::uint64_t r = 0; r <= n; ++r) {
    if (r == primary) continue;
    std::uint64_t row = 1;
    for (std::uint64_t q = 0; q <= n; ++q)
      if (q != primary && (symbol(q) < symbol(r) || (symbol(q) == symbol(r) && q < r))) ++row;
    lf[r] = row;
  }
  std::uint64_t r = 0, rows = 1;
  while (r != primary && rows <= n + 1) {
    r = lf[r];
    ++rows;
  }
  return r == primary ? rows : 0;
}

/// Every position a forged index reports must still lie within the text: p + m <= n.
template <class Index>
void expect_positions_within_text(const Fm<Index>& index, const Patterns& ps, const std::string& what) {
  const auto got = batched_locate(index, ps);
  for (std::size_t i = 0; i < got.size(); ++i)
    for (const std::int64_t p : got[i])
      if (p != std::int64_t(Fm<Index>::invalid_position) && std::uint64_t(p) + ps.get(i).size() > index.size()) {
        ADD_FAILURE() << what << ": " << describe(ps.get(i)) << " located at " << p << " in a text of " << index.size();
        return;
      }
}

TEST(fm_index_file, forged_transforms_stay_bounded_and_verify_refuses_them) {
  // With a rate past n only position 0 is sampled, so locate walks up to n steps per
  // occurrence; the file may claim any rate up to 2^32 - 1.
  const auto t = random_text(700, 4, 77);
  const Case c = make_case("forged transform", t, sweep_patterns(t, 5, 12, 4), false);
  for (const std::uint32_t rate : {std::uint32_t(701), std::uint32_t(0xffffffffu)}) {
    SCOPED_TRACE("sample rate " + std::to_string(rate));
    const Parts good = parts_of(build<std::int64_t>(t, rate));
    ASSERT_EQ(good.samples.size(), 1u);
    ASSERT_EQ(rows_on_cycle(good.bwt, good.primary), t.size() + 1);
    const auto kept = read<std::int64_t>(good.file());
    expect_same("count", c.patterns, c.oracle.counts, batched_count(kept, c.patterns));
    expect_same("locate", c.patterns, c.oracle.positions, batched_locate(kept, c.patterns));
    const Bytes good_file = good.file();
    EXPECT_NO_THROW((void)ktext::fm_index_file_verify(ktext::container::read_container(good_file)));

    // Two BWT bytes swapped so that the rows split into several LF cycles (checked naively):
    // every cheap check passes, the walks of some rows never reach position 0.
    Parts forged = good;
    bool split = false;
    for (std::size_t j = 1; j < forged.bwt.size() && !split; ++j) {
      if (forged.bwt[j] == forged.bwt[0]) continue;
      std::swap(forged.bwt[0], forged.bwt[j]);
      split = rows_on_cycle(forged.bwt, forged.primary) != t.size() + 1;
      if (!split) std::swap(forged.bwt[0], forged.bwt[j]);
    }
    ASSERT_TRUE(split);
    const Bytes file = forged.file();
    const auto container = ktext::container::read_container(file);
    EXPECT_NO_THROW((void)ktext::fm_index_file_check(container));
    const auto index = read<std::int64_t>(file);
    // Bounded: without the cap of n + 1 steps a walk off the text's cycle runs rate steps.
    expect_positions_within_text(index, c.patterns, "swapped BWT bytes");
    const std::string why = format_error_of([&] { (void)ktext::fm_index_file_verify(container); });
    EXPECT_NE(why.find("not that of a text"), std::string::npos) << why;
  }
}

TEST(fm_index_file, forged_samples_report_no_impossible_position_and_verify_refuses_them) {
  const auto t = random_text(600, 3, 78);
  const std::uint32_t rate = 5;
  const Parts good = parts_of(build<std::int32_t>(t, rate));
  const Bytes good_file = good.file();
  EXPECT_NO_THROW((void)ktext::fm_index_file_verify(ktext::container::read_container(good_file)));
  // The sample of the last multiple of the rate swapped with each other one in turn (position 0
  // stays in the primary row): the swapped positions are still distinct multiples of the rate,
  // so the cheap checks pass, but walks that end on the moved sample report it plus their steps.
  // Patterns start at positions s - 1 (mod s), so their walks take s - 1 steps.
  Patterns ps;
  for (std::size_t p = rate - 1; p + 3 <= t.size(); p += rate) ps.add(Bytes(t.begin() + p, t.begin() + p + 3));
  const std::size_t last = std::size_t(std::max_element(good.samples.begin(), good.samples.end()) - good.samples.begin());
  std::uint64_t impossible = 0;
  for (std::size_t k = 0; k < good.samples.size(); ++k) {
    if (k == last || good.samples[k] == 0) continue;
    Parts forged = good;
    std::swap(forged.samples[k], forged.samples[last]);
    SCOPED_TRACE("samples " + std::to_string(k) + " and " + std::to_string(last) + " swapped");
    const Bytes file = forged.file();
    const auto container = ktext::container::read_container(file);
    EXPECT_NO_THROW((void)ktext::fm_index_file_check(container));
    const auto index = read<std::int32_t>(file);
    expect_positions_within_text(index, ps, "swapped samples");
    for (const auto& found : batched_locate(index, ps))
      impossible += std::uint64_t(std::count(found.begin(), found.end(), std::int64_t(Fm<std::int32_t>::invalid_position)));
    const std::string why = format_error_of([&] { (void)ktext::fm_index_file_verify(container); });
    EXPECT_NE(why.find("section 'samples' entry"), std::string::npos) << why;
  }
  EXPECT_GT(impossible, 0u) << "no swap led a walk past the end of the text: the test checks nothing";
  // A mark moved to a row whose position is no multiple of the rate: the counts still match.
  Parts moved = good;
  std::uint64_t r0 = 0;
  while (!((moved.marks[r0 / 64] >> (r0 % 64)) & 1) || r0 == moved.primary) ++r0;
  std::uint64_t r1 = 0;
  while ((moved.marks[r1 / 64] >> (r1 % 64)) & 1) ++r1;
  moved.marks[r0 / 64] &= ~(std::uint64_t(1) << (r0 % 64));
  moved.marks[r1 / 64] |= std::uint64_t(1) << (r1 % 64);
  const Bytes moved_file = moved.file();
  const std::string why = format_error_of([&] {
    (void)ktext::fm_index_file_verify(ktext::container::read_container(moved_file));
  });
  EXPECT_NE(why.find("marked as sampled"), std::string::npos) << why;
}

TEST(fm_index_file, bwt_files_are_verified_by_one_walk) {
  for (const auto& [name, t] : ktext::oracle::named_texts(500, 79)) {
    SCOPED_TRACE(name);
    const Case c = make_case(name, t, {}, false);
    ASSERT_EQ(rows_on_cycle(c.bwt, c.primary), t.size() + 1);
    Bytes file;
    ktext::write_bwt_file(c.bwt.data(), c.bwt.size(), c.primary, [&](const void* p, std::size_t n) {
      file.insert(file.end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + n);
    });
    EXPECT_NO_THROW((void)ktext::bwt_file_verify(ktext::container::read_container(file)));
    // Another primary index: a different rotation order, one cycle only by chance (checked).
    for (std::uint64_t primary = 1; primary <= c.bwt.size(); primary += 97) {
      if (primary == c.primary) continue;
      Bytes other;
      ktext::write_bwt_file(c.bwt.data(), c.bwt.size(), primary, [&](const void* p, std::size_t n) {
        other.insert(other.end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + n);
      });
      const auto container = ktext::container::read_container(other);
      if (rows_on_cycle(c.bwt, primary) == t.size() + 1)
        EXPECT_NO_THROW((void)ktext::bwt_file_verify(container));
      else
        EXPECT_NE(format_error_of([&] { (void)ktext::bwt_file_verify(container); }), "") << "primary " << primary;
    }
  }
}

}  // namespace
