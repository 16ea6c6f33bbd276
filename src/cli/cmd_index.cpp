// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext index INPUT -o INDEX [--sample-rate S] [--occ table|wm]

#include <ktext/suffix/fm_index.hpp>
#include <ktext/suffix/fm_index_file.hpp>
#include <ktext/suffix/memory_bounds.hpp>

#include "commands.hpp"
#include "context.hpp"
#include "run.hpp"

namespace ktext::cli {

namespace {

std::uint64_t index_peak_bound(std::uint64_t n, ktext::SuffixArrayAlgorithm algorithm) {
  return with_index_type(n, [&](auto index) { return ktext::fm_index_build_peak_bytes_bound<decltype(index)>(n, algorithm); });
}

}  // namespace

int run_index(const GlobalOptions& global, const IndexOptions& options) {
  Context ctx(global, "index");
  InputFile& in = ctx.input(options.input);
  OutputFile& out = ctx.output(options.output);
  const Backend backend = ctx.start();
  const std::vector<std::uint8_t> text = ctx.read_text(in, [&](std::uint64_t n) { return index_peak_bound(n, ctx.sa_algorithm()); });
  const std::uint64_t n = text.size();
  ktext::FMIndexOptions fm_options;
  fm_options.sample_rate = options.sample_rate;
  fm_options.occurrences =
      options.occurrences == "wm" ? ktext::FMOccurrences::wavelet_matrix : ktext::FMOccurrences::table;
  fm_options.suffix_array = ctx.progress_options();

  double seconds = 0;
  std::uint64_t index_bytes = 0, file_bytes = 0;
  std::uint64_t primary = 0;
  int sigma = 0;
  with_index_type(n, [&](auto index_type) {
    using I = decltype(index_type);
    run_on_backend(backend, [&](const auto& exec) {
      using Mem = typename std::decay_t<decltype(exec)>::memory_space;
      const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
      ktext::FMIndex<Mem, I> fm;
      seconds = timed(exec, [&] { fm = ktext::FMIndex<Mem, I>(exec, d_text, fm_options); });
      index_bytes = fm.bytes();
      primary = fm.primary_index();
      sigma = fm.alphabet_size();
      ktext::write_fm_index(exec, fm, out.sink());
      file_bytes = out.bytes_written();
    });
  });
  out.commit();

  Json json = ctx.report(n, seconds, index_bytes);
  json["input"] = utf8_safe(options.input);
  json["output"] = utf8_safe(options.output);
  json["sample_rate"] = options.sample_rate;
  json["occurrences"] = options.occurrences;
  json["primary_index"] = primary;
  json["alphabet_size"] = sigma;
  json["index_bytes"] = index_bytes;
  json["file_bytes"] = file_bytes;
  ctx.finish(json, format("index: n = %llu, backend %s, %.3f s (%.1f MB/s), %d symbols, sample rate %u, %s in memory "
                          "(%.2f bytes/symbol); wrote %s (%s)",
                          static_cast<unsigned long long>(n), backend_name(backend), seconds, mb_per_s(n, seconds),
                          sigma, options.sample_rate, human_bytes(index_bytes).c_str(),
                          n > 0 ? double(index_bytes) / double(n) : 0.0, out.name().c_str(),
                          human_bytes(file_bytes).c_str()));
  return kExitOk;
}

}  // namespace ktext::cli
