// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext index / search against the CLI contract: counts and positions against a naive scan,
// pattern sources and their order, every backend alike, and index files that are corrupt,
// truncated or of another kind refused with exit 3 and no output left behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <ktext/core/container.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace ktext::cli_test {
namespace {

namespace kc = ktext::container;
/// The expected line of `search` for one pattern: overlapping occurrences by brute force.
std::string naive_line(const Bytes& text, const Bytes& pattern, bool locate) {
  std::vector<std::size_t> hits;
  for (std::size_t i = 0; i + pattern.size() <= text.size(); ++i)
    if (std::equal(pattern.begin(), pattern.end(), text.begin() + std::ptrdiff_t(i))) hits.push_back(i);
  std::string line = std::to_string(hits.size());
  if (locate) {
    line += '\t';
    for (std::size_t k = 0; k < hits.size(); ++k) line += (k ? "," : "") + std::to_string(hits[k]);
  }
  return line + "\n";
}

std::string naive_output(const Bytes& text, const std::vector<Bytes>& patterns, bool locate) {
  std::string out;
  for (const Bytes& p : patterns) out += naive_line(text, p, locate);
  return out;
}

Bytes lines(const std::vector<Bytes>& patterns) {
  Bytes b;
  for (const Bytes& p : patterns) {
    b.insert(b.end(), p.begin(), p.end());
    b.push_back('\n');
  }
  return b;
}

/// Patterns for a text: substrings, absent bytes, NUL bytes, the empty pattern, one longer
/// than the text, and every byte value (no '\n' inside: they travel as lines).
std::vector<Bytes> patterns_for(const Bytes& text, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Bytes> ps;
  for (int k = 0; k < 60 && !text.empty(); ++k) {
    const std::size_t pos = rng() % text.size();
    const std::size_t m = std::min<std::size_t>(1 + rng() % 12, text.size() - pos);
    Bytes p(text.begin() + std::ptrdiff_t(pos), text.begin() + std::ptrdiff_t(pos + m));
    if (std::find(p.begin(), p.end(), '\n') == p.end()) ps.push_back(p);
  }
  ps.push_back({});
  ps.push_back({0});
  ps.push_back({0, 0});
  ps.push_back({'z', 'q', 0xff});
  Bytes longer = text;
  longer.erase(std::remove(longer.begin(), longer.end(), '\n'), longer.end());
  longer.push_back('a');
  longer.push_back('a');
  ps.push_back(longer);
  for (int v = 0; v < 256; ++v)
    if (v != '\n') ps.push_back({std::uint8_t(v)});
  return ps;
}

std::vector<std::pair<std::string, Bytes>> search_texts() {
  Bytes nuls = bytes_of("ab");
  nuls.insert(nuls.end(), 40, 0);
  nuls.push_back('c');
  nuls.insert(nuls.end(), 7, 0);
  Bytes all;
  for (int v = 0; v < 256; ++v) all.push_back(std::uint8_t(v));
  for (int v = 255; v >= 0; v -= 3) all.push_back(std::uint8_t(v));
  std::mt19937 rng(5);
  Bytes random(3000);
  for (auto& c : random) c = std::uint8_t("acgt"[rng() % 4]);
  Bytes fib = bytes_of("a"), prev = bytes_of("b");
  while (fib.size() < 700) {
    Bytes next = fib;
    next.insert(next.end(), prev.begin(), prev.end());
    prev = fib;
    fib = next;
  }
  return {{"banana", bytes_of("mississippi banana bandana")}, {"one", bytes_of("x")}, {"nul_bytes", nuls},
          {"all_256", all}, {"run", Bytes(1000, 'A')}, {"random_dna", random}, {"fibonacci", fib}};
}

class CliSearch : public CliTest {};

/// \p good with section \p id changed by \p change and every checksum made valid again.
template <class Change>
Bytes forge(const Bytes& good, std::uint32_t id, Change&& change) {
  const kc::Container c = kc::read_container(good);
  kc::Writer w(c.kind);
  for (const auto& [key, value] : c.metadata) w.set_meta(key, value);
  std::vector<Bytes> keep;
  keep.reserve(c.sections.size());
  for (const kc::Section& s : c.sections) {
    if (s.id == kc::kSectionMeta) continue;
    keep.emplace_back(s.data, s.data + s.size);
    if (s.id == id) change(keep.back());
    w.add_section(s.id, keep.back().data(), keep.back().size(), s.element_width);
  }
  return w.bytes();
}

TEST_F(CliSearch, CountsAndPositionsMatchANaiveScan) {
  int i = 0;
  for (const auto& [name, text] : search_texts()) {
    put(name, text);
    const auto patterns = patterns_for(text, 17 + i);
    put(name + ".p", lines(patterns));
    // Small and large sample rates, alternating backends.
    const std::string rate = (i % 2 == 0) ? "1" : "13";
    const std::string backend = (i++ % 2 == 0) ? "serial" : "auto";
    const auto built = ktext({"index", name, "-o", name + ".idx", "--sample-rate", rate, "--backend", backend});
    ASSERT_EQ(built.exit_code, 0) << name << " " << built.err;
    const auto counts = ktext({"search", name + ".idx", "-f", name + ".p", "--backend", backend});
    ASSERT_EQ(counts.exit_code, 0) << name << " " << counts.err;
    EXPECT_EQ(counts.out, naive_output(text, patterns, false)) << name;
    const auto located = ktext({"search", name + ".idx", "-f", name + ".p", "--locate", "-o", name + ".out"});
    ASSERT_EQ(located.exit_code, 0) << name << " " << located.err;
    const Bytes got = read_file(dir.path(name + ".out"));
    EXPECT_EQ(std::string(got.begin(), got.end()), naive_output(text, patterns, true)) << name;
  }
}

TEST_F(CliSearch, PatternSourcesAndLineRules) {
  const Bytes text = bytes_of("abracadabra\r\nabra");
  put("t", text);
  ASSERT_EQ(ktext({"index", "t", "-o", "t.idx"}).exit_code, 0);
  // Arguments first, then the file's lines; a last line without '\n' counts, '\r' is a byte.
  put("p", bytes_of("abra\r\n\nbra"));
  const auto r = ktext({"search", "t.idx", "cad", "a", "-f", "p", "--locate"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, naive_output(text, {bytes_of("cad"), bytes_of("a"), bytes_of("abra\r"), {}, bytes_of("bra")}, true));
  // Patterns from standard input; an empty pattern file gives no lines.
  const auto from_stdin = ktext({"search", "t.idx", "-f", "-"}, dir.path("p"));
  ASSERT_EQ(from_stdin.exit_code, 0) << from_stdin.err;
  EXPECT_EQ(from_stdin.out, naive_output(text, {bytes_of("abra\r"), {}, bytes_of("bra")}, false));
  put("empty", {});
  const auto none = ktext({"search", "t.idx", "-f", "empty"});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_TRUE(none.out.empty());
  // Zero occurrences with --locate: the count, a tab, nothing after it.
  EXPECT_EQ(ktext({"search", "t.idx", "--locate", "zz"}).out, "0\t\n");
}

TEST_F(CliSearch, BackendsAndSampleRatesAgree) {
  std::mt19937 rng(9);
  Bytes text(20000);
  for (auto& c : text) c = std::uint8_t(rng() % 3 == 0 ? 'a' : 'a' + rng() % 20);
  put("t", text);
  std::vector<Bytes> patterns;
  for (int k = 0; k < 300; ++k) {
    const std::size_t pos = rng() % (text.size() - 10);
    patterns.emplace_back(text.begin() + std::ptrdiff_t(pos), text.begin() + std::ptrdiff_t(pos + 1 + rng() % 8));
  }
  put("p", lines(patterns));
  const std::string want = naive_output(text, patterns, true);
  Names backends = {"serial", "auto"};
  if (KTEXT_CLI_HAS_OPENMP) backends.push_back("openmp");
  for (const std::string rate : {"1", "32", "997"}) {
    ASSERT_EQ(ktext({"index", "t", "-o", "t" + rate + ".idx", "--sample-rate", rate}).exit_code, 0);
    for (const std::string& b : backends) {
      const auto r = ktext({"search", "t" + rate + ".idx", "-f", "p", "--locate", "--backend", b});
      ASSERT_EQ(r.exit_code, 0) << b << " " << r.err;
      EXPECT_EQ(r.out, want) << "backend " << b << ", sample rate " << rate;
    }
  }
}

TEST_F(CliSearch, JsonReportsAndInfo) {
  put("t", bytes_of("mississippi"));
  const auto built = ktext({"--json", "index", "t", "-o", "t.idx", "--sample-rate", "4"});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const auto report = nlohmann::json::parse(built.out);
  EXPECT_EQ(report.at("command"), "index");
  EXPECT_EQ(report.at("n"), 11);
  EXPECT_EQ(report.at("sample_rate"), 4);
  EXPECT_EQ(report.at("alphabet_size"), 4);
  EXPECT_EQ(report.at("file_bytes").get<std::uint64_t>(), read_file(dir.path("t.idx")).size());

  const auto searched = ktext({"--json", "search", "t.idx", "ss", "i", "-o", "r"});
  ASSERT_EQ(searched.exit_code, 0) << searched.err;
  const auto s = nlohmann::json::parse(searched.out);
  EXPECT_EQ(s.at("command"), "search");
  EXPECT_EQ(s.at("patterns"), 2);
  EXPECT_EQ(s.at("occurrences"), 6);
  const Bytes r = read_file(dir.path("r"));
  EXPECT_EQ(std::string(r.begin(), r.end()), "2\n4\n");

  const auto info = ktext({"--json", "info", "t.idx"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const auto i = nlohmann::json::parse(info.out);
  EXPECT_EQ(i.at("kind"), "fm_index");
  EXPECT_EQ(i.at("metadata").at("sample_rate"), 4);
}

TEST_F(CliSearch, CorruptIndexFilesAreRefused) {
  put("t", bytes_of("she sells sea shells by the sea shore"));
  ASSERT_EQ(ktext({"index", "t", "-o", "t.idx", "--sample-rate", "3"}).exit_code, 0);
  const Bytes good = read_file(dir.path("t.idx"));
  auto refused = [&](const Bytes& bad, const std::string& what) {
    put("bad.idx", bad);
    const auto r = ktext({"search", "bad.idx", "sea", "-o", "out"});
    EXPECT_EQ(r.exit_code, 3) << what << ": " << r.err;
    expect_one_error_line(r, what);
    EXPECT_FALSE(file_exists(dir.path("out"))) << what;
    // info runs the checks of the loader: it refuses every file that search refuses (but
    // another kind of valid container).
    if (what == "bwt container") return;
    const auto i = ktext({"info", "bad.idx"});
    EXPECT_EQ(i.exit_code, 3) << what << ": " << i.out;
    expect_one_error_line(i, what + " (info)");
  };
  for (std::size_t at = 0; at < good.size(); ++at) {
    Bytes bad = good;
    bad[at] ^= 0x20;
    refused(bad, "flipped byte " + std::to_string(at));
  }
  for (std::size_t size : {std::size_t(0), std::size_t(5), std::size_t(64), good.size() / 2, good.size() - 1})
    refused(Bytes(good.begin(), good.begin() + std::ptrdiff_t(size)), "truncated to " + std::to_string(size));
  Bytes longer = good;
  longer.push_back(0);
  refused(longer, "trailing byte");
  Bytes version = good;
  version[6] = 2;
  version[20] = version[21] = version[22] = version[23] = 0;
  const std::uint32_t crc = kc::crc32_of(version.data(), 64);
  for (int b = 0; b < 4; ++b) version[20 + std::size_t(b)] = std::uint8_t(crc >> (8 * b));
  refused(version, "newer version");
  // Another kind of container, and a file that is no container at all.
  ASSERT_EQ(ktext({"bwt", "t", "-o", "t.bwt"}).exit_code, 0);
  refused(read_file(dir.path("t.bwt")), "bwt container");
  refused(bytes_of("she sells sea shells"), "plain text");
  // Consistent checksums, inconsistent index: samples that are not multiples of the rate.
  refused(forge(good, kc::kSectionSamples, [](Bytes& b) { b[0] ^= 1; }), "samples off the rate");
  EXPECT_EQ(ktext({"search", "t.idx", "sea"}).out, "2\n");  // the original still works
}

// Starting the backends costs a GPU's start-up where there is one, so a damaged index or
// wavelet file is refused before they start. Seen on every build: --threads above the
// processors is clamped with a word on stderr when the backends start, so there the refusal
// must be stderr's only line, and a good file still gets the word (the test can tell).
TEST_F(CliSearch, DamagedFilesAreRefusedBeforeTheBackendsStart) {
  put("t", bytes_of("she sells sea shells by the sea shore"));
  put("q", bytes_of("0\n"));
  ASSERT_EQ(ktext({"-q", "index", "t", "-o", "t.idx"}).exit_code, 0);
  ASSERT_EQ(ktext({"-q", "wt", "build", "t", "-o", "t.wt"}).exit_code, 0);
  const Names search{"--threads", "100000", "search", "f", "sea", "-o", "found"};
  const Names query{"--threads", "100000", "wt", "query", "f", "--op", "access", "-f", "q", "-o", "answers"};
  for (const auto& [file, command] : {std::pair{std::string("t.idx"), search}, std::pair{std::string("t.wt"), query}}) {
    const Bytes good = read_file(dir.path(file));
    for (const std::size_t at : {std::size_t(3), std::size_t(40), good.size() - 1}) {
      Bytes bad = good;
      bad[at] ^= 0x04;
      put("f", bad);
      const auto r = ktext(command);
      EXPECT_EQ(r.exit_code, 3) << command[2] << ", flip at " << at << ": " << r.err;
      expect_one_error_line(r, command[2] + ", flip at " + std::to_string(at));
      EXPECT_FALSE(file_exists(dir.path(command.back())));
    }
    put("f", good);
    const auto ok = ktext(command);
    EXPECT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_NE(ok.err.find("processors"), std::string::npos) << command[2] << ": " << ok.err;
  }
}

TEST_F(CliSearch, VerifyRefusesIndexesThatPassTheCheapChecks) {
  const Bytes text = bytes_of("she sells sea shells by the sea shore; the shells she sells are sea shells");
  put("t", text);
  ASSERT_EQ(ktext({"index", "t", "-o", "t.idx", "--sample-rate", "3"}).exit_code, 0);
  const Bytes good = read_file(dir.path("t.idx"));
  EXPECT_EQ(ktext({"search", "t.idx", "--verify", "--locate", "sea"}).out, naive_line(text, bytes_of("sea"), true));
  const auto ok = ktext({"info", "t.idx", "--verify"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("contents verified"), std::string::npos) << ok.out;
  EXPECT_NE(ktext({"info", "t.idx"}).out.find("contents checked"), std::string::npos);

  // Two samples swapped (4-byte entries 1 and 2; position 0 sits elsewhere or stays put when the
  // two are equal): still distinct multiples of the rate, so only --verify can tell.
  const Bytes swapped = forge(good, kc::kSectionSamples, [](Bytes& b) {
    for (int k = 0; k < 4; ++k) std::swap(b[4 + std::size_t(k)], b[8 + std::size_t(k)]);
  });
  put("swapped.idx", swapped);
  EXPECT_EQ(ktext({"info", "swapped.idx"}).exit_code, 0);
  const auto r = ktext({"search", "swapped.idx", "--locate", "she", "sea", "s", "-o", "out"});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.err;  // wrong answers are what --verify is for
  for (const auto& args : {std::vector<std::string>{"info", "swapped.idx", "--verify"},
                           std::vector<std::string>{"search", "swapped.idx", "--verify", "sea", "-o", "verified"}}) {
    const auto v = ktext(args);
    EXPECT_EQ(v.exit_code, 3) << args[0] << ": " << v.out << v.err;
    EXPECT_NE(v.err.find("section 'samples' entry"), std::string::npos) << v.err;
  }
  EXPECT_FALSE(file_exists(dir.path("verified")));

  // A sample rate past n with two BWT bytes swapped: walks off the text's cycle end after at most
  // n + 1 steps (they ran for 2^32 before), and --verify names the broken cycle.
  Bytes big;
  for (int k = 0; k < 400; ++k) big.insert(big.end(), text.begin(), text.end());
  put("big", big);
  ASSERT_EQ(ktext({"index", "big", "-o", "big.idx", "--sample-rate", "4294967295"}).exit_code, 0);
  const Bytes cycles = forge(read_file(dir.path("big.idx")), kc::kSectionBwt, [](Bytes& b) {
    for (std::size_t j = 1; j < b.size(); ++j)
      if (b[j] != b[0]) {
        std::swap(b[0], b[j]);
        return;
      }
  });
  put("cycles.idx", cycles);
  const auto slow = ktext({"search", "cycles.idx", "--locate", "sea", "s", "-o", "out2"});
  EXPECT_TRUE(slow.exit_code == 0 || slow.exit_code == 3) << slow.err;
  EXPECT_EQ(file_exists(dir.path("out2")), slow.exit_code == 0);
  const auto v = ktext({"info", "cycles.idx", "--verify"});
  EXPECT_EQ(v.exit_code, 3);
  EXPECT_NE(v.err.find("not that of a text"), std::string::npos) << v.err;
}

TEST_F(CliSearch, UsageAndInputErrors) {
  put("t", bytes_of("banana"));
  ASSERT_EQ(ktext({"index", "t", "-o", "t.idx"}).exit_code, 0);
  EXPECT_EQ(ktext({"search", "t.idx"}).exit_code, 1);                               // no patterns
  EXPECT_EQ(ktext({"--json", "search", "t.idx", "a"}).exit_code, 1);                 // --json and stdout results
  EXPECT_EQ(ktext({"search", "-", "-f", "-"}, dir.path("t.idx")).exit_code, 1);     // stdin twice
  EXPECT_EQ(ktext({"index", "t", "-o", "x.idx", "--sample-rate", "0"}).exit_code, 1);
  EXPECT_EQ(ktext({"search", "missing.idx", "a"}).exit_code, 2);
  EXPECT_EQ(ktext({"search", "t.idx", "a", "-f", "missing"}).exit_code, 2);
  EXPECT_EQ(ktext({"index", "missing", "-o", "x.idx"}).exit_code, 2);
  EXPECT_EQ(dir.list(), (Names{"t", "t.idx"}));
}

}  // namespace
}  // namespace ktext::cli_test
