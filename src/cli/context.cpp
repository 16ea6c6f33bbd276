// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "context.hpp"

#include <vector>

#include <ktext/core/memory_info.hpp>

#include "errors.hpp"

namespace ktext::cli {

Context::Context(const GlobalOptions& g, const char* name)
    : global(g), command(name), requested_(parse_backend(g.backend)), progress_(g) {}

InputFile& Context::input(const std::string& path) {
  if (path == "-")
    for (const InputFile& in : inputs_)
      if (in.name() == "standard input") throw usage_error("standard input can be read only once");
  inputs_.push_back(InputFile::open(path));
  return inputs_.back();
}

OutputFile& Context::output(const std::string& path, bool may_be_an_input) {
  std::vector<FileId> ids;
  for (const InputFile& in : inputs_)
    if (in.id() && !may_be_an_input) ids.push_back(*in.id());
  output_.emplace(OutputFile::create(path, ids));
  if (global.json && output_->owns_stdout())
    throw usage_error("--json and the output " + output_->name() + " would both write to standard output; use one");
  return *output_;
}

Backend Context::start() {
  session_.emplace(global);
  backend_ = resolve_backend(requested_);
  warm_up(backend_);
  return backend_;
}

void Context::require_memory(std::uint64_t bytes, std::uint64_t n) const {
  const auto free_bytes = with_exec_space(backend_, [](const auto& exec) { return ktext::free_memory_bytes(exec); });
  if (free_bytes && bytes > *free_bytes)
    throw io_error(std::string("the ") + backend_name(backend_) + " backend needs " + std::to_string(bytes) + " bytes (" +
                   human_bytes(bytes) + ") for n = " + std::to_string(n) + ", " + std::to_string(*free_bytes) + " (" +
                   human_bytes(*free_bytes) + ") are free" +
                   (ktext::memory_limit_bytes() ? " under KTEXT_MEMORY_LIMIT"
                    : backend_ == Backend::Cuda ? "; try --backend openmp"
                                                : ""));
}

ktext::SuffixArrayAlgorithm Context::sa_algorithm() const {
  if (global.algorithm == "dc3") return ktext::SuffixArrayAlgorithm::difference_cover;
  if (global.algorithm == "doubling") return ktext::SuffixArrayAlgorithm::doubling;
  return ktext::SuffixArrayAlgorithm::automatic;
}

ktext::SuffixArrayOptions Context::suffix_array_options(const std::string& label) const {
  auto options = progress_.options(label);
  options.algorithm = sa_algorithm();
  return options;
}

ktext::SuffixArrayOptions Context::progress_options(const std::string& what) const {
  return suffix_array_options(std::string(command) + (what.empty() ? "" : " " + what) + " " + backend_name(backend_));
}

Json Context::report(std::uint64_t n, double seconds, std::uint64_t peak_device_bytes) const {
  Json j;
  j["command"] = command;
  j["backend"] = backend_name(backend_);
  j["n"] = n;
  j["seconds"] = seconds;
  j["mb_per_s"] = mb_per_s(n, seconds);
  j["peak_device_bytes"] = peak_device_bytes;
  j["peak_host_bytes"] = peak_host_bytes();
  return j;
}

void Context::finish(Json json, const std::string& summary) const {
  if (global.json) {
    json["total_seconds"] = total.seconds();
    print_json(json);
  } else if (!global.quiet) {
    emit(output_ && output_->owns_stdout() ? stderr : stdout, summary + "\n");
  }
}

}  // namespace ktext::cli
