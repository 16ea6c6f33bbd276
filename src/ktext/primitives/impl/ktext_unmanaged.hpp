// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Internal view types of the primitives. Public entry points accept any contiguous rank-1 view
// and narrow it to these, so each primitive has one implementation per value type (as Kokkos
// Kernels narrows its arguments before dispatching to Impl::X::apply).

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>
#include <string>

#include "ktext/core/error.hpp"

namespace ktext::impl {

template <class T, class ExecSpace>
using Unmanaged = Kokkos::View<T*, typename ExecSpace::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class ExecSpace, class View>
auto unmanaged(const View& v, const char* who) {
  if (!v.span_is_contiguous()) throw InputError(std::string(who) + ": views must be contiguous");
  return Unmanaged<typename View::value_type, ExecSpace>(v.data(), v.extent(0));
}

/// Number of sequential chunks the portable block algorithms split \p n items into: enough for
/// every thread of the space (several per thread on hosts for balance), each chunk at least
/// \p min_chunk items so the per-chunk bookkeeping stays small.
template <class ExecSpace>
std::size_t portable_chunks(const ExecSpace& exec, std::size_t n, std::size_t min_chunk) {
  std::size_t want = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible
                         ? 4 * static_cast<std::size_t>(exec.concurrency())
                         : (n + min_chunk - 1) / min_chunk;
  std::size_t cap = (n + min_chunk - 1) / min_chunk;
  if (want > cap) want = cap;
  return want == 0 ? 1 : want;
}

}  // namespace ktext::impl
