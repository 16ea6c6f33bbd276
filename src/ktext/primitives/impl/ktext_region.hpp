// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Profiling region of a public primitive call. Each implementation struct names its path
// (`static constexpr char path[]`: "[Kokkos]", "[CUB]", "[KokkosKernels]"), so the region says
// which implementation ran and cannot disagree with the dispatch, as Kokkos Kernels' regions
// name the TPL that ran.

#include <Kokkos_Profiling_ScopedRegion.hpp>
#include <string>

namespace ktext::impl {

/// "ktext::<name>[<path>]" for the implementation \p Impl. \p name includes "ktext::".
template <class Impl>
std::string region_name(const char* name) {
  return std::string(name) + Impl::path;
}

}  // namespace ktext::impl
