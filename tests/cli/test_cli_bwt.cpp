// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext bwt / unbwt / lcp / info against the CLI contract: known outputs, round trips through
// the CLI, naive LCP, and corrupt containers refused with exit 3 and no output left behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <ktext/core/container.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace ktext::cli_test {
namespace {

namespace kc = ktext::container;
std::vector<std::pair<std::string, Bytes>> round_trip_texts() {
  Bytes nuls = bytes_of("ab");
  nuls.insert(nuls.end(), 40, 0);
  nuls.push_back('c');
  nuls.insert(nuls.end(), 7, 0);
  Bytes all;
  for (int v = 0; v < 256; ++v) all.push_back(static_cast<std::uint8_t>(v));
  for (int v = 255; v >= 0; v -= 3) all.push_back(static_cast<std::uint8_t>(v));
  std::mt19937 rng(11);
  Bytes random(2500);
  for (auto& c : random) c = static_cast<std::uint8_t>(rng() % 5);
  return {{"banana", bytes_of("banana")}, {"one_byte", bytes_of("x")}, {"nul_bytes", nuls},
          {"all_256", all},               {"run", Bytes(1000, 'A')},   {"random", random}};
}

std::vector<std::int64_t> naive_lcp(const Bytes& text) {
  const auto sa = naive_suffix_array(text);
  std::vector<std::int64_t> lcp(sa.size(), 0);
  for (std::size_t i = 1; i < sa.size(); ++i) {
    std::size_t a = std::size_t(sa[i - 1]), b = std::size_t(sa[i]), h = 0;
    while (a + h < text.size() && b + h < text.size() && text[a + h] == text[b + h]) ++h;
    lcp[i] = std::int64_t(h);
  }
  return lcp;
}

void put_le(Bytes& b, std::size_t at, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i) b[at + std::size_t(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

void reseal_header(Bytes& b) {
  put_le(b, 20, 0, 4);
  put_le(b, 20, kc::crc32_of(b.data(), 64), 4);
}

class CliBwt : public CliTest {};

TEST_F(CliBwt, BananaContainerAndRaw) {
  put("t", bytes_of("banana"));
  const auto r = ktext({"bwt", "t", "-o", "t.bwt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Bytes file = read_file(dir.path("t.bwt"));
  const kc::Container c = kc::read_container(file, kc::Kind::bwt);
  EXPECT_EQ(c.meta(kc::kMetaN), 6u);
  EXPECT_EQ(c.meta(kc::kMetaPrimaryIndex), 4u);
  const kc::Section& s = c.require(kc::kSectionBwt);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(s.data), s.size), "annbaa");

  const auto raw = ktext({"bwt", "t", "-o", "t.raw", "--raw"});
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_EQ(read_file(dir.path("t.raw")), bytes_of("annbaa"));
  EXPECT_NE(raw.out.find("primary index: 4"), std::string::npos) << raw.out;

  for (const Names& args : {Names{"--json", "bwt", "t", "-o", "j.raw", "--raw"}, Names{"bwt", "t", "-o", "j.bwt", "--json"}}) {
    const auto j = ktext(args);
    ASSERT_EQ(j.exit_code, 0) << j.err;
    const auto report = nlohmann::json::parse(j.out);
    EXPECT_EQ(report.at("command"), "bwt");
    EXPECT_EQ(report.at("primary_index"), 4);
    EXPECT_EQ(report.at("n"), 6);
  }
  EXPECT_EQ(read_file(dir.path("j.raw")), bytes_of("annbaa"));
  // -q silences the summary, never the primary index a raw transform cannot be inverted without.
  EXPECT_EQ(ktext({"-q", "bwt", "t", "-o", "q.raw", "--raw"}).out, "primary index: 4\n");
  EXPECT_EQ(ktext({"-q", "bwt", "t", "-o", "q.bwt"}).out, "");
}

TEST_F(CliBwt, UnbwtInvertsBwtThroughTheCli) {
  int i = 0;
  for (const auto& [name, text] : round_trip_texts()) {
    put(name, text);
    // Alternate the backends so each one inverts both kinds of input.
    const std::string backend = (i++ % 2 == 0) ? "serial" : "auto";
    ASSERT_EQ(ktext({"bwt", name, "-o", name + ".bwt", "--backend", backend}).exit_code, 0) << name;
    const auto u = ktext({"unbwt", name + ".bwt", "-o", name + ".out", "--backend", backend});
    ASSERT_EQ(u.exit_code, 0) << name << " " << u.err;
    EXPECT_EQ(read_file(dir.path(name + ".out")), text) << name;

    const auto raw = ktext({"--json", "bwt", name, "-o", name + ".raw", "--raw"});
    ASSERT_EQ(raw.exit_code, 0) << name << " " << raw.err;
    const auto primary = nlohmann::json::parse(raw.out).at("primary_index").get<std::uint64_t>();
    const auto ur = ktext({"unbwt", name + ".raw", "-o", name + ".out2", "--primary", std::to_string(primary)});
    ASSERT_EQ(ur.exit_code, 0) << name << " " << ur.err;
    EXPECT_EQ(read_file(dir.path(name + ".out2")), text) << name;
  }
}

TEST_F(CliBwt, UnbwtPrimaryRules) {
  put("t", bytes_of("banana"));
  put("t.raw", bytes_of("annbaa"));
  ASSERT_EQ(ktext({"bwt", "t", "-o", "t.bwt"}).exit_code, 0);
  // Out of [1, n] and not-a-transform pairs are verification failures: exit 3.
  for (const std::string k : {"0", "7", "2"}) {
    const auto r = ktext({"unbwt", "t.raw", "-o", "out", "--primary", k});
    EXPECT_EQ(r.exit_code, 3) << k << " " << r.err;
    expect_one_error_line(r, "--primary " + k);
  }
  // Usage errors: a raw input without --primary, a --primary that contradicts the container.
  const auto no_primary = ktext({"unbwt", "t.raw", "-o", "out"});
  EXPECT_EQ(no_primary.exit_code, 1) << no_primary.err;
  EXPECT_NE(no_primary.err.find("--primary"), std::string::npos) << no_primary.err;
  EXPECT_EQ(ktext({"unbwt", "t.bwt", "-o", "out", "--primary", "3"}).exit_code, 1);
  EXPECT_EQ(ktext({"unbwt", "t.bwt", "-o", "out", "--primary", "4"}).exit_code, 0);  // agreeing is fine
  EXPECT_EQ(read_file(dir.path("out")), bytes_of("banana"));
  EXPECT_EQ(dir.list(), (Names{"out", "t", "t.bwt", "t.raw"}));
}

TEST_F(CliBwt, LcpMatchesNaive) {
  Bytes nuls(30, 0);
  nuls.push_back(1);
  nuls.insert(nuls.end(), 20, 0);
  std::mt19937 rng(5);
  Bytes dna(2000);
  for (auto& c : dna) c = "ACGT"[rng() % 4];
  for (const auto& [name, text] : std::vector<std::pair<std::string, Bytes>>{{"banana", bytes_of("banana")}, {"nuls", nuls}, {"dna", dna}}) {
    put(name, text);
    const auto expected = naive_lcp(text);
    for (const int w : {4, 8}) {
      const auto r = ktext({"lcp", name, "-o", name + ".lcp", "--width", std::to_string(w)});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const Bytes out = read_file(dir.path(name + ".lcp"));
      ASSERT_EQ(out.size(), text.size() * std::size_t(w)) << name;
      EXPECT_EQ(decode_le(out.data(), out.size(), w), expected) << name << " width " << w;
    }
    const auto r = ktext({"lcp", name, "-o", name + ".npy", "--format", "npy"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Bytes npy = read_file(dir.path(name + ".npy"));
    ASSERT_GE(npy.size(), 64u);
    EXPECT_EQ(std::memcmp(npy.data(), "\x93NUMPY", 6), 0);
    const std::size_t header = npy[8] | std::size_t(npy[9]) << 8;
    const std::string dict(npy.begin() + 10, npy.begin() + 10 + std::ptrdiff_t(header));
    EXPECT_NE(dict.find("'<i4'"), std::string::npos) << dict;
    ASSERT_EQ(npy.size(), 10 + header + text.size() * 4);
    EXPECT_EQ(decode_le(npy.data() + 10 + header, text.size() * 4, 4), expected) << name << " npy";
  }
}

TEST_F(CliBwt, InfoDescribesAGoodFile) {
  put("t", bytes_of("banana"));
  ASSERT_EQ(ktext({"bwt", "t", "-o", "t.bwt"}).exit_code, 0);
  const auto r = ktext({"info", "t.bwt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("kind bwt"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("primary_index: 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("checksums ok"), std::string::npos) << r.out;
  const auto j = ktext({"info", "t.bwt", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto report = nlohmann::json::parse(j.out);
  EXPECT_EQ(report.at("command"), "info");
  EXPECT_EQ(report.at("kind"), "bwt");
  EXPECT_EQ(report.at("version"), 1);
  EXPECT_EQ(report.at("metadata").at("primary_index"), 4);
  EXPECT_EQ(report.at("metadata").at("n"), 6);
  ASSERT_EQ(report.at("sections").size(), 2u);
  for (const auto& s : report.at("sections")) EXPECT_EQ(s.at("checksum"), "ok");
  // Not a container: exit 3.
  const auto bad = ktext({"info", "t"});
  EXPECT_EQ(bad.exit_code, 3) << bad.err;
  EXPECT_NE(bad.err.find("not a ktext file"), std::string::npos) << bad.err;
}

TEST_F(CliBwt, CorruptContainersAreRefused) {
  Bytes text;
  for (int i = 0; i < 40; ++i) for (char c : std::string("mississippi")) text.push_back(std::uint8_t(c));
  put("t", text);
  ASSERT_EQ(ktext({"bwt", "t", "-o", "t.bwt"}).exit_code, 0);
  const Bytes good = read_file(dir.path("t.bwt"));
  const kc::Container c = kc::read_container(good);
  const std::size_t meta = std::size_t(c.require(kc::kSectionMeta).offset);
  const std::size_t data = std::size_t(c.require(kc::kSectionBwt).offset);

  struct Case {
    std::string what;
    Bytes bytes;
    std::string message;  ///< part of the expected error
  };
  std::vector<Case> cases;
  auto flipped = [&](std::size_t at) {
    Bytes b = good;
    b[at] ^= 0x01;
    return b;
  };
  cases.push_back({"header count", flipped(12), "checksum mismatch in the header"});
  cases.push_back({"header size", flipped(25), "checksum mismatch in the header"});
  cases.push_back({"section table", flipped(64 + 8), "checksum mismatch in the section table"});
  cases.push_back({"metadata", flipped(meta + 8 + 8), "checksum mismatch in section 'meta'"});
  cases.push_back({"data", flipped(data + 100), "checksum mismatch in section 'bwt'"});
  for (const std::size_t len : {std::size_t(6), std::size_t(40), std::size_t(64), std::size_t(100), meta + 10, data, data + 200,
                                good.size() - 1})
    cases.push_back({"truncated at " + std::to_string(len), Bytes(good.begin(), good.begin() + std::ptrdiff_t(len)), "truncated"});
  Bytes b = good;
  put_le(b, 6, 7, 2);
  reseal_header(b);
  cases.push_back({"future version", b, "format version 7 is newer than this ktext (1)"});
  b = good;
  put_le(b, 8, 3, 4);
  reseal_header(b);
  cases.push_back({"wrong kind", b, "this is a wavelet_tree file, expected bwt"});

  for (const Case& k : cases) {
    put("bad", k.bytes);
    const auto r = ktext({"unbwt", "bad", "-o", "out"});
    EXPECT_EQ(r.exit_code, 3) << k.what << ": " << r.err;
    expect_one_error_line(r, k.what);
    EXPECT_NE(r.err.find(k.message), std::string::npos) << k.what << ": " << r.err;
    EXPECT_EQ(dir.list(), (Names{"bad", "t", "t.bwt"})) << k.what;
    if (k.what != "wrong kind") {  // info accepts every kind
      const auto i = ktext({"info", "bad"});
      EXPECT_EQ(i.exit_code, 3) << k.what << ": " << i.err;
      expect_one_error_line(i, k.what);
    }
  }
  // Wrong magic: info refuses it; unbwt takes it for a raw transform, which needs --primary.
  b = good;
  b[1] = 'x';
  put("bad", b);
  const auto i = ktext({"info", "bad"});
  EXPECT_EQ(i.exit_code, 3);
  EXPECT_NE(i.err.find("not a ktext file"), std::string::npos) << i.err;
  EXPECT_EQ(ktext({"unbwt", "bad", "-o", "out"}).exit_code, 1);
  EXPECT_EQ(dir.list(), (Names{"bad", "t", "t.bwt"}));
}

TEST_F(CliBwt, CrosscheckCoversBwtUnbwtAndLcp) {
  put("a", bytes_of("abracadabra abracadabra"));
  const auto r = ktext({"crosscheck", "a", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("ok"), true);
  const auto& in = j.at("inputs").at(0);
  for (const char* key : {"agree", "bwt_agree", "lcp_agree", "unbwt_roundtrip", "lcp_valid", "valid"})
    EXPECT_EQ(in.at(key), true) << key;
  std::vector<std::string> stages;
  for (const auto& run : j.at("runs")) {
    stages.push_back(run.at("stage"));
    EXPECT_EQ(run.at("result"), "ok");
  }
  for (const char* stage : {"sa", "bwt", "unbwt", "lcp"})
    EXPECT_NE(std::find(stages.begin(), stages.end(), stage), stages.end()) << stage;
}

TEST_F(CliBwt, NewCommandsUsageErrors) {
  put("in", bytes_of("banana"));
  const std::vector<Names> cases = {{"bwt", "in"},
                                    {"bwt", "-o", "out"},
                                    {"bwt", "in", "-o", "-", "--json"},
                                    {"unbwt", "in"},
                                    {"unbwt", "in", "-o", "out", "--primary", "x"},
                                    {"lcp", "in", "-o", "out", "--width", "3"},
                                    {"lcp", "in", "-o", "out", "--format", "csv"},
                                    {"info"}};
  for (const Names& args : cases) {
    const auto r = ktext(args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << " " << r.err;
    EXPECT_EQ(dir.list(), Names{"in"}) << args[0];
  }
  EXPECT_EQ(ktext({"bwt", "missing", "-o", "out"}).exit_code, 2);
  EXPECT_EQ(ktext({"info", "missing"}).exit_code, 2);
  EXPECT_EQ(dir.list(), Names{"in"});
}

}  // namespace
}  // namespace ktext::cli_test
