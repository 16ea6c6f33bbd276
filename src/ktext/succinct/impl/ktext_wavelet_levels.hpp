// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_wavelet_levels.hpp
/// \brief What the wavelet tree and the wavelet matrix share: the symbols' dense codes, the
/// levels' bits stored one after another in one BitVector (each level padded to whole 512-bit
/// blocks, so one RankSelect serves every level), and the per-level step that writes a level's
/// bits and counts its ones per word for the stable partition into the next level.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "ktext/core/range.hpp"
#include "ktext/core/alphabet.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/little_endian.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/succinct/impl/ktext_batched_queries.hpp"
#include "ktext/primitives/scan.hpp"
#include "ktext/primitives/select.hpp"
#include "ktext/primitives/sort_pairs.hpp"
#include "ktext/succinct/bit_vector.hpp"

namespace ktext {

/// \brief The operations of a wavelet structure's batched queries.
enum class WaveletQuery { access, rank, select };

/// \brief How a wavelet structure numbers its symbols.
struct WaveletOptions {
  /// 0: the symbols that occur in the text, in their order (the minimal alphabet). Otherwise
  /// the alphabet [0, alphabet_size): every text symbol must be below it, and queries for the
  /// symbols that do not occur are answered as well.
  std::uint64_t alphabet_size = 0;
};

namespace impl {
/// Bits of one level padded to whole 512-bit blocks.
inline std::uint64_t level_stride(std::uint64_t n) { return (n + 511) / 512 * 512; }
}  // namespace impl

/// \brief Upper bound on the bytes a WaveletTree or WaveletMatrix of n symbols of
/// \p symbol_bytes bytes allocates while it is built, the text itself included: two code
/// arrays, the levels (at most 8 * symbol_bytes of them) with their rank directories, the
/// per-word counts and the alphabet tables.
inline std::uint64_t wavelet_build_peak_bytes_bound(std::uint64_t n, std::uint64_t symbol_bytes) {
  const std::uint64_t level_bytes = 8 * symbol_bytes * impl::level_stride(n) / 8 + 128;
  return 3 * n * symbol_bytes + level_bytes + level_bytes / 16 + n / 8 + (std::uint64_t(1) << 23);
}

namespace impl {

/// "access", "rank" or "select".
inline const char* wavelet_query_name(WaveletQuery op) {
  return op == WaveletQuery::access ? "access" : op == WaveletQuery::rank ? "rank" : "select";
}

/// The device functor of a wavelet tree's or matrix's batched queries.
template <class Structure>
struct WaveletQueries {
  Structure self;
  WaveletQuery op;
  KOKKOS_INLINE_FUNCTION bool valid(std::uint64_t a, std::uint64_t b) const {
    return op == WaveletQuery::access ? a < self.size() : op == WaveletQuery::rank ? b <= self.size() : true;
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const {
    return op == WaveletQuery::access ? std::uint64_t(self.access(a))
           : op == WaveletQuery::rank ? self.rank(a, b)
                                      : self.select(a, b);
  }
  /// Where the query's walk starts: access and rank at their position, select at its symbol's
  /// first position in code order plus k - 1 (the walk's end, which a select starts from).
  KOKKOS_INLINE_FUNCTION std::uint64_t locality(std::uint64_t a, std::uint64_t b) const {
    if (op == WaveletQuery::access) return a;
    if (op == WaveletQuery::rank) return b;
    const std::uint64_t code = self.code_of(a);
    return code < self.alphabet_size() && b > 0 && b <= self.size() ? self.codes_below(code) + (b - 1) : self.size();
  }
  std::uint64_t locality_end() const { return self.size() + 1; }
  std::string describe(std::uint64_t a, std::uint64_t b) const {
    return "position " + std::to_string(op == WaveletQuery::access ? a : b) + " in a sequence of " +
           std::to_string(self.size());
  }
};

/// The batched queries of a wavelet tree or matrix \p self (named \p type in errors and labels):
/// access takes one argument view, rank and select two.
template <class Structure, class ExecSpace, class AView, class BView, class OutView>
void run_wavelet_queries(const ExecSpace& exec, const char* type, const Structure& self, WaveletQuery op,
                         const AView& a, const BView& b, const OutView& out, QueryOrder order) {
  const std::string what = std::string(type) + "::" + wavelet_query_name(op);
  const WaveletQueries<Structure> queries{self, op};
  if (op == WaveletQuery::access)
    run_queries(exec, what, queries, a, NoArgument{}, out, order);
  else
    run_queries(exec, what, queries, a, b, out, order);
}

/// Bits for codes 0..sigma-1: 0 for sigma <= 1.
KOKKOS_INLINE_FUNCTION int code_bits(std::uint64_t sigma) {
  int b = 0;
  while (b < 64 && (std::uint64_t(1) << b) < sigma) ++b;
  return b;
}

/// The symbols of a wavelet structure: dense codes through an AlphabetMap (a code table below
/// max_code_table, else a binary search in the ascending symbols), or the symbols themselves
/// for a caller-given alphabet.
template <class MemorySpace>
struct WaveletAlphabet {
  AlphabetMap<MemorySpace> map;
  std::uint64_t sigma = 0;  ///< codes 0..sigma-1
  bool dense = false;       ///< codes through map (else code = symbol)

  /// Code of \p symbol, or sigma when it has none.
  KOKKOS_INLINE_FUNCTION std::uint64_t code(std::uint64_t symbol) const {
    if (!dense) return symbol < sigma ? symbol : sigma;
    if (map.codes.extent(0) == 0) {
      // Symbols up to 2^32 - 1: a table would take 16 GiB, the sorted symbols take 4 sigma bytes.
      std::uint64_t lo = 0, hi = sigma;
      while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (map.symbols(mid) < symbol)
          lo = mid + 1;
        else
          hi = mid;
      }
      return lo < sigma && map.symbols(lo) == symbol ? lo : sigma;
    }
    if (symbol >= map.codes.extent(0)) return sigma;
    const std::uint32_t c = map.codes(symbol);
    return c == AlphabetMap<MemorySpace>::absent ? sigma : c;
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t symbol(std::uint64_t code) const { return dense ? map.symbols(code) : code; }
  [[nodiscard]] std::size_t bytes() const { return map.bytes(); }
};

/// The alphabet of \p text per \p options; \p who labels errors and buffers. \p symbol_counts,
/// when given, receives the text's histogram by symbol value when the alphabet has a code table
/// (else it is left empty). Waits.
/// \throws InputError when a symbol is not below options.alphabet_size.
template <class MemorySpace, class ExecSpace, class TextView>
WaveletAlphabet<MemorySpace> wavelet_alphabet(const ExecSpace& exec, const TextView& text, const WaveletOptions& options,
                                              const char* who,
                                              Kokkos::View<std::uint64_t*, MemorySpace>* symbol_counts = nullptr) {
  using S = typename TextView::non_const_value_type;
  WaveletAlphabet<MemorySpace> a;
  if (options.alphabet_size != 0) {
    S max_symbol = 0;
    Kokkos::parallel_reduce(
        "ktext::wavelet::max_symbol", impl::Range<ExecSpace>(exec, 0, text.extent(0)),
        KOKKOS_LAMBDA(std::uint64_t i, S & m) { m = text(i) > m ? text(i) : m; }, Kokkos::Max<S>(max_symbol));
    if (text.extent(0) != 0 && std::uint64_t(max_symbol) >= options.alphabet_size)
      throw InputError(std::string(who) + ": symbol " + std::to_string(std::uint64_t(max_symbol)) +
                       " is not below the alphabet size " + std::to_string(options.alphabet_size));
    a.sigma = options.alphabet_size;
    return a;
  }
  a.map = text_alphabet<MemorySpace>(exec, text, who, true, symbol_counts);
  a.dense = true;
  if (a.map.codes.extent(0) == 0 && text.extent(0) != 0) {
    // A symbol of max_code_table or more: the distinct symbols, sorted, are the alphabet.
    const std::uint64_t n = text.extent(0);
    const std::string prefix(who);
    const auto sorted = uninitialized_view<std::uint32_t, MemorySpace>(exec, (prefix + "::alphabet_sort").c_str(), n);
    const auto ignored = uninitialized_view<std::uint32_t, MemorySpace>(exec, (prefix + "::alphabet_sort_values").c_str(), n);
    Kokkos::parallel_for(
        "ktext::wavelet::alphabet_copy", impl::Range<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(std::uint64_t i) { sorted(i) = std::uint32_t(text(i)); });
    sort_pairs(exec, sorted, ignored);
    const auto distinct =
        uninitialized_view<std::uint32_t, MemorySpace>(exec, (prefix + "::alphabet_symbols").c_str(), n);
    const std::uint64_t sigma = select_by_index(
        exec, sorted, distinct, KOKKOS_LAMBDA(std::size_t i) { return i == 0 || sorted(i) != sorted(i - 1); });
    a.map.symbols = Kokkos::subview(distinct, Kokkos::make_pair(std::uint64_t(0), sigma));
    a.map.sigma = sigma;
    a.map.bits = bit_width(sigma > 0 ? sigma - 1 : 0);
  }
  a.sigma = a.map.sigma;
  return a;
}

/// The alphabet of a file: \p sigma codes, through the ascending \p symbols when \p dense (a
/// minimal alphabet), else the symbols themselves. Waits.
template <class MemorySpace, class ExecSpace>
WaveletAlphabet<MemorySpace> wavelet_alphabet_from_symbols(const ExecSpace& exec, const std::vector<std::uint64_t>& symbols,
                                                           std::uint64_t sigma, bool dense, const char* who) {
  WaveletAlphabet<MemorySpace> a;
  a.sigma = sigma;
  a.dense = dense;
  if (!dense) return a;
  if (!symbols.empty() && symbols.back() >= max_code_table) {
    // Found by binary search, as wavelet_alphabet() leaves them.
    auto h_symbols = Kokkos::View<std::uint32_t*, Kokkos::HostSpace>("ktext::wavelet::host_symbols", symbols.size());
    for (std::size_t k = 0; k < symbols.size(); ++k) h_symbols(k) = std::uint32_t(symbols[k]);
    const auto d_symbols = uninitialized_view<std::uint32_t, MemorySpace>(exec, "ktext::wavelet::symbols", symbols.size());
    Kokkos::deep_copy(exec, d_symbols, h_symbols);
    exec.fence("ktext::wavelet::symbols");
    a.map.symbols = d_symbols;
    a.map.sigma = sigma;
    a.map.bits = bit_width(sigma > 0 ? sigma - 1 : 0);
    return a;
  }
  const std::uint64_t table = symbols.empty() ? 0 : symbols.back() + 1;
  auto h_counts = Kokkos::View<std::uint64_t*, Kokkos::HostSpace>("ktext::wavelet::host_symbols", table);
  for (const std::uint64_t s : symbols) h_counts(s) = 1;
  const auto counts = uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::wavelet::symbols", table);
  Kokkos::deep_copy(exec, counts, h_counts);
  a.map = alphabet_from_counts<MemorySpace>(exec, counts, who, true);
  exec.fence("ktext::wavelet::symbols");
  return a;
}

/// Whether words store their least significant byte first (as every host and GPU ktext runs on).
inline constexpr bool little_endian_memory = little_endian::host_is_little_endian();
/// Where byte \p b of a run of 64-bit words sits in memory, counted from the first word's first
/// byte: byte b holds bits 8b..8b+7 of the run (word b / 8, least significant byte first).
KOKKOS_INLINE_FUNCTION std::uint64_t byte_in_memory(std::uint64_t b) {
  return little_endian_memory ? b : (b & ~std::uint64_t(7)) + (7 - (b & 7));
}

/// The codes of a build, n of type Code, in whole groups of 8 stored as 64-bit words: a thread
/// that works on one group reads it with sizeof(Code) word loads, which GPUs coalesce; single
/// codes are written through a Code pointer into the same memory.
template <class Code, class MemorySpace>
struct PackedCodes {
  static_assert(std::is_unsigned_v<Code> && sizeof(Code) <= 4, "8-, 16- or 32-bit codes");
  static constexpr int per_word = int(8 / sizeof(Code));
  Kokkos::View<std::uint64_t*, MemorySpace> words;  ///< ceil(n / 8) * sizeof(Code) words

  /// Groups of 8 codes covering \p n codes.
  static std::uint64_t groups(std::uint64_t n) { return (n + 7) / 8; }
  template <class ExecSpace>
  PackedCodes(const ExecSpace& exec, const char* label, std::uint64_t n)
      : words(uninitialized_view<std::uint64_t, MemorySpace>(exec, label, groups(n) * sizeof(Code))) {}

  /// The codes as one array (for whole-array primitives such as histogram).
  KOKKOS_INLINE_FUNCTION Code* data() const { return reinterpret_cast<Code*>(words.data()); }
  /// Code \p k of word \p w's codes, in array order.
  KOKKOS_INLINE_FUNCTION static Code unpack(std::uint64_t w, int k) {
    const int slot = little_endian_memory ? k : per_word - 1 - k;
    return Code(w >> (8 * int(sizeof(Code)) * slot));
  }
  KOKKOS_INLINE_FUNCTION static std::uint64_t pack(Code c, int k) {
    const int slot = little_endian_memory ? k : per_word - 1 - k;
    return std::uint64_t(c) << (8 * int(sizeof(Code)) * slot);
  }
  /// The 8 codes of group \p g (codes past n are unspecified).
  KOKKOS_INLINE_FUNCTION void load_group(std::uint64_t g, Code (&c)[8]) const {
    for (int j = 0; j < int(sizeof(Code)); ++j) {
      const std::uint64_t w = words(g * sizeof(Code) + j);
      for (int k = 0; k < per_word; ++k) c[j * per_word + k] = unpack(w, k);
    }
  }
  KOKKOS_INLINE_FUNCTION void store_group(std::uint64_t g, const Code (&c)[8]) const {
    for (int j = 0; j < int(sizeof(Code)); ++j) {
      std::uint64_t w = 0;
      for (int k = 0; k < per_word; ++k) w |= pack(c[j * per_word + k], k);
      words(g * sizeof(Code) + j) = w;
    }
  }
  KOKKOS_INLINE_FUNCTION void store(std::uint64_t i, Code c) const { data()[i] = c; }
};

/// The codes of \p text in text order (type Code), on \p exec.
template <class Code, class MemorySpace, class ExecSpace, class TextView>
PackedCodes<Code, MemorySpace> wavelet_codes(const ExecSpace& exec, const TextView& text,
                                             const WaveletAlphabet<MemorySpace>& alphabet, const char* label) {
  const std::uint64_t n = text.extent(0);
  const PackedCodes<Code, MemorySpace> codes(exec, label, n);
  Kokkos::parallel_for(
      label, impl::Range<ExecSpace>(exec, 0, codes.groups(n)), KOKKOS_LAMBDA(std::uint64_t g) {
        Code c[8];
        for (int k = 0; k < 8; ++k) c[k] = 8 * g + k < n ? Code(alphabet.code(std::uint64_t(text(8 * g + k)))) : Code(0);
        codes.store_group(g, c);
      });
  return codes;
}

/// Writes the bits bit_of(c) of the first \p m codes at bit offset \p offset (a multiple of
/// 512) of \p words (which are zero there), one byte per group of 8 codes, and ones_before(w) =
/// the ones of the level's words before word w (ceil(m / 64) + 1 entries, the last one the
/// total). Returns the level's ones; waits.
template <class ExecSpace, class Code, class MemorySpace, class Words, class Counts, class BitOf>
std::uint64_t write_level(const ExecSpace& exec, const PackedCodes<Code, MemorySpace>& codes, std::uint64_t m,
                          const Words& words, std::uint64_t offset, const Counts& ones_before, const BitOf& bit_of) {
  using Policy = impl::Range<ExecSpace>;
  const std::uint64_t first_word = offset / 64;
  const std::uint64_t level_words = (m + 63) / 64;
  std::uint8_t* const bytes = reinterpret_cast<std::uint8_t*>(words.data() + first_word);
  Kokkos::parallel_for(
      "ktext::wavelet::level_bits", Policy(exec, 0, codes.groups(m)), KOKKOS_LAMBDA(std::uint64_t g) {
        Code c[8];
        codes.load_group(g, c);
        const std::uint64_t left = m - 8 * g;
        unsigned b = 0;
        for (int k = 0; k < 8; ++k) b |= (std::uint64_t(k) < left && bit_of(c[k]) ? 1u : 0u) << k;
        bytes[byte_in_memory(g)] = std::uint8_t(b);
      });
  Kokkos::parallel_for(
      "ktext::wavelet::level_ones", Policy(exec, 0, level_words + 1), KOKKOS_LAMBDA(std::uint64_t w) {
        ones_before(w) = w == level_words ? 0 : std::uint64_t(popcount64(words(first_word + w)));
      });
  const auto head = Kokkos::subview(ones_before, Kokkos::make_pair(std::uint64_t(0), level_words + 1));
  return ktext::exclusive_scan(exec, head, head);
}

/// The stable partition from one level's order into the next. Code i < m, with bit b and r ones
/// of the level before it, goes to base(c, b) + r when b is 1 and to base(c, b) + i - r when
/// b is 0; codes m..n-1 (a tree's ended codes) keep their place. One thread per group of 8
/// codes, with a running count of ones; the two destinations are selected without a branch (a
/// branch on random bits cost the host 3 ns per code). Does not wait.
template <class ExecSpace, class Code, class MemorySpace, class Words, class Counts, class Base>
void partition_level(const ExecSpace& exec, const PackedCodes<Code, MemorySpace>& from,
                     const PackedCodes<Code, MemorySpace>& to, std::uint64_t n, std::uint64_t m, const Words& words,
                     std::uint64_t first_word, const Counts& ones_before, const Base& base, const char* label) {
  Kokkos::parallel_for(
      label, impl::Range<ExecSpace>(exec, 0, from.groups(n)), KOKKOS_LAMBDA(std::uint64_t g) {
        Code c[8];
        from.load_group(g, c);
        const std::uint64_t i0 = 8 * g;
        std::uint64_t r = 0, bits = 0;
        if (i0 < m) {
          const unsigned rem = unsigned(i0 & 63);
          const std::uint64_t word = words(first_word + (i0 >> 6));
          r = ones_before(i0 >> 6) + (rem == 0 ? 0 : std::uint64_t(popcount64(word << (64 - rem))));
          bits = word >> rem;
        }
        const auto dest = [&](int k) {
          const std::uint64_t i = i0 + k, bit = (bits >> k) & 1, right = 0 - bit;
          const std::uint64_t b = base(c[k], bit != 0);
          const std::uint64_t d = ((b + r) & right) | ((b + i - r) & ~right);
          r += bit;
          return d;
        };
        if (i0 + 8 <= m) {
          // Every destination before the first store: a byte store may alias what base() reads,
          // so interleaved, each base() load would wait for the store before it.
          std::uint64_t d[8];
          for (int k = 0; k < 8; ++k) d[k] = dest(k);
          for (int k = 0; k < 8; ++k) to.store(d[k], c[k]);
          return;
        }
        for (int k = 0; k < 8 && i0 + k < n; ++k) {
          if (i0 + k < m)
            to.store(dest(k), c[k]);
          else
            to.store(i0 + k, c[k]);
        }
      });
}

/// Ones of a level in [0, i), from its words and per-word counts.
template <class Words, class Counts>
KOKKOS_INLINE_FUNCTION std::uint64_t level_rank(const Words& words, std::uint64_t first_word, const Counts& ones_before,
                                                std::uint64_t i) {
  const unsigned rem = unsigned(i & 63);
  const std::uint64_t partial = rem == 0 ? 0 : std::uint64_t(popcount64(words(first_word + (i >> 6)) << (64 - rem)));
  return ones_before(i >> 6) + partial;
}

}  // namespace impl
}  // namespace ktext
