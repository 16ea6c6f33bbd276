// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Size boundaries, through the tool as a user runs it: texts of 2^31 - 1, 2^31 and 2^31 + 1
// bytes, where 32-bit positions end, and one past 2^32. Each goes through sa and check, a
// forced 32-bit width (refused past 2^31 - 1), bwt and unbwt, index and search --locate of
// patterns at the text's ends and across position 2^31, and a wavelet matrix queried there.
// They need tens of GB of memory and disk, so they run only when asked for:
//   KTEXT_TEST_LARGE=<backend> ktext_test_cli --gtest_filter='Large*'
// (KTEXT_TEST_LARGE_PAST_4G=1 adds the text past 2^32, as lines: sort, bwt and index, which
// may refuse it cleanly for want of memory, and the wavelet matrix.)

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>

#include "cli_fixture.hpp"

namespace ktext::cli_test {
namespace {

constexpr std::uint64_t kTwo31 = std::uint64_t(1) << 31;

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? std::uint64_t(st.st_size) : ~std::uint64_t(0);
}

/// Random DNA written in 1 MiB blocks; keeps the bytes the checks need and counts the 'a's.
struct LargeText {
  std::uint64_t n = 0, a_count = 0;
  std::uint64_t across_at = 0;     // 2^31 - 12, or n - 24 for shorter texts
  std::string head, tail, across;  // 24 bytes at 0, at n - 24, and at across_at
  std::string at_probes;           // bytes at 0, 2^31 - 1, 2^31 (where < n), n - 1
  std::uint64_t lines = 0, line_hashes = 0;  // with lines: their count and line_hash() sum
};

/// FNV-1a of one line: summed over the lines, a fingerprint that ignores their order.
std::uint64_t line_hash(const char* p, std::size_t m) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < m; ++i) h = (h ^ std::uint8_t(p[i])) * 0x100000001b3ull;
  return h;
}

/// Random DNA; with \p lines, every 64th byte is a newline.
LargeText write_text(const std::string& path, std::uint64_t n, bool lines = false) {
  LargeText t;
  std::string line;
  t.n = n;
  t.across_at = std::min(kTwo31 - 12, n - 24);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot create " + path);
  std::string block(std::size_t(1) << 20, '\0');
  std::uint64_t x = 0x9e3779b97f4a7c15ull, at = 0;
  auto keep = [&](std::uint64_t from, std::size_t count, std::string& into) {
    for (std::uint64_t p = std::max(from, at); p < from + count && p < at + block.size() && p < n; ++p)
      into.push_back(block[std::size_t(p - at)]);
  };
  while (at < n) {
    const std::size_t len = std::size_t(std::min<std::uint64_t>(block.size(), n - at));
    block.resize(len);
    for (std::size_t i = 0; i < len; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      block[i] = lines && (at + i) % 64 == 63 ? '\n' : "acgt"[x >> 62];
      t.a_count += block[i] == 'a';
      if (!lines) continue;
      if (block[i] != '\n') {
        line.push_back(block[i]);
        continue;
      }
      ++t.lines;
      t.line_hashes += line_hash(line.data(), line.size());
      line.clear();
    }
    keep(0, 24, t.head);
    keep(n - 24, 24, t.tail);
    keep(t.across_at, 24, t.across);
    for (const std::uint64_t p : {std::uint64_t(0), kTwo31 - 1, kTwo31, n - 1})
      if (p < n && p >= at && p < at + len) t.at_probes += std::to_string(int(std::uint8_t(block[std::size_t(p - at)]))) + "\n";
    if (std::fwrite(block.data(), 1, len, f) != len) throw std::runtime_error("cannot write " + path);
    at += len;
  }
  if (std::fclose(f) != 0) throw std::runtime_error("cannot close " + path);
  if (lines && !line.empty()) ++t.lines, t.line_hashes += line_hash(line.data(), line.size());
  return t;
}

/// Whether \p path holds lines in LC_ALL=C order, and their count and line_hash() sum.
bool sorted_lines(const std::string& path, std::uint64_t& lines, std::uint64_t& hashes) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::string block(std::size_t(1) << 20, '\0'), line, previous;
  bool sorted = true, first = true;
  lines = hashes = 0;
  for (std::size_t got; (got = std::fread(block.data(), 1, block.size(), f)) > 0;)
    for (std::size_t i = 0; i < got; ++i) {
      if (block[i] != '\n') {
        line.push_back(block[i]);
        continue;
      }
      sorted = sorted && (first || previous.compare(line) <= 0);  // char_traits<char> compares as unsigned
      first = false;
      ++lines;
      hashes += line_hash(line.data(), line.size());
      previous.swap(line);
      line.clear();
    }
  std::fclose(f);
  return sorted && line.empty();
}

bool same_files(const std::string& a, const std::string& b) {
  std::FILE* fa = std::fopen(a.c_str(), "rb");
  std::FILE* fb = std::fopen(b.c_str(), "rb");
  bool same = fa != nullptr && fb != nullptr;
  std::string ba(std::size_t(1) << 20, '\0'), bb(ba.size(), '\0');
  while (same) {
    const std::size_t ga = std::fread(ba.data(), 1, ba.size(), fa), gb = std::fread(bb.data(), 1, bb.size(), fb);
    same = ga == gb && std::equal(ba.begin(), ba.begin() + std::ptrdiff_t(ga), bb.begin());
    if (ga == 0) break;
  }
  if (fa) std::fclose(fa);
  if (fb) std::fclose(fb);
  return same;
}

class Large : public CliTest, public ::testing::WithParamInterface<std::uint64_t> {};

TEST_P(Large, SizeBoundary) {
  const char* backend = std::getenv("KTEXT_TEST_LARGE");
  if (backend == nullptr) GTEST_SKIP() << "set KTEXT_TEST_LARGE=<backend> to run (tens of GB of memory and disk)";
  const std::uint64_t n = GetParam();
  const bool past_4g = n > (std::uint64_t(1) << 32);
  const char* past = std::getenv("KTEXT_TEST_LARGE_PAST_4G");
  if (past_4g && (past == nullptr || std::string(past) != "1")) GTEST_SKIP() << "set KTEXT_TEST_LARGE_PAST_4G=1";
  const std::string b = backend;
  const LargeText t = write_text(dir.path("t"), n, past_4g);
  ASSERT_EQ(file_size(dir.path("t")), n);

  if (!past_4g) {
    // Suffix array: 4-byte entries below 2^31, 8 from there; the checker proves it.
    const auto sa = ktext({"--backend", b, "sa", "t", "-o", "t.sa"});
    ASSERT_EQ(sa.exit_code, 0) << sa.err;
    EXPECT_EQ(file_size(dir.path("t.sa")), n * (n < kTwo31 ? 4 : 8));
    const auto check = ktext({"--backend", b, "check", "t", "t.sa"});
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    std::remove(dir.path("t.sa").c_str());
    const auto w4 = ktext({"--backend", b, "sa", "t", "-o", "w4.sa", "--width", "4"});
    EXPECT_EQ(w4.exit_code, n < kTwo31 ? 0 : 2) << w4.err;
    if (n >= kTwo31) expect_one_error_line(w4, "--width 4");
    std::remove(dir.path("w4.sa").c_str());
    EXPECT_FALSE(file_exists(dir.path("w4.sa")) && n >= kTwo31);
  }

  if (past_4g) {
    // Lines of 63 letters (the last one of 7, unterminated): sorted with 64-bit offsets, in
    // device chunks where memory asks for it; LC_ALL=C order, the same lines.
    const auto sorted = ktext({"--backend", b, "sort", "t", "-o", "sorted"});
    ASSERT_EQ(sorted.exit_code, 0) << sorted.err;
    std::uint64_t lines = 0, hashes = 0;
    EXPECT_TRUE(sorted_lines(dir.path("sorted"), lines, hashes)) << "sort's output is not in order";
    EXPECT_EQ(lines, t.lines);
    EXPECT_EQ(hashes, t.line_hashes) << "sort's output does not hold the input's lines";
    std::remove(dir.path("sorted").c_str());
  }

  // The transform and back. Past 2^32, suffix sorting needs more memory than many machines
  // have: a refusal before any output (exit 2, one line) is the right answer there.
  const auto bwt = ktext({"--backend", b, "bwt", "t", "-o", "t.bwt"});
  const bool refused = past_4g && bwt.exit_code == 2;
  if (refused) {
    expect_one_error_line(bwt, "bwt past 2^32");
    EXPECT_NE(bwt.err.find("free"), std::string::npos) << bwt.err;
    EXPECT_FALSE(file_exists(dir.path("t.bwt")));
    std::printf("bwt of %llu bytes refused: %s", static_cast<unsigned long long>(n), bwt.err.c_str());
  } else {
    ASSERT_EQ(bwt.exit_code, 0) << bwt.err;
    const auto back = ktext({"--backend", b, "unbwt", "t.bwt", "-o", "back"});
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_TRUE(same_files(dir.path("t"), dir.path("back")));
    std::remove(dir.path("back").c_str());
    std::remove(dir.path("t.bwt").c_str());

    // Patterns of 24 random letters occur once (4^24 >> n, barring a 1 in 10^5 coincidence),
    // so each must be found at exactly its position.
    const auto index = ktext({"--backend", b, "index", "t", "-o", "t.idx"});
    ASSERT_EQ(index.exit_code, 0) << index.err;
    const auto found = ktext({"--backend", b, "search", "t.idx", "--locate", t.head, t.tail, t.across});
    ASSERT_EQ(found.exit_code, 0) << found.err;
    EXPECT_EQ(found.out, "1\t0\n1\t" + std::to_string(n - 24) + "\n1\t" + std::to_string(t.across_at) + "\n");
    std::remove(dir.path("t.idx").c_str());
  }

  // A wavelet matrix: access at the probes, rank of 'a' over the whole text, and one position
  // past the end refused.
  const auto wm = ktext({"--backend", b, "wt", "build", "t", "-o", "t.wm", "--matrix"});
  ASSERT_EQ(wm.exit_code, 0) << wm.err;
  std::string probes;
  for (const std::uint64_t p : {std::uint64_t(0), kTwo31 - 1, kTwo31, n - 1})
    if (p < n) probes += std::to_string(p) + "\n";
  put("access", bytes_of(probes));
  const auto access = ktext({"--backend", b, "wt", "query", "t.wm", "--op", "access", "-f", "access"});
  EXPECT_EQ(access.exit_code, 0) << access.err;
  EXPECT_EQ(access.out, t.at_probes);
  put("rank", bytes_of("97 " + std::to_string(n) + "\n"));
  EXPECT_EQ(ktext({"--backend", b, "wt", "query", "t.wm", "--op", "rank", "-f", "rank"}).out,
            std::to_string(t.a_count) + "\n");
  put("past", bytes_of(std::to_string(n) + "\n"));
  EXPECT_EQ(ktext({"--backend", b, "wt", "query", "t.wm", "--op", "access", "-f", "past"}).exit_code, 2);
}

INSTANTIATE_TEST_SUITE_P(Sizes, Large,
                         ::testing::Values(kTwo31 - 1, kTwo31, kTwo31 + 1, (std::uint64_t(1) << 32) + 7),
                         [](const ::testing::TestParamInfo<std::uint64_t>& info) { return "n" + std::to_string(info.param); });

}  // namespace
}  // namespace ktext::cli_test
