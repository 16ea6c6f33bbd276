// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file fm_index_file.hpp
/// \brief FM-index files: a ktext container (core/container.hpp) of kind fm_index.
///
/// Contents:
/// - metadata: n, primary_index, symbol_width = 1, sample_rate s, and occurrences = 2 for an
///   index whose counts are a wavelet matrix (absent or 1: the table);
/// - section 'bwt' (width 1): the n BWT symbols, libsais convention;
/// - section 'sample_marks' (width 8): floor((n + 1) / 64) + 1 little-endian words, bit r of
///   word r / 64 set when row r is sampled; bits past row n are zero;
/// - section 'samples' (width 4 or 8): the positions of the sampled rows in row order.
/// The occurrence counts are not stored: loading rebuilds them from the BWT (one pass per
/// level for the wavelet matrix), so a file cannot carry counts that disagree with its BWT.
///
/// Loading checks the container (magic, version, kind, checksums, sizes) and then the index:
/// section sizes against n, the primary index, the marks (exactly the n / s + 1 rows of
/// positions 0, s, 2s, ...), and the samples (each a distinct multiple of s, at most n, 0 in
/// the primary row). Every failure throws ktext::FormatError with a one-line reason.
///
/// Those checks are cheap and always run, but a file with valid checksums can still lie: two
/// samples swapped, or two BWT bytes swapped, pass them. Such an index still never reads out of
/// bounds, never walks more than min(s, n + 1) LF steps per located occurrence, and reports no
/// position p with p + m > n for a pattern of length m (FMIndex::locate() reports
/// invalid_position instead); fm_index_file_verify() refuses it outright, with one O(n) walk.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ktext/core/allocate.hpp"
#include "ktext/core/container.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/little_endian.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/suffix/fm_index.hpp"
#include "ktext/suffix/impl/ktext_lf_walk.hpp"

namespace ktext {

/// \brief What an fm_index container says about its index, after fm_index_file_check().
struct FMIndexFileInfo {
  std::uint64_t n = 0;
  std::uint64_t primary = 0;
  std::uint32_t sample_rate = 0;
  std::uint32_t sample_width = 0;  ///< bytes per stored position
  std::uint64_t samples = 0;       ///< number of sampled rows
  FMOccurrences occurrences = FMOccurrences::table;  ///< how loading rebuilds the counts
};

namespace impl {

/// Metadata present and in range, section widths and sizes consistent with n and the rate.
inline FMIndexFileInfo fm_index_file_layout(const container::Container& c) {
  namespace kc = container;
  auto fail = [](const std::string& why) { throw FormatError(why); };
  if (c.kind != kc::Kind::fm_index) fail("this is a " + kc::kind_name(std::uint32_t(c.kind)) + " file, expected fm_index");
  FMIndexFileInfo info;
  info.n = c.require_meta(kc::kMetaN);
  info.primary = c.require_meta(kc::kMetaPrimaryIndex);
  const std::uint64_t width = c.require_meta(kc::kMetaSymbolWidth);
  const std::uint64_t rate = c.require_meta(kc::kMetaSampleRate);
  if (width != 1) fail("symbol width " + std::to_string(width) + " is not supported (only 1-byte symbols)");
  if (rate == 0 || rate > 0xffffffffu) fail("sample rate " + std::to_string(rate) + " is not in [1, 2^32 - 1]");
  info.sample_rate = std::uint32_t(rate);
  const std::uint64_t occ = c.meta(kc::kMetaOccurrences).value_or(1);
  if (occ != 1 && occ != 2) fail("occurrence structure " + std::to_string(occ) + " is unknown (1 = table, 2 = wavelet matrix)");
  info.occurrences = FMOccurrences(occ);
  if (info.n == 0 ? info.primary != 0 : (info.primary < 1 || info.primary > info.n))
    fail("primary index " + std::to_string(info.primary) + " is not in [1, " + std::to_string(info.n) + "]");
  if (info.n >= (std::uint64_t(1) << 62)) fail("n = " + std::to_string(info.n) + " is implausible");

  const kc::Section& bwt = c.require(kc::kSectionBwt);
  if (bwt.element_width != 1 || bwt.size != info.n)
    fail("section 'bwt' holds " + std::to_string(bwt.size) + " bytes of width " + std::to_string(bwt.element_width) +
         "; n = " + std::to_string(info.n) + " needs " + std::to_string(info.n) + " of width 1");
  const kc::Section& marks = c.require(kc::kSectionSampleMarks);
  const std::uint64_t words = impl::sample_mark_words(info.n + 1);
  if (marks.element_width != 8 || marks.size != words * 8)
    fail("section 'sample_marks' holds " + std::to_string(marks.size) + " bytes of width " +
         std::to_string(marks.element_width) + "; n = " + std::to_string(info.n) + " needs " + std::to_string(words * 8) +
         " of width 8");
  const kc::Section& samples = c.require(kc::kSectionSamples);
  info.sample_width = samples.element_width;
  info.samples = impl::sample_count(info.n, info.sample_rate);
  if ((samples.element_width != 4 && samples.element_width != 8) || samples.size != info.samples * samples.element_width)
    fail("section 'samples' holds " + std::to_string(samples.size) + " bytes of width " +
         std::to_string(samples.element_width) + "; sample rate " + std::to_string(rate) + " needs " +
         std::to_string(info.samples) + " positions of width 4 or 8");
  if (samples.element_width == 4 && info.n > 0x7fffffffu) fail("4-byte samples cannot hold positions up to n = " + std::to_string(info.n));
  return info;
}

/// The sample marks and sampled positions of an fm_index file, decoded on the host.
template <class T>
struct FMIndexFileSamples {
  std::vector<std::uint64_t> marks;  ///< sample_mark_words(n + 1) words
  std::vector<T> samples;            ///< positions in row order
};

/// Decodes and checks the marks (exactly info.samples rows, none past row n, the primary row
/// among them) and the samples (distinct multiples of the rate, at most n, 0 in the primary row).
template <class T>
FMIndexFileSamples<T> fm_index_file_samples(const container::Container& c, const FMIndexFileInfo& info) {
  namespace kc = container;
  auto fail = [](const std::string& why) { throw FormatError(why); };
  const std::uint64_t rows = info.n + 1;
  return translate_out_of_memory("ktext: fm_index samples", [&] {
    FMIndexFileSamples<T> out;
    const kc::Section& marks_section = c.require(kc::kSectionSampleMarks);
    const std::uint64_t words = marks_section.size / 8;
    out.marks.resize(words);
    little_endian::decode(out.marks.data(), marks_section.data, words, 8);
    std::uint64_t marked = 0, before_primary = 0;
    for (std::uint64_t w = 0; w < words; ++w) {
      marked += popcount64_host(out.marks[w]);
      if (w < (info.primary >> 6)) before_primary += popcount64_host(out.marks[w]);
    }
    const std::uint64_t last = rows >> 6;  // the spare word past the rows
    const std::uint64_t past_rows = (rows & 63) == 0 ? out.marks[last] : out.marks[last] >> (rows & 63);
    if (past_rows != 0) fail("section 'sample_marks' marks rows past n");
    if (marked != info.samples)
      fail("section 'sample_marks' marks " + std::to_string(marked) + " rows; sample rate " +
           std::to_string(info.sample_rate) + " needs " + std::to_string(info.samples));
    const bool primary_marked = (out.marks[info.primary >> 6] >> (info.primary & 63)) & 1;
    before_primary += popcount64_host(out.marks[info.primary >> 6] & ((std::uint64_t(1) << (info.primary & 63)) - 1));
    if (!primary_marked) fail("the primary row (position 0) is not sampled");

    const kc::Section& samples_section = c.require(kc::kSectionSamples);
    out.samples.resize(info.samples);
    std::vector<bool> seen(info.samples, false);
    for (std::uint64_t k = 0; k < info.samples; ++k) {
      const std::uint64_t v = little_endian::load(samples_section.data + k * info.sample_width, int(info.sample_width));
      if (v > info.n || v % info.sample_rate != 0 || seen[v / info.sample_rate])
        fail("section 'samples' entry " + std::to_string(k) + " (" + std::to_string(v) +
             ") is not a distinct multiple of the sample rate within the text");
      seen[v / info.sample_rate] = true;
      out.samples[k] = T(v);
    }
    if (info.n > 0 && out.samples[before_primary] != 0) fail("the primary row's sample is not position 0");
    return out;
  });
}

}  // namespace impl

/// \brief Every check that loading an fm_index container runs (read_fm_index() runs the same):
/// metadata present and in range; section widths and sizes consistent with n and the sample
/// rate; the marks exactly the n / s + 1 rows they must be, the primary row among them; the
/// samples distinct multiples of s, at most n, 0 in the primary row. O(n / 64 + n / s) time.
/// They do not prove that each sample is its row's position, nor that the BWT is that of a
/// text: fm_index_file_verify() does.
/// \throws FormatError naming the first inconsistency; OutOfMemoryError.
inline FMIndexFileInfo fm_index_file_check(const container::Container& c) {
  const FMIndexFileInfo info = impl::fm_index_file_layout(c);
  (void)impl::fm_index_file_samples<std::uint64_t>(c, info);
  return info;
}

/// \brief fm_index_file_check(), then one LF walk over the n + 1 rows (impl/ktext_lf_walk.hpp)
/// that proves the rest: the BWT is one cycle, that of a text, every row whose position is a
/// multiple of s is marked and no other, and every sample is its row's position. An index that
/// passes answers count and locate exactly as the index of that text does.
/// \complexity O(n) time on the host, about 4n bytes of host memory (8n past 2^32 rows).
/// \throws FormatError naming the first inconsistency; OutOfMemoryError.
inline FMIndexFileInfo fm_index_file_verify(const container::Container& c) {
  const FMIndexFileInfo info = impl::fm_index_file_layout(c);
  const auto parts = impl::fm_index_file_samples<std::uint64_t>(c, info);
  return impl::translate_out_of_memory("ktext::fm_index_file_verify", [&] {
    // Samples before each mark word, so the walk finds a row's sample in O(1).
    std::vector<std::uint64_t> before(parts.marks.size() + 1, 0);
    for (std::size_t w = 0; w < parts.marks.size(); ++w) before[w + 1] = before[w] + impl::popcount64_host(parts.marks[w]);
    // The first mismatch is kept, not thrown: positions are only right on the text's cycle, so
    // a broken cycle is the reason to report when there is one.
    std::string mismatch;
    const std::uint64_t steps = impl::host_lf_walk(
        c.require(container::kSectionBwt).data, info.n, info.primary, [&](std::uint64_t row, std::uint64_t pos) {
          if (!mismatch.empty()) return;
          const std::uint64_t word = parts.marks[row >> 6];
          const bool marked = (word >> (row & 63)) & 1;
          if (marked != (pos % info.sample_rate == 0)) {
            mismatch = "row " + std::to_string(row) + " (text position " + std::to_string(pos) + ") is " +
                       (marked ? "" : "not ") + "marked as sampled; sample rate " + std::to_string(info.sample_rate) +
                       " says otherwise";
            return;
          }
          if (!marked) return;
          const std::uint64_t k = before[row >> 6] + impl::popcount64_host(word & ((std::uint64_t(1) << (row & 63)) - 1));
          if (parts.samples[k] != pos)
            mismatch = "section 'samples' entry " + std::to_string(k) + " says position " +
                       std::to_string(parts.samples[k]) + ", but its row " + std::to_string(row) + " holds position " +
                       std::to_string(pos);
        });
    if (steps != info.n)
      throw FormatError("the BWT is not that of a text: " + impl::lf_walk_failure(steps, info.n));
    if (!mismatch.empty()) throw FormatError(mismatch);
    return info;
  });
}

/// \brief Streams \p index as an fm_index container through \p sink(const void*, std::size_t)
/// (for instance container::Writer's file or vector sinks). Positions are stored with
/// sizeof(Index) bytes. Copies the index's parts to the host first, on \p exec: waits.
/// \throws OutOfMemoryError when the host copies do not fit; whatever \p sink throws.
template <class ExecSpace, class MemorySpace, class Index, class Sink>
void write_fm_index(const ExecSpace& exec, const FMIndex<MemorySpace, Index>& index, Sink&& sink) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>,
                "ktext::write_fm_index: first argument must be an execution space");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, MemorySpace>::accessible,
                "ktext::write_fm_index: the index must be accessible from the execution space");
  namespace kc = container;
  impl::translate_out_of_memory("ktext::write_fm_index", [&] {
    const std::uint64_t n = index.size();
    const auto bwt_symbols = impl::uninitialized_view<std::uint8_t, MemorySpace>(exec, "ktext::write_fm_index::bwt", n);
    index.bwt(exec, bwt_symbols);
    const auto h_bwt = impl::host_copy(exec, bwt_symbols, "ktext::write_fm_index::host_bwt");
    const auto h_marks = impl::host_copy(exec, index.sample_marks(exec), "ktext::write_fm_index::host_marks");
    const auto h_samples = impl::host_copy(exec, index.sampled_positions(exec), "ktext::write_fm_index::host_samples");
    exec.fence("ktext::write_fm_index: parts on the host");
    std::vector<std::uint8_t> marks(h_marks.extent(0) * 8), samples(h_samples.extent(0) * sizeof(Index));
    little_endian::encode(marks.data(), h_marks.data(), h_marks.extent(0), 8);
    little_endian::encode(samples.data(), h_samples.data(), h_samples.extent(0), int(sizeof(Index)));
    kc::Writer writer(kc::Kind::fm_index);
    writer.set_meta(kc::kMetaN, n);
    writer.set_meta(kc::kMetaPrimaryIndex, index.primary_index());
    writer.set_meta(kc::kMetaSymbolWidth, 1);
    writer.set_meta(kc::kMetaSampleRate, index.sample_rate());
    // Tables are the default: their files stay as they were before the key existed.
    if (index.occurrences() != FMOccurrences::table) writer.set_meta(kc::kMetaOccurrences, std::uint64_t(index.occurrences()));
    writer.add_section(kc::kSectionBwt, h_bwt.data(), n, 1);
    writer.add_section(kc::kSectionSampleMarks, marks.data(), marks.size(), 8);
    writer.add_section(kc::kSectionSamples, samples.data(), samples.size(), int(sizeof(Index)));
    writer.write(sink);
  });
}

/// \brief As above on the default instance of MemorySpace's execution space.
template <class MemorySpace, class Index, class Sink>
void write_fm_index(const FMIndex<MemorySpace, Index>& index, Sink&& sink) {
  write_fm_index(typename MemorySpace::execution_space{}, index, std::forward<Sink>(sink));
}

/// \brief Loads an FM-index from a verified fm_index container into \p exec's memory space.
/// \tparam Index int32_t needs n < 2^31; int64_t takes any file.
/// \throws FormatError when the samples or marks are inconsistent (fm_index_file.hpp);
///         InputError when n does not fit Index; OutOfMemoryError. Waits.
template <class Index, class ExecSpace>
FMIndex<typename ExecSpace::memory_space, Index> read_fm_index(const ExecSpace& exec, const container::Container& c) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>,
                "ktext::read_fm_index: first argument must be an execution space");
  namespace kc = container;
  using Mem = typename ExecSpace::memory_space;
  const FMIndexFileInfo info = impl::fm_index_file_layout(c);
  require_index_fits<Index>(info.n, "ktext::read_fm_index");
  return impl::translate_out_of_memory("ktext::read_fm_index", [&] {
    const auto parts = impl::fm_index_file_samples<Index>(c, info);
    using HostWords = Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    using HostSamples = Kokkos::View<const Index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    const HostWords h_marks(parts.marks.data(), parts.marks.size());
    const HostSamples h_samples(parts.samples.data(), parts.samples.size());
    const std::uint64_t words = parts.marks.size();
    const auto marks = impl::uninitialized_view<std::uint64_t, Mem>(exec, "ktext::FMIndex::sample_marks", words);
    const auto samples = impl::uninitialized_view<Index, Mem>(exec, "ktext::FMIndex::samples", info.samples);
    const auto bwt_symbols = impl::uninitialized_view<std::uint8_t, Mem>(exec, "ktext::read_fm_index::bwt", info.n);
    Kokkos::deep_copy(exec, marks, h_marks);
    Kokkos::deep_copy(exec, samples, h_samples);
    Kokkos::deep_copy(exec, bwt_symbols,
                      Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          c.require(kc::kSectionBwt).data, info.n));
    // from_parts waits, so the host buffers above outlive the copies from them.
    return FMIndex<Mem, Index>::from_parts(exec, bwt_symbols, info.primary, info.sample_rate, marks, samples,
                                           info.occurrences);
  });
}

/// \brief read_container() for kind fm_index, then read_fm_index().
template <class Index, class ExecSpace>
FMIndex<typename ExecSpace::memory_space, Index> read_fm_index(const ExecSpace& exec, const std::uint8_t* data, std::size_t size) {
  const container::Container c = container::read_container(data, size, container::Kind::fm_index);
  return read_fm_index<Index>(exec, c);
}

/// \brief read_fm_index() on the default instance of \p ExecSpace (Kokkos' default execution
/// space unless named); waits.
template <class Index, class ExecSpace = Kokkos::DefaultExecutionSpace>
FMIndex<typename ExecSpace::memory_space, Index> read_fm_index(const container::Container& c) {
  auto index = read_fm_index<Index>(ExecSpace{}, c);
  ExecSpace{}.fence("ktext::read_fm_index");
  return index;
}

/// \brief read_fm_index() on the default instance of \p ExecSpace (Kokkos' default execution
/// space unless named); waits.
template <class Index, class ExecSpace = Kokkos::DefaultExecutionSpace>
FMIndex<typename ExecSpace::memory_space, Index> read_fm_index(const std::uint8_t* data, std::size_t size) {
  auto index = read_fm_index<Index>(ExecSpace{}, data, size);
  ExecSpace{}.fence("ktext::read_fm_index");
  return index;
}

}  // namespace ktext
