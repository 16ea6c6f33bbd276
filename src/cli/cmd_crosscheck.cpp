// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext crosscheck [INPUT...]: every backend (and libdivsufsort) on the same texts; suffix
// arrays, BWTs, LCP arrays and inverse BWTs compared bit for bit across backends, the BWT
// round trip checked against the input, one SA verified and its LCP checked against Kasai's,
// and every backend's FM-index answering patterns exactly as binary search over that SA does
// (the search row's n is the number of pattern symbols). The lines of each text are sorted with
// string_sort on every backend and compared with std::stable_sort and the LCP of neighbours
// (the sort row's n is the number of bytes of the lines). A wavelet tree and a wavelet matrix of
// each text answer access, rank and select queries on every backend against a table of every
// symbol's positions (the wt and wm rows' n is the number of queries; seconds include the build).

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>

#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/check_suffix_array.hpp>
#include <ktext/suffix/fm_index.hpp>
#include <ktext/suffix/lcp.hpp>
#include <ktext/suffix/memory_bounds.hpp>
#include <ktext/suffix/suffix_array.hpp>
#include <ktext/suffix/unbwt.hpp>
#include <ktext_oracles/divsufsort.hpp>
#include <ktext_oracles/kasai_lcp.hpp>
#include <ktext_oracles/string_sets.hpp>
#include <ktext_oracles/suffix_array_search.hpp>
#include <ktext/strings/string_sort.hpp>
#include <ktext/succinct/wavelet_matrix.hpp>
#include <ktext/succinct/wavelet_tree.hpp>

#include "commands.hpp"
#include "context.hpp"
#include <ktext_oracles/texts.hpp>
#include "fm_queries.hpp"
#include "host_array.hpp"

namespace ktext::cli {

namespace {

constexpr std::uint64_t kLocatedPositions = std::uint64_t(1) << 20;  // located positions, all patterns together

struct Row {
  std::string input;
  std::string stage;  ///< sa, bwt, unbwt, lcp, index, search, sort, wt, wm
  std::string backend;
  std::uint64_t n = 0;
  double seconds = 0;
  std::uint64_t peak_bytes = 0;
  bool same = true;  ///< equal to the first backend's output (unbwt: equal to the input)
};

struct InputVerdict {
  std::string input;
  std::uint64_t n = 0;
  bool agree = true, bwt_agree = true, lcp_agree = true, roundtrip = true, lcp_valid = true, search_ok = true;
  bool sort_ok = true, wavelet_ok = true;
  ktext::SuffixArrayCheck check;
  bool ok() const {
    return agree && bwt_agree && lcp_agree && roundtrip && lcp_valid && search_ok && sort_ok && wavelet_ok &&
           check.valid;
  }
};

template <class T>
bool same_array(const T* a, const T* b, std::uint64_t n) {
  return n == 0 || std::memcmp(a, b, n * sizeof(T)) == 0;
}

// Everything one backend computes from one suffix array.
template <class I>
struct PipelineRun {
  HostArray<I> sa, lcp;
  HostArray<std::uint8_t> bwt, unbwt;
  std::uint64_t primary = 0;
  ktext::SuffixArrayStats stats;
  std::uint64_t peak_bytes = 0;  ///< bound on the backend's memory over the whole pipeline
  double sa_seconds = 0, bwt_seconds = 0, unbwt_seconds = 0, lcp_seconds = 0;
};

template <class I>
PipelineRun<I> run_pipeline(Backend backend, const std::vector<std::uint8_t>& text, const ktext::SuffixArrayOptions& o) {
  const std::uint64_t n = text.size();
  PipelineRun<I> run{HostArray<I>(n), HostArray<I>(n), HostArray<std::uint8_t>(n), HostArray<std::uint8_t>(n)};
  run_on_backend(backend, [&](const auto& exec) {
    const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
    const auto d_sa = result_view(exec, run.sa.data(), n, "ktext_cli::sa");
    const auto d_lcp = result_view(exec, run.lcp.data(), n, "ktext_cli::lcp");
    const auto d_bwt = result_view(exec, run.bwt.data(), n, "ktext_cli::bwt");
    const auto d_unbwt = result_view(exec, run.unbwt.data(), n, "ktext_cli::unbwt");
    run.sa_seconds = timed(exec, [&] { run.stats = ktext::suffix_array(exec, d_text, d_sa, o); });
    run.bwt_seconds = timed(exec, [&] { run.primary = ktext::bwt_from_suffix_array(exec, d_text, d_sa, d_bwt); });
    run.lcp_seconds = timed(exec, [&] { ktext::lcp(exec, d_text, d_sa, d_lcp); });
    run.unbwt_seconds = timed(exec, [&] { ktext::unbwt(exec, d_bwt, run.primary, d_unbwt); });
    to_host(exec, d_sa, run.sa.data());
    to_host(exec, d_lcp, run.lcp.data());
    to_host(exec, d_bwt, run.bwt.data());
    to_host(exec, d_unbwt, run.unbwt.data());
  });
  // lcp, bwt and unbwt are allocated while the SA is built; unbwt's workspace comes last.
  run.peak_bytes = std::max<std::uint64_t>(run.stats.peak_bytes + n * (2 + sizeof(I)),
                                           n * (3 + 2 * sizeof(I)) + ktext::unbwt_workspace_bytes(n));
  return run;
}

// Patterns for a text: substrings of lengths 1..40 at seeded positions, random byte strings,
// the empty pattern, one longer than the text and every single byte value, with the answers of
// binary search over the text's (verified) suffix array.
struct SearchExpectation {
  PatternBatch patterns;  ///< counted
  PatternBatch located;   ///< located (those with few enough occurrences)
  std::vector<std::uint64_t> counts;
  Occurrences occurrences;  ///< of `located`
};

template <class I>
SearchExpectation expected_search(const std::vector<std::uint8_t>& text, const I* sa) {
  const std::uint64_t n = text.size();
  SearchExpectation e;
  std::mt19937_64 rng(0x6b74657874ULL ^ n);
  for (int k = 0; k < 2000 && n > 0; ++k) {
    const std::uint64_t pos = rng() % n;
    e.patterns.add(text.data() + pos, std::size_t(std::min<std::uint64_t>(1 + rng() % 40, n - pos)));
  }
  std::vector<std::uint8_t> p;
  for (int k = 0; k < 200; ++k) {
    p.resize(1 + rng() % 8);
    for (auto& c : p) c = std::uint8_t(rng());
    e.patterns.add(p.data(), p.size());
  }
  e.patterns.add(nullptr, 0);
  p.assign(text.begin(), text.end());
  p.push_back(0);
  e.patterns.add(p.data(), p.size());
  for (int c = 0; c < 256; ++c) {
    const std::uint8_t b = std::uint8_t(c);
    e.patterns.add(&b, 1);
  }
  std::uint64_t located = 0;
  e.occurrences.offsets.push_back(0);
  for (std::size_t i = 0; i < e.patterns.size(); ++i) {
    const std::uint8_t* pi = e.patterns.symbols.data() + e.patterns.offsets[i];
    const std::size_t m = std::size_t(e.patterns.offsets[i + 1] - e.patterns.offsets[i]);
    const std::uint64_t count = ktext::oracle::suffix_array_count(text.data(), n, sa, pi, m);
    e.counts.push_back(count);
    if (located + count > kLocatedPositions) continue;
    located += count;
    e.located.add(pi, m);
    const auto positions = ktext::oracle::suffix_array_locate(text.data(), n, sa, pi, m);
    e.occurrences.positions.insert(e.occurrences.positions.end(), positions.begin(), positions.end());
    e.occurrences.offsets.push_back(std::int64_t(e.occurrences.positions.size()));
  }
  return e;
}

// Only the first backend's outputs are kept: the others are compared and dropped, so memory
// stays at about two runs' worth whatever the number of backends.
template <class I>
InputVerdict crosscheck_one(const Context& ctx, const std::string& name, const std::vector<std::uint8_t>& text,
                            const std::vector<Backend>& backends, std::vector<Row>& rows) {
  const std::uint64_t n = text.size();
  InputVerdict verdict;
  verdict.input = name;
  verdict.n = n;
  std::optional<PipelineRun<I>> reference;
  for (Backend b : backends) {
    auto run = run_pipeline<I>(b, text, ctx.suffix_array_options(name + " " + backend_name(b)));
    const char* backend = backend_name(b);
    const bool sa_same = !reference || same_array(reference->sa.data(), run.sa.data(), n);
    const bool bwt_same =
        !reference || (reference->primary == run.primary && same_array(reference->bwt.data(), run.bwt.data(), n));
    const bool lcp_same = !reference || same_array(reference->lcp.data(), run.lcp.data(), n);
    const bool round = same_array(run.unbwt.data(), text.data(), n);
    // The suffix array reports what it held; the later stages show the pipeline's bound.
    rows.push_back(Row{name, "sa", backend, n, run.sa_seconds, run.stats.peak_bytes, sa_same});
    rows.push_back(Row{name, "bwt", backend, n, run.bwt_seconds, run.peak_bytes, bwt_same});
    rows.push_back(Row{name, "unbwt", backend, n, run.unbwt_seconds, run.peak_bytes, round});
    rows.push_back(Row{name, "lcp", backend, n, run.lcp_seconds, run.peak_bytes, lcp_same});
    verdict.agree = verdict.agree && sa_same;
    verdict.bwt_agree = verdict.bwt_agree && bwt_same;
    verdict.lcp_agree = verdict.lcp_agree && lcp_same;
    verdict.roundtrip = verdict.roundtrip && round;
    if (!reference) reference = std::move(run);
  }
#if defined(KTEXT_HAVE_DIVSUFSORT)
  HostArray<I> sa(n);
  Stopwatch watch;
  ktext::oracle::divsufsort_suffix_array(text.data(), sa.data(), n);
  const double seconds = watch.seconds();
  const bool same = same_array(reference->sa.data(), sa.data(), n);
  rows.push_back(Row{name, "sa", "divsufsort", n, seconds, n * (1 + sizeof(I)), same});
  verdict.agree = verdict.agree && same;
#endif
  run_on_backend(backends.front(), [&](const auto& exec) {
    const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
    const auto d_sa = mirror(exec, reference->sa.data(), n, "ktext_cli::sa");
    verdict.check = ktext::check_suffix_array(exec, d_text, d_sa);
  });
  const auto kasai = ktext::oracle::kasai_lcp(text.data(), reference->sa.data(), n);
  verdict.lcp_valid = verdict.check.valid && kasai && same_array(kasai->data(), reference->lcp.data(), n);
  const SearchExpectation expected = expected_search<I>(text, reference->sa.data());
  reference.reset();
  for (Backend b : backends) {
    Row index{name, "index", backend_name(b), n};
    Row search{name, "search", backend_name(b), expected.patterns.symbols.size() + expected.located.symbols.size()};
    run_on_backend(b, [&](const auto& exec) {
      using Mem = typename std::decay_t<decltype(exec)>::memory_space;
      const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
      ktext::FMIndexOptions options;
      options.suffix_array = ctx.suffix_array_options(name + " index " + backend_name(b));
      ktext::FMIndex<Mem, I> fm;
      index.seconds = timed(exec, [&] { fm = ktext::FMIndex<Mem, I>(exec, d_text, options); });
      index.peak_bytes = search.peak_bytes = fm.bytes();
      Stopwatch watch;
      const auto counts = count_patterns(exec, fm, expected.patterns);
      const auto occ = locate_patterns(exec, fm, expected.located);
      search.seconds = watch.seconds();
      index.same = search.same = counts == expected.counts && occ.offsets == expected.occurrences.offsets &&
                                 occ.positions == expected.occurrences.positions;
    });
    rows.push_back(index);
    rows.push_back(search);
    verdict.search_ok = verdict.search_ok && search.same;
  }
  return verdict;
}

/// The lines of \p text sorted on every backend: order and LCP against std::stable_sort.
bool crosscheck_sort(const std::string& name, const std::vector<std::uint8_t>& text, const std::vector<Backend>& backends,
                     std::vector<Row>& rows) {
  ktext::oracle::StringSet lines;
  for (std::size_t start = 0; start < text.size();) {
    const auto* nl = static_cast<const std::uint8_t*>(std::memchr(text.data() + start, '\n', text.size() - start));
    const std::size_t end = nl ? std::size_t(nl - text.data()) : text.size();
    lines.add(text.data() + start, end - start);
    start = end + 1;
  }
  const std::uint64_t n = lines.size();
  const auto want = ktext::oracle::stable_sort_order<std::int64_t>(lines);
  const auto want_lcp = ktext::oracle::sorted_lcp(lines, want);
  bool ok = true;
  for (Backend b : backends) {
    HostArray<std::int64_t> order(n), lcp(n);
    Row row{name, "sort", backend_name(b), lines.chars.size()};
    run_on_backend(b, [&](const auto& exec) {
      const auto d_chars = mirror(exec, lines.chars.data(), lines.chars.size(), "ktext_cli::chars");
      const auto d_offsets = mirror(exec, lines.offsets.data(), lines.offsets.size(), "ktext_cli::offsets");
      const auto d_order = result_view(exec, order.data(), n, "ktext_cli::order");
      const auto d_lcp = result_view(exec, lcp.data(), n, "ktext_cli::lcp");
      row.seconds = timed(exec, [&] { row.peak_bytes = ktext::string_sort(exec, d_chars, d_offsets, d_order, d_lcp).peak_bytes; });
      to_host(exec, d_order, order.data());
      to_host(exec, d_lcp, lcp.data());
    });
    row.same = same_array(order.data(), want.data(), n) && same_array(lcp.data(), want_lcp.data(), n);
    ok = ok && row.same;
    rows.push_back(row);
  }
  return ok;
}

/// Wavelet queries of one kind with their expected answers.
struct WaveletBatch {
  ktext::WaveletQuery op;
  std::vector<std::uint64_t> a, b, want;
};

/// Access at random positions and the ends, rank of present and absent bytes at random positions
/// and at 0 and n, select of every present byte's first, last, beyond-last and random occurrences
/// and of an absent byte; the answers from a table of every byte's positions.
std::vector<WaveletBatch> wavelet_batches(const std::vector<std::uint8_t>& text) {
  const std::uint64_t n = text.size();
  constexpr std::uint64_t npos = ~std::uint64_t(0);
  std::vector<std::vector<std::uint64_t>> where(256);
  for (std::uint64_t i = 0; i < n; ++i) where[text[i]].push_back(i);
  std::mt19937_64 rng(n * 0x9e3779b97f4a7c15ull + 7);
  const std::uint64_t q = std::min<std::uint64_t>(n, 1u << 16);
  WaveletBatch access{ktext::WaveletQuery::access, {}, {}, {}}, rank{ktext::WaveletQuery::rank, {}, {}, {}},
      select{ktext::WaveletQuery::select, {}, {}, {}};
  auto add_rank = [&](std::uint64_t c, std::uint64_t i) {
    const auto& w = where[c];
    rank.a.push_back(c), rank.b.push_back(i);
    rank.want.push_back(std::uint64_t(std::lower_bound(w.begin(), w.end(), i) - w.begin()));
  };
  auto add_select = [&](std::uint64_t c, std::uint64_t k) {
    select.a.push_back(c), select.b.push_back(k);
    select.want.push_back(k >= 1 && k <= where[c].size() ? where[c][k - 1] : npos);
  };
  if (n > 0) {
    for (std::uint64_t i : {std::uint64_t(0), n - 1}) access.a.push_back(i), access.want.push_back(text[i]);
    for (std::uint64_t c = 0; c < 256; ++c) {
      add_rank(c, 0), add_rank(c, n);
      const std::uint64_t count = where[c].size();
      add_select(c, 1), add_select(c, count), add_select(c, count + 1);
    }
  }
  for (std::uint64_t k = 0; k < q; ++k) {
    const std::uint64_t i = rng() % n, c = (k % 4 == 3) ? rng() % 256 : text[rng() % n];
    access.a.push_back(i), access.want.push_back(text[i]);
    add_rank(c, rng() % (n + 1));
    add_select(c, 1 + rng() % (where[c].size() + 1));
  }
  access.b = access.a;
  return {access, rank, select};
}

/// A wavelet tree and a wavelet matrix of \p text built on every backend answer the queries of
/// wavelet_batches exactly.
bool crosscheck_wavelet(const std::string& name, const std::vector<std::uint8_t>& text,
                        const std::vector<Backend>& backends, std::vector<Row>& rows) {
  const std::uint64_t n = text.size();
  const std::vector<WaveletBatch> batches = wavelet_batches(text);
  std::uint64_t queries = 0;
  for (const WaveletBatch& batch : batches) queries += batch.a.size();
  bool ok = true;
  for (Backend b : backends) {
    run_on_backend(b, [&](const auto& exec) {
      using Mem = typename std::decay_t<decltype(exec)>::memory_space;
      const auto d_text = mirror(exec, text.data(), n, "ktext_cli::text");
      auto check = [&](auto structure, const char* stage) {
        using S = decltype(structure);
        Row row{name, stage, backend_name(b), queries};
        Stopwatch watch;
        structure = S(exec, d_text);
        row.peak_bytes = structure.space_bytes();
        for (const WaveletBatch& batch : batches) {
          const std::uint64_t m = batch.a.size();
          HostArray<std::uint64_t> out(m);
          const auto d_a = mirror(exec, batch.a.data(), m, "ktext_cli::wavelet_a");
          const auto d_b = mirror(exec, batch.b.data(), m, "ktext_cli::wavelet_b");
          const auto d_out = result_view(exec, out.data(), m, "ktext_cli::wavelet_answers");
          structure.query(exec, batch.op, d_a, d_b, d_out);
          to_host(exec, d_out, out.data());
          row.same = row.same && same_array(out.data(), batch.want.data(), m);
        }
        exec.fence("ktext_cli::crosscheck_wavelet");
        row.seconds = watch.seconds();
        ok = ok && row.same;
        rows.push_back(row);
      };
      check(ktext::WaveletTree<Mem, std::uint8_t>{}, "wt");
      check(ktext::WaveletMatrix<Mem, std::uint8_t>{}, "wm");
    });
  }
  return ok;
}

std::string join(const std::vector<Backend>& backends) {
  std::string s;
  for (Backend b : backends) s += (s.empty() ? "" : ",") + std::string(backend_name(b));
  if (ktext::oracle::have_divsufsort()) s += ",divsufsort";
  return s;
}

std::string table(const std::vector<Row>& rows, const std::vector<InputVerdict>& verdicts, bool ok) {
  int width = 5;
  for (const Row& r : rows) width = std::max(width, static_cast<int>(r.input.size()));
  std::string t = format("%-*s  %-6s  %-10s  %12s  %10s  %10s  %14s  %s\n", width, "input", "stage", "backend", "n",
                         "seconds", "MB/s", "peak bytes", "result");
  for (const Row& r : rows)
    t += format("%-*s  %-6s  %-10s  %12llu  %10.4f  %10.2f  %14llu  %s\n", width, r.input.c_str(), r.stage.c_str(),
                r.backend.c_str(), static_cast<unsigned long long>(r.n), r.seconds, mb_per_s(r.n, r.seconds),
                static_cast<unsigned long long>(r.peak_bytes), r.same ? "ok" : "MISMATCH");
  for (const InputVerdict& v : verdicts) {
    t += format("%s: suffix arrays %s, bwt %s, lcp %s, unbwt round trip %s, lcp vs Kasai %s, search %s, line sort %s, "
                "wavelet %s; check: ",
                v.input.c_str(), v.agree ? "agree" : "DIFFER", v.bwt_agree ? "agree" : "DIFFER",
                v.lcp_agree ? "agree" : "DIFFER", v.roundtrip ? "ok" : "FAILED", v.lcp_valid ? "ok" : "FAILED",
                v.search_ok ? "ok" : "FAILED", v.sort_ok ? "ok" : "FAILED", v.wavelet_ok ? "ok" : "FAILED");
    t += v.check.valid ? std::string("valid\n")
                       : format("INVALID at index %lld: %s\n", static_cast<long long>(v.check.bad_index),
                                v.check.reason.c_str());
  }
  return t + format("crosscheck: %s", ok ? "ok" : "FAILED");
}

}  // namespace

int run_crosscheck(const GlobalOptions& global, const CrosscheckOptions& options) {
  Context ctx(global, "crosscheck");
  // Every input is opened before any work, so a typo in the last one fails at once.
  std::vector<InputFile*> files;
  for (const std::string& path : options.inputs) files.push_back(&ctx.input(path));
  // --backend auto means every usable backend; naming one compares it with libdivsufsort alone.
  const Backend first = ctx.start();
  const std::vector<Backend> backends = global.backend == "auto" ? usable_backends() : std::vector<Backend>{first};

  std::vector<Row> rows;
  std::vector<InputVerdict> verdicts;
  auto check_text = [&](const std::string& name, const std::vector<std::uint8_t>& text) {
    verdicts.push_back(with_index_type(text.size(), [&](auto index) {
      return crosscheck_one<decltype(index)>(ctx, name, text, backends, rows);
    }));
    verdicts.back().sort_ok = crosscheck_sort(name, text, backends, rows);
    verdicts.back().wavelet_ok = crosscheck_wavelet(name, text, backends, rows);
  };
  if (options.inputs.empty()) check_text("(default)", ktext::oracle::crosscheck_text());
  for (std::size_t i = 0; i < files.size(); ++i) check_text(options.inputs[i], files[i]->read_rest());

  bool ok = true;
  for (const InputVerdict& v : verdicts) ok = ok && v.ok();
  std::uint64_t n = 0, peak = 0;
  double seconds = 0;
  for (const InputVerdict& v : verdicts) n += v.n;
  for (const Row& r : rows) seconds += r.seconds, peak = std::max(peak, r.peak_bytes);
  Json json = ctx.report(n, seconds, peak);
  json["backend"] = join(backends);
  json["ok"] = ok;
  Json inputs = Json::array();
  for (const InputVerdict& v : verdicts)
    inputs.push_back(Json{{"input", utf8_safe(v.input)}, {"n", v.n}, {"agree", v.agree}, {"bwt_agree", v.bwt_agree},
                          {"lcp_agree", v.lcp_agree}, {"unbwt_roundtrip", v.roundtrip}, {"lcp_valid", v.lcp_valid},
                          {"search", v.search_ok}, {"sort", v.sort_ok}, {"wavelet", v.wavelet_ok}, {"valid", v.check.valid}, {"bad_index", v.check.bad_index},
                          {"reason", v.check.reason}});
  json["inputs"] = inputs;
  Json runs = Json::array();
  for (const Row& r : rows)
    runs.push_back(Json{{"input", utf8_safe(r.input)}, {"stage", r.stage}, {"backend", r.backend}, {"n", r.n},
                        {"seconds", r.seconds}, {"mb_per_s", mb_per_s(r.n, r.seconds)},
                        {"peak_device_bytes", r.peak_bytes}, {"result", r.same ? "ok" : "MISMATCH"}});
  json["runs"] = runs;
  ctx.finish(json, table(rows, verdicts, ok));
  return ok ? kExitOk : kExitInvalid;
}

}  // namespace ktext::cli
