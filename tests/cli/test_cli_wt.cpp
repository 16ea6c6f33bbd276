// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext wt build / query against the CLI contract: access, rank and select answers against a
// naive scan for the wavelet tree and matrix on every backend, query files with bad lines or
// positions refused with exit 2, and wavelet files that are damaged or forged refused with
// exit 3, never leaving an output file behind.
#include <gtest/gtest.h>

#include <ktext/core/container.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace ktext::cli_test {
namespace {

namespace kc = ktext::container;

struct Queries {
  std::string access, rank, select;                 // query files
  std::string access_out, rank_out, select_out;     // expected answers
};

Queries queries_for(const Bytes& t, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  Queries q;
  std::vector<std::vector<std::uint64_t>> pos(256);
  for (std::uint64_t i = 0; i < t.size(); ++i) pos[t[i]].push_back(i);
  for (int k = 0; k < 300 && !t.empty(); ++k) {
    const std::uint64_t i = k < 2 ? (k == 0 ? 0 : t.size() - 1) : rng() % t.size();
    q.access += std::to_string(i) + "\n";
    q.access_out += std::to_string(t[i]) + "\n";
  }
  for (int k = 0; k < 300; ++k) {
    const unsigned c = k < 256 ? unsigned(k) : unsigned(t.empty() ? 0 : t[rng() % t.size()]);
    const std::uint64_t i = k % 3 == 0 ? t.size() : rng() % (t.size() + 1);
    std::uint64_t r = 0;
    while (r < pos[c].size() && pos[c][r] < i) ++r;
    q.rank += std::to_string(c) + (k % 2 ? "\t" : " ") + std::to_string(i) + (k % 5 == 0 ? " \r" : "") + "\n";
    q.rank_out += std::to_string(r) + "\n";
    const std::uint64_t kk = k % 7 == 0 ? pos[c].size() + 1 : k % 11 == 0 ? 0 : 1 + rng() % (pos[c].size() + 1);
    q.select += std::to_string(c) + " " + std::to_string(kk) + "\n";
    q.select_out += (kk >= 1 && kk <= pos[c].size() ? std::to_string(pos[c][kk - 1]) : std::string("-1")) + "\n";
  }
  return q;
}

std::vector<std::string> wt_backends() {
  std::vector<std::string> b{"serial"};
  if (KTEXT_CLI_HAS_OPENMP) b.push_back("openmp");
  if (KTEXT_CLI_HAS_CUDA) b.push_back("cuda");
  return b;
}

class CliWt : public CliTest {};

TEST_F(CliWt, answers_match_a_naive_scan) {
  std::mt19937 rng(7);
  std::vector<std::pair<std::string, Bytes>> texts = {{"one", {'x'}}, {"unary", Bytes(1000, 'a')}};
  Bytes all;
  for (int c = 0; c < 256; ++c) all.push_back(std::uint8_t(c));
  texts.push_back({"all_bytes", all});
  Bytes text(5000);
  for (auto& c : text) c = std::uint8_t("ACGT\n\0"[rng() % 6]);
  texts.push_back({"dna_nul", text});
  for (auto& c : text) c = std::uint8_t(rng() % 97 + 20);
  texts.push_back({"random97", text});
  for (const auto& [name, t] : texts) {
    const Queries q = queries_for(t, 3);
    put("t", t);
    put("a.q", bytes_of(q.access));
    put("r.q", bytes_of(q.rank));
    put("s.q", bytes_of(q.select));
    for (const std::string& backend : wt_backends())
      for (const bool matrix : {false, true}) {
        const std::string what = name + " " + backend + (matrix ? " matrix" : " tree");
        Names build{"--backend", backend, "-q", "wt", "build", "t", "-o", "w"};
        if (matrix) build.push_back("--matrix");
        ASSERT_EQ(ktext(build).exit_code, 0) << what;
        const auto a = ktext({"--backend", backend, "-q", "wt", "query", "w", "--op", "access", "-f", "a.q"});
        EXPECT_EQ(a.exit_code, 0) << what << a.err;
        EXPECT_EQ(a.out, q.access_out) << what;
        const auto r = ktext({"--backend", backend, "-q", "wt", "query", "w", "--op", "rank", "-f", "r.q"});
        EXPECT_EQ(r.out, q.rank_out) << what << r.err;
        const auto s = ktext({"--backend", backend, "-q", "wt", "query", "w", "--op", "select", "-f", "-", "-o", "out"},
                             dir.path("s.q"));
        EXPECT_EQ(s.exit_code, 0) << what << s.err;
        EXPECT_EQ(read_file(dir.path("out")), bytes_of(q.select_out)) << what;
      }
  }
}

TEST_F(CliWt, empty_text_and_empty_query_file) {
  put("t", {});
  put("none", {});
  put("r.q", bytes_of("0 0\n255 0\n"));
  put("s.q", bytes_of("0 1\n"));
  for (const bool matrix : {false, true}) {
    Names build{"-q", "wt", "build", "t", "-o", "w"};
    if (matrix) build.push_back("--matrix");
    ASSERT_EQ(ktext(build).exit_code, 0);
    EXPECT_EQ(ktext({"-q", "wt", "query", "w", "--op", "rank", "-f", "r.q"}).out, "0\n0\n");
    EXPECT_EQ(ktext({"-q", "wt", "query", "w", "--op", "select", "-f", "s.q"}).out, "-1\n");
    const auto none = ktext({"-q", "wt", "query", "w", "--op", "access", "-f", "none"});
    EXPECT_EQ(none.exit_code, 0);
    EXPECT_EQ(none.out, "");
  }
}

TEST_F(CliWt, bad_queries_exit_2_without_output) {
  put("t", bytes_of("abracadabra"));
  ASSERT_EQ(ktext({"-q", "wt", "build", "t", "-o", "w"}).exit_code, 0);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"access", "11\n"},  {"access", "x\n"},     {"access", "1 2\n"},     {"access", "\n"},
      {"rank", "97\n"},    {"rank", "256 1\n"},   {"rank", "97 12\n"},     {"rank", "97 -1\n"},
      {"select", "97 1x\n"}, {"access", "99999999999999999999\n"}, {"rank", "97 1 2\n"}};
  for (const auto& [op, line] : bad) {
    put("q", bytes_of("0\n" + line));
    const auto r = ktext({"wt", "query", "w", "--op", op, "-f", "q", "-o", "out"});
    EXPECT_EQ(r.exit_code, 2) << op << " '" << line << "'";
    expect_one_error_line(r, line);
    EXPECT_EQ(r.err.rfind("ktext: error: 'q': ", 0), 0u) << "names the query file once, quoted once: " << r.err;
    EXPECT_FALSE(file_exists(dir.path("out"))) << line;
  }
  EXPECT_EQ(ktext({"wt", "query", "w", "--op", "count", "-f", "q"}).exit_code, 1);
  EXPECT_EQ(ktext({"wt", "query", "w", "--op", "rank"}).exit_code, 1);
  EXPECT_EQ(ktext({"wt"}).exit_code, 1);
}

TEST_F(CliWt, damaged_and_forged_files_exit_3) {
  Bytes text(3000);
  std::mt19937 rng(5);
  for (auto& c : text) c = std::uint8_t('a' + rng() % 5);
  put("t", text);
  put("q", bytes_of("0\n"));
  for (const bool matrix : {false, true}) {
    Names build{"-q", "wt", "build", "t", "-o", "w"};
    if (matrix) build.push_back("--matrix");
    ASSERT_EQ(ktext(build).exit_code, 0);
    const Bytes good = read_file(dir.path("w"));
    // Every 97th byte flipped, and truncations: the checksums or the structure catch each one.
    for (std::size_t at = 0; at < good.size(); at += 97) {
      Bytes bad = good;
      bad[at] ^= 0x10;
      put("bad", bad);
      const auto r = ktext({"wt", "query", "bad", "--op", "access", "-f", "q", "-o", "out"});
      EXPECT_EQ(r.exit_code, 3) << "flip at " << at;
      EXPECT_FALSE(file_exists(dir.path("out")));
    }
    put("bad", Bytes(good.begin(), good.begin() + std::ptrdiff_t(good.size() / 2)));
    EXPECT_EQ(ktext({"wt", "query", "bad", "--op", "access", "-f", "q"}).exit_code, 3);
    EXPECT_EQ(ktext({"info", "bad"}).exit_code, 3);
    // Forged with valid checksums: bits set in a level's padding; an alphabet out of order.
    const kc::Container c = kc::read_container(good);
    kc::Writer w(c.kind);
    for (const auto& kv : c.metadata) w.set_meta(kv.first, kv.second);
    Bytes levels(c.require(kc::kSectionLevels).data,
                 c.require(kc::kSectionLevels).data + c.require(kc::kSectionLevels).size);
    levels[levels.size() - 1] |= 0x80;
    Bytes alphabet(c.require(kc::kSectionAlphabet).data,
                   c.require(kc::kSectionAlphabet).data + c.require(kc::kSectionAlphabet).size);
    w.add_section(kc::kSectionLevels, levels.data(), levels.size(), 8);
    w.add_section(kc::kSectionAlphabet, alphabet.data(), alphabet.size(), 1);
    put("forged", w.bytes());
    const auto f = ktext({"wt", "query", "forged", "--op", "access", "-f", "q"});
    EXPECT_EQ(f.exit_code, 3) << f.err;
    EXPECT_NE(f.err.find("bits set"), std::string::npos) << f.err;
    EXPECT_EQ(ktext({"info", "forged"}).exit_code, 3);
    kc::Writer w2(c.kind);
    for (const auto& kv : c.metadata) w2.set_meta(kv.first, kv.second);
    std::swap(alphabet[0], alphabet[1]);
    Bytes good_levels(c.require(kc::kSectionLevels).data,
                      c.require(kc::kSectionLevels).data + c.require(kc::kSectionLevels).size);
    w2.add_section(kc::kSectionLevels, good_levels.data(), good_levels.size(), 8);
    w2.add_section(kc::kSectionAlphabet, alphabet.data(), alphabet.size(), 1);
    put("forged", w2.bytes());
    EXPECT_EQ(ktext({"wt", "query", "forged", "--op", "access", "-f", "q"}).exit_code, 3);
  }
  // A file of another kind.
  ASSERT_EQ(ktext({"-q", "bwt", "t", "-o", "b"}).exit_code, 0);
  EXPECT_EQ(ktext({"wt", "query", "b", "--op", "access", "-f", "q"}).exit_code, 3);
}

TEST_F(CliWt, index_with_a_wavelet_matrix_counts_like_the_table) {
  Bytes text(20000);
  std::mt19937 rng(11);
  for (auto& c : text) c = std::uint8_t("abcab\0xy"[rng() % 8]);
  put("t", text);
  put("p", bytes_of("a\nab\nabc\nxyx\nq\n\nbca\n"));
  ASSERT_EQ(ktext({"-q", "index", "t", "-o", "table.idx"}).exit_code, 0);
  ASSERT_EQ(ktext({"-q", "index", "t", "-o", "wm.idx", "--occ", "wm"}).exit_code, 0);
  const auto a = ktext({"-q", "search", "table.idx", "-f", "p", "--locate"});
  const auto b = ktext({"-q", "search", "wm.idx", "-f", "p", "--locate"});
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
  const auto info = ktext({"info", "wm.idx"});
  EXPECT_NE(info.out.find("occurrences: 2"), std::string::npos) << info.out;
  EXPECT_EQ(ktext({"index", "t", "-o", "x.idx", "--occ", "tree"}).exit_code, 1);
}

}  // namespace
}  // namespace ktext::cli_test
