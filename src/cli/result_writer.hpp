// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Result lines of the query commands (search, wt query), gathered in memory and written in
// chunks of 4 MiB.

#include <charconv>
#include <cstdint>
#include <string>

#include "io.hpp"

namespace ktext::cli {

class ResultWriter {
 public:
  explicit ResultWriter(OutputFile& out) : out_(out) {}
  void number(std::uint64_t v) {
    char digits[24];
    text_.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
  }
  void put(char c) { text_.push_back(c); }
  void end_line() {
    text_.push_back('\n');
    if (text_.size() >= kOutputChunk) flush();
  }
  void flush() {
    out_.write(text_.data(), text_.size());
    text_.clear();
  }

 private:
  static constexpr std::size_t kOutputChunk = std::size_t(1) << 22;
  OutputFile& out_;
  std::string text_;
};

}  // namespace ktext::cli
