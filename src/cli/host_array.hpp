// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// An uninitialized host array: suffix arrays are overwritten entirely, so zero-filling
// n * 8 bytes first (as std::vector would) is wasted time on large inputs.

#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace ktext::cli {

template <class T>
class HostArray {
 public:
  HostArray() = default;
  explicit HostArray(std::uint64_t n) : size_(n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_alloc();
    if (n > 0) data_.reset(new T[static_cast<std::size_t>(n)]);
  }
  T* data() noexcept { return data_.get(); }
  const T* data() const noexcept { return data_.get(); }
  std::uint64_t size() const noexcept { return size_; }
  T& operator[](std::uint64_t i) noexcept { return data_[i]; }
  const T& operator[](std::uint64_t i) const noexcept { return data_[i]; }

 private:
  std::unique_ptr<T[]> data_;
  std::uint64_t size_ = 0;
};

/// An allocator whose value-less construct() leaves the element uninitialized, so that a
/// std::vector of bytes or offsets grows by resize() without zero-filling what a parallel copy
/// is about to overwrite (on a gigabyte of records, the zeroing would be a serial pass of its own).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// A growable host array of trivially copyable elements whose resize() does not initialize.
template <class T>
using HostVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace ktext::cli
