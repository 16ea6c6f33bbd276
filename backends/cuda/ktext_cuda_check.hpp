#pragma once
// Error checking and temporary storage shared by the CUB specializations.

#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>
#include <string>

#include "ktext/core/error.hpp"

namespace ktext::impl::cuda {

inline void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear a sticky-free error so later calls see a clean state
  const std::string msg = std::string(what) + ": " + cudaGetErrorString(e);
  if (e == cudaErrorMemoryAllocation) throw OutOfMemoryError(msg);
  throw Error(msg);
}

/// CUB's temporary storage as a Kokkos view on the instance, so allocations are tracked and
/// labelled like every other ktext allocation.
inline Kokkos::View<char*, Kokkos::CudaSpace> temp_storage(const Kokkos::Cuda& exec, const char* label, std::size_t bytes) {
  return Kokkos::View<char*, Kokkos::CudaSpace>(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label)),
                                                bytes ? bytes : 1);
}

}  // namespace ktext::impl::cuda
