// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Prefix doubling with discarding of finished groups (Larsson–Sadakane ranks, the GPU
// formulation of Wang, Baxter and Owens; Deo and Keely), written once against Kokkos views and
// the ktext primitives.
//
// Invariant after each step: SA holds the final suffix of every singleton group; ISA[i] is the
// start position (in SA) of the group of suffix i, i.e. a rank consistent with the order of the
// first h symbols; vals lists the members of unsorted groups, group after group in SA order
// (a group's slots are contiguous, so an entry's slot follows from its group's rank).
//
// Initial step: pack k = 64 / bits(sigma) symbol codes per suffix into a 64-bit key and sort
// stably. The last k-1 suffixes are truncated (padded with code 0, which also stands for a real
// symbol); they enter the sort first, shortest first, so stability puts each before the longer
// suffixes with the same padded key, and each is made a singleton group. The implicit end is
// then smaller than every symbol, including byte 0, as in libdivsufsort.
//
// Round with prefix length h: sort the members of each group by ISA[s+h] (0 when s+h = n, the
// only way a member of an unsorted group reaches the end). New group heads start where the
// group or that key changes; new ranks are a running maximum of head slots. A round runs over
// batches of whole groups (those starting in one stretch of a fourteenth of the unsorted
// entries, a twelfth without the segmented sort) so its scratch stays under 2 bytes per unsorted
// entry, or in longer stretches where scratch already held (DC3's unused output) fits them.
// On hosts a batch whose groups are each at most a thread's share of the stretch (the
// usual case on text) is sorted by one segmented sort whose segments are the groups, each by one
// thread in cache. A batch holding a longer group, and every batch on CUDA, is sorted stably
// by the next rank, then stably by ISA[s]; since groups occupy contiguous slots in the order of
// their ISA value, this sorts inside each group, with only bit_width(n) bits per pass and a
// host radix sort that is parallel for any group shape (a per-segment sort is serial inside one
// segment). The second sort's keys carry a bit saying that an entry ties with the one before it
// (TiedGroupKey), so the next ranks are gathered once per round, not again after it. A group
// larger than a stretch (A^n, short periods) is sorted alone by the next rank, in its own SA
// slots and with one byte-wide digit per pass, so peak memory stays within 15n
// for byte texts and 32-bit indices whatever the input. Below 2^32 symbols positions and ranks
// are held in 32 bits even for a 64-bit output, which is widened from them in place (18n
// instead of 29n).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "ktext/core/allocate.hpp"
#include "ktext/core/alphabet.hpp"
#include "ktext/core/byte_loads.hpp"
#include "ktext/core/footprint.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/core/prefetch.hpp"
#include "ktext/core/range.hpp"
#include "ktext/primitives/gather_scatter.hpp"
#include "ktext/primitives/scan.hpp"
#include "ktext/primitives/segmented_sort.hpp"
#include "ktext/primitives/select.hpp"
#include "ktext/primitives/sort_pairs.hpp"
#include "ktext/suffix/impl/ktext_tile_sort_groups.hpp"
#include "ktext/suffix/suffix_array_types.hpp"

namespace ktext::impl {

/// The suffixes a doubling sorts, numbered 0..count()-1 ("elements"): here every suffix of the
/// text, element p being suffix p.
template <class I>
struct AllSuffixes {
  using Index = I;
  using Position = I;
  static constexpr int step = 1;  ///< a prefix length h moves h / step elements ahead
  I n;                            ///< text length
  KOKKOS_INLINE_FUNCTION I count() const { return n; }
  KOKKOS_INLINE_FUNCTION Position text_length() const { return n; }
  KOKKOS_INLINE_FUNCTION Position position(I p) const { return p; }
  /// The element h symbols after p (h a multiple of step, p not ending within h).
  KOKKOS_INLINE_FUNCTION I ahead(I p, std::uint64_t h) const { return p + I(h); }
  /// Whether suffix p has at most h symbols (h < n).
  KOKKOS_INLINE_FUNCTION bool ends_within(I p, std::uint64_t h) const { return p >= n - I(h); }
  /// Elements whose suffix has at least k symbols, and of those the ones of the first class.
  I untruncated(std::uint64_t k) const { return std::uint64_t(n) >= k ? n - I(k) + 1 : I(0); }
  I untruncated_first_class(std::uint64_t k) const { return untruncated(k); }
  /// The q-th element with at least k symbols, in element order (\p u1: untruncated_first_class).
  KOKKOS_INLINE_FUNCTION I untruncated_element(I q, I /*u1*/) const { return q; }
  /// The element of the j-th longest position: the shortest suffixes first.
  KOKKOS_INLINE_FUNCTION I from_end(I j) const { return n - 1 - j; }
};

/// The difference-cover sample of DC3: the suffixes at positions i mod 3 = 1 (elements
/// [0, n1), position 3p + 1) then i mod 3 = 2 (elements [n1, n1 + n2), position 3(p - n1) + 2).
/// A prefix length that is a multiple of 3 moves an element to another of its class, h / 3
/// further, so doubling from an initial prefix divisible by 3 sorts the sample alone. Positions
/// are 64-bit: a sample of 2^32 - 1 elements covers texts of up to 1.5 (2^32 - 1) symbols.
template <class I>
struct SampleSuffixes {
  using Index = I;
  using Position = std::uint64_t;
  static constexpr int step = 3;
  std::uint64_t n;  ///< text length
  I n1, n2;         ///< elements of the two classes: (n + 1) / 3 and n / 3
  KOKKOS_INLINE_FUNCTION I count() const { return n1 + n2; }
  KOKKOS_INLINE_FUNCTION Position text_length() const { return n; }
  KOKKOS_INLINE_FUNCTION Position position(I p) const {
    return p < n1 ? 3 * std::uint64_t(p) + 1 : 3 * std::uint64_t(p - n1) + 2;
  }
  KOKKOS_INLINE_FUNCTION I ahead(I p, std::uint64_t h) const { return p + I(h / 3); }
  KOKKOS_INLINE_FUNCTION bool ends_within(I p, std::uint64_t h) const { return position(p) + h >= n; }
  /// The element of position \p x (x mod 3 != 0).
  KOKKOS_INLINE_FUNCTION I element(std::uint64_t x) const { return x % 3 == 1 ? I(x / 3) : I(n1 + x / 3); }
  /// Positions x = c (mod 3) with x + k <= n.
  I untruncated_in(std::uint64_t c, std::uint64_t k) const { return n >= k + c ? I((n - k - c) / 3 + 1) : I(0); }
  I untruncated(std::uint64_t k) const { return untruncated_in(1, k) + untruncated_in(2, k); }
  I untruncated_first_class(std::uint64_t k) const { return untruncated_in(1, k); }
  KOKKOS_INLINE_FUNCTION I untruncated_element(I q, I u1) const { return q < u1 ? q : n1 + (q - u1); }
  /// The j-th largest sample position, for the few (under 64) truncated ones.
  KOKKOS_INLINE_FUNCTION I from_end(I j) const {
    std::uint64_t x = n - 1;
    for (;; --x)
      if (x % 3 != 0 && j-- == 0) return element(x);
  }
};

template <class ExecSpace, class Text, class Layout>
struct PackedKey {
  using I = typename Layout::Index;
  using P = typename Layout::Position;
  Text text;
  AlphabetMap<typename ExecSpace::memory_space> alphabet;
  Layout layout;
  int per_key;  // codes per key: 64 / alphabet.bits (a multiple of 3 for the sample) per 64-bit word
  static constexpr bool byte_text = sizeof(typename Text::non_const_value_type) == 1;
  /// The symbols of a key that piece() reads for bits [shift, shift + width) (width at most 32),
  /// the same for every element: worked out once per kernel, where dividing by the code width
  /// per element made the first piece's kernel bound by instructions.
  struct PieceReads {
    int width = 0;                 ///< of the piece, in bits
    int t_first = 0, t_last = -1;  ///< the first and last symbol read
    int at_first = 0;              ///< where in the piece symbol t_first's code starts: in (-b, width)
  };
  PieceReads piece_reads(int shift, int width) const {
    const int k = per_key, b = alphabet.bits;
    const int t = k - 1 - (shift + width - 1) / b;
    PieceReads r;
    r.width = width;
    r.t_first = t > 0 ? t : 0;
    r.t_last = k - 1 - shift / b;
    r.at_first = (k - 1 - r.t_first) * b - shift;
    return r;
  }
  /// Asks for symbol \p t of element v(j + prefetch_distance) ahead of its read.
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION void prefetch(const V& v, std::uint64_t j, int t = 0) const {
    if (prefetch_distance >= v.extent(0) - j) return;
    const std::uint64_t at = std::uint64_t(layout.position(v(j + prefetch_distance))) + std::uint64_t(t);
    if (at < text.extent(0)) ktext::impl::prefetch(text.data() + at);
  }
  /// Bits [shift, shift + width) of the packed key of element p (the bits above width 0), for
  /// \p r = piece_reads(shift, width). Symbol t occupies bits [(k-1-t) b, (k-1-t) b + b) of a key
  /// of k b bits, which may exceed 64; only the symbols overlapping the piece are read (3 of 9
  /// for source code in 16 bits, 16 of 64 for a unary text, instead of all k per piece), each
  /// shifted to its place in the piece: the lowest one may start below it, the highest end
  /// above it. One byte load per symbol: loads with no early exit are all in flight at once,
  /// and reading eight bytes at a time (load_bytes8) made this kernel slower on an H200 (xml's
  /// first piece 291 -> 370 us: more instructions where it is bound by them).
  template <class Piece>
  KOKKOS_INLINE_FUNCTION Piece piece(I p, const PieceReads& r) const {
    const int b = alphabet.bits;
    const P i = layout.position(p), n = layout.text_length();
    std::uint64_t acc = 0;
    int at = r.at_first;
    for (int t = r.t_first; t <= r.t_last; ++t, at -= b) {  // P(t) < n - i: no overflow near 2^31
      const std::uint64_t code = P(t) < n - i ? alphabet(text(i + t)) : 0;
      acc |= at >= 0 ? code << at : code >> -at;
    }
    return static_cast<Piece>(r.width < 64 ? acc & ((std::uint64_t(1) << r.width) - 1) : acc);
  }
  /// Whether elements a and b agree on their first k symbols (neither truncated), given that
  /// they agree on the first \p from. Equal codes mean equal symbols, so the raw symbols are
  /// compared, stopping at the first difference: eight bytes at a time in byte texts, where a
  /// loop that exits early waits for each load before the next (the initial heads of xml's 33 M
  /// sample suffixes took 1.17 ms with a byte a load and 0.50 ms so on an H200).
  KOKKOS_INLINE_FUNCTION bool same_prefix(I a, I b, int from = 0) const {
    const P x = layout.position(a), y = layout.position(b);
    if constexpr (byte_text) {
      for (int t = from; t < per_key; t += 8) {
        const std::uint64_t differ = load_bytes8(text.data(), text.extent(0), std::uint64_t(x) + std::uint64_t(t)) ^
                                     load_bytes8(text.data(), text.extent(0), std::uint64_t(y) + std::uint64_t(t));
        const int left = per_key - t;
        if ((left >= 8 ? differ : differ & ((std::uint64_t(1) << (8 * left)) - 1)) != 0) return false;
      }
    } else {
      for (int t = from; t < per_key; ++t)
        if (text(x + t) != text(y + t)) return false;
    }
    return true;
  }
  KOKKOS_INLINE_FUNCTION bool truncated(I p) const {
    return std::uint64_t(layout.position(p)) + std::uint64_t(per_key) > std::uint64_t(layout.text_length());
  }
  /// Whether elements a and b are in one group after the initial sort (truncated ones never are).
  /// \p from: symbols they are known to agree on, if neither is truncated.
  KOKKOS_INLINE_FUNCTION bool same_group(I a, I b, int from = 0) const {
    return !truncated(a) && !truncated(b) && same_prefix(a, b, from);
  }
  /// A hash of element p's key, for keys of one word (per_key b <= 64): the packed word mixed
  /// (splitmix64's finalizer), so that equal keys hash alike and others spread.
  KOKKOS_INLINE_FUNCTION std::uint64_t word_hash(I p) const {
    const int k = per_key, b = alphabet.bits;
    const P i = layout.position(p), n = layout.text_length();
    std::uint64_t h = 0;
    for (int t = 0; t < k; ++t) {
      const std::uint64_t code = P(t) < n - i ? alphabet(text(i + t)) : 0;
      h |= code << ((k - 1 - t) * b);
    }
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
  }
};

/// A relaxed load of a word whose bits other threads may be setting: a plain load on devices
/// (Kokkos::atomic_load is desul's fetch-op there, a compare-and-swap loop), __atomic_load_n
/// on hosts. A stale zero only costs the caller an atomic it could have skipped.
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t relaxed_load(const std::uint32_t* p) {
  KOKKOS_IF_ON_DEVICE((return *static_cast<const volatile std::uint32_t*>(p);))
  KOKKOS_IF_ON_HOST((return __atomic_load_n(p, __ATOMIC_RELAXED);))
}

/// Linear counting of the distinct one-word keys of sampled elements: sample s, element
/// (s / run) spacing + s % run (runs of \p run elements, \p spacing apart), sets the bit of
/// \p marks (2^(64 - shift) bits, 32 a word) that its key's hash picks, where the hash's low
/// bits under \p thin_mask are 0 (a share of the key values, so that a key's every copy counts
/// or none does). The bit is read first: text repeats its words, and the atomics of one
/// word's copies on one address queue behind each other (initial_key_words_thin).
template <class Key, class Marks>
struct MarkWordHash {
  Key key;
  Marks marks;
  int shift;
  std::uint64_t run, spacing, thin_mask;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t s) const {
    const std::uint64_t e = s / run * spacing + s % run;
    const std::uint64_t hash = key.word_hash(static_cast<typename Key::I>(e));
    if (hash & thin_mask) return;
    const std::uint64_t bit = hash >> shift;
    const std::uint32_t mask = std::uint32_t(1) << (bit % 32);
    std::uint32_t* word = &marks(bit / 32);
    if ((relaxed_load(word) & mask) == 0) Kokkos::atomic_or(word, mask);
  }
};

/// Elements from which the initial key's estimates start (initial_key_words, initial_top_only).
inline constexpr std::uint64_t initial_key_estimate_min = std::uint64_t(1) << 20;
/// The runs of InitialKeyPart::automatic's estimate of the distinct top pieces, and the bits of
/// its bitmap per element read (as 2^log): 64 runs of 2^15 elements, evenly spread (runs keep
/// the repeats of nearby text), in 2^26 bits, so that linear counting sees the few hundred
/// repeats among them of tops drawn from 2^32 values (2^42 / 2^33 = 512) with a standard error
/// of about 180. Reading every element took 0.3-1 ms of atomics on an H200 at 16-67 M elements.
inline constexpr std::uint64_t initial_top_estimate_runs = 64;
inline constexpr std::uint64_t initial_top_estimate_run = std::uint64_t(1) << 15;
inline constexpr int initial_top_estimate_sparsity = 5;

/// Distinct one-word keys among \p runs evenly spread runs of \p run consecutive elements of
/// the \p n of \p first_word (all n where runs * run >= n, or run = 0), estimated by linear
/// counting (Whang, Vander-Zanden and Taylor 1990): a bitmap of B bits, 2^sparsity per element
/// counted rounded up to a power of two (fewer where \p room, as many entries of I as elements
/// and unused meanwhile, holds fewer), set by each key's hash; the estimate is -B ln(unset / B)
/// (standard error sqrt(B (e^t - t - 1)) for t = distinct / B). With \p thin > 0 only the keys
/// whose hash has its low \p thin bits 0 are counted, 1 in 2^thin of the key values with every
/// copy of each, and the estimate is scaled by 2^thin (a binomial error of about
/// sqrt(2^thin distinct) more). One pass over their keys and one wait for the count; infinity
/// where every bit is set. \p read receives the elements read.
template <class ExecSpace, class Key, class I>
double distinct_words_estimate(const ExecSpace& exec, const Key& first_word, I n, const Unmanaged<I, ExecSpace>& room,
                               std::uint64_t runs = 1, std::uint64_t run = 0, int sparsity = 0,
                               std::uint64_t* read = nullptr, int thin = 0) {
  // \p runs runs of \p run elements, n / runs apart; one run of all n where they would cover n.
  if (runs == 0 || run == 0 || run > std::uint64_t(n) / runs) {
    runs = 1;
    run = std::uint64_t(n);
  }
  const std::uint64_t samples = run * runs, spacing = std::uint64_t(n) / runs;
  if (read) *read = samples;
  if (samples == 0) return 0;
  // 2^log_bits >= 2^sparsity per element counted, 2 words at least, within the room.
  const std::uint64_t counted = std::max<std::uint64_t>(1, samples >> thin);
  const int room_log = bit_width(std::uint64_t(room.extent(0)) * sizeof(I) * 8) - 1;
  const int log_bits = std::max(6, std::min(bit_width(counted - 1) + sparsity, room_log));
  const std::size_t words = std::size_t(1) << (log_bits - 5);
  if (room.extent(0) * sizeof(I) < words * sizeof(std::uint32_t))
    throw Error("ktext::suffix_array: internal error, no room to count the first words");
  const Unmanaged<std::uint32_t, ExecSpace> marks(reinterpret_cast<std::uint32_t*>(room.data()), words);
  Kokkos::parallel_for(
      "ktext::suffix_array::word_marks_clear", Range<ExecSpace>(exec, 0, words),
      KOKKOS_LAMBDA(std::size_t w) { marks(w) = 0; });
  const std::uint64_t thin_mask = (std::uint64_t(1) << thin) - 1;
  Kokkos::parallel_for("ktext::suffix_array::word_marks", Range<ExecSpace>(exec, 0, std::size_t(samples)),
                       MarkWordHash<Key, decltype(marks)>{first_word, marks, 64 - log_bits, run, spacing, thin_mask});
  std::uint64_t set = 0;
  Kokkos::parallel_reduce(
      "ktext::suffix_array::word_marks_count", Range<ExecSpace>(exec, 0, words / 2),
      KOKKOS_LAMBDA(std::size_t w, std::uint64_t & c) {
        c += std::uint64_t(popcount64((std::uint64_t(marks(2 * w + 1)) << 32) | marks(2 * w)));
      },
      set);  // waits
  const double bits = std::ldexp(1.0, log_bits);
  if (double(set) >= bits) return std::numeric_limits<double>::infinity();
  return -std::ldexp(bits, thin) * std::log1p(-double(set) / bits);
}

/// The share of the key values that initial_key_words counts, as 2^-thin: it reads every
/// element. Counting all 33 M sample suffixes of 50 MB of xml, each with Kokkos::atomic_load
/// (a compare-and-swap loop on CUDA) and then an atomic where the bit was unset, its kernel took
/// about 1.64 ms on an H200; with a plain read first and 1 in 16 counted, 0.32 ms, and
/// `ktext bwt` 20.78 ms against 21.51 with one atomic each (perf/README, 2026-11-28). At the
/// decision's threshold, 2 in 5 of n >= 2^20, 1 in 16 counts 26 K values or more: a binomial
/// error under 1%.
inline constexpr int initial_key_words_thin = 4;

/// 64-bit words of the initial sort's keys (SuffixArrayOptions::initial_key_words) for the
/// \p n elements of \p first_word, a one-word key of \p word_bits bits: 2 where the second word
/// costs the LSD sort of 32-bit pieces one piece more (words of 48 bits or less: 8-bit codes,
/// 6 a word for DC3, and codes of 11 to 16 bits, 3 a word) and fewer than 2 in 5 of the first
/// words are distinct (distinct_words_estimate over every element, in \p room: a sample of runs
/// would miss the repeats of a versioned collection, whose copies lie megabytes apart; 1 in 16
/// of the word values counted, with all their copies). Where
/// the first word leaves most elements in groups, the first doubling round sorts nearly all of
/// them by a gathered rank, twice, and scatters their ranks: on an H200 that round took 5.75 ms
/// for 50 MB of xml (32.7 M of its 33.3 M sample suffixes in 1 M groups after 6 symbols) where
/// the third piece took about 3; for source code and english (7-bit codes, 9 symbols a word)
/// two pieces more took as long as the round saved (4.2 and 3.9 ms against 5.3 and 4.3;
/// perf/README, 2026-11-28). One word on hosts unless set: there the first round of xml costs
/// less than the second word (2 threads, 50 MB: 7.4-7.6 s in all against 7.9-8.0).
template <class ExecSpace, class Key, class I>
int initial_key_words(const ExecSpace& exec, const SuffixArrayOptions& options, const Key& first_word, int word_bits,
                      I n, const Unmanaged<I, ExecSpace>& room) {
  if (options.initial_key_words != 0) return options.initial_key_words >= 2 ? 2 : 1;
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible) return 1;
  if (std::uint64_t(n) < initial_key_estimate_min || (2 * word_bits + 31) / 32 > (word_bits + 31) / 32 + 1) return 1;
  return distinct_words_estimate(exec, first_word, n, room, 1, 0, 0, nullptr, initial_key_words_thin) <
                 0.4 * double(std::uint64_t(n))
             ? 2
             : 1;
}

/// Whether the initial sort compares only the top 32 bits of its keys
/// (SuffixArrayOptions::initial_key_part) for the \p n elements of \p top_word, a key of the
/// symbols those bits hold in full (\p top_word.per_key), where a key of one word takes two
/// pieces. Automatic: where the estimated share of elements whose top is another's is under a
/// half. Linear counting over initial_top_estimate_runs runs of initial_top_estimate_run
/// elements (in \p room) finds d distinct tops among s; for tops drawn uniformly from D values,
/// s - d is about s^2 / 2D, and an element shares its top with another with probability
/// 1 - e^(-n/D): under a half where n / D = 2 n (s - d) / s^2 < ln 2. On an H200 (perf/README,
/// 2026-11-28) the top alone took 13.1-13.3 ms for 100 MB of random bytes (3 bytes, then one
/// round over about 1.5% of the sample) against 17.2-17.3 with the whole key, and 37.7 ms for
/// 256 MiB of random letters of 26 (6 letters, about 44% of the sample left in groups) against
/// 43.2, and 35.5 ms for 256 MiB of random ACGT (about 4% in groups) against 45.7: the round
/// costs about 11 ms more per 100% of such a sample in groups, and spares about 10. Real text
/// repeats its tops far more often and keeps the whole key.
template <class ExecSpace, class Key, class I>
bool initial_top_only(const ExecSpace& exec, const SuffixArrayOptions& options, const Key& top_word, I n,
                      const Unmanaged<I, ExecSpace>& room) {
  if (options.initial_key_part != InitialKeyPart::automatic) return options.initial_key_part == InitialKeyPart::top;
  if (std::uint64_t(n) < initial_key_estimate_min) return false;
  std::uint64_t read = 0;
  const double distinct = distinct_words_estimate(exec, top_word, n, room, initial_top_estimate_runs,
                                                  initial_top_estimate_run, initial_top_estimate_sparsity, &read);
  const double s = double(read), repeats = std::max(0.0, s - distinct);
  return 2.0 * double(std::uint64_t(n)) * repeats < std::log(2.0) * s * s;
}

/// keys(j) = bits [shift, shift + width) of the packed key of element order(j).
template <class Key, class Order, class Keys>
struct InitialKeyPiece {
  using Piece = typename Keys::non_const_value_type;
  Key key;
  Order order;
  Keys keys;
  typename Key::PieceReads reads;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t j) const {
    key.prefetch(order, j, reads.t_first);
    keys(j) = key.template piece<Piece>(order(j), reads);
  }
};

/// Sorts \p order stably by bits [\p low_bit, \p key_bits) of its elements' packed keys: LSD
/// over pieces of Piece's width in \p keys_a and \p keys_b (\p order's length each), \p order_tmp
/// the other value buffer. The first piece reads the text in element order; each later one gathers
/// it at random in the order so far, so wider pieces read the text fewer times. The narrower
/// piece, if any, goes first, so that the last one holds Piece's width of the keys' top bits.
/// Returns the buffer that holds those, in \p order's sorted order.
template <class Piece, class ExecSpace, class Key, class I>
Piece* sort_by_key_pieces(const ExecSpace& exec, const Key& key, const Unmanaged<I, ExecSpace>& order,
                          const Unmanaged<I, ExecSpace>& order_tmp, Piece* keys_a, Piece* keys_b, int key_bits,
                          int low_bit = 0) {
  using U = Unmanaged<I, ExecSpace>;
  using P = Unmanaged<Piece, ExecSpace>;
  constexpr int width = int(8 * sizeof(Piece));
  const std::size_t n = order.extent(0);
  P keys(keys_a, n), keys_tmp(keys_b, n);
  U vals = order, vals_tmp = order_tmp;
  const int sorted_bits = key_bits - low_bit, pieces = (sorted_bits + width - 1) / width;
  // The widest piece's sort needs the most storage: readied before the first piece's.
  reserve_sort_pairs<Piece, I>(exec, n, width);
  for (int p = 0, shift = low_bit; p < pieces; ++p) {
    const int bits = p == 0 ? sorted_bits - width * (pieces - 1) : width;
    Kokkos::parallel_for("ktext::suffix_array::initial_keys", Range<ExecSpace>(exec, 0, n),
                         InitialKeyPiece<Key, U, P>{key, vals, keys, key.piece_reads(shift, bits)});
    if (sort_pairs_in_either(exec, keys, vals, keys_tmp, vals_tmp, 0, bits)) {
      std::swap(keys, keys_tmp);
      std::swap(vals, vals_tmp);
    }
    shift += bits;
  }
  if (vals.data() != order.data()) Kokkos::deep_copy(exec, order, vals);
  return keys.data();
}

/// Window of the initial ranks' scatter unless SuffixArrayOptions::scatter_window says:
/// ktext::cache_window where the \p elements' ranks take at most 6 windows, else 0 (one pass).
/// Each window reads the order and the ranks again. On an H100 (ncu, 2026-11-25) the initial
/// ranks of 50 MB of source code (33.3 M sample suffixes, 6 windows) took 1.56 ms instead of 2.1
/// in one pass, and of 25 MB of proteins (3 windows) 0.55 instead of 0.98; those of 100 MB of
/// random bytes (11 windows) took 5.2 ms instead of 4.9 (perf/README).
template <class I, class ExecSpace>
std::size_t default_scatter_window(const ExecSpace& exec, std::size_t elements) {
  const std::size_t window = ktext::cache_window<I>(exec);
  return window > 0 && elements / 6 <= window ? window : 0;
}

/// Bits of the initial ranks' partition (ktext::scatter_partitioned) unless
/// SuffixArrayOptions::scatter_parts says: 8 where the \p elements' ranks take more than one
/// ktext::cache_window, else 0 (none). On an H100 the partition took 0.45 ms where windows took
/// 0.43 for 16.7 M ranks and 0.85 ms for 33.3 M, where windows took 0.98 (perf/README,
/// 2026-11-26).
template <class I, class ExecSpace>
int scatter_partition_bits(const ExecSpace& exec, std::size_t elements, std::size_t parts) {
  if (parts == 0) {
    const std::size_t window = ktext::cache_window<I>(exec);
    return window > 0 && elements > window ? 8 : 0;
  }
  return parts >= 256 ? 8 : parts <= 1 ? 0 : bit_width(std::uint64_t(parts - 1));
}

/// Running maximum of indices (0 is the identity: indices are non-negative).
template <class I>
struct MaxIndex {
  KOKKOS_INLINE_FUNCTION I identity() const { return I(0); }
  KOKKOS_INLINE_FUNCTION I operator()(I a, I b) const { return a < b ? b : a; }
};

/// Flags the heads of sorted entries \p v: head(j) = 1 where entry j starts a group, that is
/// where \p same says it differs from entry j - 1. Flags are written once, so the scan for the
/// ranks and the singleton tests that follow read bytes in order instead of comparing text or
/// ranks at random places again (a host scan evaluates its input twice).
template <class Same, class V, class Bytes, class I>
struct FlagHeads {
  Same same;
  V v;
  Bytes head;
  KOKKOS_INLINE_FUNCTION void operator()(I j) const {
    same.prefetch(v, j);
    head(j) = j == 0 || !same.same_group(v(j - 1), v(j)) ? 1 : 0;
  }
};
/// FlagHeads after the initial sort, with \p top the sorted keys' top bits: entries that differ
/// there start a group without reading the text, and only those that agree prefetch it. On
/// random bytes nearly every entry differs in its first 4 symbols: on an H100, 100 MB of them took
/// 19.4-19.6 ms instead of 21.2-21.7 (DC3, suffix array); english, xml and a versioned
/// collection showed nothing beyond the spread (perf/README, 2026-11-26).
template <class Key, class V, class Top, class Bytes, class I>
struct FlagHeadsByTop {
  Key key;
  V v;
  Top top;
  Bytes head;
  int top_symbols;  ///< leading symbols the top bits hold whole: equal where the tops are
  KOKKOS_INLINE_FUNCTION void operator()(I j) const {
    const std::uint64_t ahead = std::uint64_t(j) + prefetch_distance;
    if (ahead < v.extent(0) && top(ahead) == top(ahead - 1)) key.prefetch(v, j);
    head(j) = j == 0 || top(j) != top(j - 1) || !key.same_group(v(j - 1), v(j), top_symbols) ? 1 : 0;
  }
};
/// The running maximum of head indices is each suffix's rank, scattered to ISA.
template <class SA, class ISA, class I>
struct WriteInitialRank {
  SA sa;
  ISA isa;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j, I rank) const {
    prefetch_gather(isa, sa, j);
    isa(sa(j)) = rank;
  }
};
/// The same ranks in sorted order, for ktext::scatter in windows.
template <class Ranks, class I>
struct StoreInitialRank {
  Ranks ranks;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j, I rank) const { ranks(j) = rank; }
};

/// Key of the first doubling pass: rank of the suffix h further on, 0 for the end.
template <class ISA, class Layout, class K>
struct NextRank {
  using I = typename Layout::Index;
  ISA isa;
  Layout layout;
  std::uint64_t h;
  KOKKOS_INLINE_FUNCTION K operator()(I s) const { return layout.ends_within(s, h) ? K(0) : K(isa(layout.ahead(s, h))) + 1; }
  /// Asks for what the next rank of entry j + prefetch_distance of \p v reads.
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION void prefetch(const V& v, std::uint64_t j) const {
    prefetch_gather(isa, v, j, h / Layout::step);
  }
};
/// Group rank (first SA slot) of a suffix less \p low, the least in its batch, shaped like
/// NextRank: a batch's sort by group then only sorts the bits its span of ranks needs.
template <class ISA, class I, class K>
struct GroupRank {
  ISA isa;
  I low = 0;
  KOKKOS_INLINE_FUNCTION K operator()(I s) const { return K(isa(s) - low); }
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION void prefetch(const V& v, std::uint64_t j) const {
    prefetch_gather(isa, v, j);
  }
};

/// out(j) = rank(v(j)) for a GroupRank or NextRank \p rank. Where \p back is set (group ranks
/// only), entry j - back[j] is in entry j's group (group_back) and its rank, the same, is read
/// instead: a group's members read one place per run of 256 where each read its own, and only
/// the runs' first entries are asked for ahead (the hosts' segmented rounds; the tiles read them
/// so in GatherGroupAndNext).
template <class Rank, class V, class Out>
struct GatherRank {
  Rank rank;
  V v;
  Out out;
  const std::uint8_t* back = nullptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t j) const {
    if (!back) {
      rank.prefetch(v, j);
      out(j) = rank(v(j));
      return;
    }
    if (prefetch_distance < v.extent(0) - j && back[j + prefetch_distance] == 0) rank.prefetch(v, j);
    out(j) = rank(v(j - back[j]));
  }
};
/// Key of a batch's sort by group after its sort by next rank (\p next, sorted, \p v alongside):
/// the group rank less \p low, shifted past a tie bit. The bit says that entry k has the group
/// and the next rank of entry k - 1. The batch was in group order and the sort by next rank is
/// stable, so entries tied in both are adjacent, and the stable sort by group (which skips the
/// bit) keeps them adjacent: after it the bit says whether an entry has the next rank of the one
/// before it in its group, all the round's scan needs of the next ranks (TiedRoundGroups).
template <class ISA, class V, class Keys, class I>
struct TiedGroupKey {
  ISA isa;
  V v;
  Keys next, out;
  I low;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t k) const {
    using K = typename Keys::non_const_value_type;
    prefetch_gather(isa, v, k);
    const I g = isa(v(k));
    // The entry before is read only when the next ranks tie; it is the neighbour's gather.
    const bool tie = k > 0 && next(k) == next(k - 1) && isa(v(k - 1)) == g;
    out(k) = (K(g - low) << 1) | K(tie ? 1 : 0);
  }
};

/// Round step, after the two sorts: g[j] = ISA of the j-th active suffix (its group's first SA
/// slot) less the batch's least rank, r[j] = its next rank. Entry j sits in slot g[j] + (j -
/// start) where start is the first active index of its group; its new group begins at the last
/// index `head` <= j where g or r changes, so its new rank is g[j] + (head - start). Both
/// indices are running maxima of one scan, so no slot array is kept between rounds. ISA and SA
/// are only written by the scan's consumer; g and r were gathered before, so the writes race
/// with no read.
template <class Keys, class I>
struct RoundGroups {
  Keys g, r;
  I m;
  KOKKOS_INLINE_FUNCTION I rank(I j) const { return static_cast<I>(g(j)); }
  KOKKOS_INLINE_FUNCTION bool group_starts(I j) const { return j == 0 || g(j) != g(j - 1); }
  KOKKOS_INLINE_FUNCTION bool head(I j) const { return group_starts(j) || r(j) != r(j - 1); }
  KOKKOS_INLINE_FUNCTION bool singleton(I j) const { return head(j) && (j + 1 == m || head(j + 1)); }
};
/// RoundGroups from one key per entry, (g[j] << 1) | tie, where tie says that the entry has the
/// next rank of the entry before it in its group (TiedGroupKey): the next ranks need not be
/// gathered again after the sort by group.
template <class Keys, class I>
struct TiedRoundGroups {
  Keys key;
  I m;
  KOKKOS_INLINE_FUNCTION I rank(I j) const { return static_cast<I>(key(j) >> 1); }
  KOKKOS_INLINE_FUNCTION bool group_starts(I j) const { return j == 0 || (key(j) >> 1) != (key(j - 1) >> 1); }
  KOKKOS_INLINE_FUNCTION bool head(I j) const { return group_starts(j) || (key(j) & 1) == 0; }
  KOKKOS_INLINE_FUNCTION bool singleton(I j) const { return head(j) && (j + 1 == m || head(j + 1)); }
};
template <class I>
struct StartHead {
  I start, head;
  I kept;  // entries up to here that stay unsorted
};
/// Running maxima of the group start and head, running sum of the kept entries.
template <class I>
struct JoinRoundMarks {
  KOKKOS_INLINE_FUNCTION StartHead<I> identity() const { return {0, 0, 0}; }
  KOKKOS_INLINE_FUNCTION StartHead<I> operator()(const StartHead<I>& a, const StartHead<I>& b) const {
    return {a.start < b.start ? b.start : a.start, a.head < b.head ? b.head : a.head, I(a.kept + b.kept)};
  }
};
template <class Groups, class I>
struct RoundMarks {
  Groups groups;
  KOKKOS_INLINE_FUNCTION StartHead<I> operator()(std::size_t jj) const {
    const I j = static_cast<I>(jj);
    return {groups.group_starts(j) ? j : I(0), groups.head(j) ? j : I(0), groups.singleton(j) ? I(0) : I(1)};
  }
};
/// Where a kept entry finds a member of its group that reads the group's rank for it
/// (GatherGroupAndNext): \p distance back (from the group's first entry) modulo 256, the start
/// of its run of 256 in the group. One byte per entry, and a group of any size reads a place per
/// 256 entries.
KOKKOS_FORCEINLINE_FUNCTION std::uint8_t group_back(std::uint64_t distance) { return std::uint8_t(distance & 255); }

/// Adds a group of \p size entries from \p first in the next round's list to the longer groups'
/// counts (\p counts: their entries, then their count) and, among the first \p capacity, to
/// \p list as a pair.
template <class I>
KOKKOS_INLINE_FUNCTION void list_long_group(I* counts, I* list, I capacity, I first, I size) {
  Kokkos::atomic_add(counts, size);
  const I listed = Kokkos::atomic_fetch_add(counts + 1, I(1));
  if (listed < capacity) {
    list[2 * std::size_t(listed)] = first;
    list[2 * std::size_t(listed) + 1] = size;
  }
}

/// The scan's consumer: entry j's new rank, its final SA slot if it became a singleton, else its
/// place among the kept entries (the compaction for the next round, in the same pass). The
/// batch's kept entries go to kept_out from kept(batch) on, or from 0 when \p staged (copied
/// there after: CopyStaged), and the last entry writes kept(batch + 1): where the next batch's
/// go. The counts stay on the device, so the host queues a round's batches without waiting for
/// each one's count: one wait per round instead of one per batch. Where \p long_groups is set,
/// the last entry of each new group longer than \p long_limit adds the group's size to its
/// entry 0 and counts the group in its entry 1, and the first \p long_capacity such groups list
/// their place in the next round's entries and their size in \p long_list, as pairs: the next
/// round sorts in tiles where no group is longer, and sorts the listed ones apart
/// (tile_sort_groups, sort_long_groups). Where \p back is set, each kept entry's place in the
/// list there also receives its group_back.
template <class Groups, class Vals, class ISA, class SA, class I>
struct WriteRoundRank {
  Groups groups;
  Vals vals;
  ISA isa;
  SA sa;
  Vals kept_out;
  Vals kept;
  I batch;
  bool staged;
  I low;  // what the group ranks g are relative to
  I* long_groups = nullptr;
  I* long_list = nullptr;
  I long_limit = 0;
  I long_capacity = 0;
  std::uint8_t* back = nullptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t jj, const StartHead<I>& at) const {
    const I j = static_cast<I>(jj);
    const I base = groups.rank(j) + low - at.start;
    prefetch_gather(isa, vals, j);
    const I s = vals(j);
    // The first part of each group keeps the group's rank, which ISA already holds: no scattered
    // write for it (most entries of a group that does not split, as in versioned collections).
    if (at.head != at.start) isa(s) = base + at.head;
    const I listed = kept(batch) + at.kept;  // the batch's kept entries so far end there in the list
    if (groups.singleton(j)) {
      sa(base + j) = typename SA::value_type(s);
    } else {
      kept_out((staged ? at.kept : listed) - 1) = s;
      // The new group's entries are all kept, together and in this order.
      if (back) back[listed - 1] = group_back(j - at.head);
    }
    if (j + 1 == groups.m) kept(batch + 1) = listed;
    if (long_groups && j - at.head >= long_limit && (j + 1 == groups.m || groups.head(j + 1))) {
      const I size = j + 1 - at.head;  // all kept: the group's entries are the last `size` kept so far
      list_long_group(long_groups, long_list, long_capacity, I(listed - size), size);
    }
  }
};
/// The initial sort's groups, from their heads, shaped like RoundGroups for RoundMarks: no next
/// rank splits them, so a group's head is its start.
template <class Flags, class I>
struct InitialGroups {
  Flags flags;
  I n;
  KOKKOS_INLINE_FUNCTION bool group_starts(I j) const { return j == 0 || flags(j); }
  KOKKOS_INLINE_FUNCTION bool head(I j) const { return group_starts(j); }
  KOKKOS_INLINE_FUNCTION bool last(I j) const { return j + 1 == n || flags(j + 1); }
  KOKKOS_INLINE_FUNCTION bool singleton(I j) const { return group_starts(j) && last(j); }
};
/// The scan's consumer where the initial sort's longer groups are listed for the first round
/// (what select_by_index does otherwise): each kept element's suffix to its place in \p vals,
/// its group_back where \p back is set, and each group longer than \p long_limit listed as
/// WriteRoundRank lists them.
template <class Flags, class Order, class Vals, class I>
struct InitialKept {
  InitialGroups<Flags, I> groups;
  Order order;
  Vals vals;
  std::uint8_t* back;
  I* long_groups;
  I* long_list;
  I long_limit, long_capacity;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t jj, const StartHead<I>& at) const {
    const I j = static_cast<I>(jj);
    if (groups.singleton(j)) return;
    vals(at.kept - 1) = order(j);
    if (back) back[at.kept - 1] = group_back(j - at.start);
    if (j - at.start >= long_limit && groups.last(j)) {
      const I size = j + 1 - at.start;
      list_long_group(long_groups, long_list, long_capacity, I(at.kept - size), size);
    }
  }
};

/// Moves a batch's kept entries from the scratch to their place in the list (WriteRoundRank).
template <class Vals, class I>
struct CopyStaged {
  Vals from, to, kept;
  I batch;
  KOKKOS_INLINE_FUNCTION void operator()(I i) const {
    const I at = kept(batch);
    if (i < kept(batch + 1) - at) to(at + i) = from(i);
  }
};
/// kept(0) = 0, once per allocation of the counts: no batch writes entry 0.
template <class Vals, class I>
struct StartKept {
  Vals kept;
  KOKKOS_INLINE_FUNCTION void operator()(I) const { kept(0) = 0; }
};
/// kept(batch + 1) = kept(batch) + count, for a batch sorted apart.
template <class Vals, class I>
struct AddKept {
  Vals kept;
  I batch, count;
  KOKKOS_INLINE_FUNCTION void operator()(I) const { kept(batch + 1) = kept(batch) + count; }
};

/// Stretch of a doubling round's batches: a \p parts-th of the active entries, but no fewer than
/// min(2^20, n / parts), below which batching only adds launches. A batch holds the groups
/// starting in one stretch, under twice its entries, so with 3.5 buffers of 4-byte entries and
/// 14 parts the scratch stays under 28 bytes per stretch entry: 2 bytes per unsorted suffix, 2n
/// at most (n with 28 parts).
template <class I>
I batch_size(I n, I m, std::size_t requested, I parts = 14) {
  if (requested > 0) return requested < std::size_t(m) ? I(requested) : (m > 0 ? m : I(1));
  const I part = m / parts + 1;
  const I floor = n / parts + 1 < (I(1) << 20) ? n / parts + 1 : (I(1) << 20);
  return part > floor ? part : floor;
}

/// The batches of a round, ranks as of its start: batch b is [cuts[b], cuts[b+1]), and alone[b]
/// says it is one group larger than a stretch, sorted alone (sort_one_group). Its entries' group
/// ranks lie in [low[b], high[b]] (high is a bound: the largest index when not known).
template <class I>
struct Batches {
  std::vector<I> cuts;
  std::vector<char> alone;
  std::vector<I> low, high;
};

/// First and last group start in each stretch of \p chunk entries (entry 0 excluded: it always
/// starts one), or hi and lo - 1 for a stretch without one, and their group ranks; the last
/// entry of \p out gets the rank of entry 0. An entry's group rank isa(vals(j)) does not decrease
/// with j, so both are found by binary search: about 2 log2(chunk) reads per stretch where a scan
/// of the stretch gathered a rank for every entry.
template <class Vals, class ISA, class Out, class I>
struct StretchGroupStarts {
  Vals vals;
  ISA isa;
  Out out;
  I m, chunk;
  KOKKOS_INLINE_FUNCTION I rank(I j) const { return isa(vals(j)); }
  /// The first j in [a, b) with rank(j) >= r, or b.
  KOKKOS_INLINE_FUNCTION I first_at_least(I a, I b, I r) const {
    while (a < b) {
      const I mid = a + (b - a) / 2;
      if (rank(mid) >= r) b = mid;
      else a = mid + 1;
    }
    return a;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t c) const {
    const I lo = c == 0 ? I(1) : I(c) * chunk, hi = m - I(c) * chunk > chunk ? I(c) * chunk + chunk : m;
    I first = hi, last = lo - 1;
    if (lo < hi && rank(lo - 1) != rank(hi - 1)) {
      first = first_at_least(lo, hi, rank(lo - 1) + 1);  // group ranks are distinct slots, so + 1 fits
      last = first_at_least(first, hi, rank(hi - 1));
    }
    out(4 * c) = first;
    out(4 * c + 1) = last;
    out(4 * c + 2) = first <= last ? rank(first) : I(0);
    out(4 * c + 3) = first <= last ? rank(last) : I(0);
    if (c == 0) out(out.extent(0) - 1) = rank(0);
  }
};

/// Batches of whole groups: each stretch of \p chunk entries contributes the groups starting in
/// it, so a batch holds under 2 \p chunk entries (its last group, if larger than \p chunk,
/// becomes a batch of its own). The first and last group start of every stretch come from one
/// launch (StretchGroupStarts) into \p found_store, grown when too small so that the rounds
/// share it, and one copy to the host.
template <class ExecSpace, class Vals, class ISA, class I>
Batches<I> batch_cuts(const ExecSpace& exec, const Vals& vals, const ISA& isa, I m, I chunk,
                      Kokkos::View<I*, typename ExecSpace::memory_space>& found_store) {
  if (m <= chunk) return {{I(0), m}, {0}, {I(0)}, {std::numeric_limits<I>::max()}};
  const I chunks = static_cast<I>((std::uint64_t(m) + chunk - 1) / chunk);  // no overflow near 2^32
  const std::size_t entries = 4 * std::size_t(chunks) + 1;
  if (found_store.extent(0) < entries)
    found_store = uninitialized_view<I, typename ExecSpace::memory_space>(exec, "ktext::suffix_array::stretch_starts",
                                                                          entries);
  const Unmanaged<I, ExecSpace> found(found_store.data(), entries);
  Kokkos::parallel_for("ktext::suffix_array::batch_cuts", Range<ExecSpace>(exec, 0, chunks),
                       StretchGroupStarts<Vals, ISA, Unmanaged<I, ExecSpace>, I>{vals, isa, found, m, chunk});
  std::vector<I> host(found.extent(0));
  Kokkos::deep_copy(exec, Kokkos::View<I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()), found);
  exec.fence("ktext::suffix_array: stretch group starts");
  struct Starts {
    I first, last, first_rank, last_rank;
  };
  std::vector<Starts> first_last;  // per stretch with a group start
  first_last.push_back({I(0), I(0), host.back(), host.back()});  // entry 0 starts a group
  for (I c = 0; c < chunks; ++c) {
    const I* at = host.data() + 4 * std::size_t(c);
    if (at[0] > at[1]) continue;  // none: one group spans the whole stretch
    if (c == 0) {  // entry 0's group, then the others starting in this stretch
      first_last.back().last = at[1];
      first_last.back().last_rank = at[3];
    } else {
      first_last.push_back({at[0], at[1], at[2], at[3]});
    }
  }
  Batches<I> out;
  auto add = [&](I cut, bool alone, I low, I high) {
    out.cuts.push_back(cut);
    out.alone.push_back(alone ? 1 : 0);
    out.low.push_back(low);
    out.high.push_back(high);
  };
  for (std::size_t i = 0; i < first_last.size(); ++i) {
    const Starts& s = first_last[i];
    const I next = i + 1 < first_last.size() ? first_last[i + 1].first : m;
    if (next - s.last > chunk) {  // the stretch's last group is larger than a stretch
      // Groups before the last one rank below it.
      if (s.last != s.first) add(s.first, false, s.first_rank, s.last_rank - 1);
      add(s.last, true, s.last_rank, s.last_rank);
    } else {
      add(s.first, false, s.first_rank, s.last_rank);
    }
  }
  out.cuts.push_back(m);
  return out;
}
template <class ExecSpace, class Vals, class ISA, class I>
Batches<I> batch_cuts(const ExecSpace& exec, const Vals& vals, const ISA& isa, I m, I chunk) {
  Kokkos::View<I*, typename ExecSpace::memory_space> found_store;
  return batch_cuts(exec, vals, isa, m, chunk, found_store);
}

/// Key digit of the single-group path: bits [shift, shift + 8) of the next rank.
template <class NextRank, class V, class Bytes, class I>
struct NextRankDigit {
  NextRank next_rank;
  V v;
  Bytes digit;
  int shift;
  KOKKOS_INLINE_FUNCTION void operator()(I j) const {
    next_rank.prefetch(v, j);
    digit(j) = std::uint8_t(next_rank(v(j)) >> shift);
  }
};
/// Group test of the single-group path: equal next ranks.
template <class NextRank, class I>
struct SameNextRank {
  NextRank next_rank;
  KOKKOS_INLINE_FUNCTION bool same_group(I a, I b) const { return next_rank(a) == next_rank(b); }
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION void prefetch(const V& v, std::uint64_t j) const {
    next_rank.prefetch(v, j);
  }
};
template <class Flags, class I>
struct HeadIndex {
  Flags head;
  KOKKOS_INLINE_FUNCTION I operator()(std::size_t j) const { return head(j) ? I(j) : I(0); }
};
template <class V, class ISA, class I>
struct WriteGroupRank {
  V v;
  ISA isa;
  I slot;  // the group's first SA slot
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t j, I head) const {
    prefetch_gather(isa, v, j);
    isa(v(j)) = slot + head;
  }
};
template <class Flags, class I>
struct KeepUnsplit {
  Flags head;
  I len;
  KOKKOS_INLINE_FUNCTION bool operator()(std::size_t jj) const {
    const I j = static_cast<I>(jj);
    return !(head(j) && (j + 1 == len || head(j + 1)));
  }
};

/// Offsets of a batch's groups for the segmented sort: as wide as the work indices.
template <class I>
using GroupOffset = std::conditional_t<sizeof(I) == 4, std::int32_t, std::int64_t>;

/// Longest group sorted by the segmented sort (SuffixArrayOptions::segmented_group_limit) unless
/// set, for batches of \p chunk entries. With CUB's segmented sort 1, the radix sorts only: on an
/// H100 limits of 256 to 65536 lost 5-25% on text (english 20.5 ms against 23.0-25.5, sources
/// 32.0 against 34.0-35.2; perf/README, 2026-11-25) and gained 8% only on a versioned collection
/// and on proteins, since finding the groups costs a gather and a reduction per batch. On
/// hosts one thread sorts each group in place (SortEachSegment), so every group up to a
/// thread's share of a batch: the threads stay busy, and the source code of the corpus took
/// 5.1-5.2 s on 2 cores where a limit of 4096 entries took 6.2-6.4 (three runs each,
/// KTEXT_BENCH_SA_GROUP_LIMIT=0 and 4096, perf/README).
template <class ExecSpace, class I>
std::uint64_t default_segmented_group_limit(const ExecSpace& exec, I chunk) {
  if constexpr (has_vendor_segmented_sort<ExecSpace, GroupOffset<I>, I, I>) {
    return 1;
  } else {
    const int threads = exec.concurrency() > 1 ? exec.concurrency() : 1;
    return std::max<std::uint64_t>(4096, std::uint64_t(chunk) / std::uint64_t(threads));
  }
}

/// Group starts of a batch whose entries' group ranks are \p g (each group's entries
/// contiguous), and how many of its groups are longer than \p limit: a group starting at j is,
/// exactly when entry j + limit is still in it.
template <class G, class I>
struct CountGroups {
  G g;
  I len, limit;
  KOKKOS_INLINE_FUNCTION bool starts(I j) const { return j == 0 || g(j) != g(j - 1); }
  KOKKOS_INLINE_FUNCTION void operator()(I j, I& groups, I& long_groups) const {
    if (!starts(j)) return;
    ++groups;
    if (limit < len - j && g(j + limit) == g(j)) ++long_groups;
  }
};

/// Widens the \p len J values at the start of \p out's memory into O values in place, for output
/// indices wider than the positions held while sorting (64-bit output, 32-bit work). Entry j
/// reads J slot j and writes J slots 2j and 2j + 1, so the upper half of the pending range is
/// widened first: no step writes a slot that it or a later step still reads. log2(len) launches.
template <class O, class J>
struct WidenStep {
  O* out;
  const J* in;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t j) const {
    const J v = in[j];
    out[j] = O(v);
  }
};
template <class ExecSpace, class O, class J>
void widen_in_place(const ExecSpace& exec, O* out, std::uint64_t len) {
  static_assert(sizeof(J) < sizeof(O), "ktext::suffix_array: widening needs a narrower source");
  const J* in = reinterpret_cast<const J*>(out);
  for (std::uint64_t hi = len; hi > 0;) {
    const std::uint64_t lo = hi > 1 ? (hi + 1) / 2 : 0;  // the upper half; entry 0 alone, last
    Kokkos::parallel_for("ktext::suffix_array::widen", Range<ExecSpace>(exec, lo, hi), WidenStep<O, J>{out, in});
    hi = lo;
  }
}

/// A doubling round over one group \p v larger than a stretch. All its members share the group
/// key, so they are sorted by the next rank alone, one 8-bit digit per stable pass, with the
/// group's own SA slots (written only once the group splits) as the second value buffer. Each
/// pass gathers the next rank again: a key per entry would not fit the scratch. The sorted
/// members are then written to those slots, which finishes the singletons, the new ranks are
/// scattered, and the members of unsplit groups are selected from the slots into \p kept_out.
/// Returns their count. Scratch: 2 bytes per entry, \p bytes when the output slots are as
/// narrow as the work indices J, else the free upper half of the group's own (wider) slots, which
/// are widened last. A^n and short periods, whose groups span most of the text, thus stay within
/// the batches' memory.
template <class ExecSpace, class NextRank, class ISA, class O, class I>
I sort_one_group(const ExecSpace& exec, const Unmanaged<I, ExecSpace>& v, const Unmanaged<I, ExecSpace>& kept_out,
                 const ISA& isa, O* sa, const NextRank& next_rank, std::uint8_t* bytes, int rank_bits) {
  using Policy = Range<ExecSpace>;
  using U = Unmanaged<I, ExecSpace>;
  using Bytes = Unmanaged<std::uint8_t, ExecSpace>;
  constexpr bool narrow = sizeof(I) < sizeof(O);
  const I len = static_cast<I>(v.extent(0));
  I slot = 0;  // the group's first slot, needed on the host to address its SA slots
  Kokkos::parallel_reduce(
      "ktext::suffix_array::group_slot", Policy(exec, 0, 1), KOKKOS_LAMBDA(I, I & s) { s += isa(v(0)); }, slot);
  const U slots(reinterpret_cast<I*>(sa + slot), len);
  if constexpr (narrow) bytes = reinterpret_cast<std::uint8_t*>(slots.data() + len);  // (w_O - w_I) len >= 2 len bytes
  const Bytes digit(bytes, len), digit_tmp(bytes + len, len);
  U cur = v, other = slots;
  for (int shift = 0; shift < rank_bits; shift += 8) {
    Kokkos::parallel_for("ktext::suffix_array::next_rank_digit", Policy(exec, 0, len),
                         NextRankDigit<NextRank, U, Bytes, I>{next_rank, cur, digit, shift});
    if (ktext::impl::sort_pairs_in_either(exec, digit, cur, digit_tmp, other, 0, rank_bits - shift < 8 ? rank_bits - shift : 8))
      std::swap(cur, other);
  }
  if (cur.data() != slots.data()) Kokkos::deep_copy(exec, slots, cur);
  Kokkos::parallel_for("ktext::suffix_array::next_rank_heads", Policy(exec, 0, len),
                       FlagHeads<SameNextRank<NextRank, I>, U, Bytes, I>{{next_rank}, slots, digit});
  ktext::inclusive_scan_apply<I>(exec, std::size_t(len), HeadIndex<Bytes, I>{digit}, MaxIndex<I>{},
                                 WriteGroupRank<U, ISA, I>{slots, isa, slot});
  const I kept = static_cast<I>(ktext::select_by_index(exec, slots, kept_out, KeepUnsplit<Bytes, I>{digit, len}));
  if constexpr (narrow) widen_in_place<ExecSpace, O, I>(exec, sa + slot, len);
  return kept;
}

/// Memory a doubling may use as scratch instead of allocating: free for its whole run.
struct Spare {
  void* data = nullptr;
  std::size_t bytes = 0;
};

/// 1 in this many of the initial groups are sampled for the estimate of their longer ones.
inline constexpr std::uint64_t initial_long_sampling = 16;

/// Names past this do not fit DC3's alphabet (difference_cover_applies: 3 codes in a key).
inline constexpr std::uint64_t reduce_name_limit = std::uint64_t(1) << 21;

/// Whether DC3 stops doubling its sample of \p count suffixes, \p active of them in \p groups
/// groups that are not singletons, \p rounds rounds in, to sort its reduced text
/// (SampleReduction). The names (count - active + groups of them) must fit DC3's alphabet, and
/// the reduced text (count + 1 symbols) must be shorter than the text of \p length.
template <class I>
bool reduce_sample(SampleReduction when, int rounds, std::uint64_t length, I count, I active, I groups) {
  const std::uint64_t names = std::uint64_t(count - active) + std::uint64_t(groups);
  if (when == SampleReduction::never || active == 0 || names >= reduce_name_limit ||
      std::uint64_t(count) + 1 >= length)
    return false;
  if (when == SampleReduction::initial) return true;
  if (when == SampleReduction::first_round) return rounds >= 1;
  // Right after the initial sort only groups of over a thousand entries on average (Thue-Morse
  // and Fibonacci: 10^5 of the H100 table's): XML's first 6 bytes leave groups of a few dozen
  // that the rounds split quickly, and it took 47.7 ms reduced there against 42.8 doubled.
  // After a round that split almost nothing, groups of 8.
  const std::uint64_t least = rounds == 0 ? 1024 : 8;
  return count >= (I(1) << 16) && active >= count / 2 && std::uint64_t(active) >= least * std::uint64_t(groups);
}

/// Group starts among the active entries \p vals (group ranks do not decrease along them); with
/// \p stride > 1 among every stride-th entry only, which holds at most as many distinct ranks:
/// a lower bound read from a stride-th of the entries.
template <class Vals, class ISA, class I>
struct CountActiveGroups {
  Vals vals;
  ISA isa;
  I stride = 1;
  KOKKOS_INLINE_FUNCTION void operator()(I k, I& groups) const {
    const I j = k * stride;
    if (j == 0 || isa(vals(j)) != isa(vals(j - stride))) ++groups;
  }
};

/// Prefix doubling of the elements of \p layout (every suffix, or the DC3 sample) with positions
/// and ranks held as the unsigned I = Layout::Index (the work indices) while \p sa_in, one entry
/// per element, holds O = its value type, as wide or wider. With a wider output the initial sort
/// runs inside the output's memory (its first half holds the order, the rest the key buffers)
/// and the order is widened in place once ranked; with 64-bit output and n < 2^32 this holds the
/// peak to 18n for bytes instead of 29n. Else the initial keys go to \p spare when it holds
/// them. \p mem holds what the caller has allocated (the text and output included); \p isa_out,
/// when given, receives the final ranks of the elements (ISA); where it already holds more than
/// one entry per element (DC3's held block), the ranks are written there and its entries past
/// the elements hold the head flags and then the rounds' scratch. With \p names_out given (DC3's
/// sample), the doubling may stop early as reduce_sample() says: \p names_out then receives the
/// number of groups (else 0), \p isa_out the ranks so far (each a group's first slot, groups
/// holding suffixes that agree on at least their first 3 symbols), and \p sa_in is left unsorted.
template <class ExecSpace, class TextView, class Layout, class SAView>
SuffixArrayStats doubling(const ExecSpace& exec, const TextView& text_in, const Layout& layout,
                          const AlphabetMap<typename ExecSpace::memory_space>& alphabet, const SAView& sa_in,
                          const SuffixArrayOptions& options, Footprint& mem, Spare spare = {},
                          Kokkos::View<typename Layout::Index*, typename ExecSpace::memory_space>* isa_out = nullptr,
                          std::uint64_t* names_out = nullptr) {
  using I = typename Layout::Index;
  using O = typename SAView::non_const_value_type;
  using S = typename TextView::non_const_value_type;
  using K = I;  // keys (ranks + 1 <= n) share the scratch with indices
  using Mem = typename ExecSpace::memory_space;
  using Policy = Range<ExecSpace>;
  static_assert(std::is_unsigned_v<I> && sizeof(I) <= sizeof(O), "work indices: unsigned, no wider than the output");
  constexpr bool narrow = sizeof(I) < sizeof(O);

  const I n = layout.count();  // elements sorted
  const std::uint64_t text_n = text_in.extent(0);
  Unmanaged<const S, ExecSpace> text(text_in.data(), text_in.extent(0));
  Unmanaged<O, ExecSpace> sa(sa_in.data(), sa_in.extent(0));
  SuffixArrayStats stats;
  auto report = [&](const char* phase, std::uint64_t h, std::uint64_t active) {
    if (options.progress) options.progress(SuffixArrayProgress{phase, stats.rounds, h, active, text_n});
  };

  if (names_out) *names_out = 0;
  // ISA's memory from the caller, with room after it: the allocations and frees it saves each
  // wait for the device.
  const bool isa_held = isa_out && isa_out->extent(0) > std::size_t(n);
  I* const held_tail = isa_held ? isa_out->data() + n : nullptr;
  const std::size_t held_entries = isa_held ? isa_out->extent(0) - std::size_t(n) : 0;
  if (n == 0) {
    if (isa_out && !isa_held) *isa_out = {};
    stats.peak_bytes = mem.peak();
    return stats;
  }

  // Initial sort of all elements by their packed first k symbols (or the top 32 bits of them),
  // stable from an order with the truncated suffixes first, shortest first: a suffix that ends
  // within the bits compared comes before those that agree with it there, which it prefixes,
  // whatever the code of the symbols they have where it has none. The order is sorted in the
  // output's memory (as I values) with ISA as the other value buffer.
  report("initial sort", 0, std::uint64_t(n));
  Kokkos::View<I*, Mem> isa = isa_held ? Kokkos::View<I*, Mem>(isa_out->data(), n)
                                        : counted_view<I>(exec, mem, "ktext::suffix_array::isa", n);
  // Codes per 64-bit word, a multiple of the layout's step so that h stays one, in one word or
  // two, or the top 32 bits of one (initial_top_only, initial_key_words: their estimates take
  // ISA's memory, unused until the sort). The top holds top_full symbols in full and the prefix
  // step's multiple below that: the groups it leaves agree on at least those.
  using Key = PackedKey<ExecSpace, decltype(text), Layout>;
  const Unmanaged<I, ExecSpace> estimate_room(isa.data(), n);
  const int per_word = 64 / alphabet.bits / Layout::step * Layout::step;
  const int top_full = std::min(32 / alphabet.bits, per_word);
  const int top_prefix = top_full / Layout::step * Layout::step;
  const bool top_only = per_word * alphabet.bits > 32 && top_prefix > 0 &&
                        initial_top_only(exec, options, Key{text, alphabet, layout, top_full}, n, estimate_room);
  const int per_key =
      per_word * (top_only ? 1
                           : initial_key_words(exec, options, Key{text, alphabet, layout, per_word},
                                               per_word * alphabet.bits, n, estimate_room));
  const Key key{text, alphabet, layout, per_key};
  const int key_bits = per_key * alphabet.bits;
  // The bits sorted are [low_bit, key_bits); the groups after it, and the heads that mark them,
  // compare the first prefix symbols.
  const int low_bit = top_only ? key_bits - 32 : 0;
  const int prefix = top_only ? top_prefix : per_key;
  const Key head_key{text, alphabet, layout, prefix};
  stats.initial_prefix = std::uint64_t(prefix);
  const Unmanaged<I, ExecSpace> order(reinterpret_cast<I*>(sa.data()), n);
  // The key buffers once sorted, where they were not allocated: room for the ranks in sorted
  // order (4 bytes per element), which ktext::scatter then writes to ISA in windows.
  I* rank_room = nullptr;
  // Room for the ranks' partition by their place in ISA, beside ISA's own memory: the other key
  // buffer of 32-bit pieces.
  I* partition_room = nullptr;
  // The sorted keys' top 32 bits, where they were sorted in 32-bit pieces.
  const std::uint32_t* top_piece = nullptr;
  {
    // LSD over pieces of the packed key, least significant first. 32-bit pieces where two
    // buffers of them fit memory already held: the spare (DC3's output), or the spare and the
    // held tail (DC3 sizes it for that where its output is too small). Else 16-bit pieces (four
    // stable passes with 2-byte keys move 6 bytes per suffix each and need 4n bytes of key
    // buffers; a wider output has those behind the order). Two pieces instead of three or four
    // gather the text at random once instead of two or three times: on an H100, DC3 on 50 MB of
    // C/C++ headers took 38.3-38.7 ms instead of 41.5-42.2, english 16.2-16.3 instead of
    // 17.3-17.7, xml 29.0-29.2 instead of 30.6-30.8 (perf/README, 2026-11-26).
    const std::size_t elements = std::size_t(n);
    const Unmanaged<I, ExecSpace> order_tmp(isa.data(), n);
    std::uint32_t* wide = nullptr;
    std::uint32_t* wide_other = nullptr;
    if constexpr (!narrow) {
      if (spare.bytes >= 2 * elements * sizeof(std::uint32_t)) {
        wide = static_cast<std::uint32_t*>(spare.data);
        wide_other = wide + elements;
      } else if (spare.bytes >= elements * sizeof(std::uint32_t) &&
                 held_entries * sizeof(I) >= elements * sizeof(std::uint32_t)) {
        wide = static_cast<std::uint32_t*>(spare.data);
        wide_other = reinterpret_cast<std::uint32_t*>(held_tail);
      }
    }
    const I untruncated = layout.untruncated(std::uint64_t(per_key));
    const I truncated = n - untruncated, u1 = layout.untruncated_first_class(std::uint64_t(per_key));
    Kokkos::parallel_for(
        "ktext::suffix_array::initial_order", Policy(exec, 0, n),
        KOKKOS_LAMBDA(I j) { order(j) = j < truncated ? layout.from_end(j) : layout.untruncated_element(j - truncated, u1); });
    if (wide) {
      top_piece = sort_by_key_pieces<std::uint32_t>(exec, key, order, order_tmp, wide, wide_other, key_bits, low_bit);
      if (sizeof(I) <= sizeof(std::uint32_t)) {
        rank_room = reinterpret_cast<I*>(wide);
        partition_room = reinterpret_cast<I*>(wide_other);
      }
    } else {
      Kokkos::View<std::uint16_t*, Mem> key_store;
      std::uint16_t* key_bytes = reinterpret_cast<std::uint16_t*>(order.data() + n);
      if constexpr (!narrow) {
        if (spare.bytes >= 2 * elements * sizeof(std::uint16_t)) {
          key_bytes = static_cast<std::uint16_t*>(spare.data);
        } else {
          key_store = counted_view<std::uint16_t>(exec, mem, "ktext::suffix_array::keys", 2 * elements);
          key_bytes = key_store.data();
        }
      }
      sort_by_key_pieces<std::uint16_t>(exec, key, order, order_tmp, key_bytes, key_bytes + elements, key_bits,
                                        low_bit);
      if (sizeof(I) <= 2 * sizeof(std::uint16_t) && key_store.data() == nullptr) rank_room = reinterpret_cast<I*>(key_bytes);
      release_counted(mem, key_store);
    }
  }
  using Bytes = Unmanaged<std::uint8_t, ExecSpace>;
  Kokkos::View<std::uint8_t*, Mem> head_store;
  std::uint8_t* head_data = reinterpret_cast<std::uint8_t*>(held_tail);
  const int partition_bits = scatter_partition_bits<I>(exec, std::size_t(n), options.scatter_parts);
  if (partition_bits == 0) partition_room = nullptr;
  if (held_tail && (partition_room == held_tail || top_piece == reinterpret_cast<std::uint32_t*>(held_tail))) {
    // The partition takes the held tail, or the heads read the top piece there: the heads go
    // past the ranks in the spare (DC3's output, 1.5 entries per sample suffix), or neither
    // uses the held tail.
    if (spare.bytes >= std::size_t(n) * (sizeof(I) + 1)) {
      head_data = static_cast<std::uint8_t*>(spare.data) + std::size_t(n) * sizeof(I);
    } else {
      if (partition_room == held_tail) partition_room = nullptr;
      if (top_piece == reinterpret_cast<std::uint32_t*>(held_tail)) top_piece = nullptr;
    }
  }
  if (head_data == reinterpret_cast<std::uint8_t*>(held_tail) && held_entries * sizeof(I) < std::size_t(n)) {
    head_store = counted_view<std::uint8_t>(exec, mem, "ktext::suffix_array::heads", n);
    head_data = head_store.data();
  }
  const Bytes head(head_data, n);
  if (top_piece) {
    const Unmanaged<const std::uint32_t, ExecSpace> top(top_piece, n);
    // The top piece holds bits [top_low, key_bits) of the key: its symbols [0, per_key -
    // ceil(top_low / bits)) whole, of which the heads compare the first prefix.
    const int top_low = std::max(low_bit, key_bits - 32), bits = alphabet.bits;
    const int top_symbols = std::min(prefix, std::max(0, per_key - (top_low + bits - 1) / bits));
    Kokkos::parallel_for(
        "ktext::suffix_array::initial_heads", Policy(exec, 0, n),
        FlagHeadsByTop<Key, decltype(order), decltype(top), Bytes, I>{head_key, order, top, head, top_symbols});
  } else {
    Kokkos::parallel_for("ktext::suffix_array::initial_heads", Policy(exec, 0, n),
                         FlagHeads<Key, decltype(order), Bytes, I>{head_key, order, head});
  }
  const std::size_t window =
      options.scatter_window > 0 ? options.scatter_window : default_scatter_window<I>(exec, std::size_t(n));
  if (partition_room || (rank_room && window > 0 && window < std::size_t(n))) {
    // A random write per element, in sorted order, leaves a partial sector in memory each: the
    // ranks are stored in sorted order first.
    const Unmanaged<I, ExecSpace> ranks(rank_room, n);
    ktext::inclusive_scan_apply<I>(exec, std::size_t(n), HeadIndex<Bytes, I>{head}, MaxIndex<I>{},
                                   StoreInitialRank<decltype(ranks), I>{ranks});
    if (partition_room) {
      // Partitioned by their place in ISA (into ISA's memory and the partition room) and
      // written part by part, each part's writes within a 256th of ISA, which the cache holds.
      // They land in the ranks' memory, which the partition has read, and are copied to ISA.
      const Unmanaged<I, ExecSpace> isa_memory(isa.data(), n);
      ktext::scatter_partitioned(exec, ranks, order, ranks, Unmanaged<I, ExecSpace>(partition_room, n), isa_memory,
                                 partition_bits);
      Kokkos::deep_copy(exec, isa_memory, ranks);
    } else {
      // Scattered in windows that the cache holds.
      ktext::scatter(exec, ranks, order, isa, window);
    }
  } else {
    ktext::inclusive_scan_apply<I>(exec, std::size_t(n), HeadIndex<Bytes, I>{head}, MaxIndex<I>{},
                                   WriteInitialRank<decltype(order), decltype(isa), I>{order, isa});
  }

  // Active entries: members of groups that are not singletons.
  const KeepUnsplit<Bytes, I> active{head, n};
  // Rounds whose groups all hold at most tile_limit entries sort them in tiles of each batch
  // (tile_sort_groups): one pass where the radix sorts take seven or eight, and a versioned
  // collection's groups (its near-copies) are that short for most of its rounds. The scan of each
  // round counts the entries of longer groups into its counts and lists the first
  // tile_long_group_capacity of them, and so does the initial compaction where the initial
  // groups have few such entries. A round whose longer groups are all listed sorts them apart in
  // each batch that holds few (sort_long_groups) and the rest in tiles: on a versioned collection
  // the rounds at depths 12 to 48 hold 0.1-11% of their entries in 47 to 2099 groups longer than
  // 512.
  const std::size_t tile_limit = std::min(
      options.tile_group_limit > 0 ? options.tile_group_limit : default_tile_group_limit(exec), tile_sort_halo);
  const bool tiles = tile_limit > 1;
  // vals: the active suffixes, compacted in place round after round. The sort scratch only
  // needs to hold one batch of whole groups (see below).
  Kokkos::View<I*, Mem> vals_store;
  I* vals_data = nullptr;
  // What the spare still holds once the unsorted list is in it, for the round's scratch.
  I* spare_scratch = nullptr;
  std::size_t spare_entries = 0;
  I m = 0;
  {
    // The count first, so the buffers are sized for the active entries only; and their groups.
    std::size_t count = 0, groups = 0;
    Kokkos::parallel_reduce(
        "ktext::suffix_array::count_active", Policy(exec, 0, n),
        KOKKOS_LAMBDA(I j, std::size_t & c, std::size_t & g) {
          if (!active(std::size_t(j))) return;
          ++c;
          if (head(j)) ++g;
        },
        count, groups);
    m = static_cast<I>(count);
    if (names_out && reduce_sample(options.sample_reduction, 0, text_n, n, m, static_cast<I>(groups))) {
      release_counted(mem, head_store);
      exec.fence("ktext::suffix_array: named");
      *names_out = std::uint64_t(n - m) + groups;
      if (isa_out && !isa_held) *isa_out = isa;
      stats.peak_bytes = mem.peak();
      return stats;
    }
  }
  if (m > 0) {
    if (spare.bytes / sizeof(I) >= std::size_t(m)) {
      vals_data = static_cast<I*>(spare.data);
      spare_scratch = vals_data + m;
      spare_entries = spare.bytes / sizeof(I) - m;
    } else {
      vals_store = counted_view<I>(exec, mem, "ktext::suffix_array::active", m);
      vals_data = vals_store.data();
    }
  }
  // The list holds at most a 256th of the active entries' count (16 at least): small for small
  // inputs.
  const std::size_t long_capacity =
      options.sort_long_groups_apart ? std::min(tile_long_group_capacity, std::max<std::size_t>(16, std::size_t(m) / 256)) : 0;
  // The first round sorts in tiles where the initial groups are all short, and its longer groups
  // apart where they are listed and hold at most a sixth of the entries (what a batch's scratch
  // holds of their sort): the compaction is then a scan that lists them (InitialKept), else the
  // select. A versioned collection's first round took the radix sorts over 99% of its sample.
  // The scan costs about three selects (0.89 ms against 0.28 over that sample on an H200), so
  // only where the first round holds a quarter of the elements or more.
  bool list_first = false;
  if (m > 0 && tiles && std::size_t(m) >= std::size_t(n) / 4) {
    // An estimate of the longer groups' entries and count: the groups whose last element's slot
    // is a multiple of initial_long_sampling, each's size from its rank (its first slot, in ISA).
    // A read at random per sampled group, where a walk over every group's heads up to the limit
    // took 0.75 ms on a versioned collection's sample (H200).
    std::size_t long_sampled = 0, long_groups_sampled = 0;
    const I limit = static_cast<I>(std::min<std::uint64_t>(tile_limit, std::uint64_t(n)));
    const I step = static_cast<I>(initial_long_sampling);
    Kokkos::parallel_reduce(
        "ktext::suffix_array::sample_long_groups", Policy(exec, 0, (n - 1) / step + 1),
        KOKKOS_LAMBDA(I k, std::size_t & e, std::size_t & g) {
          const I j = k * step;
          if (!active(std::size_t(j)) || !(j + 1 == n || head(j + 1))) return;
          const I size = j + 1 - static_cast<I>(isa(order(j)));
          if (size > limit) e += std::size_t(size), ++g;
        },
        long_sampled, long_groups_sampled);
    list_first = long_groups_sampled * initial_long_sampling <= long_capacity &&
                 long_sampled * initial_long_sampling * 6 <= std::size_t(m);
  }
  if (!list_first) {
    // The suffixes in the active slots, in slot order; vals holds exactly the m counted above.
    if (m > 0) ktext::select_by_index(exec, order, Unmanaged<I, ExecSpace>(vals_data, m), active);
    release_counted(mem, head_store);
  }

  const int rank_bits = bit_width(std::uint64_t(n));
  // Else every batch takes the radix sorts.
  const bool segmented = options.segmented_group_limit > 1 ||
                         (options.segmented_group_limit == 0 && default_segmented_group_limit(exec, I(n)) > 1);
  std::uint64_t h = std::uint64_t(prefix);
  // One scratch arena for the sorts of a round: 3 buffers of a batch and its group offsets, or 2
  // bytes per entry of a group larger than a stretch (sort_one_group).
  // The larger of the spare's free part and the held tail (free once the heads are).
  Kokkos::View<I*, Mem> arena_store;
  I* arena = held_entries > spare_entries ? held_tail : spare_scratch;
  std::size_t arena_entries = held_entries > spare_entries ? held_entries : spare_entries;
  Kokkos::View<I*, Mem> stretch_starts;  // batch_cuts' per-stretch results
  // Each kept entry's group_back, from which the next round reads the group ranks
  // (GatherGroupAndNext in tiles, GatherRank with them before a segmented sort): m bytes in the
  // memory already held that the arena does not take (the held tail, or the spare's free part),
  // else none. Allocating them would raise the peak of plain doubling, whose rounds set it;
  // DC3's sample, where the rounds do most of their work, always has the room (its output's
  // memory).
  std::uint8_t* back_data = nullptr;
  if ((tiles || segmented) && m > 0) {
    I* const other = arena == held_tail ? spare_scratch : held_tail;
    const std::size_t other_entries = arena == held_tail ? spare_entries : held_entries;
    if (other && other_entries * sizeof(I) >= std::size_t(m)) back_data = reinterpret_cast<std::uint8_t*>(other);
  }
  bool back_listed = false;  // the round before wrote every listed entry's group_back
  // A round's counts, read back together at its end (one copy: on an H200 the second of two
  // took 13 us of a tail round's 77): the longer groups' entries and their count, then where
  // each batch's kept entries start in the list and, after the last batch, their count, then the
  // longer groups' list (read only where it holds any). A round has at most two batches per
  // stretch, and a stretch is at least a 28th of the unsorted entries unless
  // SuffixArrayOptions::batch_entries says: 64 kept offsets hold every round then, allocated once.
  // batch_cuts' per-stretch results (4 a stretch) take the end of the same allocation: a
  // device allocation and its free each wait for the device (on an H200, 10 us of cudaMalloc,
  // 26 of cudaFree and the copy of Kokkos' header for xml's stretch starts, CUPTI trace).
  Kokkos::View<I*, Mem> counts_store, long_table_store;
  std::size_t kept_capacity = 0;
  auto hold_counts = [&](std::size_t entries) {
    release_counted(mem, counts_store);
    kept_capacity = entries;
    const std::size_t counts = 2 + kept_capacity + (tiles ? 2 * long_capacity : 0);
    counts_store = counted_view<I>(exec, mem, "ktext::suffix_array::round_counts", counts + 4 * kept_capacity + 1);
    stretch_starts = Kokkos::View<I*, Mem>(counts_store.data() + counts, 4 * kept_capacity + 1);  // unmanaged
    Kokkos::parallel_for("ktext::suffix_array::kept_start", Policy(exec, 0, 1),
                         StartKept<Unmanaged<I, ExecSpace>, I>{Unmanaged<I, ExecSpace>(counts_store.data() + 2, 1)});
  };
  hold_counts(64);
  I long_entries = m;
  std::vector<std::pair<I, I>> long_list;  // the listed groups of the round's start: (first entry, size), sorted
  std::vector<I> counts_host;
  bool long_listed = false;  // all of them
  // The longer groups' list after the counts (their place moves where hold_counts grows them):
  // from \p copied where the counts' copy brought it, else copied here.
  auto read_listing = [&](std::size_t listed, const I* copied = nullptr) {
    long_list.clear();
    if (listed == 0) return;
    std::vector<I> listing;
    if (!copied) {
      listing.resize(2 * listed);
      Kokkos::deep_copy(exec, Kokkos::View<I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(listing.data(), listing.size()),
                        Unmanaged<I, ExecSpace>(counts_store.data() + 2 + kept_capacity, listing.size()));
      exec.fence("ktext::suffix_array: longer groups listed");
      copied = listing.data();
    }
    for (std::size_t q = 0; q < listed; ++q) long_list.emplace_back(copied[2 * q], copied[2 * q + 1]);
    std::sort(long_list.begin(), long_list.end());
  };
  if (list_first) {
    // The heads may lie where the group_back bytes go (the held tail): then the first round reads
    // each entry's group rank itself.
    const auto* const b = back_data;
    const bool back_apart = !b || b + std::size_t(m) <= head.data() || head.data() + std::size_t(n) <= b;
    Kokkos::deep_copy(exec, Unmanaged<I, ExecSpace>(counts_store.data(), 2), I(0));
    using Groups = InitialGroups<Bytes, I>;
    ktext::inclusive_scan_apply<StartHead<I>>(
        exec, std::size_t(n), RoundMarks<Groups, I>{Groups{head, n}}, JoinRoundMarks<I>{},
        InitialKept<Bytes, decltype(order), Unmanaged<I, ExecSpace>, I>{
            Groups{head, n}, order, Unmanaged<I, ExecSpace>(vals_data, m), back_apart ? back_data : nullptr,
            counts_store.data(), counts_store.data() + 2 + kept_capacity, I(tile_limit), I(long_capacity)});
    I counted[2] = {0, 0};
    Kokkos::deep_copy(exec, Kokkos::View<I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(counted, 2),
                      Unmanaged<I, ExecSpace>(counts_store.data(), 2));
    exec.fence("ktext::suffix_array: initial groups listed");
    long_entries = counted[0];
    long_listed = std::size_t(counted[1]) <= long_capacity;
    if (long_listed) read_listing(std::size_t(counted[1]));
    back_listed = back_data && back_apart;
    release_counted(mem, head_store);
  }
  // The singletons' final entries; the other slots are rewritten when their groups split.
  if constexpr (narrow) widen_in_place<ExecSpace, O, I>(exec, sa.data(), std::uint64_t(n));
  while (m > 0) {
    if (h >= text_n) throw Error("ktext::suffix_array: internal error, groups left unsorted at h >= n");
    ++stats.rounds;
    report("doubling", h, std::uint64_t(m));
    const Unmanaged<I, ExecSpace> vals(vals_data, m);
    const NextRank<decltype(isa), Layout, K> next_rank{isa, layout, h};
    using U = Unmanaged<I, ExecSpace>;
    using Group = GroupRank<decltype(isa), I, K>;
    auto gather_group_rank = [&](const U& from, const U& to, I low, const std::uint8_t* back = nullptr) {
      Kokkos::parallel_for("ktext::suffix_array::group_rank", Policy(exec, 0, from.extent(0)),
                           GatherRank<Group, U, U>{Group{isa, low}, from, to, back});
    };
    auto gather_next_rank = [&](const U& from, const U& to) {
      Kokkos::parallel_for("ktext::suffix_array::next_rank", Policy(exec, 0, from.extent(0)),
                           GatherRank<decltype(next_rank), U, U>{next_rank, from, to});
    };

    // Groups are sorted independently, so the round runs over batches of whole groups and the
    // scratch holds one batch: under m/6 entries, or one larger group. Ranks written by an
    // earlier batch are read by later ones; every group is then seen either wholly before or
    // wholly after its split, and both are consistent with the order (Larsson–Sadakane update
    // ranks in place for the same reason), so this only speeds convergence.
    // 28 parts with a wider output: its scratch then stays within n bytes (the peak 18n).
    I chunk = batch_size<I>(n, m, options.batch_entries, I(segmented ? 14 : 12) * I(narrow ? 2 : 1));
    // Scratch already held (the free part of the spare, DC3's output, or an arena an earlier
    // round grew) costs nothing more: stretches as large as it holds (a batch of under two
    // stretches needs 6 entries per stretch entry, 7 with the segmented sort's offsets). Fewer
    // batches launch fewer, fuller sorts: on an H100, 50 MB of source code took 27.6 ms in 8
    // batches in its first round and 1 from the fourth, against 30.1-31.1 ms in stretches of a
    // twelfth (12 in the first round, 4 in the fourth), with the same peak (perf/README,
    // 2026-11-25).
    if (options.batch_entries == 0) {
      const std::size_t held = arena_entries > 2 ? (arena_entries - 2) / (segmented ? 7 : 6) : 0;
      if (held > std::size_t(chunk)) chunk = I(std::min(held, std::size_t(m)));
    }
    const Batches<I> batches = batch_cuts(exec, vals, isa, m, chunk, stretch_starts);
    const I group_limit = static_cast<I>(std::min<std::uint64_t>(
        options.segmented_group_limit > 0 ? options.segmented_group_limit : default_segmented_group_limit(exec, chunk),
        std::uint64_t(n)));
    const std::vector<I>& cuts = batches.cuts;
    std::size_t need = 0;  // arena entries
    for (std::size_t b = 0; b + 1 < cuts.size(); ++b) {
      const std::size_t len = std::size_t(cuts[b + 1] - cuts[b]);
      // A group alone needs 2 bytes per entry, which a wider output's own slots hold.
      need = std::max(need, batches.alone[b] ? (narrow ? 0 : (2 * len + sizeof(I) - 1) / sizeof(I))
                                              : 3 * len + (segmented ? len / 2 + 2 : 0));
    }
    if (need > arena_entries) {
      release_counted(mem, arena_store);
      arena_store = counted_view<I>(exec, mem, "ktext::suffix_array::scratch", need);
      arena = arena_store.data();
      arena_entries = need;
    }
    if (kept_capacity < cuts.size()) hold_counts(std::max(cuts.size(), 2 * kept_capacity));
    const Unmanaged<I, ExecSpace> kept(counts_store.data() + 2, cuts.size());
    I* const long_counts = tiles ? counts_store.data() : nullptr;
    I* const long_listing = counts_store.data() + 2 + kept_capacity;
    const bool tile_round = tiles && long_entries == 0;
    if (tile_round) ++stats.tile_rounds;
    // Each batch's path: its longer groups, if any, sorted apart where the batch's own scratch
    // holds them (their table: the groups' first entries in the batch, then their offsets among
    // the gathered entries) and a round's batches all of them; else the radix sorts.
    enum class Path : char { radix, tiles, apart };
    struct BatchPath {
      Path path;
      std::size_t table_at = 0, groups = 0, entries = 0;  // where apart: its part of the table
    };
    std::vector<BatchPath> paths(cuts.size() - 1, BatchPath{tile_round ? Path::tiles : Path::radix});
    if (!tile_round && tiles && long_listed) {
      std::vector<I> table;
      std::size_t at = 0;  // the first listed group not before the batch
      for (std::size_t b = 0; b + 1 < cuts.size(); ++b) {
        if (batches.alone[b]) continue;
        const I first = cuts[b], len = cuts[b + 1] - cuts[b];
        while (at < long_list.size() && long_list[at].first < first) ++at;
        std::size_t k = at, entries = 0;
        for (; k < long_list.size() && long_list[k].first < first + len; ++k) entries += std::size_t(long_list[k].second);
        const std::size_t groups = k - at;
        if (groups == 0) {
          paths[b].path = Path::tiles;
        } else if (long_groups_scratch_bytes<Unmanaged<I, ExecSpace>>(entries) <= std::size_t(len) * sizeof(I) &&
                   rank_bits + bit_width(std::uint64_t(groups)) <= 64) {
          paths[b] = BatchPath{Path::apart, table.size(), groups, entries};
          for (std::size_t q = at; q < k; ++q) table.push_back(long_list[q].first - first);
          I offset = 0;
          for (std::size_t q = at; q < k; ++q) {
            table.push_back(offset);
            offset += long_list[q].second;
          }
          table.push_back(offset);
        }
        at = k;
      }
      if (!table.empty()) {
        if (long_table_store.extent(0) < table.size()) {
          release_counted(mem, long_table_store);
          long_table_store = counted_view<I>(exec, mem, "ktext::suffix_array::long_table", table.size());
        }
        // From pageable memory: the copy returns once it has taken the table, so no wait here.
        Kokkos::deep_copy(exec, Unmanaged<I, ExecSpace>(long_table_store.data(), table.size()),
                          Kokkos::View<const I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(table.data(), table.size()));
      }
      for (const BatchPath& p : paths) stats.long_group_batches += p.path == Path::apart ? 1 : 0;
    }
    // The group_back bytes cost the scan a byte per kept entry (a sixth of its time on a versioned
    // collection, H200): written where this round sorts in tiles, since the next one then does
    // too; a round of radix sorts only (the first ones of most texts) often leaves another. The
    // segmented rounds (hosts) write them in every round: a byte written in order there against
    // a read at random per entry saved in the next.
    const bool write_back = back_data && (segmented || std::any_of(paths.begin(), paths.end(), [](const BatchPath& p) {
                                            return p.path != Path::radix;
                                          }));
    if (tiles) Kokkos::deep_copy(exec, Unmanaged<I, ExecSpace>(long_counts, 2), I(0));
    I alone_kept = 0;  // kept by groups sorted alone, counted as long ones
    for (std::size_t b = 0; b + 1 < cuts.size(); ++b) {
      const I first = cuts[b], len = cuts[b + 1] - cuts[b];
      const I low = batches.low[b];  // group ranks are gathered relative to it
      const Unmanaged<I, ExecSpace> v(vals.data() + first, len);
      if (batches.alone[b]) {
        // A group this large is rare (A^n, short periods) and its sort waits anyway: it takes
        // the place of its kept entries on the host.
        I at = 0;
        Kokkos::deep_copy(exec, Kokkos::View<I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&at, 1),
                          Unmanaged<I, ExecSpace>(kept.data() + b, 1));
        exec.fence("ktext::suffix_array: kept before a group sorted alone");
        const I count = sort_one_group(exec, v, Unmanaged<I, ExecSpace>(vals.data() + at, len), isa, sa.data(),
                                       next_rank, reinterpret_cast<std::uint8_t*>(arena), rank_bits);
        alone_kept += count;
        Kokkos::parallel_for("ktext::suffix_array::add_kept", Policy(exec, 0, 1),
                             AddKept<Unmanaged<I, ExecSpace>, I>{kept, I(b), count});
        continue;
      }
      const Unmanaged<I, ExecSpace> vtmp(arena + 2 * std::size_t(len), len);
      const Unmanaged<K, ExecSpace> buf_a(reinterpret_cast<K*>(arena), len);
      const Unmanaged<K, ExecSpace> buf_b(reinterpret_cast<K*>(arena + len), len);
      // The group rank (first slot) of each entry, which a sort inside groups leaves in place,
      // then the groups and whether one is too long for the segmented sort.
      const CountGroups<decltype(buf_b), I> count{buf_b, len, group_limit};
      I groups = 0, long_groups = 1;
      const Path path = paths[b].path;
      if (segmented && path == Path::radix) {
        gather_group_rank(v, buf_b, low, back_listed ? back_data + first : nullptr);
        Kokkos::parallel_reduce("ktext::suffix_array::count_groups", Policy(exec, 0, len), count, groups, long_groups);
      }
      // New ranks, finished entries and the compaction in one scan over the batch in sorted order.
      // The kept entries of this batch land at or before its start: straight there when the
      // sorted entries lie in the scratch, else through the scratch, since the scan still reads
      // entries the writes would overwrite.
      auto scan_round = [&](const auto& round, const U& sorted) {
        using Groups = std::decay_t<decltype(round)>;
        const bool staged = sorted.data() == v.data();
        ktext::inclusive_scan_apply<StartHead<I>>(
            exec, std::size_t(len), RoundMarks<Groups, I>{round}, JoinRoundMarks<I>{},
            WriteRoundRank<Groups, U, decltype(isa), decltype(sa), I>{round,
                                                                      sorted,
                                                                      isa,
                                                                      sa,
                                                                      staged ? vtmp : vals,
                                                                      kept,
                                                                      I(b),
                                                                      staged,
                                                                      low,
                                                                      long_counts,
                                                                      long_listing,
                                                                      I(tile_limit),
                                                                      I(long_capacity),
                                                                      write_back ? back_data : nullptr});
        if (staged)
          Kokkos::parallel_for("ktext::suffix_array::copy_kept", Policy(exec, 0, len),
                               CopyStaged<U, I>{vtmp, vals, kept, I(b)});
      };
      if (path != Path::radix) {
        // Group and next ranks in one pass, then each short group sorted in its tile and the
        // longer ones (Path::apart) gathered, sorted, put back. Both write the sorted entries into
        // the scratch, which then holds every entry, so the scan puts the kept ones straight in
        // their place, with no copy after it (CopyStaged took 1.6 of a versioned collection's 57
        // ms of kernels on an H200, one launch a batch). Where the arena has no room for the
        // longer groups' sort past the scratch, both sort in place, the longer groups' sort in the
        // scratch, and the scan's kept entries go through it.
        const std::uint8_t* const back = back_listed ? back_data + first : nullptr;
        Kokkos::parallel_for("ktext::suffix_array::group_and_next_rank", Policy(exec, 0, len),
                             GatherGroupAndNext<Group, decltype(next_rank), U, Unmanaged<K, ExecSpace>>{
                                 Group{isa, low}, next_rank, v, buf_b, buf_a, back});
        const BatchPath& p = paths[b];
        const std::size_t apart_entries =
            path == Path::apart
                ? (long_groups_scratch_bytes<U>(p.entries) + 2 * sizeof(I) - 1) / sizeof(I)  // and its alignment
                : 0;
        const bool out_of_place = 3 * std::size_t(len) + apart_entries <= arena_entries;
        tile_sort_groups(exec, v, buf_b, buf_a, tile_limit, out_of_place ? vtmp : v);
        if (path == Path::apart) {
          const U starts(long_table_store.data() + p.table_at, p.groups);
          const U offsets(starts.data() + p.groups, p.groups + 1);
          sort_long_groups(exec, starts, offsets, p.groups, p.entries, v, buf_a, rank_bits,
                           out_of_place ? arena + 3 * std::size_t(len) : vtmp.data(), out_of_place ? vtmp : v);
        }
        scan_round(RoundGroups<Unmanaged<K, ExecSpace>, I>{buf_b, buf_a, len}, out_of_place ? vtmp : v);
        continue;
      }
      if (long_groups == 0) {
        // Short groups only: one segmented sort by the next rank, the segments being the groups.
        using Off = GroupOffset<I>;
        const Unmanaged<Off, ExecSpace> offsets(reinterpret_cast<Off*>(arena + 3 * std::size_t(len)),
                                                std::size_t(groups) + 1);
        ktext::select_indices(exec, std::size_t(len) + 1, offsets,
                              KOKKOS_LAMBDA(std::size_t j) { return j == std::size_t(len) || count.starts(I(j)); });
        gather_next_rank(v, buf_a);
        // The vendor sort uses the other buffers as scratch, so the group ranks are gathered again.
        constexpr bool regather = has_vendor_segmented_sort<ExecSpace, Off, K, I>;
        Unmanaged<K, ExecSpace> g = buf_b, r = buf_a;  // group ranks and next ranks, in sorted order
        U sorted = v;
        if (impl::segmented_sort_pairs_in_either(exec, Unmanaged<const Off, ExecSpace>(offsets.data(), offsets.extent(0)),
                                                 buf_a, v, buf_b, vtmp)) {
          g = buf_a, r = buf_b, sorted = vtmp;
        }
        if constexpr (regather)
          gather_group_rank(sorted, g, low);
        scan_round(RoundGroups<Unmanaged<K, ExecSpace>, I>{g, r, len}, sorted);
        continue;
      }
      // Stable by the next rank, then stable by the group: sorted inside each group. Each sort
      // leaves its result where its last pass wrote it (an odd pass count would cost two
      // copies), and the second sorts only the bits of the batch's span of group ranks (a
      // twelfth of the unsorted entries of 50 MB of text spans about 2^22: 3 byte passes where
      // the next ranks need 4).
      U keys = buf_a, keys_other = buf_b, order = v, order_other = vtmp;
      auto sort = [&](int begin_bit, int end_bit) {
        if (impl::sort_pairs_in_either(exec, keys, order, keys_other, order_other, begin_bit, end_bit)) {
          std::swap(keys, keys_other);
          std::swap(order, order_other);
        }
      };
      gather_next_rank(v, keys);
      sort(0, rank_bits);
      const int span_bits = std::min(rank_bits, bit_width(std::uint64_t(batches.high[b] - low)));
      if (span_bits < int(8 * sizeof(K))) {
        // The group keys carry a tie bit (TiedGroupKey), so the scan needs no second gather of
        // the next ranks: one random read per entry less.
        Kokkos::parallel_for("ktext::suffix_array::tied_group_key", Policy(exec, 0, len),
                             TiedGroupKey<decltype(isa), U, U, I>{isa, order, keys, keys_other, low});
        std::swap(keys, keys_other);
        sort(1, span_bits + 1);
        scan_round(TiedRoundGroups<U, I>{keys, len}, order);
      } else {
        // No bit to spare (a span of 2^31 ranks or more: 2^31 elements or more with 32-bit work
        // indices, so DC3's sample past 3.2e9 symbols): the next ranks are gathered again in the
        // sorted order.
        gather_group_rank(order, keys, low);
        sort(0, span_bits);
        gather_next_rank(order, keys_other);
        scan_round(RoundGroups<U, I>{keys, keys_other, len}, order);
      }
    }
    const I before = m;
    // The counts, and where this round started with longer groups listed (the next likely lists
    // some too), the list with them, room for twice as many: one copy and one wait instead of
    // two. Each second wait left the device idle for 50-60 us (a versioned collection's first
    // rounds, CUPTI trace on an H200).
    const std::size_t kept_end = 2 + cuts.size();
    const std::size_t guess = long_list.empty() ? 0 : std::min(long_capacity, 2 * long_list.size() + 16);
    counts_host.resize(guess > 0 ? 2 + kept_capacity + 2 * guess : kept_end);
    Kokkos::deep_copy(exec, Kokkos::View<I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(counts_host.data(), counts_host.size()),
                      Unmanaged<I, ExecSpace>(counts_store.data(), counts_host.size()));
    exec.fence("ktext::suffix_array: entries kept");
    m = counts_host[kept_end - 1];
    long_entries = (tiles ? counts_host[0] : I(0)) + alone_kept;
    // Groups sorted alone split in ways no list holds.
    const std::size_t listed = tiles ? std::size_t(counts_host[1]) : 0;
    long_listed = alone_kept == 0 && listed <= long_capacity;
    back_listed = write_back && alone_kept == 0;  // a group sorted alone writes no group_back
    read_listing(long_listed && m > 0 ? listed : 0, listed <= guess ? counts_host.data() + 2 + kept_capacity : nullptr);
    h *= 2;
    // Groups that stay large: count them (one gather per entry) where a reduction may follow,
    // which the sorted elements alone can rule out: each takes a name (a versioned collection's
    // near-copies keep most of the sample unsorted, but the rest outnumber 2^21).
    if (names_out && m > 0 && options.sample_reduction != SampleReduction::never &&
        std::uint64_t(n - m) < reduce_name_limit &&
        (options.sample_reduction != SampleReduction::automatic ||
         (m >= n / 2 && std::uint64_t(m) * 8 >= std::uint64_t(before) * 7))) {
      // A lower bound first, from every 16th entry: reduce_sample() wants fewer groups, so it
      // rules out most rounds that cannot reduce (groups of a few entries, as in a versioned
      // collection, which took 2 ms a round to count in full on an H100) with a sixteenth of
      // the reads.
      using Count = CountActiveGroups<Unmanaged<I, ExecSpace>, decltype(isa), I>;
      const Count count{Unmanaged<I, ExecSpace>(vals_data, m), isa};
      constexpr I stride = 16;
      I least = 0, groups = 0;
      Kokkos::parallel_reduce("ktext::suffix_array::count_sampled_groups", Policy(exec, 0, (m - 1) / stride + 1),
                              Count{count.vals, isa, stride}, least);
      if (reduce_sample(options.sample_reduction, stats.rounds, text_n, n, m, least)) {
        Kokkos::parallel_reduce("ktext::suffix_array::count_active_groups", Policy(exec, 0, m), count, groups);
        if (reduce_sample(options.sample_reduction, stats.rounds, text_n, n, m, groups)) {
          *names_out = std::uint64_t(n - m) + groups;
          break;
        }
      }
    }
  }
  if constexpr (Layout::step == 1) report("done", h, 0);  // else the caller goes on
  // Also before the scratch views leave scope: kernels and copies on exec may still use them.
  exec.fence("ktext::suffix_array: done");
  release_counted(mem, arena_store);
  release_counted(mem, vals_store);
  release_counted(mem, counts_store);
  release_counted(mem, long_table_store);
  if (isa_out && !isa_held) *isa_out = isa;
  stats.peak_bytes = mem.peak();
  return stats;
}

}  // namespace ktext::impl
