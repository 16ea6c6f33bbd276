// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file suffix_array_types.hpp
/// \brief Options, progress records and statistics of ktext::suffix_array.

#include <cstddef>
#include <cstdint>
#include <functional>

namespace ktext {

/// \brief One progress record: the phase, the doubling round and how many suffixes are still unsorted.
struct SuffixArrayProgress {
  const char* phase;     ///< "alphabet", "initial sort", "doubling", "reduced sample", "merge" (DC3), "done"
  int round;             ///< doubling rounds completed
  std::uint64_t h;       ///< prefix length the current round starts from
  std::uint64_t active;  ///< suffixes in groups that are not yet singletons
  std::uint64_t n;       ///< text length
};

/// \brief How suffix_array sorts.
enum class SuffixArrayAlgorithm {
  /// DC3 wherever the alphabet allows it (at most 2^21 symbols), else doubling; DC3 measured
  /// faster on hosts and GPUs and holds less (impl::uses_difference_cover).
  automatic,
  /// Prefix doubling of every suffix.
  doubling,
  /// DC3: two thirds of the suffixes sorted by doubling, the rest merged in. Alphabets past 2^21
  /// symbols are doubled instead.
  difference_cover,
};

/// \brief When DC3 stops doubling its sample and sorts the sample's reduced text instead: each
/// sample suffix named by its group (the rank of its first symbols), the names of positions
/// 1 (mod 3) then those of 2 (mod 3), sorted recursively by DC3 (Kärkkäinen–Sanders–Burkhardt).
/// A level costs about one initial sort of two thirds of its text, so the levels together cost
/// about three, where doubling a text whose groups stay large (Thue-Morse, Fibonacci, short
/// periods) pays a round over most of the sample for every doubling of the prefix. The result
/// is the same either way.
enum class SampleReduction {
  /// Where the groups hold half the sample, the names fit DC3 (under 2^21 groups) and the
  /// sample has at least 2^16 suffixes: after the initial sort where the groups hold over 1024
  /// entries on average, after a round that left seven eighths of the unsorted suffixes
  /// unsorted where they hold 8.
  automatic,
  /// Never: the sample is doubled to the end.
  never,
  /// Right after the initial sort at every level, wherever a group is left and the names fit.
  initial,
  /// After the first doubling round at every level, wherever a group is left and the names fit.
  first_round,
};

/// How much of its packed key the initial sort compares (SuffixArrayOptions::initial_key_part).
/// A key of 64 / b symbols of b bits takes the LSD sort two 32-bit pieces; its top piece alone
/// holds the first 32 / b symbols (rounded down to a multiple of 3 for DC3's sample: 3 bytes,
/// 15 DNA letters), and where nearly every suffix differs there (random or compressed data) the
/// low piece's random gather and sort passes cost more than the first doubling round over the
/// few suffixes left in groups. The result is the same either way.
enum class InitialKeyPart {
  /// The top piece alone where it leaves under half of the suffixes in groups, as
  /// estimated from the distinct top pieces of 64 evenly spread runs of 2^15 suffixes (linear
  /// counting, extrapolated as for tops drawn uniformly), among 2^20 suffixes or more; else the
  /// whole key.
  automatic,
  /// The whole key.
  whole,
  /// The top 32 bits, wherever they hold a multiple of the prefix step in full.
  top,
};

struct SuffixArrayOptions {
  /// The algorithm; the result is the same either way.
  SuffixArrayAlgorithm algorithm = SuffixArrayAlgorithm::automatic;
  /// Called on the host between phases and rounds; leave empty for no reports.
  std::function<void(const SuffixArrayProgress&)> progress;
  /// Stretch of a doubling round's batches: a batch holds the groups starting in one stretch of
  /// this many entries (under twice as many entries), and a group larger than a stretch is sorted
  /// alone with 2 bytes of scratch per entry. 0 chooses max(active/p, min(2^20, n/p)) with p = 14
  /// where batches may take the segmented sort, else 12: the sort scratch then stays under 2
  /// bytes per active entry with 32-bit indices (2p instead of p with 64-bit indices below 2^32
  /// symbols, sorted with 32-bit positions: under 1 byte), or as many as the scratch already
  /// held allows when that is more (DC3 sorts its sample in its output's unused memory). Smaller
  /// stretches use less memory and launch more kernels.
  std::size_t batch_entries = 0;
  /// A batch whose groups have at most this many entries each is sorted by one segmented sort
  /// (by the next rank, inside each group); a batch with a longer group by two stable radix
  /// sorts over the batch (next rank, then group), which cost the same for any group shape.
  /// 0 chooses the backend's default (impl::default_segmented_group_limit: on hosts a thread's
  /// share of a batch, at least 4096; 1 with CUB, where the segmented sort measured no faster);
  /// 1 always takes the radix sorts. The result is the same either way.
  std::size_t segmented_group_limit = 0;
  /// A doubling round whose groups have at most this many entries each (known from the round
  /// before, or for the first round from the initial sort's groups where they hold a quarter of
  /// the elements or more) sorts each group inside a tile of its batch in team scratch: one pass
  /// where the segmented or radix sorts take several. 0 chooses the backend's default
  /// (impl::default_tile_group_limit: 512 on GPUs; 1 on hosts, whose segmented sort already
  /// sorts each short group in one pass); 1 never; larger values count as 512, the most a tile's
  /// scratch holds. The result is the same either way.
  std::size_t tile_group_limit = 0;
  /// Where a round has a few groups longer than tile_group_limit (at most 4096, known as above),
  /// it still sorts the others in tiles and the longer ones apart in each batch
  /// that holds few (a sixth of its entries at most): gathered, one radix sort by group and next
  /// rank, put back. Else such a round takes the radix sorts over its batches. The result is the
  /// same either way.
  bool sort_long_groups_apart = true;
  /// When DC3 sorts its sample's reduced text instead of doubling on (SampleReduction).
  SampleReduction sample_reduction = SampleReduction::automatic;
  /// Ranks written per pass when the ranks of the initial sort are scattered to the inverse
  /// suffix array (ktext::scatter's window) and not partitioned first (scatter_parts). Applies
  /// with 32-bit work indices where the initial sort's key buffers lie in memory the call holds
  /// anyway (DC3's sample, a 64-bit output), which keep the ranks in sorted order meanwhile;
  /// elsewhere one pass. 0 chooses ktext::cache_window (half the L2 cache on CUDA) where the
  /// ranks take at most 6 windows, since each window reads them again, else one pass (always on
  /// hosts); a window of the elements' count or more takes one pass. The result is the same
  /// either way.
  std::size_t scatter_window = 0;
  /// Parts the initial ranks are partitioned into by their place in the inverse suffix array
  /// before they are written there (ktext::scatter_partitioned), where the call holds the memory
  /// for it: with 32-bit work indices where the initial sort's two key buffers lie in memory the
  /// call holds anyway (DC3's sample). 0 chooses 256 where the ranks take more than one
  /// ktext::cache_window (on CUDA), else 1; 1 partitions nothing, and scatter_window applies;
  /// other values are rounded up to a power of two, at most 256. The result is the same either
  /// way.
  std::size_t scatter_parts = 0;
  /// 64-bit words of packed symbols the initial sort compares (each 64 / b symbols of b bits,
  /// a multiple of 3 for DC3's sample): 1 or 2. Two words take one or two more 32-bit key
  /// pieces for the LSD sort, which cost less than the doubling round they save where the
  /// first word leaves most suffixes in groups (markup) and one piece does. 0 chooses 2 on GPUs
  /// where one piece does (8-bit codes, and codes of 11 to 16 bits) and an estimate of the
  /// distinct first words (every suffix's first word read, linear counting of the hashes of
  /// 1 in 16 of their values) finds fewer than 2 in 5 of them, among 2^20 suffixes or more;
  /// else 1. The result is the same either way.
  std::size_t initial_key_words = 0;
  /// The whole key or its top 32 bits (InitialKeyPart); the top alone is a key of one word.
  InitialKeyPart initial_key_part = InitialKeyPart::automatic;
};

/// \brief What a run used.
struct SuffixArrayStats {
  std::size_t peak_bytes = 0;         ///< peak bytes held in the memory space, the text and the output included
  int rounds = 0;                     ///< doubling rounds after the initial sort
  std::uint64_t initial_prefix = 0;   ///< symbols per suffix compared by the initial sort
  int reductions = 0;                 ///< levels of DC3 that sorted a reduced text (SampleReduction)
  int tile_rounds = 0;                ///< doubling rounds whose groups were sorted in tiles
  int long_group_batches = 0;         ///< batches whose short groups were sorted in tiles, their longer ones apart
};

}  // namespace ktext
