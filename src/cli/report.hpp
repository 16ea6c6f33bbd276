// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// What every command reports: timing, throughput, memory; as text or one JSON object.

#include <chrono>
#include <cstdint>
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

/// The fields every command's JSON starts with.
Json base_report(const std::string& command, const std::string& backend, std::uint64_t n, double seconds,
                 std::uint64_t peak_device_bytes);
/// One line on stdout.
void print_json(const Json& report);

}  // namespace ktext::cli
