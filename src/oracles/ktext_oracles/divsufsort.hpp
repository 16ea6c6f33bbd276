// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// libdivsufsort, the reference suffix sorter, behind one call for both index widths.

#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(KTEXT_HAVE_DIVSUFSORT)
#include <divsufsort.h>
#include <divsufsort64.h>
#endif

namespace ktext::oracle {

/// True when libdivsufsort is linked (KTEXT_HAVE_DIVSUFSORT).
constexpr bool have_divsufsort() noexcept {
#if defined(KTEXT_HAVE_DIVSUFSORT)
  return true;
#else
  return false;
#endif
}

#if defined(KTEXT_HAVE_DIVSUFSORT)
/// Suffix array of \p n bytes into \p sa (int32_t below 2^31 bytes, else int64_t); throws
/// std::runtime_error when libdivsufsort reports a failure.
template <class I>
void divsufsort_suffix_array(const std::uint8_t* text, I* sa, std::uint64_t n) {
  static_assert(sizeof(I) == 4 || sizeof(I) == 8, "divsufsort_suffix_array: int32_t or int64_t");
  if (n == 0) return;
  int rc;
  if constexpr (sizeof(I) == 4) rc = divsufsort(text, reinterpret_cast<saidx_t*>(sa), static_cast<saidx_t>(n));
  else rc = divsufsort64(text, reinterpret_cast<saidx64_t*>(sa), static_cast<saidx64_t>(n));
  if (rc != 0) throw std::runtime_error("libdivsufsort failed (code " + std::to_string(rc) + ") on n = " + std::to_string(n));
}
#endif

}  // namespace ktext::oracle
