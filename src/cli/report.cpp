// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstdarg>
#include <vector>

#include "errors.hpp"

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
  return format(u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
}

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list again;
  va_copy(again, args);
  const int len = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::vector<char> buf(std::size_t(len > 0 ? len : 0) + 1);
  std::vsnprintf(buf.data(), buf.size(), fmt, again);
  va_end(again);
  return std::string(buf.data(), buf.size() - 1);
}

void emit(std::FILE* stream, const std::string& text) {
  errno = 0;
  const bool ok = std::fwrite(text.data(), 1, text.size(), stream) == text.size() && std::fflush(stream) == 0;
  if (!ok) {
    const int err = errno;
    std::clearerr(stream);
    const std::string what = stream == stdout ? "standard output" : "standard error";
    throw io_error(err != 0 ? with_errno("cannot write " + what, err) : "cannot write " + what);
  }
}

void print_json(const Json& report) {
  emit(stdout, report.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
}

}  // namespace ktext::cli
