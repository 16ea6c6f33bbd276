// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext sort [FILE...] [-o OUT] [-u] [-r] [-z] [-S SIZE] [-T DIR] [--chunk SIZE]
// Byte for byte the output of `LC_ALL=C sort` with the same options. Records are read in
// batches of at most -S bytes of host memory; each batch is sorted on the backend with
// ktext::string_sort, in chunks when the backend's memory (or --chunk) cannot hold it at once,
// the chunks merged on the host. When the input is larger than one batch, each sorted batch is
// spilled to a temporary file in -T and the files are merged at the end. Without keys, equal
// records are the same bytes, so the order among them (and which one -u keeps) never shows.
//
// Unlike the other commands, the output may be one of the inputs (`sort -o f f` is GNU sort's
// way of sorting a file in place): the output is written to a temporary file and renamed onto
// the input only after every input byte has been read.

#include <algorithm>
#include <cstdlib>

#include <ktext/core/memory_info.hpp>
#include <ktext/strings/string_sort.hpp>

#include "commands.hpp"
#include "context.hpp"
#include "host_array.hpp"
#include "run.hpp"
#include "sort_records.hpp"

namespace ktext::cli {

namespace {

struct SortTotals {
  std::uint64_t records = 0, bytes = 0, chunks = 0, batches = 0;
  std::uint64_t peak_device_bytes = 0;
  int passes = 0;
  double seconds = 0;          ///< time on the backend
  double read_seconds = 0;     ///< reading the inputs and splitting them into records
  double chunk_seconds = 0;    ///< sorting chunks, transfers and allocations included
  double write_seconds = 0;    ///< writing sorted records (runs and merges included)
};

/// Host bytes a batch of \p n records and \p bytes bytes holds: the records, their offsets and
/// the order, and on host backends the sort's own buffers too.
std::uint64_t batch_cost(bool host_sort, std::uint64_t n, std::uint64_t bytes) {
  return host_sort ? ktext::string_sort_peak_bytes_bound<std::int64_t>(n, bytes) : bytes + 16 * n;
}

/// Sorts records [first, last) of \p batch on the backend; writes their batch indices, sorted,
/// to order[first..last).
void sort_chunk(Backend backend, const RecordBatch& batch, std::size_t first, std::size_t last, std::int64_t* order,
                SortTotals& totals) {
  const std::size_t n = last - first;
  const std::int64_t base = batch.offsets[first];
  // A chunk's offsets from its first byte: the batch's own when the chunk is the whole batch.
  HostVector<std::int64_t> rebased;
  const std::int64_t* offsets = batch.offsets.data() + first;
  if (base != 0) {
    rebased.resize(n + 1);
    std::int64_t* to = rebased.data();
    host_for("ktext_cli::sort::rebase_offsets", n + 1, [=](std::size_t i) { to[i] = offsets[i] - base; });
    offsets = to;
  }
  const std::uint64_t bytes = std::uint64_t(offsets[n]);
  with_index_type(n, [&](auto index) {
    using I = decltype(index);
    HostArray<I> local(n);
    ktext::StringSortStats stats;
    run_on_backend(backend, [&](const auto& exec) {
      const auto d_chars = mirror(exec, batch.chars.data() + base, bytes, "ktext_cli::chars");
      const auto d_offsets = mirror(exec, offsets, n + 1, "ktext_cli::offsets");
      const auto d_order = result_view(exec, local.data(), n, "ktext_cli::order");
      totals.seconds += timed(exec, [&] { stats = ktext::string_sort(exec, d_chars, d_offsets, d_order); });
      to_host(exec, d_order, local.data());
    });
    const I* sorted = local.data();
    std::int64_t* to = order + first;
    const auto shift = std::int64_t(first);
    host_for("ktext_cli::sort::batch_order", n, [=](std::size_t r) { to[r] = shift + std::int64_t(sorted[r]); });
    totals.passes = std::max(totals.passes, stats.passes);
    totals.peak_device_bytes = std::max<std::uint64_t>(totals.peak_device_bytes, stats.peak_bytes);
  });
  ++totals.chunks;
}

/// Sorts \p batch in chunks whose string_sort bound fits \p device_budget and writes it, merged,
/// to \p out in output order.
void sort_batch(Backend backend, const RecordBatch& batch, std::uint64_t device_budget, bool reverse,
                RecordWriter& out, SortTotals& totals) {
  const std::size_t n = batch.size();
  HostVector<std::int64_t> order(n);
  std::vector<std::size_t> bounds{0};
  while (bounds.back() < n) {
    std::size_t last = bounds.back() + 1;  // at least one record per chunk
    while (last < n && ktext::string_sort_peak_bytes_bound<std::int32_t>(
                           last + 1 - bounds.back(), std::uint64_t(batch.offsets[last + 1] - batch.offsets[bounds.back()])) <=
                           device_budget)
      ++last;
    const Stopwatch chunk;
    sort_chunk(backend, batch, bounds.back(), last, order.data(), totals);
    totals.chunk_seconds += chunk.seconds();
    bounds.push_back(last);
  }
  const Stopwatch writing;
  if (bounds.size() == 2) {
    out.write_sorted(batch, order.data(), n, reverse);
    totals.write_seconds += writing.seconds();
    return;
  }
  std::vector<BatchCursor> cursors;
  for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
    // Each chunk in output order: the merge takes every source as it comes.
    if (reverse) std::reverse(order.begin() + std::ptrdiff_t(bounds[c]), order.begin() + std::ptrdiff_t(bounds[c + 1]));
    cursors.emplace_back(batch, order.data() + bounds[c], order.data() + bounds[c + 1]);
  }
  std::vector<RecordCursor*> sources;
  for (auto& cursor : cursors) sources.push_back(&cursor);
  merge_records(sources, reverse, out);
  totals.write_seconds += writing.seconds();
}

std::string temp_directory(const SortOptions& options) {
  if (!options.temp_dir.empty()) return options.temp_dir;
  const char* env = std::getenv("TMPDIR");
  return env != nullptr && *env != '\0' ? env : "/tmp";
}

}  // namespace

int run_sort(const GlobalOptions& global, const SortOptions& options) {
  Context ctx(global, "sort");
  const std::uint8_t delimiter = options.zero_terminated ? 0 : '\n';
  // Sizes first: a bad -S fails before any file is opened.
  const std::uint64_t physical = physical_memory_bytes();
  const std::uint64_t buffer_budget = !options.buffer_size
                                           ? (physical > 0 ? physical / 4 : std::uint64_t(1) << 30)
                                           : parse_buffer_size("-S", *options.buffer_size);
  const std::uint64_t chunk_limit = options.chunk ? parse_buffer_size("--chunk", *options.chunk) : 0;
  std::vector<InputFile*> files;
  for (const std::string& path : options.inputs.empty() ? std::vector<std::string>{"-"} : options.inputs)
    files.push_back(&ctx.input(path));
  OutputFile& out = ctx.output(options.output, /*may_be_an_input=*/true);
  const Stopwatch starting;
  const Backend backend = ctx.start();
  const double start_seconds = starting.seconds();
  const bool host_sort = backend != Backend::Cuda;
  // The backend's budget per sort: what it has free (less a tenth for the allocator), or --chunk.
  std::uint64_t device_budget = ~std::uint64_t(0);
  if (const auto free_bytes = with_exec_space(backend, [](const auto& exec) { return ktext::free_memory_bytes(exec); }))
    device_budget = *free_bytes / 10 * 9;
  if (chunk_limit > 0) device_budget = std::min(device_budget, chunk_limit);

  const std::string label = std::string("sort ") + backend_name(backend);
  auto note = [&](const std::string& text) { ctx.progress().note(label, text); };
  // Input is read in blocks of an eighth of -S (within 1 KiB..64 MiB), so the reader stays
  // inside the host budget.
  RecordReader reader(files, delimiter, std::size_t(std::clamp<std::uint64_t>(buffer_budget / 8, 1 << 10, 1 << 26)));
  RecordWriter writer = writer_to(out, delimiter, options.unique);
  SortTotals totals;
  std::uint64_t runs = 0;
  {
    RecordBatch batch;
    auto cost = [&](std::uint64_t n, std::uint64_t bytes) { return batch_cost(host_sort, n, bytes); };
    auto fill = [&] {
      const Stopwatch reading;
      const bool more = reader.fill(batch, buffer_budget, cost);
      totals.read_seconds += reading.seconds();
      return more;
    };
    bool more = fill();
    auto count = [&] {
      totals.records += batch.size();
      totals.bytes += batch.chars.size();
      ++totals.batches;
    };
    if (!more) {
      count();
      note("sorting " + std::to_string(batch.size()) + " records");
      sort_batch(backend, batch, device_budget, options.reverse, writer, totals);
      const Stopwatch writing;
      writer.flush();
      totals.write_seconds += writing.seconds();
    } else {
      SpilledRuns spilled(temp_directory(options), delimiter);
      for (;;) {
        count();
        spilled.add(options.unique,
                    [&](RecordWriter& w) { sort_batch(backend, batch, device_budget, options.reverse, w, totals); });
        note("run " + std::to_string(spilled.size()) + " sorted (" + std::to_string(totals.records) + " records, " +
             human_bytes(reader.bytes_read()) + " read)");
        if (!more) break;
        batch.clear();
        more = fill();
      }
      runs = spilled.size();
      note("merging " + std::to_string(runs) + " runs");
      const Stopwatch merging;
      spilled.merge_into(writer, options.reverse, options.unique);
      totals.write_seconds += merging.seconds();
    }
  }
  const Stopwatch committing;
  out.commit();
  totals.write_seconds += committing.seconds();
  note("done");

  const double seconds = ctx.total.seconds();
  Json json = ctx.report(totals.bytes, seconds, totals.peak_device_bytes);
  json["strings"] = totals.records;
  json["strings_written"] = writer.records();
  json["strings_per_s"] = seconds > 0 ? double(totals.records) / seconds : 0.0;
  json["bytes_per_s"] = seconds > 0 ? double(totals.bytes) / seconds : 0.0;
  // Where the time went: starting the backend, reading, sorting chunks (of which sort_seconds
  // on the backend itself), writing.
  json["start_seconds"] = start_seconds;
  json["read_seconds"] = totals.read_seconds;
  json["chunk_seconds"] = totals.chunk_seconds;
  json["sort_seconds"] = totals.seconds;
  json["write_seconds"] = totals.write_seconds;
  json["passes"] = totals.passes;
  json["device_chunks"] = totals.chunks;
  json["spilled_runs"] = runs;
  json["output"] = utf8_safe(options.output);
  // Like GNU sort, nothing but the records unless asked: a summary line on every run would be
  // noise in the pipelines sort lives in.
  if (global.json) ctx.finish(json, format("sort: %llu records (%s), backend %s, %.3f s (%.3f s sorting, %llu chunks, %llu spilled "
                          "runs); wrote %llu records to %s",
                          static_cast<unsigned long long>(totals.records), human_bytes(totals.bytes).c_str(),
                          backend_name(backend), seconds, totals.seconds, static_cast<unsigned long long>(totals.chunks),
                          static_cast<unsigned long long>(runs), static_cast<unsigned long long>(writer.records()),
                          out.name().c_str()));
  return kExitOk;
}

}  // namespace ktext::cli
