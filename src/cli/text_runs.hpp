// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// ktext::bwt, ktext::unbwt and ktext::lcp on a backend chosen at run time, from and to host
// memory (copy to the device, run, copy back). Instantiated once, in text_runs.cpp.

#include <cstdint>

#include <ktext/suffix/suffix_array_types.hpp>

#include "backend.hpp"
#include "host_array.hpp"

namespace ktext::cli {

struct BwtRun {
  HostArray<std::uint8_t> bwt;
  std::uint64_t primary = 0;
  double seconds = 0;          ///< the transform alone, copies excluded
  std::uint64_t peak_bytes = 0;  ///< bound on the bytes held in the backend's memory
};

/// BWT of \p n bytes (n >= 1); 32-bit indices when n < 2^31, else 64-bit.
BwtRun run_bwt(Backend backend, const std::uint8_t* text, std::uint64_t n, const ktext::SuffixArrayOptions& options);

/// Inverse BWT into \p out (n bytes); returns the seconds of the inversion alone. Throws
/// ktext::InputError when the pair is not a transform.
double run_unbwt(Backend backend, const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, std::uint8_t* out);

/// Bytes unbwt holds in the backend's memory for n symbols: input, output and (4 + 5w) n of
/// workspace for w-byte indices (unbwt.hpp).
inline std::uint64_t unbwt_peak_bytes(std::uint64_t n) {
  const std::uint64_t w = n + 1 > 0x7fffffffu ? 8 : 4;
  return n * (2 + 4 + 5 * w);
}

template <class I>
struct LcpRun {
  HostArray<I> lcp;
  ktext::SuffixArrayStats stats;  ///< of the suffix array built on the way
  double seconds = 0;             ///< suffix array plus LCP, copies excluded
};

/// LCP array of \p n bytes, building the suffix array first.
template <class I>
LcpRun<I> run_lcp(Backend backend, const std::uint8_t* text, std::uint64_t n, const ktext::SuffixArrayOptions& options);

/// Everything crosscheck compares, from one suffix array per backend.
template <class I>
struct PipelineRun {
  HostArray<I> sa;
  HostArray<std::uint8_t> bwt;
  std::uint64_t primary = 0;
  HostArray<std::uint8_t> unbwt;
  HostArray<I> lcp;
  ktext::SuffixArrayStats stats;
  std::uint64_t peak_bytes = 0;  ///< bound on the backend's memory over the whole pipeline
  double sa_seconds = 0, bwt_seconds = 0, unbwt_seconds = 0, lcp_seconds = 0;
};

template <class I>
PipelineRun<I> run_pipeline(Backend backend, const std::uint8_t* text, std::uint64_t n,
                            const ktext::SuffixArrayOptions& options);

extern template LcpRun<std::int32_t> run_lcp<std::int32_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                           const ktext::SuffixArrayOptions&);
extern template LcpRun<std::int64_t> run_lcp<std::int64_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                           const ktext::SuffixArrayOptions&);
extern template PipelineRun<std::int32_t> run_pipeline<std::int32_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                     const ktext::SuffixArrayOptions&);
extern template PipelineRun<std::int64_t> run_pipeline<std::int64_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                     const ktext::SuffixArrayOptions&);

}  // namespace ktext::cli
