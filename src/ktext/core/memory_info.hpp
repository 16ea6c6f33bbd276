// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file memory_info.hpp
/// \brief How much memory an execution space can still allocate, where the backend can say, so
/// callers can refuse an input before a large allocation fails half way.
///
/// The environment variable KTEXT_MEMORY_LIMIT (bytes, or a number with suffix K, M, G or T,
/// powers of 1024) caps the answer on every backend, host ones included: a job can keep ktext
/// below a share of a shared GPU, and a test can make the refusals happen on small inputs.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "ktext/core/error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace ktext {

#if defined(KOKKOS_ENABLE_CUDA)
namespace impl {
/// Free bytes on the GPU of \p exec (cudaMemGetInfo); std::nullopt when the driver does not answer.
inline std::optional<std::uint64_t> cuda_free_bytes(const Kokkos::Cuda& exec) {
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
}  // namespace impl
#endif

/// \brief The cap KTEXT_MEMORY_LIMIT sets, std::nullopt when it is unset or empty.
/// \throws InputError when it is set to anything but digits with an optional K, M, G or T.
inline std::optional<std::uint64_t> memory_limit_bytes() {
  const char* env = std::getenv("KTEXT_MEMORY_LIMIT");
  if (!env || !*env) return std::nullopt;
  const std::string text(env);
  std::uint64_t value = 0;
  std::size_t i = 0;
  constexpr std::uint64_t max = ~std::uint64_t(0);
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const std::uint64_t digit = std::uint64_t(text[i] - '0');
    value = value > (max - digit) / 10 ? max : value * 10 + digit;  // saturates
  }
  int shift = -1;
  if (i + 1 == text.size()) {
    const char suffix = text[i];
    shift = suffix == 'K' ? 10 : suffix == 'M' ? 20 : suffix == 'G' ? 30 : suffix == 'T' ? 40 : -1;
  } else if (i == text.size()) {
    shift = 0;
  }
  if (i == 0 || shift < 0)
    throw InputError("KTEXT_MEMORY_LIMIT='" + text + "': expected bytes as digits with an optional K, M, G or T");
  return value > (max >> shift) ? max : value << shift;
}

namespace impl {
/// \p free capped by KTEXT_MEMORY_LIMIT.
inline std::optional<std::uint64_t> capped_free_bytes(std::optional<std::uint64_t> free) {
  const auto limit = memory_limit_bytes();
  if (!limit) return free;
  return free && *free < *limit ? *free : *limit;
}
}  // namespace impl

/// \brief Free bytes in the memory space of \p exec; std::nullopt where the backend cannot
/// tell (host spaces: the operating system may overcommit or swap). Capped by
/// KTEXT_MEMORY_LIMIT (which also gives host spaces an answer).
template <class ExecSpace>
std::optional<std::uint64_t> free_memory_bytes(const ExecSpace&) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::free_memory_bytes: an execution space");
  return impl::capped_free_bytes(std::nullopt);
}

#if defined(KOKKOS_ENABLE_CUDA)
/// \brief Free bytes on the GPU of \p exec (cudaMemGetInfo), capped by KTEXT_MEMORY_LIMIT;
/// std::nullopt when the driver does not answer and no cap is set.
inline std::optional<std::uint64_t> free_memory_bytes(const Kokkos::Cuda& exec) {
  return impl::capped_free_bytes(impl::cuda_free_bytes(exec));
}
#endif

}  // namespace ktext

