// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file range.hpp
/// \brief The range policy every ktext loop runs with.

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace ktext::impl {

/// Kokkos::RangePolicy with 64-bit indices on every backend. Kokkos' default index type is the
/// execution space's size_type, a 32-bit unsigned int on CUDA: a default policy over 2^32 or
/// more iterations runs over their count modulo 2^32 (a wavelet matrix of 2^32 + 7 symbols was
/// built from its first 7), without an error. A 32-bit index type of one's own fails the same way
/// a little earlier: Kokkos sizes the CUDA grid as (count + block - 1) / block in the index type,
/// which wraps for counts within a block of 2^31 (int32_t) or 2^32 (uint32_t) and launches no
/// blocks. The test range_policies keeps the library on 64-bit index types.
template <class ExecSpace>
using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::uint64_t>>;

}  // namespace ktext::impl
