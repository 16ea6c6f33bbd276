// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext wt build INPUT -o WT [--matrix]
// ktext wt query WT --op access|rank|select -f QUERIES [-o OUT]
//
// Queries are read one per line ("i", "c i" or "c k": decimal numbers separated by spaces or
// tabs, c a byte value) and answered in batches of 2^22, so a query file of any size streams
// through bounded memory. Output: one number per line in input order; select of an occurrence
// that does not exist (k = 0 or beyond the count) prints -1.

#include <ktext/core/container.hpp>
#include <ktext/succinct/wavelet_file.hpp>
#include <ktext/succinct/wavelet_matrix.hpp>
#include <ktext/succinct/wavelet_tree.hpp>

#include "commands.hpp"
#include "context.hpp"
#include "result_writer.hpp"
#include "run.hpp"
#include "wt_query_parser.hpp"

namespace ktext::cli {

namespace {

constexpr std::size_t kQueryBatch = std::size_t(1) << 22;

/// Runs \p f with a WaveletTree or WaveletMatrix type of bytes in \p Mem.
template <class Mem, class F>
decltype(auto) with_wavelet_type(bool matrix, F&& f) {
  if (matrix) return f(ktext::WaveletMatrix<Mem, std::uint8_t>{});
  return f(ktext::WaveletTree<Mem, std::uint8_t>{});
}

}  // namespace

int run_wt_build(const GlobalOptions& global, const WtBuildOptions& options) {
  Context ctx(global, "wt build");
  InputFile& in = ctx.input(options.input);
  OutputFile& out = ctx.output(options.output);
  const Backend backend = ctx.start();
  const std::vector<std::uint8_t> text =
      ctx.read_text(in, [](std::uint64_t n) { return ktext::wavelet_build_peak_bytes_bound(n, 1); });
  const std::uint64_t n = text.size();
  double seconds = 0;
  std::uint64_t bytes = 0, file_bytes = 0, sigma = 0;
  int levels = 0;
  run_on_backend(backend, [&](const auto& exec) {
    using Mem = typename std::decay_t<decltype(exec)>::memory_space;
    const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
    with_wavelet_type<Mem>(options.matrix, [&](auto structure) {
      using S = decltype(structure);
      seconds = timed(exec, [&] { structure = S(exec, d_text); });
      bytes = structure.space_bytes();
      sigma = structure.alphabet_size();
      levels = structure.levels();
      ktext::write_wavelet(exec, structure, out.sink());
      file_bytes = out.bytes_written();
    });
  });
  out.commit();

  const char* shape = options.matrix ? "wavelet_matrix" : "wavelet_tree";
  Json json = ctx.report(n, seconds, bytes);
  json["input"] = utf8_safe(options.input);
  json["output"] = utf8_safe(options.output);
  json["structure"] = shape;
  json["alphabet_size"] = sigma;
  json["levels"] = levels;
  json["structure_bytes"] = bytes;
  json["file_bytes"] = file_bytes;
  ctx.finish(json, format("wt build: %s of n = %llu, backend %s, %.3f s (%.1f MB/s), %llu symbols, %d levels, %s in "
                          "memory (%.2f bits/symbol); wrote %s (%s)",
                          shape, static_cast<unsigned long long>(n), backend_name(backend), seconds, mb_per_s(n, seconds),
                          static_cast<unsigned long long>(sigma), levels, human_bytes(bytes).c_str(),
                          n > 0 ? 8.0 * double(bytes) / double(n) : 0.0, out.name().c_str(),
                          human_bytes(file_bytes).c_str()));
  return kExitOk;
}

int run_wt_query(const GlobalOptions& global, const WtQueryOptions& options) {
  const ktext::WaveletQuery op = options.op == "access" ? ktext::WaveletQuery::access
                                 : options.op == "rank" ? ktext::WaveletQuery::rank
                                                        : ktext::WaveletQuery::select;
  Context ctx(global, "wt query");
  InputFile& in = ctx.input(options.structure);
  InputFile& queries = ctx.input(options.queries);
  OutputFile& out = ctx.output(options.output);
  // The structure is read and checked before the backends start, as search's index is.
  Stopwatch read_watch;
  const std::vector<std::uint8_t> bytes = in.read_rest();
  const auto container = with_file_name(in.name(), [&] {
    auto c = ktext::container::read_container(bytes);
    const auto info = ktext::wavelet_file_check(c);
    if (info.symbol_width != 1)
      throw ktext::FormatError("holds " + std::to_string(info.symbol_width) + "-byte symbols; ktext wt queries bytes");
    return c;
  });
  const double read_seconds = read_watch.seconds();
  const Backend backend = ctx.start();
  Stopwatch load_watch;
  const bool matrix = container.kind == ktext::container::Kind::wavelet_matrix;
  const std::uint64_t n = *container.meta(ktext::container::kMetaN);
  double load_seconds = 0, seconds = 0;
  std::uint64_t structure_bytes = 0, answered = 0;
  run_on_backend(backend, [&](const auto& exec) {
    using Mem = typename std::decay_t<decltype(exec)>::memory_space;
    with_wavelet_type<Mem>(matrix, [&](auto type) {
      using S = decltype(type);
      const S structure = with_file_name(in.name(), [&] { return ktext::read_wavelet<S>(exec, container); });
      load_seconds = read_seconds + load_watch.seconds();
      structure_bytes = structure.space_bytes();
      QueryParser parser{queries.name(), op == ktext::WaveletQuery::access ? 1 : 2};
      ResultWriter results(out);
      std::vector<std::uint64_t> a, b, answers;
      auto run = [&] {
        if (a.empty()) return;
        using HostView = Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
        answers.resize(a.size());
        const HostView va(a.data(), a.size()), vb(op == ktext::WaveletQuery::access ? a.data() : b.data(), a.size()),
            vout(answers.data(), a.size());
        Stopwatch watch;
        try {
          structure.query(exec, op, va, vb, vout);
          exec.fence("ktext_cli::wt_query");
        } catch (const ktext::InputError& e) {
          throw CliError(kExitIo, queries.name() + ": " + e.what() + " (query lines from " +
                                      std::to_string(answered + 1) + ")");
        }
        seconds += watch.seconds();
        for (std::uint64_t v : answers) {
          if (v == S::npos)
            results.put('-'), results.put('1');
          else
            results.number(v);
          results.end_line();
        }
        answered += a.size();
        a.clear();
        b.clear();
        if (ctx.progress().enabled())
          emit(stderr, format("ktext: wt query: %llu queries\n", static_cast<unsigned long long>(answered)));
      };
      LineReader reader(queries);
      std::vector<std::uint8_t> line;
      std::uint64_t fields[2] = {0, 0};
      while (reader.next(line)) {
        parser.parse(line, fields);
        a.push_back(fields[0]);
        if (parser.fields == 2) b.push_back(fields[1]);
        if (a.size() >= kQueryBatch) run();
      }
      run();
      results.flush();
    });
  });
  out.commit();

  Json json = ctx.report(n, seconds, structure_bytes);
  json["structure"] = matrix ? "wavelet_matrix" : "wavelet_tree";
  json["input"] = utf8_safe(options.structure);
  json["queries_file"] = utf8_safe(options.queries);
  json["output"] = utf8_safe(options.output);
  json["op"] = options.op;
  json["queries"] = answered;
  json["queries_per_s"] = seconds > 0 ? double(answered) / seconds : 0.0;
  json["load_seconds"] = load_seconds;
  ctx.finish(json, format("wt query: %llu %s queries on a %llu-symbol %s, backend %s, %.3f s; wrote %s",
                          static_cast<unsigned long long>(answered), options.op.c_str(),
                          static_cast<unsigned long long>(n), matrix ? "wavelet matrix" : "wavelet tree",
                          backend_name(backend), seconds, out.name().c_str()));
  return kExitOk;
}

}  // namespace ktext::cli
