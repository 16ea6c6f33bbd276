// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file allocate.hpp
/// \brief How ktext allocates its buffers: labelled rank-1 views on the caller's execution
/// space, with a failed allocation reported as impl::AllocationFailure (a std::bad_alloc that
/// names the memory space, the label and the size), which translate_out_of_memory() turns into
/// OutOfMemoryError at the entry point.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include "ktext/core/error.hpp"
#include "ktext/core/footprint.hpp"

namespace ktext::impl {

/// The memory space an allocation goes to: \p MemorySpace, or the execution space's when void.
template <class MemorySpace, class ExecSpace>
using target_memory_space_t =
    std::conditional_t<std::is_void_v<MemorySpace>, typename ExecSpace::memory_space, MemorySpace>;

/// \brief A view of \p n uninitialized \p T in \p MemorySpace (default: \p exec's), labelled
/// \p label.
/// \throws AllocationFailure when the memory space cannot hold it.
template <class T, class MemorySpace = void, class ExecSpace>
Kokkos::View<T*, target_memory_space_t<MemorySpace, ExecSpace>> uninitialized_view(const ExecSpace& exec,
                                                                                   const char* label, std::size_t n) {
  using Mem = target_memory_space_t<MemorySpace, ExecSpace>;
  static_assert(Kokkos::is_execution_space_v<ExecSpace> && Kokkos::is_memory_space_v<Mem>,
                "ktext::impl::uninitialized_view: an execution space and a memory space");
  try {
    return Kokkos::View<T*, Mem>(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label)), n);
  } catch (const std::exception&) {
    // The constructor only allocates (no initialization runs), so whatever it throws is the
    // allocation failing: std::bad_alloc from operator new, RawMemoryAllocationFailure before
    // Kokkos 4.5, std::runtime_error since. The type is given here, not read from the message.
    const std::uint64_t bytes = std::uint64_t(n) * sizeof(T);
    throw AllocationFailure(Mem::name(), label, bytes);
  }
}

/// \brief As uninitialized_view(), filled with zeros on \p exec (asynchronously) by Kokkos' own
/// initialization, whose kernel carries \p label ("Kokkos::View::initialization [label]").
template <class T, class MemorySpace = void, class ExecSpace>
Kokkos::View<T*, target_memory_space_t<MemorySpace, ExecSpace>> zeroed_view(const ExecSpace& exec, const char* label,
                                                                            std::size_t n) {
  using Mem = target_memory_space_t<MemorySpace, ExecSpace>;
  Kokkos::View<T*, Mem> v;
  try {
    v = Kokkos::View<T*, Mem>(Kokkos::view_alloc(exec, std::string(label)), n);
  } catch (const std::exception&) {
    // Allocation and a zero fill: the fill does not fail on its own.
    throw AllocationFailure(Mem::name(), label, std::uint64_t(n) * sizeof(T));
  }
  return v;
}

/// A view of \p T in the execution space's memory, the type of internal scratch buffers.
template <class T, class ExecSpace>
using Work = Kokkos::View<T*, typename ExecSpace::memory_space>;

/// Scratch of \p n uninitialized \p T in \p exec's memory space: uninitialized_view() there.
template <class T, class ExecSpace>
Work<T, ExecSpace> alloc(const ExecSpace& exec, const char* label, std::size_t n) {
  return uninitialized_view<T>(exec, label, n);
}

/// Scratch as alloc(), its bytes added to \p mem (an algorithm's reported footprint).
template <class T, class ExecSpace>
Work<T, ExecSpace> counted_view(const ExecSpace& exec, Footprint& mem, const char* label, std::size_t n) {
  auto view = uninitialized_view<T>(exec, label, n);
  mem.add(n * sizeof(T));
  return view;
}

/// Releases a counted_view() (or any view counted in \p mem): its bytes leave \p mem, and the
/// view is emptied.
template <class View>
void release_counted(Footprint& mem, View& view) {
  mem.release(view.span() * sizeof(typename View::value_type));
  view = {};
}

/// \brief A host copy of \p view, copied on \p exec; the caller fences \p exec before reading it.
/// The view itself when the host can read it already.
template <class ExecSpace, class View>
auto host_copy(const ExecSpace& exec, const View& view, const char* label) {
  using T = typename View::non_const_value_type;
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename View::memory_space>::accessible) {
    (void)exec, (void)label;
    return Kokkos::View<typename View::const_value_type*, typename View::memory_space>(view);
  } else {
    auto h = uninitialized_view<T, Kokkos::HostSpace>(Kokkos::DefaultHostExecutionSpace{}, label, view.extent(0));
    Kokkos::deep_copy(exec, h, view);
    return Kokkos::View<typename View::const_value_type*, Kokkos::HostSpace>(h);
  }
}

}  // namespace ktext::impl
