// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The query files of `ktext wt query`: lines read by ktext::cli::LineReader and parsed by
// ktext::cli::QueryParser, as the command does. Input: one control byte (bit 0: two fields per
// line, rank/select; else one, access; bit 1: read through a pipe), then the query file.
// Checked against a reference written differently (split on '\n', tokens split on blanks,
// numbers compared as digit strings): the same lines, the same values, and a refusal (CliError
// naming the line) exactly where the reference refuses.

#include <cstdint>
#include <string>
#include <vector>

#include "errors.hpp"
#include "fuzz_check.hpp"
#include "io.hpp"
#include "memory_file.hpp"
#include "wt_query_parser.hpp"

namespace {

using Line = std::vector<std::uint8_t>;

// Lines as the CLI documents them: '\n' ends a line, a last line without one counts, an empty
// input has none.
std::vector<Line> reference_lines(const std::uint8_t* data, std::size_t size) {
  std::vector<Line> lines;
  Line current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      lines.push_back(current);
      current.clear();
    } else {
      current.push_back(data[i]);
    }
  }
  if (!current.empty()) lines.push_back(current);
  return lines;
}

// A decimal number below 2^64: digits, leading zeros allowed, compared to "18446744073709551615"
// as a string after the leading zeros.
bool reference_number(const std::string& token, std::uint64_t& value) {
  if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos) return false;
  const std::string digits = token.substr(std::min(token.find_first_not_of('0'), token.size()));
  const std::string max = "18446744073709551615";
  if (digits.size() > max.size() || (digits.size() == max.size() && digits > max)) return false;
  value = 0;
  for (char c : digits) value = value * 10 + std::uint64_t(c - '0');
  return true;
}

bool reference_parse(const Line& line, int fields, std::uint64_t* out) {
  std::vector<std::string> tokens;
  std::string token;
  for (std::uint8_t c : line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      if (!token.empty()) tokens.push_back(token);
      token.clear();
    } else {
      token.push_back(char(c));
    }
  }
  if (!token.empty()) tokens.push_back(token);
  if (int(tokens.size()) != fields) return false;
  for (int f = 0; f < fields; ++f)
    if (!reference_number(tokens[std::size_t(f)], out[f])) return false;
  return fields == 1 || out[0] <= 255;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const int fields = (data[0] & 1) ? 2 : 1;
  const bool through_pipe = (data[0] & 2) != 0;
  ++data, --size;
  const std::vector<Line> expected = reference_lines(data, size);

  auto file = through_pipe ? ktext_fuzz::MemoryFile::pipe(data, size) : ktext_fuzz::MemoryFile::regular(data, size);
  ktext::cli::InputFile in = file.open_path([](const std::string& p) { return ktext::cli::InputFile::open(p); });
  ktext::cli::LineReader reader(in);
  ktext::cli::QueryParser parser{"queries", fields};
  Line line;
  std::size_t count = 0;
  while (reader.next(line)) {
    FUZZ_CHECK(count < expected.size(), "LineReader returns more lines than the input has");
    FUZZ_CHECK(line == expected[count], "LineReader returns a line that differs from the input's");
    std::uint64_t want[2] = {0, 0}, got[2] = {0, 0};
    const bool ok = reference_parse(line, fields, want);
    bool parsed = true;
    try {
      parser.parse(line, got);
    } catch (const ktext::cli::CliError& e) {
      parsed = false;
      FUZZ_CHECK(e.code() == ktext::cli::kExitIo, "a bad query line is not an input error (exit 2)");
      const std::string where = "line " + std::to_string(count + 1) + ":";
      FUZZ_CHECK(std::string(e.what()).find(where) != std::string::npos, "the message does not name the line");
    }
    FUZZ_CHECK(parsed == ok, parsed ? "the parser accepts a line the reference refuses"
                                    : "the parser refuses a line the reference accepts");
    if (ok) FUZZ_CHECK(want[0] == got[0] && want[1] == got[1], "the parser's numbers differ from the reference's");
    ++count;
  }
  FUZZ_CHECK(count == expected.size(), "LineReader returns fewer lines than the input has");
  return 0;
}
