// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "wt_query_parser.hpp"

#include <cstdint>

#include "errors.hpp"

namespace ktext::cli {

void QueryParser::parse(const std::vector<std::uint8_t>& text, std::uint64_t* out) {
  ++line;
  std::size_t p = 0;
  auto blank = [&](std::uint8_t c) { return c == ' ' || c == '\t' || c == '\r'; };
  for (int f = 0; f < fields; ++f) {
    while (p < text.size() && blank(text[p])) ++p;
    if (p == text.size() || text[p] < '0' || text[p] > '9') fail(fields == 1 ? "a position" : "two numbers");
    std::uint64_t v = 0;
    for (; p < text.size() && text[p] >= '0' && text[p] <= '9'; ++p) {
      const std::uint64_t d = std::uint64_t(text[p] - '0');
      if (v > (UINT64_MAX - d) / 10) fail("numbers below 2^64");
      v = v * 10 + d;
    }
    if (p < text.size() && !blank(text[p])) fail(fields == 1 ? "a position" : "two numbers");
    out[f] = v;
  }
  while (p < text.size() && blank(text[p])) ++p;
  if (p != text.size()) fail(fields == 1 ? "one number" : "two numbers");
  if (fields == 2 && out[0] > 255) fail("a symbol c in 0..255 first");
}

void QueryParser::fail(const char* expected) const {
  throw CliError(kExitIo, file + ": line " + std::to_string(line) + ": expected " + expected);
}

}  // namespace ktext::cli
