// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext search INDEX [PATTERN...] [-f FILE] [--locate] [-o OUT]
//
// Patterns are searched in batches (at most 2^20 patterns or 64 MiB of symbols each), so a
// pattern file of any size streams through bounded memory; with --locate a batch is split
// further so that at most 2^26 positions are materialized at once (one pattern with more
// occurrences goes alone). Output: one line per pattern, in input order.

#include <ktext/core/container.hpp>
#include <ktext/suffix/fm_index_file.hpp>

#include "commands.hpp"
#include "context.hpp"
#include "fm_queries.hpp"
#include "result_writer.hpp"

namespace ktext::cli {

namespace {

constexpr std::size_t kBatchPatterns = std::size_t(1) << 20;
constexpr std::size_t kBatchSymbols = std::size_t(1) << 26;
constexpr std::uint64_t kLocateBatchPositions = std::uint64_t(1) << 26;

struct SearchTotals {
  std::uint64_t patterns = 0, symbols = 0, occurrences = 0;
  double seconds = 0;
};

template <class Exec, class Index>
void search_batch(const Exec& exec, const Index& index, const PatternBatch& batch, bool locate, ResultWriter& results,
                  SearchTotals& totals) {
  Stopwatch watch;
  const std::vector<std::uint64_t> counts = count_patterns(exec, index, batch);
  totals.seconds += watch.seconds();
  totals.patterns += batch.size();
  totals.symbols += batch.symbols.size();
  for (std::uint64_t c : counts) totals.occurrences += c;
  if (!locate) {
    for (std::uint64_t c : counts) {
      results.number(c);
      results.end_line();
    }
    return;
  }
  // Sub-batches bounded by their occurrences; each pattern's positions come out ascending.
  for (std::size_t first = 0; first < batch.size();) {
    std::size_t last = first;
    std::uint64_t positions = 0;
    while (last < batch.size() && (last == first || positions + counts[last] <= kLocateBatchPositions))
      positions += counts[last++];
    PatternBatch sub;
    for (std::size_t i = first; i < last; ++i)
      sub.add(batch.symbols.data() + batch.offsets[i], std::size_t(batch.offsets[i + 1] - batch.offsets[i]));
    Stopwatch locate_watch;
    const Occurrences occ = locate_patterns(exec, index, sub);
    totals.seconds += locate_watch.seconds();
    for (std::size_t i = 0; i < sub.size(); ++i) {
      const auto begin = std::uint64_t(occ.offsets[i]), end = std::uint64_t(occ.offsets[i + 1]);
      if (end - begin != counts[first + i])
        throw ktext::FormatError("the index is inconsistent: count and locate disagree (ktext info --verify says why)");
      results.number(end - begin);
      results.put('\t');
      for (std::uint64_t k = begin; k < end; ++k) {
        if (k > begin) results.put(',');
        results.number(std::uint64_t(occ.positions[k]));
      }
      results.end_line();
    }
    first = last;
  }
}

}  // namespace

int run_search(const GlobalOptions& global, const SearchOptions& options) {
  if (options.patterns.empty() && options.pattern_file.empty())
    throw usage_error("no patterns: give PATTERN arguments or -f FILE");
  Context ctx(global, "search");
  InputFile& in = ctx.input(options.index);
  InputFile* pattern_file = options.pattern_file.empty() ? nullptr : &ctx.input(options.pattern_file);
  OutputFile& out = ctx.output(options.output);
  // The container is read (its checksums and layout checked) before the backends start: a
  // corrupt or truncated index is refused without starting a GPU, which takes a quarter of a
  // second on an H100 machine. The index's own checks run when it is loaded, as before.
  Stopwatch read_watch;
  const std::vector<std::uint8_t> bytes = in.read_rest();
  const auto container = with_file_name(in.name(), [&] {
    auto c = ktext::container::read_container(bytes, ktext::container::Kind::fm_index);
    if (options.verify) (void)ktext::fm_index_file_verify(c);
    return c;
  });
  const double read_seconds = read_watch.seconds();
  const std::uint64_t n = *container.meta(ktext::container::kMetaN);
  const Backend backend = ctx.start();
  Stopwatch load_watch;
  double load_seconds = 0;
  std::uint64_t index_bytes = 0;
  SearchTotals totals;
  with_index_type(n, [&](auto index_type) {
    using I = decltype(index_type);
    run_on_backend(backend, [&](const auto& exec) {
      const auto index = with_file_name(in.name(), [&] { return ktext::read_fm_index<I>(exec, container); });
      load_seconds = read_seconds + load_watch.seconds();
      index_bytes = index.bytes();
      ResultWriter results(out);
      PatternBatch batch;
      auto run = [&] {
        if (batch.size() == 0) return;
        with_file_name(in.name(), [&] { search_batch(exec, index, batch, options.locate, results, totals); });
        batch.clear();
        if (ctx.progress().enabled())
          emit(stderr, format("ktext: search: %llu patterns, %llu occurrences\n",
                              static_cast<unsigned long long>(totals.patterns),
                              static_cast<unsigned long long>(totals.occurrences)));
      };
      auto add = [&](const std::uint8_t* p, std::size_t m) {
        batch.add(p, m);
        if (batch.size() >= kBatchPatterns || batch.symbols.size() >= kBatchSymbols) run();
      };
      for (const std::string& p : options.patterns) add(reinterpret_cast<const std::uint8_t*>(p.data()), p.size());
      if (pattern_file) {
        LineReader reader(*pattern_file);
        std::vector<std::uint8_t> line;
        while (reader.next(line)) add(line.data(), line.size());
      }
      run();
      results.flush();
    });
  });
  out.commit();

  Json json = ctx.report(n, totals.seconds, index_bytes);
  json["index"] = utf8_safe(options.index);
  json["output"] = utf8_safe(options.output);
  json["locate"] = options.locate;
  json["patterns"] = totals.patterns;
  json["pattern_symbols"] = totals.symbols;
  json["occurrences"] = totals.occurrences;
  json["patterns_per_s"] = totals.seconds > 0 ? double(totals.patterns) / totals.seconds : 0.0;
  json["load_seconds"] = load_seconds;
  ctx.finish(json, format("search: %llu patterns, %llu occurrences in a %llu-byte text, backend %s, %.3f s; wrote %s",
                          static_cast<unsigned long long>(totals.patterns),
                          static_cast<unsigned long long>(totals.occurrences), static_cast<unsigned long long>(n),
                          backend_name(backend), totals.seconds, out.name().c_str()));
  return kExitOk;
}

}  // namespace ktext::cli
