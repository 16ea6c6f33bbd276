// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file fm_index.hpp
/// \brief FM-index of a byte text: counts and locates exact (overlapping) occurrences of
/// patterns by backward search \cite FerraginaManzini2000.
///
/// The index holds the BWT of T$ as an occurrence table (impl/ktext_fm_occ.hpp: bit-sliced
/// codes with sampled counts) or, with FMOccurrences::wavelet_matrix, as a wavelet matrix, and
/// the suffix-array entries of the rows whose text position is a multiple of the sample rate s
/// (impl/ktext_fm_samples.hpp). Rows are those of T$: row 0 is
/// the empty suffix (position n), so a search range lies in [0, n + 1) and the empty pattern
/// matches at every position 0..n, as Python's str.count counts it.
///
/// Like every ktext structure it holds only views: copy it into a kernel and call
/// backward_step(), find() or locate() there; the batched count() and locate() do exactly that.
///
/// Space, bytes per text symbol: the occurrence table (0.28 for DNA, 1.66 for English text with
/// 99 byte values, 3.03 with all 256) or the wavelet matrix (ceil(log2 sigma) / 8 plus 4.8%),
/// plus ceil(log2(n / s + 1)) / (8 s) for the samples (0.08 at s = 32 for a text of 40 MB) and
/// their marks: 0.13 with the table (a bit per row and its rank directory, one word per locate
/// step), (2 + log2 s) / (8 s) with the wavelet matrix (Elias–Fano, about three words per
/// step). For 40 MB of English at s = 32: 1.87 in all with the table, 1.03 with the wavelet
/// matrix.
/// Building holds the suffix array's working memory (suffix_array_peak_bytes_bound) plus the
/// BWT and the table. A count costs two rank queries per pattern symbol; a locate adds at most
/// s - 1 LF steps per occurrence.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/scan.hpp"
#include "ktext/primitives/segmented_sort.hpp"
#include "ktext/suffix/bwt.hpp"
#include "ktext/suffix/impl/ktext_fm_occ.hpp"
#include "ktext/suffix/impl/ktext_fm_samples.hpp"
#include "ktext/suffix/suffix_array.hpp"

namespace ktext {

namespace impl {
/// The symbols of a view from \c begin on, indexable like a pointer.
template <class View>
struct ViewSlice {
  View view;
  std::uint64_t begin;
  KOKKOS_INLINE_FUNCTION auto operator[](std::uint64_t k) const { return view(begin + k); }
};

/// Validates the batched pattern arguments of FMIndex::count/locate; returns the number of
/// patterns. A free function: nvcc rejects device lambdas inside private member functions.
template <class MemorySpace, class ExecSpace, class PatternView, class OffsetView>
std::uint64_t check_patterns(const ExecSpace& exec, const PatternView& patterns, const OffsetView& offsets, const char* what) {
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                "ktext::FMIndex: the index must be accessible from the execution space");
  static_assert(is_rank1_view_v<PatternView> && is_rank1_view_v<OffsetView>,
                "ktext::FMIndex: patterns and offsets must be rank-1 views");
  static_assert(accessible_from_v<ExecSpace, PatternView> && accessible_from_v<ExecSpace, OffsetView>,
                "ktext::FMIndex: patterns and offsets must be accessible from the execution space");
  static_assert(std::is_same_v<typename PatternView::non_const_value_type, std::uint8_t>,
                "ktext::FMIndex: patterns must hold uint8_t symbols");
  static_assert(std::is_integral_v<typename OffsetView::non_const_value_type>, "ktext::FMIndex: offsets must be integers");
  if (offsets.extent(0) == 0) throw InputError(std::string(what) + ": offsets needs P + 1 entries (at least one)");
  const std::uint64_t num = offsets.extent(0) - 1;
  const std::uint64_t length = patterns.extent(0);
  std::uint64_t bad = 0;
  Kokkos::parallel_reduce(
      "ktext::FMIndex::check_offsets", impl::Range<ExecSpace>(exec, 0, num + 1),
      KOKKOS_LAMBDA(std::uint64_t i, std::uint64_t & b) {
        // A negative offset converts to a huge one and fails the length test.
        const std::uint64_t o = std::uint64_t(offsets(i));
        if (o > length || (i < num && std::uint64_t(offsets(i + 1)) < o)) ++b;
      },
      bad);
  if (bad != 0)
    throw InputError(std::string(what) + ": offsets must be non-decreasing and within the " + std::to_string(length) +
                     " pattern symbols");
  return num;
}

}  // namespace impl

struct FMIndexOptions {
  /// Every s-th text position keeps its suffix-array entry; a locate walks at most s - 1 LF
  /// steps. 1 keeps the whole suffix array.
  std::uint32_t sample_rate = 32;
  /// How the occurrence counts are stored: the table (fastest) or a wavelet matrix (smallest).
  FMOccurrences occurrences = FMOccurrences::table;
  /// Passed to the suffix-array construction (progress reports, batch size).
  SuffixArrayOptions suffix_array;
};

/// \brief Result of a batched locate: the positions of pattern i are
/// positions[offsets[i], offsets[i + 1]), ascending. Only an index loaded from an inconsistent
/// file (fm_index_file.hpp) yields FMIndex::invalid_position among them, and it sorts last.
template <class MemorySpace, class Index>
struct FMIndexOccurrences {
  Kokkos::View<std::int64_t*, MemorySpace> offsets;
  Kokkos::View<Index*, MemorySpace> positions;
};

/// \brief FM-index over bytes.
/// \tparam MemorySpace where the index lives; queries run on execution spaces that can read it.
/// \tparam Index int32_t (n < 2^31) or int64_t: the type of sampled and reported positions.
template <class MemorySpace, class Index = std::int32_t>
class FMIndex {
  static_assert(Kokkos::is_memory_space_v<MemorySpace>, "ktext::FMIndex: MemorySpace must be a Kokkos memory space");
  static_assert(is_index_type_v<Index>, "ktext::FMIndex: Index must be int32_t or int64_t");

 public:
  using memory_space = MemorySpace;
  using index_type = Index;

  /// \brief Half-open range [begin, end) of rows of the sorted suffixes of T$.
  struct Range {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t count() const { return end - begin; }
    [[nodiscard]] KOKKOS_INLINE_FUNCTION bool empty() const { return end <= begin; }
  };

  /// \brief Position locate() reports for a row whose LF walk finds no sample within s steps.
  /// Only an inconsistent index (a hand-made file) can produce it.
  static constexpr Index invalid_position = Index(-1);

  FMIndex() = default;

  /// \brief Builds the index of \p text (uint8_t symbols, accessible from \p exec). Waits.
  /// \throws InputError for a sample rate of 0 or n too large for Index;
  ///         OutOfMemoryError when the memory space cannot hold the construction.
  /// \complexity that of suffix_array(), then O(n) work for the BWT, the samples and the
  /// occurrence table.
  template <class ExecSpace, class TextView>
  FMIndex(const ExecSpace& exec, const TextView& text, const FMIndexOptions& options = {}) {
    static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext::FMIndex: first argument must be an execution space");
    static_assert(impl::is_rank1_view_v<TextView>, "ktext::FMIndex: text must be a rank-1 view");
    static_assert(std::is_same_v<typename TextView::non_const_value_type, std::uint8_t>,
                  "ktext::FMIndex: the text must hold uint8_t symbols");
    static_assert(impl::accessible_from_v<ExecSpace, TextView>, "ktext::FMIndex: text must be accessible from the execution space");
    static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                  "ktext::FMIndex: MemorySpace must be accessible from the execution space");
    if (options.sample_rate == 0) throw InputError("ktext::FMIndex: the sample rate must be at least 1");
    const std::uint64_t n = text.extent(0);
    require_index_fits<Index>(n, "ktext::FMIndex");
    impl::translate_out_of_memory("ktext::FMIndex", [&] {
      const auto bwt_symbols = impl::uninitialized_view<std::uint8_t, MemorySpace>(exec, "ktext::FMIndex::bwt", n);
      {
        const auto sa = impl::uninitialized_view<Index, MemorySpace>(exec, "ktext::FMIndex::sa", n);
        suffix_array(exec, text, sa, options.suffix_array);
        primary_ = bwt_from_suffix_array(exec, text, sa, bwt_symbols);
        samples_ = impl::sample_suffix_array<MemorySpace, Index>(
            exec, sa, options.sample_rate, options.occurrences == FMOccurrences::wavelet_matrix);
      }
      std::uint64_t histogram[256];
      occ_ = impl::build_fm_occurrences<MemorySpace>(exec, bwt_symbols, options.occurrences, histogram);
      set_totals(exec, histogram);
    });
  }

  /// \brief As above on the default instance of MemorySpace's execution space; waits.
  template <class TextView, class = std::enable_if_t<Kokkos::is_view_v<TextView>>>
  explicit FMIndex(const TextView& text, const FMIndexOptions& options = {})
      : FMIndex(typename MemorySpace::execution_space{}, text, options) {
    typename MemorySpace::execution_space{}.fence("ktext::FMIndex");
  }

  /// \brief Assembles an index from its stored parts, as read from a file (fm_index_file.hpp):
  /// the n BWT symbols and primary index, the sample rate, the mark words and sampled
  /// positions (marks: at least floor((n + 1) / 64) + 1 words). Rebuilds the counts as
  /// \p occurrences. The caller has checked the parts' consistency. Waits.
  template <class ExecSpace, class BwtView, class MarksView, class SamplesView>
  static FMIndex from_parts(const ExecSpace& exec, const BwtView& bwt_symbols, std::uint64_t primary, std::uint32_t rate,
                            const MarksView& marks, const SamplesView& samples,
                            FMOccurrences occurrences = FMOccurrences::table) {
    static_assert(Kokkos::is_execution_space_v<ExecSpace>,
                  "ktext::FMIndex::from_parts: first argument must be an execution space");
    if (rate == 0) throw InputError("ktext::FMIndex::from_parts: the sample rate must be at least 1");
    FMIndex f;
    f.primary_ = primary;
    impl::translate_out_of_memory("ktext::FMIndex::from_parts", [&] {
      f.samples_ = impl::stored_samples<MemorySpace, Index>(exec, marks, samples, bwt_symbols.extent(0), rate,
                                                            occurrences == FMOccurrences::wavelet_matrix);
      std::uint64_t histogram[256];
      f.occ_ = impl::build_fm_occurrences<MemorySpace>(exec, bwt_symbols, occurrences, histogram);
      f.set_totals(exec, histogram);
    });
    return f;
  }

  /// \brief As above on the default instance of MemorySpace's execution space; waits.
  template <class BwtView, class MarksView, class SamplesView>
  static FMIndex from_parts(const BwtView& bwt_symbols, std::uint64_t primary, std::uint32_t rate,
                            const MarksView& marks, const SamplesView& samples,
                            FMOccurrences occurrences = FMOccurrences::table) {
    using Exec = typename MemorySpace::execution_space;
    FMIndex f = from_parts(Exec{}, bwt_symbols, primary, rate, marks, samples, occurrences);
    Exec{}.fence("ktext::FMIndex::from_parts");
    return f;
  }

  /// \brief Text length n.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t size() const { return occ_.n; }
  /// \brief Row of the suffix starting at position 0 (the sentinel's row of the BWT), in [1, n]; 0 when n = 0.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint64_t primary_index() const { return primary_; }
  /// \brief Sample rate s.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION std::uint32_t sample_rate() const { return samples_.rate; }
  /// \brief Number of distinct byte values in the text.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION int alphabet_size() const { return occ_.sigma; }
  /// \brief How the occurrence counts are stored.
  [[nodiscard]] FMOccurrences occurrences() const { return occ_.kind; }
  /// \brief Bytes held in the memory space.
  [[nodiscard]] std::size_t bytes() const { return occ_.bytes() + samples_.bytes() + totals_.span() * 8; }

  /// \brief All n + 1 rows: the range of the empty pattern.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION Range all() const { return Range{0, occ_.n + 1}; }

  /// \brief One backward-search step: the rows of the suffixes that start with c followed by
  /// the prefix \p r stands for. An empty range stays empty.
  /// \complexity O(1): two rank queries, each at most four word scans.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION Range backward_step(Range r, std::uint8_t c) const {
    const int code = occ_.code_of(c);
    if (code < 0 || r.empty()) return Range{0, 0};
    const std::uint64_t base = totals_(code);
    return Range{base + rank_rows(code, r.begin), base + rank_rows(code, r.end)};
  }

  /// \brief The rows of the suffixes starting with pattern[0, m); its count() is the number of
  /// occurrences. \p pattern must be readable where this runs.
  /// \complexity O(m): at most m backward_step() calls.
  template <class Pattern>
  [[nodiscard]] KOKKOS_INLINE_FUNCTION Range find(const Pattern& pattern, std::uint64_t m) const {
    Range r = all();
    for (std::uint64_t k = m; k > 0 && !r.empty(); --k) r = backward_step(r, std::uint8_t(pattern[k - 1]));
    return r;
  }

  /// \brief Text position of the suffix in row \p row (row < n + 1), or invalid_position when
  /// the walk finds no sample where a consistent index has one.
  /// \complexity O(min(s, n + 1)): at most s - 1 LF steps, each one rank query, and never more
  /// than n, whatever a loaded file says.
  [[nodiscard]] KOKKOS_INLINE_FUNCTION Index locate(std::uint64_t row) const {
    std::uint32_t steps = 0;
    std::uint64_t k = 0;
    while (!samples_.find(row, k)) {
      // Row primary (position 0) is always sampled and every walk reaches position 0 within n
      // steps, so a consistent index never stops here; a forged one (BWT bytes swapped, a huge
      // rate) would otherwise walk a foreign cycle for up to 2^32 steps per occurrence.
      if (steps >= samples_.rate || steps > occ_.n || row == primary_) return invalid_position;
      const std::uint64_t j = row - (row > primary_ ? 1 : 0);
      const int code = occ_.code_at(j);
      row = totals_(code) + occ_.rank(code, j);
      ++steps;
    }
    return samples_.position(k) + Index(steps);
  }

  /// \brief counts[i] = occurrences of pattern i, for patterns[offsets[i], offsets[i + 1]).
  /// Checks the offsets (one reduction, which waits); the search itself does not block.
  /// \param exec the execution space instance; the views must be accessible from it.
  /// \param patterns uint8_t view with the patterns back to back.
  /// \param offsets P + 1 non-decreasing integers ending within patterns.
  /// \param counts P uint64_t entries.
  /// \complexity O(P + total pattern length) work: find() per pattern, one thread each.
  template <class ExecSpace, class PatternView, class OffsetView, class CountView>
  void count(const ExecSpace& exec, const PatternView& patterns, const OffsetView& offsets, const CountView& counts) const {
    static_assert(impl::accessible_from_v<ExecSpace, CountView> && impl::is_rank1_view_v<CountView>,
                  "ktext::FMIndex::count: counts must be a rank-1 view accessible from the execution space");
    static_assert(std::is_same_v<typename CountView::value_type, std::uint64_t>, "ktext::FMIndex::count: counts must hold uint64_t");
    const std::uint64_t num = impl::check_patterns<MemorySpace>(exec, patterns, offsets, "ktext::FMIndex::count");
    if (counts.extent(0) != num)
      throw InputError("ktext::FMIndex::count: counts has " + std::to_string(counts.extent(0)) + " entries for " +
                       std::to_string(num) + " patterns");
    const FMIndex self = *this;
    Kokkos::parallel_for(
        "ktext::FMIndex::count", impl::Range<ExecSpace>(exec, 0, num), KOKKOS_LAMBDA(std::uint64_t i) {
          const std::uint64_t b = std::uint64_t(offsets(i));
          counts(i) = self.find(impl::ViewSlice<PatternView>{patterns, b}, std::uint64_t(offsets(i + 1)) - b).count();
        });
  }

  /// \brief As above on the default instance of MemorySpace's execution space; waits for the counts.
  template <class PatternView, class OffsetView, class CountView>
  void count(const PatternView& patterns, const OffsetView& offsets, const CountView& counts) const {
    using Exec = typename MemorySpace::execution_space;
    count(Exec{}, patterns, offsets, counts);
    Exec{}.fence("ktext::FMIndex::count");
  }

  /// \brief Every occurrence of every pattern, positions ascending per pattern (same pattern
  /// arguments as count()). Waits: the output is sized by the counts.
  /// \complexity O(m) per pattern, up to s - 1 LF steps per occurrence, a segmented sort.
  template <class ExecSpace, class PatternView, class OffsetView>
  [[nodiscard]] FMIndexOccurrences<MemorySpace, Index> locate(const ExecSpace& exec, const PatternView& patterns,
                                                               const OffsetView& offsets) const {
    using U = std::make_unsigned_t<Index>;
    const std::uint64_t num = impl::check_patterns<MemorySpace>(exec, patterns, offsets, "ktext::FMIndex::locate");
    FMIndexOccurrences<MemorySpace, Index> out;
    try {
      out.offsets = impl::zeroed_view<std::int64_t, MemorySpace>(exec, "ktext::FMIndex::locate_offsets", num + 1);
      auto occ = out.offsets;
      const auto begins =
          impl::uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::locate_begins", num);
      const FMIndex self = *this;
      Kokkos::parallel_for(
          "ktext::FMIndex::locate_find", impl::Range<ExecSpace>(exec, 0, num), KOKKOS_LAMBDA(std::uint64_t i) {
            const std::uint64_t b = std::uint64_t(offsets(i));
            const Range r = self.find(impl::ViewSlice<PatternView>{patterns, b}, std::uint64_t(offsets(i + 1)) - b);
            begins(i) = r.begin;
            occ(i) = std::int64_t(r.count());
          });
      const auto head = Kokkos::subview(occ, Kokkos::make_pair(std::uint64_t(0), num));
      const std::int64_t total = num == 0 ? 0 : ktext::exclusive_scan(exec, head, head);
      // A copy, not a fill: a fill would run Kokkos' own kernel, which carries no ktext label.
      Kokkos::deep_copy(exec, Kokkos::subview(occ, num),
                        Kokkos::View<const std::int64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&total));
      // Sorting unsigned keys carries the positions along as values: they come out sorted.
      const auto keys =
          impl::uninitialized_view<U, MemorySpace>(exec, "ktext::FMIndex::locate_keys", std::size_t(total));
      out.positions =
          impl::uninitialized_view<Index, MemorySpace>(exec, "ktext::FMIndex::positions", std::size_t(total));
      auto positions = out.positions;
      Kokkos::parallel_for(
          "ktext::FMIndex::locate", impl::Range<ExecSpace>(exec, 0, std::uint64_t(total)),
          KOKKOS_LAMBDA(std::uint64_t k) {
            // The pattern owning occurrence k: the last i with occ(i) <= k (empty patterns skipped).
            std::uint64_t lo = 0, hi = num;
            while (hi - lo > 1) {
              const std::uint64_t mid = lo + (hi - lo) / 2;
              if (std::uint64_t(occ(mid)) <= k)
                lo = mid;
              else
                hi = mid;
            }
            Index pos = self.locate(begins(lo) + (k - std::uint64_t(occ(lo))));
            // An occurrence of m symbols ends within the text; only a forged file breaks this.
            const std::uint64_t m = std::uint64_t(offsets(lo + 1)) - std::uint64_t(offsets(lo));
            if (pos != invalid_position && std::uint64_t(pos) + m > self.size()) pos = invalid_position;
            keys(k) = U(pos);  // invalid_position sorts last
            positions(k) = pos;
          });
      segmented_sort_pairs(exec, occ, keys, positions);
      exec.fence("ktext::FMIndex::locate");
    } catch (const std::bad_alloc& e) {
      impl::throw_out_of_memory("ktext::FMIndex::locate", e);
    }
    return out;
  }

  /// \brief As above on the default instance of MemorySpace's execution space; waits.
  template <class PatternView, class OffsetView>
  [[nodiscard]] FMIndexOccurrences<MemorySpace, Index> locate(const PatternView& patterns,
                                                              const OffsetView& offsets) const {
    using Exec = typename MemorySpace::execution_space;
    auto out = locate(Exec{}, patterns, offsets);
    Exec{}.fence("ktext::FMIndex::locate");
    return out;
  }

  /// \brief Writes the n BWT symbols (libsais convention, as ktext::bwt) into \p out. Does not block.
  template <class ExecSpace, class OutView>
  void bwt(const ExecSpace& exec, const OutView& out) const {
    static_assert(std::is_same_v<typename OutView::value_type, std::uint8_t> && impl::accessible_from_v<ExecSpace, OutView>,
                  "ktext::FMIndex::bwt: out must be a uint8_t view accessible from the execution space");
    if (out.extent(0) != occ_.n) throw InputError("ktext::FMIndex::bwt: out must hold n symbols");
    const auto occ = occ_;
    Kokkos::parallel_for(
        "ktext::FMIndex::bwt", impl::Range<ExecSpace>(exec, 0, occ_.n),
        KOKKOS_LAMBDA(std::uint64_t i) { out(i) = occ.symbol_of(occ.code_at(i)); });
  }

  /// \brief As above on the default instance of MemorySpace's execution space; waits for the result.
  template <class OutView>
  void bwt(const OutView& out) const {
    using Exec = typename MemorySpace::execution_space;
    bwt(Exec{}, out);
    Exec{}.fence("ktext::FMIndex::bwt");
  }

  /// \brief The sampled-row marks as stored in index files: sample_mark_words(n + 1) words,
  /// bit r of word r / 64 set when row r is sampled. Decoded on \p exec; does not wait.
  /// \throws OutOfMemoryError.
  template <class ExecSpace>
  [[nodiscard]] Kokkos::View<const std::uint64_t*, MemorySpace> sample_marks(const ExecSpace& exec) const {
    const auto words = samples_.mark_words(exec);
    return Kokkos::subview(words, Kokkos::make_pair(std::uint64_t(0), impl::sample_mark_words(occ_.n + 1)));
  }
  /// \brief The positions of the sampled rows in row order. Decoded on \p exec; does not wait.
  /// \throws OutOfMemoryError.
  template <class ExecSpace>
  [[nodiscard]] Kokkos::View<const Index*, MemorySpace> sampled_positions(const ExecSpace& exec) const {
    return impl::translate_out_of_memory("ktext::FMIndex::sampled_positions", [&] {
      const std::uint64_t count = samples_.count();
      const auto out = impl::uninitialized_view<Index, MemorySpace>(exec, "ktext::FMIndex::sampled_positions", count);
      const auto samples = samples_;
      Kokkos::parallel_for(
          "ktext::FMIndex::sampled_positions", impl::Range<ExecSpace>(exec, 0, count),
          KOKKOS_LAMBDA(std::uint64_t k) { out(k) = samples.position(k); });
      return Kokkos::View<const Index*, MemorySpace>(out);
    });
  }
  /// \brief As above on the default instance of MemorySpace's execution space; waits.
  [[nodiscard]] Kokkos::View<const std::uint64_t*, MemorySpace> sample_marks() const {
    using Exec = typename MemorySpace::execution_space;
    const auto out = sample_marks(Exec{});
    Exec{}.fence("ktext::FMIndex::sample_marks");
    return out;
  }
  /// \brief As above on the default instance of MemorySpace's execution space; waits.
  [[nodiscard]] Kokkos::View<const Index*, MemorySpace> sampled_positions() const {
    using Exec = typename MemorySpace::execution_space;
    const auto out = sampled_positions(Exec{});
    Exec{}.fence("ktext::FMIndex::sampled_positions");
    return out;
  }

 private:
  /// Occurrences of \p code in rows [0, row) of the BWT of T$ (the sentinel row has none).
  KOKKOS_INLINE_FUNCTION std::uint64_t rank_rows(int code, std::uint64_t row) const {
    return occ_.rank(code, row - (row > primary_ ? 1 : 0));
  }

  // totals_[c]: rows whose suffix starts with a code below c, the empty suffix included.
  template <class ExecSpace>
  void set_totals(const ExecSpace& exec, const std::uint64_t* histogram) {
    const auto totals =
        impl::uninitialized_view<std::uint64_t, MemorySpace>(exec, "ktext::FMIndex::totals", occ_.sigma + 1);
    auto h = Kokkos::create_mirror_view(totals);
    std::uint64_t running = 1;
    int code = 0;
    for (int c = 0; c < 256; ++c)
      if (histogram[c] != 0) {
        h(code++) = running;
        running += histogram[c];
      }
    h(code) = running;
    Kokkos::deep_copy(exec, totals, h);
    exec.fence("ktext::FMIndex::totals");
    totals_ = totals;
  }

  impl::FMOccurrenceCounts<MemorySpace> occ_;
  impl::SampledPositions<MemorySpace, Index> samples_;
  Kokkos::View<const std::uint64_t*, MemorySpace> totals_;
  std::uint64_t primary_ = 0;
};

}  // namespace ktext
