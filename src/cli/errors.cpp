// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "errors.hpp"

#include <cstring>

namespace ktext::cli {

std::string with_errno(const std::string& what, int err) { return what + ": " + std::strerror(err); }

std::string quoted(const std::string& path) { return "'" + path + "'"; }

}  // namespace ktext::cli
