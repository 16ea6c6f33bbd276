// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Error checking and temporary storage shared by the CUB specializations.

#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <map>
#include <mutex>
#include <string>

#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"

namespace ktext::impl::cuda {

inline void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls see a clean state
  const std::string msg = std::string(what) + ": " + cudaGetErrorString(e);
  if (e == cudaErrorMemoryAllocation) throw OutOfMemoryError(msg);
  throw Error(msg);
}

using TempView = Kokkos::View<char*, Kokkos::CudaSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// CUB's temporary storage, from a grow-only buffer per CUDA stream. A fresh allocation per
/// call costs a cudaMalloc and a device-synchronizing cudaFree, which dominated the small rounds
/// of the suffix array; reuse within one stream is safe because the stream orders the calls.
/// The buffers are released by a Kokkos finalize hook.
inline TempView temp_storage(const Kokkos::Cuda& exec, const char* label, std::size_t bytes) {
  struct Cache {
    std::mutex mutex;
    std::map<cudaStream_t, Kokkos::View<char*, Kokkos::CudaSpace>> buffers;
    bool hooked = false;
  };
  static Cache cache;
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (!cache.hooked) {
    Kokkos::push_finalize_hook([] {
      std::lock_guard<std::mutex> l(cache.mutex);
      cache.buffers.clear();
      cache.hooked = false;
    });
    cache.hooked = true;
  }
  auto& buffer = cache.buffers[exec.cuda_stream()];
  const std::size_t need = std::max<std::size_t>(bytes, 256);
  if (buffer.extent(0) < need) {
    // Grow geometrically so a run of slightly larger requests costs few reallocations; free
    // first (this synchronizes), so peak memory holds one buffer.
    const std::size_t size = std::max(need, 2 * buffer.extent(0));
    buffer = {};
    buffer = uninitialized_view<char, Kokkos::CudaSpace>(exec, (std::string("ktext::cub_temp[CUB] ") + label).c_str(), size);
  }
  return TempView(buffer.data(), need);
}

/// The first half of the CUB call sequence: \p f(void* temp, std::size_t& bytes) returns the
/// cudaError_t of a CUB device algorithm; called with temp = nullptr, it sizes the temporary
/// storage (checked under \p label), and the stream's buffer grows to that (temp_storage).
/// Alone, it readies the storage for calls to come (SortPairs<Cuda>::reserve).
template <class F>
TempView cub_storage(const Kokkos::Cuda& exec, const char* label, F& f) {
  std::size_t bytes = 0;
  check(f(nullptr, bytes), label);
  return temp_storage(exec, label, bytes);
}

/// The CUB call sequence, in one place: \p f sized (cub_storage), then called with the stream's
/// buffer, checked and reported under \p label.
template <class F>
void cub_call(const Kokkos::Cuda& exec, const char* label, F&& f) {
  const TempView temp = cub_storage(exec, label, f);
  std::size_t bytes = temp.extent(0);
  check(f(static_cast<void*>(temp.data()), bytes), label);
}

}  // namespace ktext::impl::cuda
