// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file bit_vector.hpp
/// \brief A bit vector of n bits in 64-bit words, least significant bit first, built in
/// parallel from bytes or a predicate.
///
/// The words are padded with zero bits to a whole 512-bit block and one block more, so rank
/// structures (rank_select.hpp) can read the block of position n without a bounds test.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/view_checks.hpp"

namespace ktext {

namespace impl {
/// The predicate "entry i is not zero" (at namespace scope: nvcc's extended lambdas reject
/// private member types).
template <class View>
struct NonZero {
  View v;
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint64_t i) const { return v(i) != 0; }
};
}  // namespace impl

/// \brief Bits in 64-bit words, LSB first; holds one view, cheap to copy into kernels.
/// \tparam MemorySpace where the words live.
template <class MemorySpace>
class BitVector {
  static_assert(Kokkos::is_memory_space_v<MemorySpace>, "ktext::BitVector: MemorySpace must be a Kokkos memory space");

 public:
  using memory_space = MemorySpace;
  using words_view = Kokkos::View<const std::uint64_t*, MemorySpace>;
  static constexpr std::uint64_t bits_per_block = 512;

  /// \brief Words stored for \p n bits: whole 512-bit blocks, one more than n / 512.
  [[nodiscard]] static constexpr std::uint64_t word_count(std::uint64_t n) { return (n / bits_per_block + 1) * 8; }

  BitVector() = default;

  /// \brief Bit i = (bytes(i) != 0), for a rank-1 view of any integer type. Does not block.
  template <class ExecSpace, class ByteView>
  BitVector(const ExecSpace& exec, const ByteView& bytes) {
    static_assert(impl::is_rank1_view_v<ByteView> && impl::accessible_from_v<ExecSpace, ByteView>,
                  "ktext::BitVector: bytes must be a rank-1 view accessible from the execution space");
    *this = from_predicate(exec, bytes.extent(0), impl::NonZero<ByteView>{bytes});
  }

  /// \brief Bit i = pred(i) for i < n; \p pred is a device-callable functor. Does not block.
  /// \complexity O(n) work, one thread per word.
  template <class ExecSpace, class Predicate>
  static BitVector from_predicate(const ExecSpace& exec, std::uint64_t n, const Predicate& pred) {
    static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::BitVector: first argument must be an execution space");
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                  "ktext::BitVector: MemorySpace must be accessible from the execution space");
    const std::uint64_t num_words = word_count(n);
    const auto words = impl::uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::BitVector::words", num_words);
    Kokkos::parallel_for(
        "ktext::BitVector::build", impl::Range<ExecSpace>(exec, 0, num_words), KOKKOS_LAMBDA(std::uint64_t w) {
          std::uint64_t x = 0;
          const std::uint64_t begin = w * 64;
          const std::uint64_t end = begin + 64 < n ? begin + 64 : n;
          for (std::uint64_t i = begin; i < end; ++i) x |= std::uint64_t(pred(i) ? 1 : 0) << (i - begin);
          words(w) = x;
        });
    BitVector b;
    b.words_ = words;
    b.n_ = n;
    return b;
  }

  /// \brief Wraps \p words (at least word_count(n) words, bits past n zero) as n bits.
  /// \throws InputError when \p words is too short.
  static BitVector from_words(const words_view& words, std::uint64_t n) {
    if (words.extent(0) < word_count(n))
      throw InputError("ktext::BitVector: " + std::to_string(n) + " bits need " + std::to_string(word_count(n)) +
                       " words, got " + std::to_string(words.extent(0)));
    BitVector b;
    b.words_ = words;
    b.n_ = n;
    return b;
  }

  /// \brief Number of bits n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t size() const { return n_; }
  /// \brief Bit \p i (i < n).
  [[nodiscard]] KOKKOS_INLINE_FUNCTION bool access(std::uint64_t i) const { return (words_(i >> 6) >> (i & 63)) & 1; }
  [[nodiscard]] KOKKOS_INLINE_FUNCTION bool operator[](std::uint64_t i) const { return access(i); }
  /// \brief Word \p w (bits 64w .. 64w + 63).
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t word(std::uint64_t w) const { return words_(w); }
  /// \brief The words, padding included.
  [[nodiscard]] words_view words() const { return words_; }
  /// \brief Bytes held in the memory space.
  [[nodiscard]] std::size_t space_bytes() const { return words_.span() * sizeof(std::uint64_t); }

 private:
  words_view words_;
  std::uint64_t n_ = 0;
};

}  // namespace ktext
