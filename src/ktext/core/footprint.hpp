// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file footprint.hpp
/// \brief Live and peak bytes of the buffers an algorithm holds in its memory space, counted
/// as they are allocated and released, so an algorithm can report what it really used.

#include <cstddef>

namespace ktext {

class Footprint {
 public:
  void add(std::size_t bytes) noexcept {
    live_ += bytes;
    if (live_ > peak_) peak_ = live_;
  }
  void release(std::size_t bytes) noexcept { live_ = bytes > live_ ? 0 : live_ - bytes; }
  [[nodiscard]] std::size_t live() const noexcept { return live_; }
  [[nodiscard]] std::size_t peak() const noexcept { return peak_; }

 private:
  std::size_t live_ = 0;
  std::size_t peak_ = 0;
};

}  // namespace ktext
