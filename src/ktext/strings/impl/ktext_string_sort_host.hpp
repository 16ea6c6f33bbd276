// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The host specialization of ktext::string_sort: a caching MSD radix sort (Kärkkäinen and
// Rantala), its top levels spread over the instance's threads.
//
// Why not the portable prefix-radix passes (ktext_prefix_radix.hpp) on hosts: each of their
// passes moves every tied string through a radix sort of all its key bits, a scan and a
// compaction, which is what keeps a GPU busy, while a host thread that owns a group can sort it
// to the end in its cache. On the 2-core development host (perf/README.md, 2026-12-01) the
// passes took 3.1-3.4 times as long as this sort on the corpus string sets, 1.3 (copies of a
// few strings) to 3.2 (paths sharing 200 bytes) times on the synthetic ones.
//
// Each entry caches a window of its string, read once per depth: the next 7 bytes from the
// depth, most significant first and 0 past the string's end, in the high 56 bits, and
// min(rest, 8) in the low byte (rest: the bytes left from the depth). Windows compare as their
// strings' next 7 bytes with a proper prefix first, every byte value (NUL too) ordinary: a
// string that ends inside the window has a smaller low byte than one that goes on with zeros.
// Equal windows whose low byte is 8 mean strings tied over 7 more bytes (read again 7 bytes
// deeper); equal windows with a smaller low byte mean equal strings.
//
// A group (entries known to share the bytes before its depth and the window digits before its
// digit) is sorted by one window byte (digit) at a time, most significant first: a stable
// counting sort into the spare buffers and back, or an insertion sort of whole windows once it
// holds at most host_insertion_limit entries. Every step is stable and the entries start in
// input order, so equal strings keep it. A group whose windows are all equal and go on first
// steps over the prefix all its strings share (compared eight bytes at a time), so copies of
// one string and long shared prefixes cost a comparison per byte, not a window per 7 bytes.
//
// Threads: groups of more than a share of the entries are split by parallel counting sorts
// (chunks of the group per thread, counts scanned digit-major, so stable), one group at a time;
// the smaller ones are then sorted one per thread, largest first, each thread taking the next
// from one counter.
//
// The LCP of sorted neighbours falls out of the splits: entries whose windows at depth d first
// differ in byte j share d + j bytes, or fewer where one of them ends before (its low byte);
// equal strings share their length (bucket_lcp).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <numeric>
#include <type_traits>
#include <vector>

#include "ktext/core/allocate.hpp"
#include "ktext/core/byte_loads.hpp"
#include "ktext/core/footprint.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/core/prefetch.hpp"
#include "ktext/core/range.hpp"
#include "ktext/primitives/impl/ktext_unmanaged.hpp"
#include "ktext/strings/impl/ktext_string_keys.hpp"
#include "ktext/strings/string_sort_types.hpp"

namespace ktext::impl {

/// Whether string_sort runs the host sort below on \p ExecSpace: wherever its threads are the
/// host's.
template <class ExecSpace>
struct string_sort_host_avail
    : std::bool_constant<Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible> {};

/// Groups of at most this many entries are insertion sorted by whole windows.
inline constexpr std::uint64_t host_insertion_limit = 32;

/// Work bytes of the host sort of \p n strings with order entries of \p index_bytes bytes: two
/// windows and a spare order entry per string.
constexpr std::uint64_t host_string_sort_work_bytes(std::uint64_t n, std::uint64_t index_bytes) noexcept {
  return n * (16 + index_bytes);
}

/// \p x with its bytes in the opposite order (host code only).
inline std::uint64_t byte_swap64(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_bswap64(x);
#else
  std::uint64_t r = 0;
  for (int b = 0; b < 8; ++b) r = (r << 8) | ((x >> (8 * b)) & 255);
  return r;
#endif
}

/// The sort's state: the strings, the order being sorted (the output itself), the windows and
/// the spare buffers of the counting sorts, and the LCP output.
template <class Chars, class O, class I, class L, bool with_lcp>
struct HostStringSort {
  using U64 = std::uint64_t;
  /// Entries [lo, hi) that share `depth` bytes and the window digits before `digit`; a digit
  /// of `reload` means that their windows at `depth` are still to be read. `windows`: the
  /// windows read on the way to this group.
  struct Group {
    U64 lo, hi, depth;
    int digit, windows;
  };
  static constexpr int reload = 8;

  Chars chars;
  const O* offsets;
  I* idx;
  I* idx_tmp;
  U64* keys;
  U64* keys_tmp;
  L* lcp;

  [[nodiscard]] U64 begin(I s) const { return U64(offsets[s]); }
  [[nodiscard]] U64 length(I s) const { return U64(offsets[s + 1]) - U64(offsets[s]); }

  /// The window of string \p s at depth \p d (at most its length).
  [[nodiscard]] U64 window(I s, U64 d) const {
    const U64 rest = length(s) - d;
    const U64 w = byte_swap64(load_bytes8(chars.data(), chars.extent(0), begin(s) + d));
    const U64 keep = rest < 7 ? rest : 7;
    const U64 mask = keep == 0 ? 0 : ~U64(0) << (64 - 8 * keep);
    return (w & mask) | (rest < 8 ? rest : 8);
  }
  /// Bytes beyond the depth shared by strings with windows \p a and \p b (different, or equal
  /// strings): up to the first byte where the windows differ, but no further than either string
  /// goes (the bytes past its end read 0, as real zero bytes of the other may).
  static U64 window_lcp(U64 a, U64 b) {
    const U64 x = a ^ b;
    const U64 j = x == 0 ? 8 : U64(countl_zero64(x) >> 3);
    return std::min({j, a & 255, b & 255});
  }
  void set_lcp(U64 at, U64 value) const {
    if constexpr (with_lcp) lcp[at] = L(value);
  }
  /// The windows of entries [lo, hi) at depth \p d. Each reads two random places (the offset,
  /// then the bytes), so the offsets are asked for 2 prefetch distances ahead and the bytes one.
  void load_windows(U64 lo, U64 hi, U64 d) const {
    constexpr U64 ahead = prefetch_distance / 2;
    for (U64 i = lo; i < hi; ++i) {
      if (i + 2 * ahead < hi) prefetch(offsets + idx[i + 2 * ahead]);
      if (i + ahead < hi) prefetch(chars.data() + begin(idx[i + ahead]) + d);
      keys[i] = window(idx[i], d);
    }
  }
  /// Bytes beyond \p d that the strings of entries [lo, hi) all share.
  [[nodiscard]] U64 shared_beyond(U64 lo, U64 hi, U64 d) const {
    const I first = idx[lo];
    U64 most = length(first) - d;
    for (U64 i = lo + 1; i < hi && most > 0; ++i) most = shared_with(first, idx[i], d, most);
    return most;
  }
  /// Bytes beyond \p d that strings \p a and \p b share, at most \p most.
  [[nodiscard]] U64 shared_with(I a, I b, U64 d, U64 most) const {
    const U64 limit = std::min({most, length(a) - d, length(b) - d});
    return common_prefix(chars, begin(a) + d, begin(b) + d, limit);
  }

  /// Reads the windows of a group at its depth; where they are all equal and go on, steps over
  /// what the strings share and reads them there. Returns the bytes stepped over.
  U64 read_windows(Group& g) const {
    load_windows(g.lo, g.hi, g.depth);
    U64 skipped = 0;
    const U64 first = keys[g.lo];
    if ((first & 255) == 8 && std::all_of(keys + g.lo + 1, keys + g.hi, [&](U64 k) { return k == first; })) {
      skipped = shared_beyond(g.lo, g.hi, g.depth);
      g.depth += skipped;
      load_windows(g.lo, g.hi, g.depth);
    }
    g.digit = 0;
    ++g.windows;
    return skipped;
  }

  /// Stable insertion sort of entries [lo, hi) by window.
  void insertion_sort(U64 lo, U64 hi) const {
    for (U64 i = lo + 1; i < hi; ++i) {
      const U64 k = keys[i];
      const I v = idx[i];
      U64 j = i;
      for (; j > lo && keys[j - 1] > k; --j) {
        keys[j] = keys[j - 1];
        idx[j] = idx[j - 1];
      }
      keys[j] = k;
      idx[j] = v;
    }
  }

  /// What a sorted bucket of \p count entries from \p at, with value \p v of digit \p digit,
  /// leaves: a group to sort further (pushed onto \p more), or equal strings, whose LCP it sets.
  template <class Push>
  void bucket_done(const Group& g, U64 at, U64 count, int v, Push&& more) const {
    if (count < 2) return;
    if (g.digit < 7) {
      more(Group{at, at + count, g.depth, g.digit + 1, g.windows});
    } else if (v == 8) {
      more(Group{at, at + count, g.depth + 7, reload, g.windows});
    } else {
      for (U64 k = at + 1; k < at + count; ++k) set_lcp(k, g.depth + U64(v));
    }
  }
  /// The LCP where a bucket of group \p g begins, at \p at, after the bucket of value \p before
  /// from \p before_at. Buckets of a digit j < 7 split strings that share j bytes, unless the
  /// last of the bucket before ends sooner; only the bucket of 0 holds strings that end before
  /// byte j, and its last string, once sorted, is one with the largest low byte (one that goes
  /// on sorts after one that ends where both read 0). Buckets of the low byte split equal
  /// strings of \p before bytes from longer ones.
  void bucket_lcp(const Group& g, U64 at, int before, U64 before_at) const {
    if constexpr (with_lcp) {
      const U64 j = U64(g.digit);
      U64 shared = j < 7 ? j : U64(before);
      if (j < 7 && before == 0) {
        U64 longest = 0;
        for (U64 i = before_at; i < at && longest < j; ++i) longest = std::max(longest, keys[i] & 255);
        shared = std::min(j, longest);
      }
      lcp[at] = L(g.depth + shared);
    }
  }

  /// Group \p g once its windows (the first is \p first) are found to agree on every bit that
  /// \p differ leaves 0: on from the first digit where some differ, or, where none does, as a
  /// bucket of the low byte (7 bytes deeper, or equal strings).
  template <class Push>
  void equal_digits(const Group& g, U64 differ, U64 first, Push&& more) const {
    if (differ != 0) {
      more(Group{g.lo, g.hi, g.depth, countl_zero64(differ) >> 3, g.windows});
    } else {
      bucket_done(Group{g.lo, g.hi, g.depth, 7, g.windows}, g.lo, g.hi - g.lo, int(first & 255), more);
    }
  }

  /// Sorts group \p top to the end on the calling thread. Returns the most windows read on the
  /// way to any of its entries and adds the bytes stepped over to \p skipped.
  int sort_group(const Group& top, std::vector<Group>& stack, U64& skipped) const {
    int windows = top.windows;
    stack.clear();
    stack.push_back(top);
    U64 counts[256];
    while (!stack.empty()) {
      Group g = stack.back();
      stack.pop_back();
      if (g.digit == reload) skipped += read_windows(g);
      windows = std::max(windows, g.windows);
      const U64 size = g.hi - g.lo;
      if (size <= host_insertion_limit) {
        insertion_sort(g.lo, g.hi);
        for (U64 i = g.lo; i < g.hi;) {
          U64 j = i + 1;
          while (j < g.hi && keys[j] == keys[i]) ++j;
          if (j - i > 1) {
            if ((keys[i] & 255) == 8)
              stack.push_back(Group{i, j, g.depth + 7, reload, g.windows});
            else
              for (U64 k = i + 1; k < j; ++k) set_lcp(k, g.depth + (keys[i] & 255));
          }
          if (j < g.hi) set_lcp(j, g.depth + window_lcp(keys[j - 1], keys[j]));
          i = j;
        }
        continue;
      }
      const int shift = 56 - 8 * g.digit;
      std::fill(counts, counts + 256, U64(0));
      const U64 first = keys[g.lo];
      U64 differ = 0;  // the bits where some window differs from the first
      for (U64 i = g.lo; i < g.hi; ++i) {
        ++counts[(keys[i] >> shift) & 255];
        differ |= keys[i] ^ first;
      }
      const int v = int((first >> shift) & 255);
      auto push = [&](const Group& child) { stack.push_back(child); };
      if (counts[v] == size) {  // one bucket: nothing moves; on to the first digit that differs
        equal_digits(g, differ, first, push);
        continue;
      }
      U64 next[256];
      for (U64 b = 0, at = g.lo; b < 256; ++b) {
        next[b] = at;
        at += counts[b];
      }
      for (U64 i = g.lo; i < g.hi; ++i) {
        const U64 k = keys[i];
        const U64 to = next[(k >> shift) & 255]++;
        keys_tmp[to] = k;
        idx_tmp[to] = idx[i];
      }
      std::copy(keys_tmp + g.lo, keys_tmp + g.hi, keys + g.lo);
      std::copy(idx_tmp + g.lo, idx_tmp + g.hi, idx + g.lo);
      for (U64 b = 0, at = g.lo, before = 0; b < 256; ++b) {
        if (counts[b] == 0) continue;
        if (at > g.lo) bucket_lcp(g, at, int(before), at - counts[before]);
        bucket_done(g, at, counts[b], int(b), push);
        at += counts[b];
        before = b;
      }
    }
    return windows;
  }
};

/// Runs \p f(i) for i in [0, n) on the host instance \p exec, in \p exec's threads.
template <class ExecSpace, class F>
void host_loop(const ExecSpace& exec, const char* label, std::uint64_t n, F&& f) {
  Kokkos::parallel_for(label, Range<ExecSpace>(exec, 0, n), std::forward<F>(f));
}

/// The host sort (string_sort_host_avail); arguments checked by the caller, who also found the
/// prefix \p common that every string shares.
template <bool with_lcp, class ExecSpace, class O, class I, class L>
StringSortStats host_string_sort(const ExecSpace& exec, const Unmanaged<const std::uint8_t, ExecSpace>& chars,
                                 const Unmanaged<const O, ExecSpace>& offsets, const Unmanaged<I, ExecSpace>& order,
                                 const Unmanaged<L, ExecSpace>& lcp, std::uint64_t common) {
  static_assert(string_sort_host_avail<ExecSpace>::value, "ktext::impl::host_string_sort: a host execution space");
  using U64 = std::uint64_t;
  using Sort = HostStringSort<Unmanaged<const std::uint8_t, ExecSpace>, O, I, L, with_lcp>;
  using Group = typename Sort::Group;
  const U64 n = order.extent(0);
  StringSortStats stats;
  Footprint mem;
  mem.add(chars.extent(0) + offsets.extent(0) * sizeof(O) + n * sizeof(I) + (with_lcp ? n * sizeof(L) : 0));
  stats.skipped_bytes = common;
  if (n == 0) {
    stats.peak_bytes = mem.peak();
    return stats;
  }
  const U64 work_words = (host_string_sort_work_bytes(n, sizeof(I)) + 7) / 8;
  const auto work = counted_view<U64>(exec, mem, "ktext::string_sort::host::work", work_words);
  const Sort sort{chars,
                  offsets.data(),
                  order.data(),
                  reinterpret_cast<I*>(work.data() + 2 * n),
                  work.data(),
                  work.data() + n,
                  with_lcp ? lcp.data() : nullptr};
  host_loop(exec, "ktext::string_sort::host::windows", n, [=](U64 i) {
    sort.idx[i] = I(i);
    sort.keys[i] = sort.window(I(i), common);
  });
  sort.set_lcp(0, 0);

  // Groups of more than a share of the entries are split by all threads, one at a time.
  const U64 threads = U64(std::max(1, int(exec.concurrency())));
  const U64 share = threads == 1 ? n : std::max<U64>(n / (8 * threads), 1 << 14);
  std::vector<Group> large, groups;
  (n > share ? large : groups).push_back(Group{0, n, common, 0, 1});
  std::vector<U64> counts(257 * threads);  // by digit and chunk, then each chunk's differing bits
  int windows = 1;
  auto load_windows = [&](const Group& g) {
    host_loop(exec, "ktext::string_sort::host::windows", g.hi - g.lo,
              [=](U64 i) { sort.keys[g.lo + i] = sort.window(sort.idx[g.lo + i], g.depth); });
  };
  while (!large.empty()) {
    Group g = large.back();
    large.pop_back();
    if (g.digit == Sort::reload) {
      load_windows(g);
      const U64 first_key = sort.keys[g.lo];
      if ((first_key & 255) == 8 &&
          std::all_of(sort.keys + g.lo + 1, sort.keys + g.hi, [&](U64 k) { return k == first_key; })) {
        const I first = sort.idx[g.lo];
        U64 shared = sort.length(first) - g.depth;
        Kokkos::parallel_reduce(
            "ktext::string_sort::host::shared", Range<ExecSpace>(exec, g.lo + 1, g.hi),
            [=](U64 i, U64& most) { most = sort.shared_with(first, sort.idx[i], g.depth, most); },
            Kokkos::Min<U64>(shared));
        g.depth += shared;
        stats.skipped_bytes += shared;
        load_windows(g);
      }
      g.digit = 0;
      ++g.windows;
    }
    windows = std::max(windows, g.windows);
    // A stable counting sort by the group's digit: chunk c of the group counts, then writes
    // after the entries of smaller digits and of the same digit in the chunks before it.
    const U64 size = g.hi - g.lo, chunk = (size + threads - 1) / threads;
    const int shift = 56 - 8 * g.digit;
    U64* const c = counts.data();
    U64* const differs = c + 256 * threads;
    const U64 first = sort.keys[g.lo];
    host_loop(exec, "ktext::string_sort::host::count", threads, [=](U64 t) {
      U64 local[256] = {}, differ = 0;
      const U64 from = g.lo + std::min(size, t * chunk), to = g.lo + std::min(size, (t + 1) * chunk);
      for (U64 i = from; i < to; ++i) {
        ++local[(sort.keys[i] >> shift) & 255];
        differ |= sort.keys[i] ^ first;
      }
      for (int b = 0; b < 256; ++b) c[U64(b) * threads + t] = local[b];
      differs[t] = differ;
    });
    U64 bucket[256];
    for (U64 b = 0, at = g.lo; b < 256; ++b) {
      bucket[b] = 0;
      for (U64 t = 0; t < threads; ++t) {
        const U64 k = c[b * threads + t];
        c[b * threads + t] = at;
        at += k;
        bucket[b] += k;
      }
    }
    const int v = int((first >> shift) & 255);
    auto push = [&](const Group& child) { (child.hi - child.lo > share ? large : groups).push_back(child); };
    if (bucket[v] == size) {
      sort.equal_digits(g, std::accumulate(differs, differs + threads, U64(0), std::bit_or<U64>()), first, push);
      continue;
    }
    host_loop(exec, "ktext::string_sort::host::scatter", threads, [=](U64 t) {
      U64 next[256];
      for (int b = 0; b < 256; ++b) next[b] = c[U64(b) * threads + t];
      const U64 from = g.lo + std::min(size, t * chunk), to = g.lo + std::min(size, (t + 1) * chunk);
      for (U64 i = from; i < to; ++i) {
        const U64 k = sort.keys[i];
        const U64 at = next[(k >> shift) & 255]++;
        sort.keys_tmp[at] = k;
        sort.idx_tmp[at] = sort.idx[i];
      }
    });
    host_loop(exec, "ktext::string_sort::host::copy", size, [=](U64 i) {
      sort.keys[g.lo + i] = sort.keys_tmp[g.lo + i];
      sort.idx[g.lo + i] = sort.idx_tmp[g.lo + i];
    });
    for (U64 b = 0, at = g.lo, before = 0; b < 256; ++b) {
      if (bucket[b] == 0) continue;
      if (at > g.lo) sort.bucket_lcp(g, at, int(before), at - bucket[before]);
      sort.bucket_done(g, at, bucket[b], int(b), push);
      at += bucket[b];
      before = b;
    }
  }

  // The rest, a group per thread at a time, the largest first.
  std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.hi - a.lo > b.hi - b.lo; });
  const Group* const list = groups.data();
  int deepest = 0;
  U64 skipped = 0;
  // Each thread takes the next group from one counter and keeps its stack for all it takes.
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t>* const taken = &next;
  const std::size_t count = groups.size();
  Kokkos::parallel_reduce(
      "ktext::string_sort::host::groups", Range<ExecSpace>(exec, 0, std::min<U64>(threads, count)),
      [=](U64, int& most, U64& stepped) {
        std::vector<Group> stack;
        for (std::size_t k = taken->fetch_add(1, std::memory_order_relaxed); k < count;
             k = taken->fetch_add(1, std::memory_order_relaxed))
          most = std::max(most, sort.sort_group(list[k], stack, stepped));
      },
      Kokkos::Max<int>(deepest), Kokkos::Sum<U64>(skipped));
  stats.passes = std::max(windows, deepest);
  stats.skipped_bytes += skipped;
  stats.peak_bytes = mem.peak();
  return stats;
}

}  // namespace ktext::impl
