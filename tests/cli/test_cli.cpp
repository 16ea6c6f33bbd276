// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The ktext executable against the CLI contract (shared/design.md): exit codes 0/1/2/3, no
// partial or temporary files after failures, outputs equal to a naive suffix sort.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace ktext::cli_test {
namespace {

Bytes all_byte_values() {
  Bytes t;
  for (int r = 0; r < 3; ++r)
    for (int v = 0; v < 256; ++v) t.push_back(static_cast<std::uint8_t>((v * 37 + r) & 0xff));
  return t;
}

Bytes random_bytes(std::size_t n, unsigned sigma, unsigned seed) {
  std::mt19937 rng(seed);
  Bytes t(n);
  for (auto& c : t) c = static_cast<std::uint8_t>(rng() % sigma);
  return t;
}

Bytes fibonacci_word(std::size_t n) {
  std::string a = "a", b = "ab";
  while (b.size() < n) {
    std::string c = b + a;
    a = b;
    b = c;
  }
  return bytes_of(b.substr(0, n));
}

// Small texts that together cover the cases the library special-cases.
std::vector<std::pair<std::string, Bytes>> sample_texts() {
  Bytes nuls = bytes_of("ab");
  nuls.insert(nuls.end(), 40, 0);
  nuls.push_back('c');
  nuls.insert(nuls.end(), 7, 0);
  return {{"banana", bytes_of("banana")},
          {"one_byte", bytes_of("x")},
          {"nul_bytes", nuls},
          {"all_256", all_byte_values()},
          {"run", Bytes(1500, 'a')},
          {"fibonacci", fibonacci_word(2000)},
          {"random_dna", random_bytes(3000, 4, 7)},
          {"random_bytes", random_bytes(3000, 256, 8)}};
}

class Cli : public CliTest {};

// ---------------------------------------------------------------------------------------------
// Version, help, usage errors (exit 0 / 1)

TEST_F(Cli, VersionListsBackends) {
  const auto r = ktext({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Serial"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("OpenMP") != std::string::npos, bool(KTEXT_CLI_HAS_OPENMP)) << r.out;
  EXPECT_EQ(r.out.find("Cuda") != std::string::npos, bool(KTEXT_CLI_HAS_CUDA)) << r.out;
}

TEST_F(Cli, HelpExitsZero) {
  for (const Names& args : {Names{"--help"}, Names{"sa", "--help"}, Names{"check", "-h"}, Names{"crosscheck", "--help"}}) {
    const auto r = ktext(args);
    EXPECT_EQ(r.exit_code, 0) << args[0] << r.err;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
  }
}

TEST_F(Cli, UsageErrorsExitOne) {
  put("in", bytes_of("banana"));
  const std::vector<Names> cases = {
      {},
      {"frobnicate"},
      {"sa", "in", "-o", "out", "--bogus"},
      {"--bogus", "sa", "in", "-o", "out"},
      {"sa", "in"},
      {"sa", "-o", "out"},
      {"sa", "in", "-o"},
      {"sa", "in", "-o", "out", "--width", "5"},
      {"sa", "in", "-o", "out", "--width", "four"},
      {"sa", "in", "-o", "out", "--format", "csv"},
      {"sa", "in", "-o", "out", "--backend", "vulkan"},
      {"sa", "in", "-o", "out", "--threads", "0"},
      {"sa", "in", "-o", "out", "--algorithm", "dc7"},
      {"sa", "in", "-o", "-", "--json"},
      {"check", "in"},
      {"check", "in", "out", "--width", "2"},
      {"check", "-", "-"},
  };
  for (const Names& args : cases) {
    const auto r = ktext(args);
    EXPECT_EQ(r.exit_code, 1) << joined(args) << "\n" << r.err;
    EXPECT_FALSE(r.err.empty()) << joined(args);
    EXPECT_EQ(dir.list(), Names{"in"}) << joined(args);
  }
}

TEST_F(Cli, CudaBackendWithoutCudaIsUsageError) {
  if (KTEXT_CLI_HAS_CUDA) GTEST_SKIP() << "built with CUDA";
  put("in", bytes_of("banana"));
  const auto r = ktext({"--backend", "cuda", "sa", "in", "-o", "out"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cuda"), std::string::npos) << r.err;
  EXPECT_EQ(dir.list(), Names{"in"});
}

// ---------------------------------------------------------------------------------------------
// Input/output errors (exit 2); nothing left behind

TEST_F(Cli, MissingInput) {
  for (const Names& args : {Names{"sa", "nope", "-o", "out"}, Names{"check", "nope", "nope.sa"}, Names{"crosscheck", "nope"}}) {
    const auto r = ktext(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    expect_one_error_line(r);
    EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
    EXPECT_TRUE(dir.list().empty()) << args[0];
  }
}

TEST_F(Cli, DirectoryAsInput) {
  ASSERT_EQ(::mkdir(dir.path("sub").c_str(), 0755), 0);
  const auto r = ktext({"sa", "sub", "-o", "out"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_EQ(dir.list(), Names{"sub"});
  EXPECT_EQ(ktext({"crosscheck", "sub"}).exit_code, 2);
}

TEST_F(Cli, UnreadableInput) {
  put("secret", bytes_of("banana"));
  ASSERT_EQ(::chmod(dir.path("secret").c_str(), 0), 0);
  const auto r = ktext({"sa", "secret", "-o", "out"});
  if (::geteuid() == 0) {
    EXPECT_EQ(r.exit_code, 0) << "root reads any file";
    return;
  }
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_EQ(dir.list(), Names{"secret"});
}

TEST_F(Cli, EmptyInputIsTheEmptyText) {
  put("empty", {});
  for (const char* command : {"sa", "lcp"}) {
    auto r = ktext({command, "empty", "-o", "out"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_file(dir.path("out")).empty());
    r = ktext({command, "empty", "-o", "out.npy", "--format", "npy"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Bytes npy = read_file(dir.path("out.npy"));
    EXPECT_EQ(npy.size() % 64, 0u);  // the header alone, padded to 64 bytes
    EXPECT_EQ(npy.back(), '\n');
    EXPECT_NE(std::string(npy.begin(), npy.end()).find("'shape': (0,)"), std::string::npos);
  }
  const auto check = ktext({"check", "empty", "out"});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(check.out, "valid\n");
  const auto cross = ktext({"crosscheck", "empty"});
  EXPECT_EQ(cross.exit_code, 0) << cross.err;
  EXPECT_NE(cross.out.find("crosscheck: ok"), std::string::npos) << cross.out;
}

TEST_F(Cli, OutputDirectoryMissingOrNotWritable) {
  put("in", bytes_of("banana"));
  ASSERT_EQ(::mkdir(dir.path("sub").c_str(), 0755), 0);
  for (const Names& args : {Names{"sa", "in", "-o", "missing/out"}, Names{"sa", "in", "-o", "sub"}}) {
    const auto r = ktext(args);
    EXPECT_EQ(r.exit_code, 2) << args[3];
    expect_one_error_line(r);
  }
  EXPECT_EQ(dir.list(), (Names{"in", "sub"}));
  if (::geteuid() != 0) {
    ASSERT_EQ(::chmod(dir.path("sub").c_str(), 0555), 0);
    EXPECT_EQ(ktext({"sa", "in", "-o", "sub/out"}).exit_code, 2);
    ::chmod(dir.path("sub").c_str(), 0755);
  }
  EXPECT_TRUE(dir.list().size() == 2);
}

TEST_F(Cli, FailureKeepsAnExistingOutput) {
  put("out", bytes_of("old contents"));
  put("raw", bytes_of("annbaa"));
  EXPECT_EQ(ktext({"unbwt", "raw", "-o", "out"}).exit_code, 1);  // a raw transform needs --primary
  EXPECT_EQ(read_file(dir.path("out")), bytes_of("old contents"));
  EXPECT_EQ(dir.list(), (Names{"out", "raw"}));
}

TEST_F(Cli, Width4OnTwoGibFailsBeforeReading) {
  const std::string big = dir.path("big");
  { std::FILE* f = std::fopen(big.c_str(), "wb"); ASSERT_NE(f, nullptr); std::fclose(f); }
  ASSERT_EQ(::truncate(big.c_str(), off_t(1) << 31), 0);  // sparse: no disk used
  const auto r = ktext({"sa", "big", "-o", "out", "--width", "4"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
  EXPECT_NE(r.err.find("--width"), std::string::npos) << r.err;
  // Reading 2 GiB would take seconds and allocate 2 GiB; deciding from the size takes milliseconds.
  EXPECT_LT(r.seconds, 5.0);
  EXPECT_EQ(dir.list(), Names{"big"});
}

// ---------------------------------------------------------------------------------------------
// sa output formats against a naive suffix sort

TEST_F(Cli, SaRawWidth4And8MatchNaive) {
  // Auto width on every text; the explicit widths on a NUL-heavy and a full-alphabet text
  // (each run is a process start, which dominates this test under sanitizers).
  for (const auto& [name, text] : sample_texts()) {
    put(name, text);
    const auto expected = naive_suffix_array(text);
    const bool explicit_widths = name == "nul_bytes" || name == "all_256";
    for (const std::string width : {"", "4", "8"}) {
      if (!width.empty() && !explicit_widths) continue;
      Names args{"sa", name, "-o", name + ".sa"};
      if (!width.empty()) args.insert(args.end(), {"--width", width});
      const auto r = ktext(args);
      ASSERT_EQ(r.exit_code, 0) << name << " " << r.err;
      const Bytes out = read_file(dir.path(name + ".sa"));
      const int w = width == "8" ? 8 : 4;
      ASSERT_EQ(out.size(), text.size() * std::size_t(w)) << name;
      EXPECT_EQ(decode_le(out.data(), out.size(), w), expected) << name << " width " << w;
      if (width == "8") EXPECT_EQ(ktext({"check", name, name + ".sa"}).exit_code, 0) << "width inferred from the size";
    }
  }
}

TEST_F(Cli, SaNpyMatchesNaive) {
  const Bytes text = all_byte_values();
  put("t", text);
  for (const int w : {4, 8}) {
    const auto r = ktext({"sa", "t", "-o", "t.npy", "--format", "npy", "--width", std::to_string(w)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Bytes npy = read_file(dir.path("t.npy"));
    ASSERT_GE(npy.size(), 10u);
    ASSERT_EQ(std::memcmp(npy.data(), "\x93NUMPY\x01\x00", 8), 0);
    const std::size_t header_len = npy[8] | (std::size_t(npy[9]) << 8);
    const std::size_t data_start = 10 + header_len;
    EXPECT_EQ(data_start % 64, 0u);
    const std::string header(npy.begin() + 10, npy.begin() + data_start);
    EXPECT_NE(header.find("'descr': '<i" + std::to_string(w) + "'"), std::string::npos) << header;
    EXPECT_NE(header.find("'fortran_order': False"), std::string::npos) << header;
    EXPECT_NE(header.find("'shape': (" + std::to_string(text.size()) + ",)"), std::string::npos) << header;
    EXPECT_EQ(header.back(), '\n');
    ASSERT_EQ(npy.size() - data_start, text.size() * std::size_t(w));
    EXPECT_EQ(decode_le(npy.data() + data_start, npy.size() - data_start, w), naive_suffix_array(text));
    EXPECT_EQ(ktext({"check", "t", "t.npy"}).exit_code, 0);
  }
}

TEST_F(Cli, EveryBackendMatchesNaive) {
  put("t", fibonacci_word(777));
  Names backends{"serial"};
  if (KTEXT_CLI_HAS_OPENMP) backends.push_back("openmp");
  for (const auto& b : backends) {
    const auto r = ktext({"--backend", b, "sa", "t", "-o", "t.sa", "--threads", "2"});
    ASSERT_EQ(r.exit_code, 0) << b << r.err;
    const Bytes out = read_file(dir.path("t.sa"));
    EXPECT_EQ(decode_le(out.data(), out.size(), 4), naive_suffix_array(fibonacci_word(777))) << b;
  }
}

TEST_F(Cli, EveryAlgorithmGivesTheSameResults) {
  // --algorithm before or after the command, on sa, bwt and index (the FM-index's BWT).
  const Bytes text = fibonacci_word(1000);
  put("t", text);
  Bytes first_bwt, first_index;
  for (const std::string algorithm : {"auto", "dc3", "doubling"}) {
    const auto sa = ktext({"--algorithm", algorithm, "sa", "t", "-o", "t.sa"});
    ASSERT_EQ(sa.exit_code, 0) << algorithm << sa.err;
    const Bytes out = read_file(dir.path("t.sa"));
    EXPECT_EQ(decode_le(out.data(), out.size(), 4), naive_suffix_array(text)) << algorithm;
    const auto bwt = ktext({"bwt", "t", "-o", "t.bwt", "--algorithm", algorithm});
    const auto index = ktext({"index", "t", "-o", "t.fm", "--algorithm", algorithm});
    ASSERT_EQ(bwt.exit_code, 0) << algorithm << bwt.err;
    ASSERT_EQ(index.exit_code, 0) << algorithm << index.err;
    if (first_bwt.empty()) {
      first_bwt = read_file(dir.path("t.bwt"));
      first_index = read_file(dir.path("t.fm"));
    } else {
      EXPECT_EQ(read_file(dir.path("t.bwt")), first_bwt) << algorithm;
      EXPECT_EQ(read_file(dir.path("t.fm")), first_index) << algorithm;
    }
  }
}

TEST_F(Cli, SaThenCheckPasses) {
  for (const auto& [name, text] : sample_texts()) {
    put(name, text);
    ASSERT_EQ(ktext({"sa", name, "-o", name + ".sa"}).exit_code, 0) << name;
    const auto r = ktext({"check", name, name + ".sa"});
    EXPECT_EQ(r.exit_code, 0) << name << " " << r.out << r.err;
    EXPECT_EQ(r.out, "valid\n");
  }
  EXPECT_EQ(ktext({"--backend", "serial", "check", "all_256", "all_256.sa", "--width", "4"}).exit_code, 0);
}

TEST_F(Cli, OutputHasOrdinaryPermissionsAndNoTemporaries) {
  put("t", bytes_of("mississippi"));
  ASSERT_EQ(ktext({"sa", "t", "-o", "t.sa"}).exit_code, 0);
  EXPECT_EQ(dir.list(), (Names{"t", "t.sa"}));
  struct stat st {};
  ASSERT_EQ(::stat(dir.path("t.sa").c_str(), &st), 0);
  EXPECT_NE(st.st_mode & S_IRGRP, 0u) << "mkstemp's 0600 leaked into the output";
}

// ---------------------------------------------------------------------------------------------
// check on corrupted suffix arrays (exit 3)

TEST_F(Cli, CheckDetectsSwappedEntries) {
  const Bytes text = random_bytes(1000, 3, 11);
  put("t", text);
  auto sa = naive_suffix_array(text);
  std::swap(sa[100], sa[200]);
  put("bad.sa", encode_le(sa, 4));
  const auto r = ktext({"check", "t", "bad.sa"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("invalid"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("index"), std::string::npos) << r.out;

  const auto j = ktext({"check", "t", "bad.sa", "--json"});
  EXPECT_EQ(j.exit_code, 3);
  const auto report = nlohmann::json::parse(j.out);
  EXPECT_EQ(report["valid"], false);
  EXPECT_GE(report["bad_index"].get<long long>(), 0);
  EXPECT_FALSE(report["reason"].get<std::string>().empty());
}

TEST_F(Cli, CheckDetectsOutOfRangeAndDuplicates) {
  const Bytes text = bytes_of("abracadabra");
  put("t", text);
  auto sa = naive_suffix_array(text);
  auto dup = sa;
  dup[3] = dup[4];
  put("dup.sa", encode_le(dup, 8));
  EXPECT_EQ(ktext({"check", "t", "dup.sa"}).exit_code, 3);
  auto range = sa;
  range[0] = 11;
  put("range.sa", encode_le(range, 4));
  EXPECT_EQ(ktext({"check", "t", "range.sa"}).exit_code, 3);
  range[0] = -1;
  put("range.sa", encode_le(range, 4));
  EXPECT_EQ(ktext({"check", "t", "range.sa"}).exit_code, 3);
}

TEST_F(Cli, CheckRejectsWrongSizes) {
  const Bytes text = bytes_of("mississippi");
  put("t", text);
  const Bytes good = encode_le(naive_suffix_array(text), 4);
  put("short.sa", Bytes(good.begin(), good.end() - 4));
  put("long.sa", [&] { Bytes b = good; b.push_back(0); return b; }());
  put("empty.sa", {});
  for (const std::string f : {"short.sa", "long.sa", "empty.sa"}) {
    const auto r = ktext({"check", "t", f});
    EXPECT_EQ(r.exit_code, 3) << f << r.err;
    EXPECT_NE(r.out.find("invalid"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bytes"), std::string::npos) << r.out;
  }
  put("good.sa", good);
  EXPECT_EQ(ktext({"check", "t", "good.sa", "--width", "8"}).exit_code, 3);
  EXPECT_EQ(ktext({"check", "t", "good.sa", "--width", "4"}).exit_code, 0);
  // An .npy whose shape disagrees with the text.
  put("t2", bytes_of("mississippis"));
  ASSERT_EQ(ktext({"sa", "t2", "-o", "t2.npy", "--format", "npy"}).exit_code, 0);
  EXPECT_EQ(ktext({"check", "t", "t2.npy"}).exit_code, 3);
}

TEST_F(Cli, CheckRefusesMalformedNpyHeaders) {
  // Headers whose 'shape' is no one-dimensional tuple (the first one came from fuzzing: an empty
  // value made the reader take a substring past the end).
  const Bytes text = bytes_of("mississippi");
  put("t", text);
  const Bytes values = encode_le(naive_suffix_array(text), 4);
  for (const std::string shape : {"", "(", ")", "()", "(,)", "(11,3)", "(x,)", "11", "'11'", "(99999999999999999999,)"}) {
    const std::string dict = "{'descr': '<i4', 'shape': " + shape + ", }\n";
    Bytes npy = bytes_of(std::string("\x93NUMPY\x01\x00", 8));
    npy.push_back(std::uint8_t(dict.size()));
    npy.push_back(0);
    npy.insert(npy.end(), dict.begin(), dict.end());
    npy.insert(npy.end(), values.begin(), values.end());
    put("bad.npy", npy);
    const auto r = ktext({"check", "t", "bad.npy"});
    EXPECT_EQ(r.exit_code, 3) << "shape " << shape << ": " << r.out << r.err;
  }
}

TEST_F(Cli, CheckMissingSaIsIoError) {
  put("t", bytes_of("banana"));
  const auto r = ktext({"check", "t", "nope.sa"});
  EXPECT_EQ(r.exit_code, 2);
  expect_one_error_line(r);
}

// ---------------------------------------------------------------------------------------------
// Standard input and output

TEST_F(Cli, StdinAndStdout) {
  const Bytes text = sample_texts()[2].second;  // NUL bytes survive the pipe
  put("t", text);
  const auto r = ktext({"sa", "-", "-o", "-"}, dir.path("t"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(decode_le(reinterpret_cast<const std::uint8_t*>(r.out.data()), r.out.size(), 4), naive_suffix_array(text));
  EXPECT_EQ(dir.list(), Names{"t"});

  put("t.sa", encode_le(naive_suffix_array(text), 4));
  EXPECT_EQ(ktext({"check", "-", "t.sa"}, dir.path("t")).exit_code, 0);
  EXPECT_EQ(ktext({"check", "t", "-"}, dir.path("t.sa")).exit_code, 0);
  put("empty", {});
  EXPECT_EQ(ktext({"sa", "-", "-o", "out"}, dir.path("empty")).exit_code, 0);
  EXPECT_TRUE(read_file(dir.path("out")).empty());
}

// ---------------------------------------------------------------------------------------------
// JSON reports and quiet mode

void expect_common_fields(const nlohmann::json& j, const std::string& command) {
  EXPECT_EQ(j.at("command"), command);
  EXPECT_TRUE(j.at("backend").is_string());
  EXPECT_TRUE(j.at("n").is_number_unsigned());
  EXPECT_TRUE(j.at("seconds").is_number());
  EXPECT_TRUE(j.at("mb_per_s").is_number());
  EXPECT_TRUE(j.at("peak_device_bytes").is_number_unsigned());
  EXPECT_GT(j.at("peak_host_bytes").get<std::uint64_t>(), 0u);
}

TEST_F(Cli, BwtJsonReportsTheMeasuredPeak) {
  // One group spanning the input (A^n) was the worst case: the measured peak is the text, the
  // suffix array, its inverse, the unsorted list, 2 bytes of scratch per entry and the output.
  const std::size_t n = 200000;
  put("a", std::vector<std::uint8_t>(n, 'a'));
  const auto r = ktext({"--json", "bwt", "a", "-o", "a.bwt", "--raw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  expect_common_fields(j, "bwt");
  EXPECT_GE(j.at("peak_device_bytes").get<std::uint64_t>(), 10 * n);
  EXPECT_LE(j.at("peak_device_bytes").get<std::uint64_t>(), 16 * n + 65536);
  // DC3 sorts A^n through reduced texts (one name for all but the last suffixes) level after level.
  EXPECT_GE(j.at("reductions").get<int>(), 1);
  EXPECT_TRUE(j.at("rounds").is_number_integer());
  EXPECT_EQ(read_file(dir.path("a.bwt")), Bytes(n, 'a'));
}

TEST_F(Cli, SaAndCheckJson) {
  put("t", bytes_of("abracadabra"));
  const auto r = ktext({"--json", "sa", "t", "-o", "t.sa"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  expect_common_fields(j, "sa");
  EXPECT_EQ(j.at("n"), 11);
  EXPECT_EQ(j.at("output"), "t.sa");
  EXPECT_EQ(j.at("width"), 4);
  EXPECT_EQ(j.at("format"), "raw");
  EXPECT_TRUE(j.at("rounds").is_number_integer());
  EXPECT_EQ(j.at("reductions"), 0);
  EXPECT_GT(j.at("peak_device_bytes").get<std::uint64_t>(), 0u);

  const auto c = ktext({"check", "t", "t.sa", "--json"});  // global option after the command
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto k = nlohmann::json::parse(c.out);
  expect_common_fields(k, "check");
  EXPECT_EQ(k.at("valid"), true);
  EXPECT_EQ(k.at("bad_index"), -1);
}

TEST_F(Cli, QuietPrintsNothing) {
  put("t", bytes_of("banana"));
  const auto r = ktext({"-q", "sa", "t", "-o", "t.sa", "--progress"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const auto p = ktext({"--progress", "sa", "t", "-o", "t.sa"});
  EXPECT_EQ(p.exit_code, 0);
  EXPECT_NE(p.err.find("done"), std::string::npos) << p.err;
}

// ---------------------------------------------------------------------------------------------
// crosscheck

TEST_F(Cli, MemoryLimitRefusesBeforeAnyOutput) {
  put("t", sample_texts()[2].second);
  ::setenv("KTEXT_MEMORY_LIMIT", "1K", 1);
  const auto refused = ktext({"sa", "t", "-o", "t.sa"});
  EXPECT_EQ(dir.list(), (Names{"t"})) << "output or temporary left after the refusal";
  ::setenv("KTEXT_MEMORY_LIMIT", "12Q", 1);
  const auto malformed = ktext({"sa", "t", "-o", "t.sa"});
  ::setenv("KTEXT_MEMORY_LIMIT", "1G", 1);
  const auto fits = ktext({"sa", "t", "-o", "t.sa", "-q"});
  ::unsetenv("KTEXT_MEMORY_LIMIT");
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  expect_one_error_line(refused);
  EXPECT_NE(refused.err.find("KTEXT_MEMORY_LIMIT"), std::string::npos) << refused.err;
  EXPECT_EQ(malformed.exit_code, 2) << malformed.err;
  EXPECT_NE(malformed.err.find("KTEXT_MEMORY_LIMIT='12Q'"), std::string::npos) << malformed.err;
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_EQ(dir.list(), (Names{"t", "t.sa"}));
}

TEST_F(Cli, CrosscheckDefaultText) {
  const auto r = ktext({"crosscheck"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("serial"), std::string::npos) << r.out;
  if (KTEXT_CLI_HAS_OPENMP) EXPECT_NE(r.out.find("openmp"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("MB/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1048576"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("crosscheck: ok"), std::string::npos) << r.out;
  std::cout << "[ crosscheck default text took " << r.seconds << " s ]\n" << r.out;
}

TEST_F(Cli, CrosscheckJsonOnFiles) {
  put("a", all_byte_values());
  put("b", sample_texts()[2].second);
  const auto r = ktext({"crosscheck", "a", "b", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  expect_common_fields(j, "crosscheck");
  EXPECT_EQ(j.at("ok"), true);
  EXPECT_EQ(j.at("n").get<std::uint64_t>(), all_byte_values().size() + sample_texts()[2].second.size());
  ASSERT_EQ(j.at("inputs").size(), 2u);
  for (const auto& in : j.at("inputs")) {
    EXPECT_EQ(in.at("agree"), true);
    EXPECT_EQ(in.at("valid"), true);
    EXPECT_EQ(in.at("sort"), true);
    EXPECT_EQ(in.at("wavelet"), true);
  }
  ASSERT_GE(j.at("runs").size(), 2u);
  std::set<std::string> stages;
  for (const auto& run : j.at("runs")) {
    stages.insert(run.at("stage").get<std::string>());
    EXPECT_EQ(run.at("result"), "ok");
    EXPECT_TRUE(run.at("seconds").is_number());
    EXPECT_TRUE(run.at("mb_per_s").is_number());
    EXPECT_TRUE(run.at("peak_device_bytes").is_number_unsigned());
  }
  for (const char* stage : {"sa", "bwt", "unbwt", "lcp", "index", "search", "sort", "wt", "wm"})
    EXPECT_EQ(stages.count(stage), 1u) << stage;
  EXPECT_EQ(dir.list(), (Names{"a", "b"}));
}

}  // namespace
}  // namespace ktext::cli_test
