// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// What every command reports: timing, throughput, memory; as text or one JSON object, written
// with every failure detected (a full disk or closed pipe on stdout is exit 2, not silence).

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace ktext::cli {

using Json = nlohmann::ordered_json;

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// Peak resident set of this process (getrusage), in bytes.
std::uint64_t peak_host_bytes();
/// Decimal megabytes of text per second; 0 when the time is too short to measure.
double mb_per_s(std::uint64_t n, double seconds);
/// "17.0 MiB".
std::string human_bytes(std::uint64_t bytes);
/// printf into a string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

/// Writes \p text to \p stream and flushes it; a failed write is an I/O error (exit 2).
void emit(std::FILE* stream, const std::string& text);
/// One JSON line on stdout; names that are not UTF-8 never make it fail (see utf8_safe).
void print_json(const Json& report);

}  // namespace ktext::cli
