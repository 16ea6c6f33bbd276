// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file rank_select.hpp
/// \brief Rank and select over a BitVector in O(1) and O(log) time with about 4.8% extra
/// space, after the GPU layout of \cite FranzrebBurtscherRudolph2025.
///
/// Layout: a 64-bit count of the ones before every 2^16 bits (L1), a 16-bit count of the ones
/// between the L1 boundary and every 512-bit block (L2), and, for select, the L2 block that holds
/// every 4096th one and every 4096th zero. rank reads one L1 and one L2 entry and at most eight
/// words of one block. select finds its block by binary search between two samples, then its
/// word by popcounts and the bit by a broadword in-word select \cite Vigna2008. Positions are
/// 64-bit; the structure holds only views and is cheap to copy into kernels.

#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/primitives/scan.hpp"
#include "ktext/succinct/bit_vector.hpp"
#include "ktext/succinct/impl/ktext_batched_queries.hpp"

namespace ktext {

namespace impl {

/// Position (0..63) of the r-th set bit of \p x, 1 <= r <= popcount(x): byte counts by SWAR,
/// their prefix sums by one multiplication, the byte by a parallel comparison, then the bit.
KOKKOS_INLINE_FUNCTION int select_in_word(std::uint64_t x, std::uint64_t r) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  std::uint64_t s = x - ((x >> 1) & 0x5555555555555555ull);
  s = (s & 0x3333333333333333ull) + ((s >> 2) & 0x3333333333333333ull);
  s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0full;
  const std::uint64_t prefix = s * ones;  // byte k: ones in bytes 0..k (at most 64, no carry)
  // High bit of byte k set where prefix_k >= r (each byte of prefix | highs is >= 128 > r).
  const std::uint64_t at_least = ((prefix | highs) - r * ones) & highs;
  const int byte = countr_zero64(at_least) >> 3;
  const std::uint64_t before = byte == 0 ? 0 : (prefix >> (8 * byte - 8)) & 0xff;
  std::uint64_t rest = r - before;
  std::uint64_t bits = (x >> (8 * byte)) & 0xff;
  int bit = 0;
  for (; bit < 8; ++bit, bits >>= 1)
    if ((bits & 1) && --rest == 0) break;
  return 8 * byte + bit;
}

}  // namespace impl

template <class MemorySpace>
class RankSelect;

namespace impl {
template <class MemorySpace>
struct RankSelectBuild;
}  // namespace impl

/// \brief The operations of a bit vector's batched queries.
enum class BitQuery { access, rank0, rank1, select0, select1 };

/// \brief rank, select and access over a BitVector.
/// \tparam MemorySpace where the bits and directories live.
template <class MemorySpace>
class RankSelect {
  static_assert(Kokkos::is_memory_space_v<MemorySpace>, "ktext::RankSelect: MemorySpace must be a Kokkos memory space");

 public:
  using memory_space = MemorySpace;
  static constexpr int l1_shift = 16;        ///< 2^16 bits per L1 count
  static constexpr int l2_shift = 9;         ///< 512 bits per L2 count
  static constexpr int sample_shift = 12;    ///< a select sample every 4096 ones (zeros)
  /// \brief What select returns for an occurrence that does not exist.
  static constexpr std::uint64_t npos = ~std::uint64_t(0);

  RankSelect() = default;

  /// \brief Builds the directories of \p bits. Waits (the number of ones sizes the samples).
  /// \throws OutOfMemoryError.
  /// \complexity O(n / 64) work.
  template <class ExecSpace>
  RankSelect(const ExecSpace& exec, const BitVector<MemorySpace>& bits) : bits_(bits) {
    static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::RankSelect: first argument must be an execution space");
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                  "ktext::RankSelect: MemorySpace must be accessible from the execution space");
    impl::translate_out_of_memory("ktext::RankSelect", [&] { impl::RankSelectBuild<MemorySpace>::build(exec, *this); });
  }

  /// \brief As above on the default instance of MemorySpace's execution space.
  explicit RankSelect(const BitVector<MemorySpace>& bits) : RankSelect(typename MemorySpace::execution_space{}, bits) {}

  /// \brief Number of bits n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t size() const { return bits_.size(); }
  /// \brief Number of ones.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t count_ones() const { return ones_; }
  /// \brief Number of zeros.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t count_zeros() const { return bits_.size() - ones_; }
  /// \brief The bit vector.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION const BitVector<MemorySpace>& bits() const { return bits_; }
  /// \brief Bit \p i, i < n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION bool access(std::uint64_t i) const { return bits_.access(i); }

  /// \brief Ones in [0, i), for i <= n.
  /// \complexity O(1): two counts and at most eight words of one 512-bit block.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t rank1(std::uint64_t i) const {
    const std::uint64_t block = i >> l2_shift;
    std::uint64_t r = l1_(i >> l1_shift) + l2_(block);
    const std::uint64_t last = i >> 6;
    for (std::uint64_t w = block << 3; w < last; ++w) r += impl::popcount64(bits_.word(w));
    const unsigned rem = unsigned(i & 63);
    if (rem != 0) r += impl::popcount64(bits_.word(last) << (64 - rem));
    return r;
  }
  /// \brief Zeros in [0, i), for i <= n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t rank0(std::uint64_t i) const { return i - rank1(i); }

  /// \brief Position of the k-th one (k from 1), or npos when k is 0 or above count_ones().
  /// \complexity O(log(distance between two samples)) + eight words.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t select1(std::uint64_t k) const { return select<true>(k); }
  /// \brief Position of the k-th zero (k from 1), or npos when k is 0 or above count_zeros().
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t select0(std::uint64_t k) const { return select<false>(k); }

  /// \brief Bytes held in the memory space: bits, counts and samples.
  [[nodiscard]] std::size_t space_bytes() const {
    return bits_.space_bytes() + l1_.span() * 8 + l2_.span() * 2 + (samples1_.span() + samples0_.span()) * 8;
  }

  /// \brief out(q) = op applied to in(q): a position for access and rank (access needs
  /// in(q) < n, rank in(q) <= n), a count k >= 1 for select (npos when there is no k-th).
  /// Views of integers, each argument read once; waits. Views the execution space reads (device
  /// views, or pinned host views on a GPU) are used in place; other host views go through
  /// pinned staging in overlapped chunks.
  /// \throws InputError naming the first position out of range (out is then unspecified).
  template <class ExecSpace, class InView, class OutView>
  void query(const ExecSpace& exec, BitQuery op, const InView& in, const OutView& out) const {
    impl::run_queries(exec, std::string("ktext::RankSelect::") + op_name(op), Query{*this, op}, in, impl::NoArgument{}, out);
  }
  /// \brief As above on the default instance of MemorySpace's execution space; waits.
  template <class InView, class OutView>
  void query(BitQuery op, const InView& in, const OutView& out) const {
    using Exec = typename MemorySpace::execution_space;
    query(Exec{}, op, in, out);
    Exec{}.fence("ktext::RankSelect::query");
  }

  /// \brief The device functor of the batched queries (public for nvcc's extended lambdas).
  struct Query {
    RankSelect self;
    BitQuery op;
    KOKKOS_INLINE_FUNCTION bool valid(std::uint64_t a, std::uint64_t) const {
      return op == BitQuery::access ? a < self.size() : (op == BitQuery::rank0 || op == BitQuery::rank1) ? a <= self.size() : true;
    }
    KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t a, std::uint64_t) const {
      switch (op) {
        case BitQuery::access: return self.access(a) ? 1 : 0;
        case BitQuery::rank0: return self.rank0(a);
        case BitQuery::rank1: return self.rank1(a);
        case BitQuery::select0: return self.select0(a);
        default: return self.select1(a);
      }
    }
    std::string describe(std::uint64_t a, std::uint64_t) const {
      return "position " + std::to_string(a) + " in " + std::to_string(self.size()) + " bits";
    }
  };

  /// \brief "access", "rank0", "rank1", "select0" or "select1".
  static const char* op_name(BitQuery op) {
    switch (op) {
      case BitQuery::access: return "access";
      case BitQuery::rank0: return "rank0";
      case BitQuery::rank1: return "rank1";
      case BitQuery::select0: return "select0";
      default: return "select1";
    }
  }

  /// \brief The parts, for files: L1 counts, L2 counts, select samples.
  [[nodiscard]] Kokkos::View<const std::uint64_t*, MemorySpace> l1_counts() const { return l1_; }
  [[nodiscard]] Kokkos::View<const std::uint16_t*, MemorySpace> l2_counts() const { return l2_; }

 private:
  friend struct impl::RankSelectBuild<MemorySpace>;

  /// Ones before L2 block \p b.
  KOKKOS_INLINE_FUNCTION std::uint64_t ones_before_block(std::uint64_t b) const {
    return l1_(b >> (l1_shift - l2_shift)) + l2_(b);
  }
  template <bool One>
  KOKKOS_INLINE_FUNCTION std::uint64_t before_block(std::uint64_t b) const {
    const std::uint64_t ones = ones_before_block(b);
    return One ? ones : (b << l2_shift) - ones;
  }

  template <bool One>
  KOKKOS_INLINE_FUNCTION std::uint64_t select(std::uint64_t k) const {
    if (k == 0 || k > (One ? ones_ : bits_.size() - ones_)) return npos;
    const auto& samples = One ? samples1_ : samples0_;
    const std::uint64_t j = (k - 1) >> sample_shift;
    std::uint64_t lo = samples(j), hi = samples(j + 1);
    // The last block before which fewer than k ones (zeros) lie.
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo + 1) / 2;
      if (before_block<One>(mid) < k)
        lo = mid;
      else
        hi = mid - 1;
    }
    std::uint64_t rest = k - before_block<One>(lo);
    for (std::uint64_t w = lo << 3;; ++w) {
      const std::uint64_t x = One ? bits_.word(w) : ~bits_.word(w);
      const std::uint64_t c = std::uint64_t(impl::popcount64(x));
      if (rest <= c) return (w << 6) + std::uint64_t(impl::select_in_word(x, rest));
      rest -= c;
    }
  }

  BitVector<MemorySpace> bits_;
  Kokkos::View<const std::uint64_t*, MemorySpace> l1_;
  Kokkos::View<const std::uint16_t*, MemorySpace> l2_;
  Kokkos::View<const std::uint64_t*, MemorySpace> samples1_, samples0_;
  std::uint64_t ones_ = 0;
};

namespace impl {

/// Calls \p f(pos, k) on \p exec for every one of \p rs, pos its position and k the ones
/// before it: a thread per word, which skips empty words and ranks once. Does not wait.
template <class ExecSpace, class MemorySpace, class F>
void for_each_one(const ExecSpace& exec, const char* label, const RankSelect<MemorySpace>& rs, const F& f) {
  Kokkos::parallel_for(
      label, impl::Range<ExecSpace>(exec, 0, (rs.size() + 63) / 64), KOKKOS_LAMBDA(std::uint64_t w) {
        std::uint64_t x = rs.bits().word(w);
        if (x == 0) return;
        std::uint64_t k = rs.rank1(w << 6);
        for (; x != 0; x &= x - 1, ++k) f((w << 6) + std::uint64_t(countr_zero64(x)), k);
      });
}

}  // namespace impl

namespace impl {

template <class MemorySpace>
struct RankSelectBuild {
/// samples(j) = the block holding the (4096 j + 1)-th one (zero) of \p rs; a last entry = the
/// last block, so samples(j + 1) bounds every search.
template <bool One, class ExecSpace>
static Kokkos::View<const std::uint64_t*, MemorySpace> samples(const ExecSpace& exec, const RankSelect<MemorySpace>& rs,
                                                                     std::uint64_t total, const char* label) {
  using RS = RankSelect<MemorySpace>;
  const std::uint64_t n = rs.size();
  const std::uint64_t blocks = (n >> RS::l2_shift) + 1;
  const std::uint64_t count = ((total + (std::uint64_t(1) << RS::sample_shift) - 1) >> RS::sample_shift) + 1;
  const auto out = uninitialized_view<std::uint64_t, MemorySpace>(exec, label, count);
  Kokkos::parallel_for(
      label, impl::Range<ExecSpace>(exec, 0, blocks), KOKKOS_LAMBDA(std::uint64_t b) {
        const std::uint64_t ones_before = rs.rank1(b << RS::l2_shift);
        const std::uint64_t first = One ? ones_before : (b << RS::l2_shift) - ones_before;
        std::uint64_t ones = 0;
        for (int w = 0; w < 8; ++w) ones += popcount64(rs.bits().word(b * 8 + w));
        const std::uint64_t width = n - (b << RS::l2_shift) < 512 ? n - (b << RS::l2_shift) : 512;
        const std::uint64_t here = One ? ones : width - ones;
        const std::uint64_t j = (first + (std::uint64_t(1) << RS::sample_shift) - 1) >> RS::sample_shift;
        if ((j << RS::sample_shift) < first + here) out(j) = b;
        if (b == blocks - 1) out(count - 1) = b;
      });
  return out;
}

/// Fills the counts and samples of \p rs, whose bits are set. Waits.
template <class ExecSpace>
static void build(const ExecSpace& exec, RankSelect<MemorySpace>& rs) {
  using RS = RankSelect<MemorySpace>;
  using Policy = impl::Range<ExecSpace>;
  const std::uint64_t n = rs.size();
  const std::uint64_t blocks = (n >> RS::l2_shift) + 1;  // == words / 8
  const std::uint64_t supers = (n >> RS::l1_shift) + 1;
  constexpr std::uint64_t blocks_per_super = std::uint64_t(1) << (RS::l1_shift - RS::l2_shift);
  const auto l1 = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::RankSelect::l1", supers);
  const auto l2 = uninitialized_view<std::uint16_t, MemorySpace>(exec, "ktext::RankSelect::l2", blocks);
  const auto bits = rs.bits();
  // Ones per L1 range, and the running count inside it per block (at most 65024: 16 bits).
  Kokkos::parallel_for(
      "ktext::RankSelect::counts", Policy(exec, 0, supers), KOKKOS_LAMBDA(std::uint64_t s) {
        const std::uint64_t end = (s + 1) * blocks_per_super < blocks ? (s + 1) * blocks_per_super : blocks;
        std::uint64_t running = 0;
        for (std::uint64_t b = s * blocks_per_super; b < end; ++b) {
          l2(b) = std::uint16_t(running);
          for (int w = 0; w < 8; ++w) running += popcount64(bits.word(b * 8 + w));
        }
        l1(s) = running;
      });
  rs.ones_ = ktext::exclusive_scan(exec, l1, l1);
  rs.l1_ = l1;
  rs.l2_ = l2;
  rs.samples1_ = samples<true>(exec, rs, rs.ones_, "ktext::RankSelect::select1_samples");
  rs.samples0_ = samples<false>(exec, rs, n - rs.ones_, "ktext::RankSelect::select0_samples");
  exec.fence("ktext::RankSelect");
}
};

}  // namespace impl

}  // namespace ktext
