// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext bwt INPUT -o OUT [--raw]

#include <cstdio>

#include "backend.hpp"
#include "commands.hpp"
#include "container_io.hpp"
#include "errors.hpp"
#include "report.hpp"
#include "text_command.hpp"
#include "text_runs.hpp"

namespace ktext::cli {

int run_bwt(const GlobalOptions& global, const BwtOptions& options) {
  TextCommand job(global, options.input, options.output);
  const Backend backend = job.backend;
  OutputFile& out = job.out;
  const std::uint64_t n = job.text.size();

  const BwtRun run = run_bwt(backend, job.text.data(), n, job.progress.options(std::string("bwt ") + backend_name(backend)));
  if (options.raw) out.write(run.bwt.data(), static_cast<std::size_t>(n));
  else write_bwt_container(out, run.bwt.data(), n, run.primary);
  out.commit();

  if (global.json) {
    Json report = base_report("bwt", backend_name(backend), n, run.seconds, run.peak_bytes);
    report["input"] = options.input;
    report["output"] = options.output;
    report["format"] = options.raw ? "raw" : "container";
    report["primary_index"] = run.primary;
    report["total_seconds"] = job.total.seconds();
    print_json(report);
  } else if (!global.quiet) {
    std::FILE* stream = out.is_stdout() ? stderr : stdout;
    if (options.raw) std::fprintf(stream, "primary index: %llu\n", static_cast<unsigned long long>(run.primary));
    std::fprintf(stream, "bwt: n = %llu, backend %s, %.3f s (%.1f MB/s), primary index %llu; wrote %s (%s)\n",
                 static_cast<unsigned long long>(n), backend_name(backend), run.seconds, mb_per_s(n, run.seconds),
                 static_cast<unsigned long long>(run.primary), out.name().c_str(),
                 options.raw ? "raw bytes" : "ktext container");
  }
  return kExitOk;
}

}  // namespace ktext::cli
