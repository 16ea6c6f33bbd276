// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <iostream>

namespace ktext::cli {

std::uint64_t peak_host_bytes() {
  struct rusage usage {};
  if (::getrusage(RUSAGE_SELF, &usage) != 0 || usage.ru_maxrss < 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

double mb_per_s(std::uint64_t n, double seconds) { return seconds > 0 ? double(n) / seconds / 1e6 : 0.0; }

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

Json base_report(const std::string& command, const std::string& backend, std::uint64_t n, double seconds,
                 std::uint64_t peak_device_bytes) {
  Json j;
  j["command"] = command;
  j["backend"] = backend;
  j["n"] = n;
  j["seconds"] = seconds;
  j["mb_per_s"] = mb_per_s(n, seconds);
  j["peak_device_bytes"] = peak_device_bytes;
  j["peak_host_bytes"] = peak_host_bytes();
  return j;
}

void print_json(const Json& report) {
  std::cout << report.dump() << '\n';
  std::cout.flush();
}

}  // namespace ktext::cli
