// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// A scan in one pass over the input on host execution spaces: blocks in order, each scanned by
// one thread into a buffer in its cache, its prefix found by decoupled look-back (Merrill and
// Garland, the single-pass scan CUB runs on GPUs), then handed to the consumer.
//
// Why: Kokkos' host scan reduces each thread's share first and scans it again with the offsets
// found, so it evaluates every input twice; where the input is gathered or compared (the suffix
// array's round marks, a select's flags) the first evaluation is a whole pass over memory.
//
// Each block publishes its aggregate as soon as its thread has scanned it, and its inclusive
// prefix once it has one. A thread looks back from its block over the published aggregates to
// the first published prefix. Blocks are taken in order from one counter, and a thread waits
// only on blocks taken before its own, whose threads publish an aggregate without waiting on
// anything: the scan finishes however many threads run it (one runs the blocks in order).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

#include "ktext/core/range.hpp"

namespace ktext::impl {

/// Whether inclusive_scan_apply and the selects run host_single_pass_scan on \p Exec: on the
/// host's threads.
template <class Exec>
struct scan_host_avail : std::bool_constant<Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible> {};

/// Entries a block of the host scan holds: its values fill about 64 KiB, a share of L2.
template <class T>
constexpr std::size_t host_scan_block() noexcept {
  return std::max<std::size_t>(1024, std::size_t(65536) / sizeof(T));
}

/// Whether host_single_pass_scan pays for \p n values of \p T: several threads and two blocks
/// or more (one thread scans in one pass with Kokkos' scan already).
template <class T, class ExecSpace>
bool host_single_pass_pays(const ExecSpace& exec, std::size_t n) {
  return exec.concurrency() > 1 && n >= 2 * host_scan_block<T>();
}

/// What a block has published: nothing, its aggregate, or its inclusive prefix as well.
template <class T>
struct alignas(64) HostScanBlock {
  std::atomic<int> state{0};
  T aggregate;
  T inclusive;
};

/// s_i = make(0) op ... op make(i) over [0, n), apply(i, s_i) once per i, each make(i) evaluated
/// once; \p exec's threads share the blocks. \p join as for ktext::inclusive_scan_apply
/// (associative, not necessarily commutative). Returns s_{n-1} (n > 0).
template <class T, class ExecSpace, class Make, class Join, class Apply>
T host_single_pass_scan(const ExecSpace& exec, const char* label, std::size_t n, const Make& make, const Join& join,
                        const Apply& apply) {
  constexpr std::size_t block = host_scan_block<T>();
  const std::size_t blocks = (n + block - 1) / block;
  const std::unique_ptr<HostScanBlock<T>[]> status(new HostScanBlock<T>[blocks]);
  HostScanBlock<T>* const st = status.get();
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t>* const taken = &next;
  const std::size_t workers = std::min<std::size_t>(blocks, std::size_t(std::max(1, int(exec.concurrency()))));
  Kokkos::parallel_for(label, Range<ExecSpace>(exec, 0, workers), [=](std::size_t) {
    std::vector<T> local(block);
    for (std::size_t k = taken->fetch_add(1, std::memory_order_relaxed); k < blocks;
         k = taken->fetch_add(1, std::memory_order_relaxed)) {
      const std::size_t lo = k * block, hi = std::min(n, lo + block);
      T acc = join.identity();
      for (std::size_t i = lo; i < hi; ++i) local[i - lo] = acc = join(acc, make(i));
      T prefix = join.identity();
      if (k == 0) {
        st[0].inclusive = acc;
        st[0].state.store(2, std::memory_order_release);
      } else {
        st[k].aggregate = acc;
        st[k].state.store(1, std::memory_order_release);
        for (std::size_t j = k; j-- > 0;) {
          int state;
          for (int spins = 0; (state = st[j].state.load(std::memory_order_acquire)) == 0; ++spins)
            if (spins >= 64) std::this_thread::yield();  // its thread may be waiting for a core
          if (state == 2) {
            prefix = join(st[j].inclusive, prefix);
            break;
          }
          prefix = join(st[j].aggregate, prefix);
        }
        st[k].inclusive = join(prefix, acc);
        st[k].state.store(2, std::memory_order_release);
      }
      for (std::size_t i = lo; i < hi; ++i) apply(i, join(prefix, local[i - lo]));
    }
  });
  exec.fence("ktext::host_single_pass_scan: the blocks' status released");
  return st[blocks - 1].inclusive;
}

}  // namespace ktext::impl
