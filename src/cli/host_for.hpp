// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The CLI's one way to run host work on the host execution space's threads.
#include <cstddef>

#include <Kokkos_Core.hpp>

namespace ktext::cli {

/// f(i) for i in [0, n) on the host execution space's threads.
template <class F>
void host_for(const char* label, std::size_t n, F&& f) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::size_t>>(0, n), f);
}

}  // namespace ktext::cli
