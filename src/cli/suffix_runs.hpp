// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// ktext::suffix_array and ktext::check_suffix_array on a backend chosen at run time, from and
// to host memory. The template instantiations live in build_sa.cpp / verify_sa.cpp so the
// heavy library code compiles once.

#include <cstdint>

#include <ktext/suffix/check_suffix_array.hpp>
#include <ktext/suffix/suffix_array_types.hpp>

#include "backend.hpp"
#include "host_array.hpp"

namespace ktext::cli {

template <class I>
struct SuffixArrayRun {
  HostArray<I> sa;
  ktext::SuffixArrayStats stats;
  double seconds = 0;  ///< the construction alone, copies to and from the device excluded
};

/// Throws an I/O error (exit 2) naming the bytes needed and free when a CUDA run of a text of
/// \p n bytes with indices \p I cannot fit the GPU's free memory. No-op on host backends.
template <class I>
void require_device_memory(Backend backend, std::uint64_t n);

template <class I>
SuffixArrayRun<I> build_suffix_array(Backend backend, const std::uint8_t* text, std::uint64_t n,
                                     const ktext::SuffixArrayOptions& options);

template <class I>
ktext::SuffixArrayCheck verify_suffix_array(Backend backend, const std::uint8_t* text, std::uint64_t n, const I* sa);

extern template void require_device_memory<std::int32_t>(Backend, std::uint64_t);
extern template void require_device_memory<std::int64_t>(Backend, std::uint64_t);
extern template SuffixArrayRun<std::int32_t> build_suffix_array<std::int32_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                               const ktext::SuffixArrayOptions&);
extern template SuffixArrayRun<std::int64_t> build_suffix_array<std::int64_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                               const ktext::SuffixArrayOptions&);
extern template ktext::SuffixArrayCheck verify_suffix_array<std::int32_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                          const std::int32_t*);
extern template ktext::SuffixArrayCheck verify_suffix_array<std::int64_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                          const std::int64_t*);

}  // namespace ktext::cli
