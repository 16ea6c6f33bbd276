// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The one way the commands run library code on a backend chosen at run time: host bytes seen
// from the backend (no copy on host backends), results written straight into host buffers on
// host backends and copied back otherwise, the work timed to a fence, out-of-memory turned into
// the CLI's I/O error. Header-only: the callers are generic lambdas over execution spaces.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <ktext/core/error.hpp>
#include <ktext/core/index_type.hpp>

#include "backend.hpp"
#include "errors.hpp"
#include "report.hpp"

namespace ktext::cli {

/// f(exec) on the backend's default instance; ktext::OutOfMemoryError becomes exit 2 with a hint.
template <class F>
decltype(auto) run_on_backend(Backend backend, F&& f) {
  try {
    return with_exec_space(backend, std::forward<F>(f));
  } catch (const ktext::OutOfMemoryError& e) {
    throw io_error(std::string(e.what()) + (backend == Backend::Cuda ? "; try --backend openmp" : ""));
  }
}

/// f(std::int32_t{}) when n symbols fit 32-bit indices, else f(std::int64_t{}).
template <class F>
decltype(auto) with_index_type(std::uint64_t n, F&& f) {
  if (ktext::index_fits<std::int32_t>(n)) return f(std::int32_t{});
  return f(std::int64_t{});
}

template <class Exec>
constexpr bool host_backend = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;

/// \p n host elements as the backend sees them: the buffer itself on host backends, a copy in
/// the backend's memory otherwise.
template <class Exec, class T>
Kokkos::View<const T*, typename Exec::memory_space> mirror(const Exec& exec, const T* data, std::uint64_t n,
                                                           const char* label) {
  using Mem = typename Exec::memory_space;
  if constexpr (host_backend<Exec>) {
    return Kokkos::View<const T*, Mem>(data, n);
  } else {
    Kokkos::View<T*, Mem> copy(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label)), n);
    Kokkos::deep_copy(exec, copy, Kokkos::View<const T*, Kokkos::HostSpace>(data, n));
    return copy;
  }
}

/// Where the backend writes an n-element result: the host buffer itself on host backends, a
/// fresh array in the backend's memory otherwise (to_host copies it back).
template <class Exec, class T>
Kokkos::View<T*, typename Exec::memory_space> result_view(const Exec& exec, T* host, std::uint64_t n, const char* label) {
  using Mem = typename Exec::memory_space;
  if constexpr (host_backend<Exec>) {
    return Kokkos::View<T*, Mem>(host, n);
  } else {
    return Kokkos::View<T*, Mem>(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label)), n);
  }
}

/// Copies a result_view back into \p host (nothing to do on host backends) and waits.
template <class Exec, class T>
void to_host(const Exec& exec, const Kokkos::View<T*, typename Exec::memory_space>& view, T* host) {
  if (view.data() != host) Kokkos::deep_copy(exec, Kokkos::View<T*, Kokkos::HostSpace>(host, view.extent(0)), view);
  exec.fence("ktext_cli::to_host");
}

/// Seconds of f(), to a fence on \p exec: the backend's work, not just its launch.
template <class Exec, class F>
double timed(const Exec& exec, F&& f) {
  exec.fence("ktext_cli::timed: before");
  Stopwatch watch;
  f();
  exec.fence("ktext_cli::timed");
  return watch.seconds();
}

}  // namespace ktext::cli
