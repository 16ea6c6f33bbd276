// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext crosscheck [INPUT...]: every backend (and libdivsufsort) on the same texts; suffix
// arrays, BWTs, LCP arrays and inverse BWTs compared bit for bit across backends, the BWT
// round trip checked against the input, one SA verified and its LCP checked against Kasai's,
// and every backend's FM-index answering patterns exactly as binary search over that SA does
// (the search row's n is the number of pattern symbols).

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#if defined(KTEXT_HAVE_DIVSUFSORT)
#include <divsufsort.h>
#include <divsufsort64.h>
#endif

#include "backend.hpp"
#include "commands.hpp"
#include "default_text.hpp"
#include "errors.hpp"
#include "io.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "search_check.hpp"
#include "suffix_runs.hpp"
#include "text_runs.hpp"

namespace ktext::cli {

namespace {

constexpr const char* kDefaultName = "(default)";
constexpr std::uint64_t kMax32 = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());

struct Row {
  std::string input;
  std::string stage;  ///< sa, bwt, unbwt, lcp, index, search
  std::string backend;
  std::uint64_t n = 0;
  double seconds = 0;
  std::uint64_t peak_bytes = 0;
  bool same = true;  ///< equal to the first backend's output (unbwt: equal to the input)
};

struct InputVerdict {
  std::string input;
  std::uint64_t n = 0;
  bool agree = true;       ///< suffix arrays
  bool bwt_agree = true;   ///< transforms and primary indexes
  bool lcp_agree = true;   ///< LCP arrays
  bool roundtrip = true;   ///< unbwt(bwt(text)) == text on every backend
  bool lcp_valid = true;   ///< the first backend's LCP equals Kasai et al.'s on the host
  bool search_ok = true;   ///< every backend's FM-index answers as the suffix array does
  ktext::SuffixArrayCheck check;
  bool ok() const { return agree && bwt_agree && lcp_agree && roundtrip && lcp_valid && search_ok && check.valid; }
};

template <class T>
bool same_array(const HostArray<T>& a, const HostArray<T>& b) {
  return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Kasai et al.'s linear-time LCP on the host: an oracle independent of the library's PLCP.
template <class I>
bool lcp_matches_kasai(const std::vector<std::uint8_t>& text, const HostArray<I>& sa, const HostArray<I>& lcp) {
  const std::uint64_t n = text.size();
  HostArray<I> rank(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (sa[i] < 0 || std::uint64_t(sa[i]) >= n) return false;
    rank[std::uint64_t(sa[i])] = I(i);
  }
  if (n > 0 && lcp[0] != 0) return false;
  std::uint64_t h = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = std::uint64_t(rank[i]);
    if (r == 0) {
      h = 0;
      continue;
    }
    const std::uint64_t j = std::uint64_t(sa[r - 1]);
    while (i + h < n && j + h < n && text[i + h] == text[j + h]) ++h;
    if (std::uint64_t(lcp[r]) != h) return false;
    if (h > 0) --h;
  }
  return true;
}

#if defined(KTEXT_HAVE_DIVSUFSORT)
template <class I>
HostArray<I> divsufsort_array(const std::vector<std::uint8_t>& text, double& seconds) {
  const std::uint64_t n = text.size();
  HostArray<I> sa(n);
  Stopwatch watch;
  int rc;
  if constexpr (sizeof(I) == 4) rc = divsufsort(text.data(), sa.data(), static_cast<saidx_t>(n));
  else rc = divsufsort64(text.data(), sa.data(), static_cast<saidx64_t>(n));
  seconds = watch.seconds();
  if (rc != 0) throw io_error("libdivsufsort failed (code " + std::to_string(rc) + ") on n = " + std::to_string(n));
  return sa;
}
#endif

// Only the first backend's outputs are kept: the others are compared and dropped, so memory
// stays at about two runs' worth whatever the number of backends.
template <class I>
InputVerdict crosscheck_one(const std::string& name, const std::vector<std::uint8_t>& text,
                            const std::vector<Backend>& backends, const ProgressReporter& progress,
                            std::vector<Row>& rows) {
  const std::uint64_t n = text.size();
  InputVerdict verdict;
  verdict.input = name;
  verdict.n = n;
  std::optional<PipelineRun<I>> reference;
  for (Backend b : backends) {
    auto run = run_pipeline<I>(b, text.data(), n, progress.options(name + " " + backend_name(b)));
    const std::string backend = backend_name(b);
    const std::uint64_t peak = run.peak_bytes;
    const bool sa_same = !reference || same_array(reference->sa, run.sa);
    const bool bwt_same = !reference || (reference->primary == run.primary && same_array(reference->bwt, run.bwt));
    const bool lcp_same = !reference || same_array(reference->lcp, run.lcp);
    const bool round = n == 0 || std::memcmp(run.unbwt.data(), text.data(), n) == 0;
    const bool unbwt_same = round && (!reference || same_array(reference->unbwt, run.unbwt));
    // The suffix array reports what it held; the later stages show the pipeline's bound.
    rows.push_back(Row{name, "sa", backend, n, run.sa_seconds, run.stats.peak_bytes, sa_same});
    rows.push_back(Row{name, "bwt", backend, n, run.bwt_seconds, peak, bwt_same});
    rows.push_back(Row{name, "unbwt", backend, n, run.unbwt_seconds, peak, unbwt_same});
    rows.push_back(Row{name, "lcp", backend, n, run.lcp_seconds, peak, lcp_same});
    verdict.agree = verdict.agree && sa_same;
    verdict.bwt_agree = verdict.bwt_agree && bwt_same;
    verdict.lcp_agree = verdict.lcp_agree && lcp_same;
    verdict.roundtrip = verdict.roundtrip && round;
    if (!reference) reference = std::move(run);
  }
#if defined(KTEXT_HAVE_DIVSUFSORT)
  double seconds = 0;
  auto sa = divsufsort_array<I>(text, seconds);
  const bool same = same_array(reference->sa, sa);
  rows.push_back(Row{name, "sa", "divsufsort", n, seconds, n * (1 + sizeof(I)), same});
  verdict.agree = verdict.agree && same;
#endif
  verdict.check = verify_suffix_array<I>(backends.front(), text.data(), n, reference->sa.data());
  verdict.lcp_valid = verdict.check.valid && lcp_matches_kasai(text, reference->sa, reference->lcp);
  const SearchExpectation expected = expected_search<I>(text, reference->sa.data());
  reference.reset();
  for (Backend b : backends) {
    const SearchStageRun run =
        run_search_stage(b, text, expected, progress.options(name + " index " + backend_name(b)));
    rows.push_back(Row{name, "index", backend_name(b), n, run.index_seconds, run.index_bytes, run.matches});
    rows.push_back(Row{name, "search", backend_name(b), expected.patterns.symbols.size() + expected.located.symbols.size(),
                       run.search_seconds, run.index_bytes, run.matches});
    verdict.search_ok = verdict.search_ok && run.matches;
  }
  return verdict;
}

std::string join(const std::vector<Backend>& backends) {
  std::string s;
  for (Backend b : backends) s += (s.empty() ? "" : ",") + std::string(backend_name(b));
  if (divsufsort_linked()) s += ",divsufsort";
  return s;
}

void print_table(const std::vector<Row>& rows, const std::vector<InputVerdict>& verdicts, bool ok) {
  int input_width = 5;
  for (const Row& r : rows) input_width = std::max(input_width, static_cast<int>(r.input.size()));
  std::printf("%-*s  %-6s  %-10s  %12s  %10s  %10s  %14s  %s\n", input_width, "input", "stage", "backend", "n",
              "seconds", "MB/s", "peak bytes", "result");
  for (const Row& r : rows)
    std::printf("%-*s  %-6s  %-10s  %12llu  %10.4f  %10.2f  %14llu  %s\n", input_width, r.input.c_str(),
                r.stage.c_str(), r.backend.c_str(),
                static_cast<unsigned long long>(r.n), r.seconds, mb_per_s(r.n, r.seconds),
                static_cast<unsigned long long>(r.peak_bytes), r.same ? "ok" : "MISMATCH");
  for (const InputVerdict& v : verdicts) {
    std::printf("%s: suffix arrays %s, bwt %s, lcp %s, unbwt round trip %s, lcp vs Kasai %s, search %s; check: ",
                v.input.c_str(), v.agree ? "agree" : "DIFFER", v.bwt_agree ? "agree" : "DIFFER",
                v.lcp_agree ? "agree" : "DIFFER", v.roundtrip ? "ok" : "FAILED", v.lcp_valid ? "ok" : "FAILED",
                v.search_ok ? "ok" : "FAILED");
    if (v.check.valid) std::printf("valid\n");
    else std::printf("INVALID at index %lld: %s\n", static_cast<long long>(v.check.bad_index), v.check.reason.c_str());
  }
  std::printf("crosscheck: %s\n", ok ? "ok" : "FAILED");
}

}  // namespace

int run_crosscheck(const GlobalOptions& global, const CrosscheckOptions& options) {
  const auto requested = parse_backend(global.backend);
  // Every input is opened before any work, so a typo in the last one fails at once.
  std::vector<InputFile> files;
  for (const std::string& path : options.inputs) files.push_back(InputFile::open(path));
  if (std::count(options.inputs.begin(), options.inputs.end(), std::string("-")) > 1)
    throw usage_error("standard input can be read only once");

  KokkosSession session(global);
  // --backend auto means every usable backend; naming one compares it with libdivsufsort alone.
  const std::vector<Backend> backends = requested ? std::vector<Backend>{resolve_backend(requested)} : usable_backends();
  const ProgressReporter progress(global);

  std::vector<Row> rows;
  std::vector<InputVerdict> verdicts;
  auto crosscheck_text = [&](const std::string& name, const std::vector<std::uint8_t>& text) {
    if (text.size() <= kMax32) verdicts.push_back(crosscheck_one<std::int32_t>(name, text, backends, progress, rows));
    else verdicts.push_back(crosscheck_one<std::int64_t>(name, text, backends, progress, rows));
  };
  if (options.inputs.empty()) crosscheck_text(kDefaultName, default_crosscheck_text());
  for (std::size_t i = 0; i < files.size(); ++i) crosscheck_text(options.inputs[i], read_text(files[i]));

  bool ok = true;
  for (const InputVerdict& v : verdicts) ok = ok && v.ok();

  if (global.json) {
    std::uint64_t n = 0, peak = 0;
    double seconds = 0;
    for (const InputVerdict& v : verdicts) n += v.n;
    for (const Row& r : rows) seconds += r.seconds, peak = std::max(peak, r.peak_bytes);
    Json report = base_report("crosscheck", join(backends), n, seconds, peak);
    report["ok"] = ok;
    Json inputs = Json::array();
    for (const InputVerdict& v : verdicts)
      inputs.push_back(Json{{"input", v.input}, {"n", v.n}, {"agree", v.agree}, {"bwt_agree", v.bwt_agree},
                            {"lcp_agree", v.lcp_agree}, {"unbwt_roundtrip", v.roundtrip}, {"lcp_valid", v.lcp_valid}, {"search", v.search_ok},
                            {"valid", v.check.valid},
                            {"bad_index", v.check.bad_index}, {"reason", v.check.reason}});
    report["inputs"] = inputs;
    Json runs = Json::array();
    for (const Row& r : rows)
      runs.push_back(Json{{"input", r.input}, {"stage", r.stage}, {"backend", r.backend}, {"n", r.n}, {"seconds", r.seconds},
                          {"mb_per_s", mb_per_s(r.n, r.seconds)}, {"peak_device_bytes", r.peak_bytes},
                          {"result", r.same ? "ok" : "MISMATCH"}});
    report["runs"] = runs;
    print_json(report);
  } else if (!global.quiet) {
    print_table(rows, verdicts, ok);
  }
  return ok ? kExitOk : kExitInvalid;
}

}  // namespace ktext::cli
