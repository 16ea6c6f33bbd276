// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file memory_info.hpp
/// \brief How much memory an execution space can still allocate, where the backend can say, so
/// callers can refuse an input before a large allocation fails half way.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <optional>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace ktext {

/// \brief Free bytes in the memory space of \p exec; std::nullopt where the backend cannot
/// tell (host spaces: the operating system may overcommit or swap).
template <class ExecSpace>
std::optional<std::uint64_t> free_memory_bytes(const ExecSpace&) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::free_memory_bytes: an execution space");
  return std::nullopt;
}

#if defined(KOKKOS_ENABLE_CUDA)
/// \brief Free bytes on the GPU of \p exec (cudaMemGetInfo); std::nullopt when the driver does
/// not answer.
inline std::optional<std::uint64_t> free_memory_bytes(const Kokkos::Cuda& exec) {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) return std::nullopt;
  if (cudaSetDevice(exec.cuda_device()) != cudaSuccess) return std::nullopt;
  std::size_t free_bytes = 0, total_bytes = 0;
  const bool ok = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess;
  cudaSetDevice(previous);
  if (!ok) {
    cudaGetLastError();  // not sticky: leave a clean state for the caller
    return std::nullopt;
  }
  return std::uint64_t(free_bytes);
}
#endif

}  // namespace ktext
