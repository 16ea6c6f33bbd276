// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "text_command.hpp"

#include <limits>

#include "suffix_runs.hpp"

namespace ktext::cli {

namespace {

std::optional<Backend> checked_backend(const GlobalOptions& global, const std::string& output) {
  auto requested = parse_backend(global.backend);
  require_stdout_for_one(global, output);
  return requested;
}

}  // namespace

TextCommand::TextCommand(const GlobalOptions& global, const std::string& input, const std::string& output)
    : requested_(checked_backend(global, output)),
      in(InputFile::open(input)),
      out(OutputFile::create(output)),
      session(global),
      backend(resolve_backend(requested_)),
      progress(global) {
  // A GPU too small for the file is known from its size: say so before reading gigabytes.
  if (in.size()) {
    if (*in.size() > std::uint64_t(std::numeric_limits<std::int32_t>::max()))
      require_device_memory<std::int64_t>(backend, *in.size());
    else
      require_device_memory<std::int32_t>(backend, *in.size());
  }
  text = read_text(in);
}

}  // namespace ktext::cli
