// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file view_checks.hpp
/// \brief Compile-time argument checks shared by the public entry points; messages start with
/// "ktext::" so they read well in compiler output.

#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "ktext/core/allocate.hpp"  // impl::alloc and impl::Work, which the primitives reach through this header
#include "ktext/core/error.hpp"

namespace ktext::impl {

/// A type carried as a value, for generic lambdas that allocate views of several types.
template <class T>
struct Tag {
  using type = T;
};

template <class ExecSpace, class View>
inline constexpr bool accessible_from_v =
    Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible;

template <class View>
inline constexpr bool is_rank1_view_v = Kokkos::is_view_v<View> && View::rank == 1;

template <class View>
inline constexpr bool is_writable_view_v = !std::is_const_v<typename View::value_type>;

}  // namespace ktext::impl
