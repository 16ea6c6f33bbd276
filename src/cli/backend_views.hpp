// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Moving host buffers to a backend chosen at run time, and the error translation every run
// on a backend shares. Header-only: the callers are templates over execution spaces.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <ktext/core/error.hpp>

#include "backend.hpp"
#include "errors.hpp"

namespace ktext::cli {

template <class T>
using HostView = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

template <class Exec>
constexpr bool host_accessible = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;

/// A copy of \p n host elements in the backend's memory space (a copy even on host backends).
template <class Exec, class T>
auto to_backend(const Exec& exec, const T* data, std::uint64_t n, const char* label) {
  using Mem = typename Exec::memory_space;
  Kokkos::View<std::remove_const_t<T>*, Mem> d(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label)), n);
  Kokkos::deep_copy(exec, d, HostView<const T>(data, n));
  exec.fence("ktext cli: copied to the backend");
  return d;
}

/// Runs f(exec) translating out-of-memory into the CLI's I/O error with a hint.
template <class F>
decltype(auto) on_backend(Backend backend, F&& f) {
  try {
    return with_exec_space(backend, std::forward<F>(f));
  } catch (const ktext::OutOfMemoryError& e) {
    throw io_error(std::string(e.what()) + (backend == Backend::Cuda ? "; try --backend openmp" : ""));
  }
}

}  // namespace ktext::cli
