// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "text_runs.hpp"

#include <algorithm>
#include <limits>

#include <ktext/core/error.hpp>
#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/lcp.hpp>
#include <ktext/suffix/suffix_array.hpp>
#include <ktext/suffix/unbwt.hpp>

#include "backend_views.hpp"
#include "report.hpp"
#include "suffix_runs.hpp"

namespace ktext::cli {

namespace {

constexpr std::uint64_t kMax32 = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());

// f(in, out) with n bytes in and n bytes out: on the caller's buffers on host backends, through
// copies to and from the device otherwise. \p seconds gets f alone, to a fence, copies excluded.
template <class Exec, class F>
auto bytes_to_bytes(const Exec& exec, const std::uint8_t* in, std::uint64_t n, std::uint8_t* out, const char* out_label,
                    double& seconds, F&& f) {
  HostView<std::uint8_t> h_out(out, n);
  if constexpr (host_accessible<Exec>) {
    Stopwatch watch;
    auto result = f(HostView<const std::uint8_t>(in, n), h_out);
    exec.fence("ktext cli: computed");
    seconds = watch.seconds();
    return result;
  } else {
    auto d_in = to_backend(exec, in, n, "ktext_cli::input");
    Kokkos::View<std::uint8_t*, typename Exec::memory_space> d_out(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(out_label)), n);
    Stopwatch watch;
    auto result = f(d_in, d_out);
    exec.fence("ktext cli: computed");
    seconds = watch.seconds();
    Kokkos::deep_copy(exec, h_out, d_out);
    exec.fence("ktext cli: copied back");
    return result;
  }
}

}  // namespace

BwtRun run_bwt(Backend backend, const std::uint8_t* text, std::uint64_t n, const ktext::SuffixArrayOptions& options) {
  if (n > kMax32) require_device_memory<std::int64_t>(backend, n);
  else require_device_memory<std::int32_t>(backend, n);
  return on_backend(backend, [&](const auto& exec) {
    BwtRun run;
    run.bwt = HostArray<std::uint8_t>(n);
    run.peak_bytes = (n > kMax32 ? ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int64_t>(n)
                                 : ktext::suffix_array_peak_bytes_bound<std::uint8_t, std::int32_t>(n)) + n;
    run.primary = bytes_to_bytes(exec, text, n, run.bwt.data(), "ktext_cli::bwt", run.seconds,
                                 [&](const auto& in, const auto& out) { return ktext::bwt(exec, in, out, options); });
    return run;
  });
}

double run_unbwt(Backend backend, const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, std::uint8_t* out) {
  return on_backend(backend, [&](const auto& exec) {
    double seconds = 0;
    bytes_to_bytes(exec, bwt, n, out, "ktext_cli::text", seconds, [&](const auto& in, const auto& text) {
      ktext::unbwt(exec, in, primary, text);
      return 0;
    });
    return seconds;
  });
}

template <class I>
LcpRun<I> run_lcp(Backend backend, const std::uint8_t* text, std::uint64_t n, const ktext::SuffixArrayOptions& options) {
  require_device_memory<I>(backend, n);
  return on_backend(backend, [&](const auto& exec) {
    using Exec = std::decay_t<decltype(exec)>;
    using Mem = typename Exec::memory_space;
    LcpRun<I> run;
    run.lcp = HostArray<I>(n);
    HostView<I> h_lcp(run.lcp.data(), n);
    auto compute = [&](const auto& d_text, const auto& d_lcp) {
      Kokkos::View<I*, Mem> d_sa(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::sa"), n);
      Stopwatch watch;
      run.stats = ktext::suffix_array(exec, d_text, d_sa, options);
      ktext::lcp(exec, d_text, d_sa, d_lcp);
      exec.fence("ktext cli: lcp");
      run.seconds = watch.seconds();
      // The SA's working set is gone by now; the LCP pass adds its own n indices.
      run.stats.peak_bytes = std::max<std::uint64_t>(run.stats.peak_bytes, n * (1 + 3 * sizeof(I)));
    };
    if constexpr (host_accessible<Exec>) {
      compute(HostView<const std::uint8_t>(text, n), h_lcp);
    } else {
      auto d_text = to_backend(exec, text, n, "ktext_cli::text");
      Kokkos::View<I*, Mem> d_lcp(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::lcp"), n);
      compute(d_text, d_lcp);
      Kokkos::deep_copy(exec, h_lcp, d_lcp);
      exec.fence("ktext cli: lcp copied");
    }
    return run;
  });
}

template <class I>
PipelineRun<I> run_pipeline(Backend backend, const std::uint8_t* text, std::uint64_t n,
                            const ktext::SuffixArrayOptions& options) {
  require_device_memory<I>(backend, n);
  return on_backend(backend, [&](const auto& exec) {
    using Exec = std::decay_t<decltype(exec)>;
    using Mem = typename Exec::memory_space;
    PipelineRun<I> run;
    run.sa = HostArray<I>(n);
    run.bwt = HostArray<std::uint8_t>(n);
    run.unbwt = HostArray<std::uint8_t>(n);
    run.lcp = HostArray<I>(n);
    auto d_text = to_backend(exec, text, n, "ktext_cli::text");
    Kokkos::View<I*, Mem> d_sa(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::sa"), n);
    Kokkos::View<I*, Mem> d_lcp(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::lcp"), n);
    Kokkos::View<std::uint8_t*, Mem> d_bwt(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::bwt"), n);
    Kokkos::View<std::uint8_t*, Mem> d_unbwt(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::unbwt"), n);
    Stopwatch sa_watch;
    run.stats = ktext::suffix_array(exec, d_text, d_sa, options);
    exec.fence("ktext cli: suffix_array");
    run.sa_seconds = sa_watch.seconds();
    // lcp, bwt and unbwt are allocated while the SA is built; unbwt's workspace comes last.
    run.peak_bytes = std::max<std::uint64_t>(run.stats.peak_bytes + n * (2 + sizeof(I)),
                                             n * (1 + 2 * sizeof(I)) + unbwt_peak_bytes(n));
    Stopwatch bwt_watch;
    run.primary = ktext::bwt_from_suffix_array(exec, d_text, d_sa, d_bwt);
    run.bwt_seconds = bwt_watch.seconds();
    Stopwatch lcp_watch;
    ktext::lcp(exec, d_text, d_sa, d_lcp);
    exec.fence("ktext cli: lcp");
    run.lcp_seconds = lcp_watch.seconds();
    Stopwatch unbwt_watch;
    ktext::unbwt(exec, d_bwt, run.primary, d_unbwt);
    run.unbwt_seconds = unbwt_watch.seconds();
    Kokkos::deep_copy(exec, HostView<I>(run.sa.data(), n), d_sa);
    Kokkos::deep_copy(exec, HostView<I>(run.lcp.data(), n), d_lcp);
    Kokkos::deep_copy(exec, HostView<std::uint8_t>(run.bwt.data(), n), d_bwt);
    Kokkos::deep_copy(exec, HostView<std::uint8_t>(run.unbwt.data(), n), d_unbwt);
    exec.fence("ktext cli: pipeline copied");
    return run;
  });
}

template LcpRun<std::int32_t> run_lcp<std::int32_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                    const ktext::SuffixArrayOptions&);
template LcpRun<std::int64_t> run_lcp<std::int64_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                    const ktext::SuffixArrayOptions&);
template PipelineRun<std::int32_t> run_pipeline<std::int32_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                              const ktext::SuffixArrayOptions&);
template PipelineRun<std::int64_t> run_pipeline<std::int64_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                              const ktext::SuffixArrayOptions&);

}  // namespace ktext::cli
