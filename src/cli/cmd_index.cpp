// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext index INPUT -o INDEX [--sample-rate S]

#include <cstdio>

#include "backend.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "fm_runs.hpp"
#include "report.hpp"
#include "text_command.hpp"

namespace ktext::cli {

int run_index(const GlobalOptions& global, const IndexOptions& options) {
  TextCommand job(global, options.input, options.output);
  const Backend backend = job.backend;
  OutputFile& out = job.out;
  const std::uint64_t n = job.text.size();

  double seconds = 0;
  const auto engine = build_search_engine(backend, job.text.data(), n, options.sample_rate,
                                          job.progress.options(std::string("index ") + backend_name(backend)), seconds);
  const std::uint64_t file_bytes = engine->write(out);
  out.commit();

  if (global.json) {
    Json report = base_report("index", backend_name(backend), n, seconds, engine->bytes());
    report["input"] = options.input;
    report["output"] = options.output;
    report["sample_rate"] = engine->sample_rate();
    report["primary_index"] = engine->primary_index();
    report["alphabet_size"] = engine->alphabet_size();
    report["index_bytes"] = engine->bytes();
    report["file_bytes"] = file_bytes;
    report["total_seconds"] = job.total.seconds();
    print_json(report);
  } else if (!global.quiet) {
    std::FILE* stream = out.is_stdout() ? stderr : stdout;
    std::fprintf(stream,
                 "index: n = %llu, backend %s, %.3f s (%.1f MB/s), %d symbols, sample rate %u, %s in memory "
                 "(%.2f bytes/symbol); wrote %s (%s)\n",
                 static_cast<unsigned long long>(n), backend_name(backend), seconds, mb_per_s(n, seconds),
                 engine->alphabet_size(), engine->sample_rate(), human_bytes(engine->bytes()).c_str(),
                 double(engine->bytes()) / double(n), out.name().c_str(), human_bytes(file_bytes).c_str());
  }
  return kExitOk;
}

}  // namespace ktext::cli
