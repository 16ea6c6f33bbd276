// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Exit codes of the CLI contract, the exception that carries one to main(), and how names are
// shown in messages.

#include <stdexcept>
#include <string>

#include <ktext/core/error.hpp>

namespace ktext::cli {

enum ExitCode : int { kExitOk = 0, kExitUsage = 1, kExitIo = 2, kExitInvalid = 3 };

/// Failures raised deep inside helpers carry their exit code, so main() needs no guessing.
class CliError : public std::runtime_error {
 public:
  CliError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

inline CliError usage_error(const std::string& message) { return CliError(kExitUsage, message); }
inline CliError io_error(const std::string& message) { return CliError(kExitIo, message); }

/// "<what>: <strerror(err)>".
std::string with_errno(const std::string& what, int err);

/// A file name for a one-line message: quoted, control bytes, quotes and backslashes escaped
/// (\n, \t, \xNN), so no name can break the line or the terminal.
std::string quote(const std::string& name);

/// Runs f(), prefixing the message of a ktext::FormatError with the file's \p name.
template <class F>
decltype(auto) with_file_name(const std::string& name, F&& f) {
  try {
    return f();
  } catch (const ktext::FormatError& e) {
    throw ktext::FormatError(name + ": " + e.what());
  }
}

/// \p text as valid UTF-8 for JSON: valid sequences kept, every other byte written as \xNN.
std::string utf8_safe(const std::string& text);

}  // namespace ktext::cli
