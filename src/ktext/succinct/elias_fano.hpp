// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file elias_fano.hpp
/// \brief A sparse bit vector: the positions of its m ones in n bits, in Elias–Fano form
/// \cite Elias1974 \cite Fano1971, for membership and rank in about 2 + log2(n / m) bits per
/// one instead of n bits.
///
/// Layout. Each position x splits into its low b = floor(log2(n / m)) bits, stored packed
/// (core/packed_ints.hpp), and its bucket x >> b. The upper bit vector writes bucket after
/// bucket in unary: a one per position in it, then a zero. A count of the ones before every
/// 64th bucket (a hint) lets a query find its bucket by skipping fewer than 64 zeros from
/// there, in the two or three words that follow, instead of a select over the whole upper
/// vector \cite OkanoharaSadakane2007. With m about n / 32 the upper vector holds two bits per
/// one, so a query reads one hint, one to three upper words and one or two words of low bits.
/// Positions are 64-bit; the structure holds only views and is cheap to copy into kernels.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "ktext/core/allocate.hpp"
#include "ktext/core/packed_ints.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/core/range.hpp"
#include "ktext/succinct/bit_vector.hpp"
#include "ktext/succinct/rank_select.hpp"

namespace ktext {

namespace impl {
template <class MemorySpace>
struct EliasFanoBuild;
}  // namespace impl

/// \brief The ones of a bit vector of n bits, Elias–Fano coded.
/// \tparam MemorySpace where the parts live.
template <class MemorySpace>
class EliasFano {
  static_assert(Kokkos::is_memory_space_v<MemorySpace>, "ktext::EliasFano: MemorySpace must be a Kokkos memory space");

 public:
  using memory_space = MemorySpace;
  static constexpr int hint_shift = 6;  ///< a hint every 64 buckets

  EliasFano() = default;

  /// \brief The ones of \p bits. Waits.
  /// \throws OutOfMemoryError.
  /// \complexity O(n / 64 + m) work.
  template <class ExecSpace>
  EliasFano(const ExecSpace& exec, const RankSelect<MemorySpace>& bits) {
    static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::EliasFano: first argument must be an execution space");
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                  "ktext::EliasFano: MemorySpace must be accessible from the execution space");
    impl::translate_out_of_memory("ktext::EliasFano", [&] { impl::EliasFanoBuild<MemorySpace>::build(exec, bits, *this); });
  }

  /// \brief Number of bits n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t size() const { return n_; }
  /// \brief Number of ones m.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t count_ones() const { return m_; }
  /// \brief Low bits stored per one.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION int low_bits() const { return low_bits_; }

  /// \brief Whether bit \p i (i < n) is set; \p before receives the ones in [0, i) either way.
  /// \complexity O(1) expected for evenly spread ones: a hint, the upper words of fewer than
  /// 64 buckets, then the positions of bucket i >> b.
  KOKKOS_INLINE_FUNCTION bool find(std::uint64_t i, std::uint64_t& before) const {
    const std::uint64_t h = i >> low_bits_;
    const std::uint64_t j = h >> hint_shift;
    // Each bucket before ends with its zero, so bucket 64 j starts after 64 j zeros.
    std::uint64_t p = (j << hint_shift) + hints_(j);
    std::uint64_t skip = h - (j << hint_shift);
    if (skip > 0) {
      std::uint64_t w = p >> 6;
      std::uint64_t zeros = ~upper_(w) & (~std::uint64_t(0) << (p & 63));
      for (;;) {
        const std::uint64_t c = std::uint64_t(impl::popcount64(zeros));
        if (skip <= c) {
          p = (w << 6) + std::uint64_t(impl::select_in_word(zeros, skip)) + 1;
          break;
        }
        skip -= c;
        zeros = ~upper_(++w);
      }
    }
    // The bucket's ones, ascending; its terminating zero always exists (h < buckets).
    const std::uint64_t low = i & low_mask();
    for (std::uint64_t k = p - h;; ++p, ++k) {
      if (((upper_(p >> 6) >> (p & 63)) & 1) == 0) {
        before = k;
        return false;
      }
      const std::uint64_t v = impl::packed_get(lows_, k, low_bits_);
      if (v >= low) {
        before = k;
        return v == low;
      }
    }
  }
  /// \brief Bit \p i, i < n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION bool access(std::uint64_t i) const {
    std::uint64_t k = 0;
    return find(i, k);
  }
  /// \brief Ones in [0, i), i < n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t rank1(std::uint64_t i) const {
    std::uint64_t k = 0;
    (void)find(i, k);
    return k;
  }

  /// \brief Bytes held in the memory space.
  [[nodiscard]] std::size_t space_bytes() const { return (lows_.span() + upper_.span() + hints_.span()) * 8; }

  /// \brief The bit vector as BitVector words (BitVector<MemorySpace>::word_count(n) of them,
  /// bits past n zero), on \p exec; does not wait.
  /// \throws OutOfMemoryError.
  template <class ExecSpace>
  [[nodiscard]] Kokkos::View<std::uint64_t*, MemorySpace> to_words(const ExecSpace& exec) const {
    return impl::translate_out_of_memory("ktext::EliasFano::to_words",
                                         [&] { return impl::EliasFanoBuild<MemorySpace>::to_words(exec, *this); });
  }

 private:
  friend struct impl::EliasFanoBuild<MemorySpace>;
  KOKKOS_INLINE_FUNCTION std::uint64_t low_mask() const {
    return low_bits_ == 0 ? 0 : ~std::uint64_t(0) >> (64 - low_bits_);
  }

  Kokkos::View<const std::uint64_t*, MemorySpace> lows_;   ///< packed low bits, low_bits_ each
  Kokkos::View<const std::uint64_t*, MemorySpace> upper_;  ///< one k: bit (x_k >> b) + k
  Kokkos::View<const std::uint64_t*, MemorySpace> hints_;  ///< hints_(j): ones in buckets before 64 j
  std::uint64_t n_ = 0;
  std::uint64_t m_ = 0;
  int low_bits_ = 0;
};

namespace impl {

template <class MemorySpace>
struct EliasFanoBuild {
  /// Buckets: (n >> b) + 1, so every position's bucket has a terminating zero after it.
  static std::uint64_t buckets(std::uint64_t n, int b) { return (n >> b) + 1; }

  template <class ExecSpace>
  static void build(const ExecSpace& exec, const RankSelect<MemorySpace>& bits, EliasFano<MemorySpace>& ef) {
    using Policy = impl::Range<ExecSpace>;
    const std::uint64_t n = bits.size(), m = bits.count_ones();
    // b = floor(log2(n / m)): about 2 upper bits per one; with no ones, one bucket or two.
    const std::uint64_t ratio = n / (m > 0 ? m : 1);
    const int b = ratio >= 2 ? 63 - countl_zero64(ratio) : 0;
    const std::uint64_t nb = buckets(n, b);
    const std::uint64_t hint_count = (nb >> EliasFano<MemorySpace>::hint_shift) + 1;
    const auto lows = zeroed_view<std::uint64_t, MemorySpace>(exec, "ktext::EliasFano::lows",
                                                              packed_words(m, b, "ktext::EliasFano"));
    const auto upper = zeroed_view<std::uint64_t, MemorySpace>(exec, "ktext::EliasFano::upper",
                                                               packed_words(m + nb, 1, "ktext::EliasFano"));
    const auto hints = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::EliasFano::hints", hint_count);
    const std::uint64_t low_mask = b == 0 ? 0 : ~std::uint64_t(0) >> (64 - b);
    for_each_one(
        exec, "ktext::EliasFano::fill", bits, KOKKOS_LAMBDA(std::uint64_t pos, std::uint64_t k) {
          packed_atomic_set(upper, (pos >> b) + k, 1, 1);
          packed_atomic_set(lows, k, b, pos & low_mask);
        });
    Kokkos::parallel_for(
        "ktext::EliasFano::hints", Policy(exec, 0, hint_count), KOKKOS_LAMBDA(std::uint64_t j) {
          const std::uint64_t first = (j << EliasFano<MemorySpace>::hint_shift) << b;
          hints(j) = first >= n ? m : bits.rank1(first);
        });
    exec.fence("ktext::EliasFano");
    ef.lows_ = lows;
    ef.upper_ = upper;
    ef.hints_ = hints;
    ef.n_ = n;
    ef.m_ = m;
    ef.low_bits_ = b;
  }

  template <class ExecSpace>
  static Kokkos::View<std::uint64_t*, MemorySpace> to_words(const ExecSpace& exec, const EliasFano<MemorySpace>& ef) {
    constexpr int shift = EliasFano<MemorySpace>::hint_shift;
    const std::uint64_t n = ef.n_;
    const int b = ef.low_bits_;
    const std::uint64_t nb = buckets(n, b);
    const auto out = zeroed_view<std::uint64_t, MemorySpace>(exec, "ktext::EliasFano::words", BitVector<MemorySpace>::word_count(n));
    const auto lows = ef.lows_, upper = ef.upper_, hints = ef.hints_;
    // One thread per hint: the ones of its 64 buckets, in order.
    Kokkos::parallel_for(
        "ktext::EliasFano::to_words", impl::Range<ExecSpace>(exec, 0, hints.extent(0)), KOKKOS_LAMBDA(std::uint64_t j) {
          std::uint64_t h = j << shift;
          const std::uint64_t end = (h + (std::uint64_t(1) << shift)) < nb ? h + (std::uint64_t(1) << shift) : nb;
          std::uint64_t k = hints(j);
          for (std::uint64_t p = h + k; h < end; ++p) {
            if (((upper(p >> 6) >> (p & 63)) & 1) == 0) {
              ++h;
              continue;
            }
            const std::uint64_t pos = (h << b) | packed_get(lows, k, b);
            Kokkos::atomic_or(&out(pos >> 6), std::uint64_t(1) << (pos & 63));
            ++k;
          }
        });
    return out;
  }
};

}  // namespace impl
}  // namespace ktext
