// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file popcount.hpp
/// \brief 64-bit population count and leading/trailing zero counts for rank structures,
/// callable on host and device.
///
/// Kokkos' portable popcount loops over the set bits, and GCC's builtin becomes a libgcc call
/// per word unless the build enables the POPCNT instruction.
/// On the host this uses the instruction when the compiler may (-mpopcnt, -march=native, ...)
/// and an inlined SWAR count otherwise; on devices the hardware instruction.

#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Macros.hpp>
#include <cstdint>

namespace ktext::impl {

inline int popcount64_host(std::uint64_t x) noexcept {
#if defined(__POPCNT__)
  return Kokkos::Experimental::popcount_builtin(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return int((x * 0x0101010101010101ull) >> 56);
#endif
}

/// \brief Leading zero bits of \p x (64 for 0). Kokkos::countl_zero is a portable loop of six
/// branches; this is the hardware instruction on hosts and devices.
KOKKOS_INLINE_FUNCTION int countl_zero64(std::uint64_t x) noexcept { return Kokkos::Experimental::countl_zero_builtin(x); }
/// \brief Trailing zero bits of \p x (64 for 0), by the hardware instruction.
KOKKOS_INLINE_FUNCTION int countr_zero64(std::uint64_t x) noexcept { return Kokkos::Experimental::countr_zero_builtin(x); }

/// \brief Number of set bits of \p x.
KOKKOS_INLINE_FUNCTION int popcount64(std::uint64_t x) noexcept {
  KOKKOS_IF_ON_DEVICE((return Kokkos::Experimental::popcount_builtin(x);))
  KOKKOS_IF_ON_HOST((return popcount64_host(x);))
}

}  // namespace ktext::impl
