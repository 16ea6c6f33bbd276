// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext search INDEX [PATTERN...] [-f FILE] [--locate] [-o OUT]
//
// Patterns are searched in batches (at most 2^20 patterns or 64 MiB of symbols each), so a
// pattern file of any size streams through bounded memory; with --locate a batch is split
// further so that at most 2^26 positions are materialized at once (one pattern with more
// occurrences goes alone). Output: one line per pattern, in input order.

#include <charconv>
#include <optional>
#include <cstdio>
#include <cstring>

#include <ktext/core/container.hpp>
#include <ktext/suffix/fm_index_file.hpp>

#include "backend.hpp"
#include "commands.hpp"
#include "container_io.hpp"
#include "errors.hpp"
#include "fm_runs.hpp"
#include "io.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace ktext::cli {

namespace {

constexpr std::size_t kBatchPatterns = std::size_t(1) << 20;
constexpr std::size_t kBatchSymbols = std::size_t(1) << 26;
constexpr std::uint64_t kLocateBatchPositions = std::uint64_t(1) << 26;
constexpr std::size_t kOutputChunk = std::size_t(1) << 22;

// Lines of an input without their '\n'; a last line without '\n' counts, an empty input has none.
class LineReader {
 public:
  explicit LineReader(InputFile& in) : in_(in), buffer_(std::size_t(1) << 20) {}

  bool next(std::vector<std::uint8_t>& line) {
    line.clear();
    bool any = false;
    for (;;) {
      if (pos_ == end_) {
        if (eof_) return any;
        end_ = in_.read_some(buffer_.data(), buffer_.size());
        pos_ = 0;
        if (end_ == 0) {
          eof_ = true;
          return any;
        }
      }
      any = true;
      const std::uint8_t* start = buffer_.data() + pos_;
      const auto* newline = static_cast<const std::uint8_t*>(std::memchr(start, '\n', end_ - pos_));
      if (newline != nullptr) {
        line.insert(line.end(), start, newline);
        pos_ += std::size_t(newline - start) + 1;
        return true;
      }
      line.insert(line.end(), start, static_cast<const std::uint8_t*>(buffer_.data() + end_));
      pos_ = end_;
    }
  }

 private:
  InputFile& in_;
  std::vector<std::uint8_t> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
};

class ResultWriter {
 public:
  explicit ResultWriter(OutputFile& out) : out_(out) {}
  ~ResultWriter() = default;

  void number(std::uint64_t v) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    text_.append(digits, end);
  }
  void put(char c) { text_.push_back(c); }
  void end_line() {
    text_.push_back('\n');
    if (text_.size() >= kOutputChunk) flush();
  }
  void flush() {
    if (!text_.empty()) out_.write(text_.data(), text_.size());
    text_.clear();
  }

 private:
  OutputFile& out_;
  std::string text_;
};

struct SearchTotals {
  std::uint64_t patterns = 0;
  std::uint64_t symbols = 0;
  std::uint64_t occurrences = 0;
  double seconds = 0;
};

void search_batch(SearchEngine& engine, const PatternBatch& batch, bool locate, ResultWriter& results, SearchTotals& totals) {
  Stopwatch watch;
  const std::vector<std::uint64_t> counts = engine.count(batch);
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
  std::size_t first = 0;
  while (first < batch.size()) {
    std::size_t last = first;
    std::uint64_t positions = 0;
    while (last < batch.size() && (last == first || positions + counts[last] <= kLocateBatchPositions))
      positions += counts[last++];
    PatternBatch sub;
    for (std::size_t i = first; i < last; ++i)
      sub.add(batch.symbols.data() + batch.offsets[i], std::size_t(batch.offsets[i + 1] - batch.offsets[i]));
    Stopwatch locate_watch;
    const Occurrences occ = engine.locate(sub);
    totals.seconds += locate_watch.seconds();
    for (std::size_t i = 0; i < sub.size(); ++i) {
      const auto begin = std::uint64_t(occ.offsets[i]), end = std::uint64_t(occ.offsets[i + 1]);
      if (end - begin != counts[first + i])
        throw ktext::FormatError("the index is inconsistent: count and locate disagree");
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
  const auto requested = parse_backend(global.backend);
  require_stdout_for_one(global, options.output);
  if (options.patterns.empty() && options.pattern_file.empty())
    throw usage_error("no patterns: give PATTERN arguments or -f FILE");
  if (options.index == "-" && options.pattern_file == "-") throw usage_error("standard input can be read only once");
  Stopwatch total;
  InputFile in = InputFile::open(options.index);
  std::optional<InputFile> pattern_file;
  if (!options.pattern_file.empty()) pattern_file.emplace(InputFile::open(options.pattern_file));
  OutputFile out = OutputFile::create(options.output);
  KokkosSession session(global);
  const Backend backend = resolve_backend(requested);

  Stopwatch load_watch;
  std::unique_ptr<SearchEngine> engine;
  {
    const std::vector<std::uint8_t> bytes = in.read_rest();
    with_file_name(in.name(), [&] {
      const auto c = ktext::container::read_container(bytes, ktext::container::Kind::fm_index);
      engine = load_search_engine(backend, c);
    });
  }
  const double load_seconds = load_watch.seconds();

  const ProgressReporter progress(global);
  ResultWriter results(out);
  SearchTotals totals;
  PatternBatch batch;
  auto run = [&] {
    if (batch.size() == 0) return;
    search_batch(*engine, batch, options.locate, results, totals);
    batch.clear();
    if (progress.enabled())
      std::fprintf(stderr, "ktext: search: %llu patterns, %llu occurrences\n", static_cast<unsigned long long>(totals.patterns),
                   static_cast<unsigned long long>(totals.occurrences));
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
  out.commit();

  const std::uint64_t n = engine->n();
  if (global.json) {
    Json report = base_report("search", backend_name(backend), n, totals.seconds, engine->bytes());
    report["index"] = options.index;
    report["output"] = options.output;
    report["locate"] = options.locate;
    report["patterns"] = totals.patterns;
    report["pattern_symbols"] = totals.symbols;
    report["occurrences"] = totals.occurrences;
    report["patterns_per_s"] = totals.seconds > 0 ? double(totals.patterns) / totals.seconds : 0.0;
    report["load_seconds"] = load_seconds;
    report["total_seconds"] = total.seconds();
    print_json(report);
  } else if (!global.quiet) {
    std::fprintf(out.is_stdout() ? stderr : stdout, "search: %llu patterns, %llu occurrences in a %llu-byte text, backend %s, %.3f s; wrote %s\n",
                static_cast<unsigned long long>(totals.patterns), static_cast<unsigned long long>(totals.occurrences),
                static_cast<unsigned long long>(n), backend_name(backend), totals.seconds, out.name().c_str());
  }
  return kExitOk;
}

}  // namespace ktext::cli
