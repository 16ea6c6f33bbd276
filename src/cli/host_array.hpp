// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// An uninitialized host array: suffix arrays are overwritten entirely, so zero-filling
// n * 8 bytes first (as std::vector would) is wasted time on large inputs.

#include <cstdint>
#include <limits>
#include <memory>
#include <new>

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

}  // namespace ktext::cli
