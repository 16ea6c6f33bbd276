// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file work_cache.hpp
/// \brief Device work memory kept between calls. On an H200 a cudaMalloc took 45-58 us and a
/// cudaFree 40-70 us (it waits for the device), and the first writes to fresh pages cost more
/// again: together more than most kernels of a string sort of a million strings. Work buffers
/// of up to work_cache_limit bytes in a device memory space therefore come from one buffer per
/// memory space, grown as needed and released at Kokkos::finalize; larger ones, host memory
/// (where allocation is cheap) and calls that find the buffer in use allocate afresh.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <mutex>

#include "ktext/core/allocate.hpp"

namespace ktext::impl {

/// The most bytes the cache keeps (a larger request allocates and frees its own).
inline constexpr std::uint64_t work_cache_limit = std::uint64_t(256) << 20;

/// The kept buffer of one memory space.
template <class Mem>
struct WorkCache {
  std::mutex mutex;
  Kokkos::View<std::uint64_t*, Mem> buffer;
  bool hooked = false;
  static WorkCache& instance() {
    static WorkCache* c = new WorkCache;  // never destroyed: its view goes at finalize
    return *c;
  }
};

/// Work memory of a call: the kept buffer (held, with its lock, until the lease ends) or a view
/// of its own.
template <class ExecSpace>
class WorkLease {
 public:
  using Mem = typename ExecSpace::memory_space;
  WorkLease(const ExecSpace& exec, const char* label, std::size_t words) : exec_(exec) {
    auto& cache = WorkCache<Mem>::instance();
    const bool device = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible;
    if (device && words * sizeof(std::uint64_t) <= work_cache_limit) {
      std::unique_lock<std::mutex> lock(cache.mutex, std::try_to_lock);
      if (lock.owns_lock()) {
        if (!cache.hooked) {
          Kokkos::push_finalize_hook([&cache] {
            const std::lock_guard<std::mutex> l(cache.mutex);
            cache.buffer = {};
            cache.hooked = false;
          });
          cache.hooked = true;
        }
        if (cache.buffer.extent(0) < words) {
          cache.buffer = {};  // free first, so that the peak holds one buffer
          cache.buffer = uninitialized_view<std::uint64_t, Mem>(exec, label, words);
        }
        data_ = cache.buffer.data();
        lock_ = std::move(lock);
        return;
      }
    }
    own_ = uninitialized_view<std::uint64_t, Mem>(exec, label, words);
    data_ = own_.data();
  }
  /// The kept buffer is handed on only once the device is done with it, also when an error
  /// leaves work in flight.
  ~WorkLease() {
    if (lock_.owns_lock()) exec_.fence("ktext::WorkLease: released");
  }
  WorkLease(const WorkLease&) = delete;
  WorkLease& operator=(const WorkLease&) = delete;
  [[nodiscard]] std::uint64_t* data() const { return data_; }

 private:
  ExecSpace exec_;
  std::unique_lock<std::mutex> lock_;
  Kokkos::View<std::uint64_t*, Mem> own_;
  std::uint64_t* data_ = nullptr;
};

}  // namespace ktext::impl
