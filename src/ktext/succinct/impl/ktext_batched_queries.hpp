// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_batched_queries.hpp
/// \brief One way to run a batch of queries on a succinct structure: answer query q as
/// out(q) = query(a(q), b(q)), checking each query in the same kernel.
///
/// When the execution space can read the views (device views, or pinned host views that a GPU
/// reads in place), one kernel does it and reads every argument once. When it cannot (host
/// views and a device execution space), the batch goes in chunks through pinned staging buffers
/// on two execution-space instances, so that one chunk's copies overlap another chunk's kernel
/// and the host's staging copies \cite FranzrebBurtscherRudolph2025. The staging copies run on
/// the host execution space's threads (one thread copies about 10 GB/s from pageable memory, a
/// fraction of PCIe 5), and the staging buffers are allocated once per process and kept (a
/// pinned allocation takes milliseconds), guarded by a mutex, released at Kokkos::finalize.
///
/// A query type with a locality key (where its walk starts in the structure) can have its batch
/// answered in the order of that key (QueryOrder::by_locality): a radix sort of the keys' high
/// bits groups the queries that read the same parts of the structure, so the structure is read
/// from DRAM about once per chunk and the rest hits the cache, instead of each query reading
/// its own sectors. On a device the kernel reads the arguments through a permutation, so host
/// views (pinned ones too) then go chunked: pinned chunks are copied by DMA, without staging.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/popcount.hpp"
#include "ktext/core/range.hpp"
#include "ktext/core/view_checks.hpp"
#include "ktext/primitives/sort_pairs.hpp"

namespace ktext {

/// \brief The order in which a batch of queries is answered (the answers are the same).
enum class QueryOrder {
  /// by_locality for batches and structures large enough that it pays (impl::locality_pays),
  /// else as_given.
  automatic,
  /// A thread per query in the order of the batch: best for small batches, and for batches
  /// already sorted by position.
  as_given,
  /// Grouped first by where each query starts in the structure (a stable radix sort of the
  /// starts' high bits, chunk by chunk), so that queries reading the same memory run together.
  by_locality,
};

}  // namespace ktext

namespace ktext::impl {

/// A missing second argument (access queries): every entry reads 0.
struct NoArgument {
  using memory_space = Kokkos::HostSpace;
  using non_const_value_type = std::uint64_t;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t) const { return 0; }
};

template <class T>
inline constexpr bool is_no_argument_v = std::is_same_v<T, NoArgument>;

/// Entries [begin, end) of an argument view (NoArgument stays itself).
template <class V>
auto slice(const V& v, std::uint64_t begin, std::uint64_t end) {
  if constexpr (is_no_argument_v<V>)
    return v;
  else
    return Kokkos::subview(v, Kokkos::make_pair(begin, end));
}

/// Queries per chunk, on the host path and for the locality sort: large enough to hide a kernel
/// launch and, sorted, to read each sector of a 2^28-position structure about 16 times (a
/// 256-bit sector per 4 Mi queries over 2^28 positions), small enough that the staging and sort
/// buffers stay below 128 MiB each.
inline constexpr std::uint64_t host_query_chunk = std::uint64_t(1) << 22;

/// Batches on the chunked paths: staging buffers per slot, slots overlapping a chunk's upload,
/// another's kernels and a third's download.
inline constexpr int staging_slots = 3;

/// Whether QueryOrder::automatic sorts a batch of \p count queries on a structure of
/// \p positions positions: on a host execution space (\p host_exec), on a device with the views
/// in its memory, or on a device through the chunked paths (\p chunked: pinned or pageable host
/// views). Measured with ktext_bench_succinct, wavelet tree and matrix of random bytes
/// (sigma = 256), sorted against as given:
/// - OpenMP on a 2-core host: 2^20 and 2^22 positions 0.65-0.95x (the structure stays in the
///   caches); 2^24 positions 1.5-3.4x and 2^26 positions 1.3-3.6x from 10^5 queries on.
/// - H100, 2^28 positions, device views: 10^5 queries 0.65-0.85x, 10^6 1.2-1.7x, 10^8 1.4-2.6x;
///   pinned views: 10^6 queries 0.4-0.8x (the chunked copies' fixed costs), 10^8 1.3-2.3x.
///   Below 2^26 positions (8 levels of 2^24 bits: 16 MiB) the structure fits in the 50 MiB L2.
inline bool locality_pays(std::uint64_t count, std::uint64_t positions, bool host_exec, bool chunked) {
  if (host_exec) return count >= (std::uint64_t(1) << 16) && positions >= (std::uint64_t(1) << 24);
  return count >= (std::uint64_t(1) << (chunked ? 23 : 18)) && positions >= (std::uint64_t(1) << 26);
}

/// Whether Query has a locality key: KOKKOS_FUNCTION locality(a, b) in [0, locality_end()).
template <class Q, class = void>
struct has_locality : std::false_type {};
template <class Q>
struct has_locality<Q, std::void_t<decltype(std::declval<const Q&>().locality(std::uint64_t(0), std::uint64_t(0))),
                                   decltype(std::declval<const Q&>().locality_end())>> : std::true_type {};

/// Whether a batch of \p count queries of \p query on \p exec is answered by locality
/// (\p chunked: through the chunked paths).
template <class ExecSpace, class Query>
bool by_locality(QueryOrder order, const Query& query, std::uint64_t count, bool chunked) {
  if constexpr (!has_locality<Query>::value) {
    (void)order, (void)query, (void)count, (void)chunked;
    return false;
  } else {
    constexpr bool host_exec = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
    if (order == QueryOrder::automatic) return locality_pays(count, query.locality_end(), host_exec, chunked);
    return order == QueryOrder::by_locality && count > 1;
  }
}

/// Key bits of the locality sort and the shift that leaves them: buckets of at most 2^20
/// positions (about 128 KiB of a level's bits, so a sorted chunk's running queries read a few
/// MiB of the structure at a time), in whole 8-bit radix passes.
struct LocalityKeys {
  int bits = 8, shift = 0;
  explicit LocalityKeys(std::uint64_t end) {
    const int range_bits = end > 1 ? 64 - countl_zero64(end - 1) : 1;
    bits = range_bits > 28 ? 16 : 8;
    shift = range_bits > bits ? range_bits - bits : 0;
  }
};

/// The sort buffers of one chunk, carved from two raw buffers of 8 bytes per query.
template <class Mem>
struct LocalityScratch {
  using Keys = Kokkos::View<std::uint16_t*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Vals = Kokkos::View<std::uint32_t*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Keys keys, keys_tmp;
  Vals vals, vals_tmp;
  template <class Raw>
  LocalityScratch(const Raw& first, const Raw& second, std::uint64_t n)
      : keys(reinterpret_cast<std::uint16_t*>(first.data()), n),
        keys_tmp(reinterpret_cast<std::uint16_t*>(first.data()) + n, n),
        vals(reinterpret_cast<std::uint32_t*>(first.data()) + n, n),
        vals_tmp(reinterpret_cast<std::uint32_t*>(second.data()), n) {}
};

/// out(q) = query(a(q), b(q)) for every q on \p exec, views readable there; a query that
/// query.valid rejects gets 0 and raises \p first_bad (a scalar view in exec's memory, zero when
/// no query was rejected) to ~(offset + q), so ~first_bad is the first rejected index. Does not
/// block.
template <class ExecSpace, class Query, class A, class B, class Out, class Bad>
void answer_queries(const ExecSpace& exec, const char* label, const Query& query, const A& a, const B& b,
                    const Out& out, std::uint64_t count, const Bad& first_bad, std::uint64_t offset) {
  using T = typename Out::non_const_value_type;
  Kokkos::parallel_for(
      label, impl::Range<ExecSpace>(exec, 0, count), KOKKOS_LAMBDA(std::uint64_t q) {
        const std::uint64_t x = std::uint64_t(a(q)), y = std::uint64_t(b(q));
        if (query.valid(x, y)) {
          out(q) = T(query(x, y));
        } else {
          out(q) = T(0);
          Kokkos::atomic_max(&first_bad(), ~(offset + q));
        }
      });
}

/// As answer_queries() for count <= host_query_chunk queries, in the order of their locality
/// keys: a stable sort of (key >> shift, q) in \p scratch, then a thread per sorted query.
template <class ExecSpace, class Query, class A, class B, class Out, class Bad, class Mem>
void answer_queries_by_locality(const ExecSpace& exec, const std::string& label, const Query& query, const A& a,
                                const B& b, const Out& out, std::uint64_t count, const Bad& first_bad,
                                std::uint64_t offset, const LocalityScratch<Mem>& scratch) {
  if constexpr (!has_locality<Query>::value) {  // by_locality() never picks it
    (void)scratch;
    answer_queries(exec, label.c_str(), query, a, b, out, count, first_bad, offset);
  } else {
    using T = typename Out::non_const_value_type;
    const std::uint64_t end = query.locality_end();
    const LocalityKeys sort_keys(end);
    const int shift = sort_keys.shift;
    const auto keys = scratch.keys;
    const auto vals = scratch.vals;
    Kokkos::parallel_for((label + "::locality").c_str(), impl::Range<ExecSpace>(exec, 0, count),
                         KOKKOS_LAMBDA(std::uint64_t q) {
                           const std::uint64_t key = query.locality(std::uint64_t(a(q)), std::uint64_t(b(q)));
                           keys(q) = std::uint16_t((key < end ? key : end - 1) >> shift);
                           vals(q) = std::uint32_t(q);
                         });
    sort_pairs(exec, keys, vals, scratch.keys_tmp, scratch.vals_tmp, 0, sort_keys.bits);
    Kokkos::parallel_for(
        label.c_str(), impl::Range<ExecSpace>(exec, 0, count), KOKKOS_LAMBDA(std::uint64_t j) {
          const std::uint64_t q = vals(j);
          const std::uint64_t x = std::uint64_t(a(q)), y = std::uint64_t(b(q));
          if (query.valid(x, y)) {
            out(q) = T(query(x, y));
          } else {
            out(q) = T(0);
            Kokkos::atomic_max(&first_bad(), ~(offset + q));
          }
        });
  }
}

/// Raw buffers of one kind, one set per staging slot, grown geometrically and kept.
template <class Space, int Count>
struct StagingBuffers {
  static constexpr int slots = staging_slots;
  std::uint64_t bytes = 0;  ///< per buffer
  Kokkos::View<std::byte*, Space> raw[slots][Count];
  void release() {
    for (auto& slot : raw)
      for (auto& v : slot) v = {};
    bytes = 0;
  }
  template <class ExecSpace>
  void reserve(const ExecSpace& exec, const char* label, std::uint64_t need) {
    if (need <= bytes) return;
    release();
    const std::uint64_t grown = need > 2 * bytes ? need : 2 * bytes;
    for (auto& slot : raw)
      for (auto& v : slot) v = uninitialized_view<std::byte, Space>(exec, label, grown);
    bytes = grown;
  }
};

/// The buffers of the chunked paths, one set per device memory space, kept between calls:
/// pinned host staging (pageable arguments), device copies of the arguments and answers, and
/// the locality sort's scratch.
template <class DevMem>
struct QueryStaging {
  using Pinned = Kokkos::SharedHostPinnedSpace;
  std::mutex mutex;
  StagingBuffers<Pinned, 3> host;
  StagingBuffers<DevMem, 3> device;
  StagingBuffers<DevMem, 2> order;

  bool hooked = false;  ///< a finalize hook will release the buffers

  static QueryStaging& instance() {
    static QueryStaging* s = new QueryStaging;  // never destroyed: its views go at finalize
    return *s;
  }
  void release() {
    host.release();
    device.release();
    order.release();
  }
  /// Called under the mutex before the first allocation of a Kokkos session: views must not
  /// outlive Kokkos::finalize.
  void hook() {
    if (hooked) return;
    Kokkos::push_finalize_hook([this] {
      release();
      hooked = false;
    });
    hooked = true;
  }
};

/// An unmanaged view of \p n values of T over the bytes of \p raw.
template <class T, class Raw>
auto typed(const Raw& raw, std::uint64_t n) {
  return Kokkos::View<T*, typename Raw::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
      reinterpret_cast<T*>(raw.data()), n);
}

/// Checks and answers a batch. \p a, \p b (or NoArgument) and \p out are rank-1 views of
/// integers with one entry per query; \p what names the operation in errors and labels.
/// Answers are converted to out's value type. Waits for the answers (the check's verdict needs
/// them). Host views with a device execution space go chunked and overlapped, and so do pinned
/// host views of a batch answered by locality.
/// \throws InputError naming the first invalid query (out is then unspecified);
/// OutOfMemoryError for the staging buffers.
template <class ExecSpace, class Query, class A, class B, class Out>
void run_queries(const ExecSpace& exec, const std::string& what, const Query& query, const A& a, const B& b,
                 const Out& out, QueryOrder order = QueryOrder::automatic) {
  static_assert(Kokkos::is_execution_space_v<ExecSpace>, "ktext: first argument must be an execution space");
  static_assert(is_rank1_view_v<A> && is_rank1_view_v<Out>, "ktext: query arguments and results must be rank-1 views");
  static_assert(std::is_integral_v<typename A::non_const_value_type> &&
                    std::is_integral_v<typename Out::non_const_value_type> && is_writable_view_v<Out>,
                "ktext: query arguments and results must be integer views, results writable");
  static_assert(std::is_same_v<typename A::memory_space, typename Out::memory_space> &&
                    (is_no_argument_v<B> || std::is_same_v<typename A::memory_space, typename B::memory_space>),
                "ktext: query arguments and results must live in one memory space");
  const std::uint64_t count = a.extent(0);
  if constexpr (!is_no_argument_v<B>) {
    if (b.extent(0) != count)
      throw InputError(what + ": the two argument views have " + std::to_string(count) + " and " +
                       std::to_string(b.extent(0)) + " entries");
  }
  if (out.extent(0) != count)
    throw InputError(what + ": " + std::to_string(count) + " queries need as many results, got " +
                     std::to_string(out.extent(0)));
  const std::string check_label = what + "::check";
  using Mem = typename A::memory_space;
  auto reject = [&](std::uint64_t q) {
    throw InputError(what + ": query " + std::to_string(q) + " is out of range (" + query.describe(a(q), b(q)) + ")");
  };
  using DevMem = typename ExecSpace::memory_space;
  constexpr bool two = !is_no_argument_v<B>;
  constexpr bool readable = Kokkos::SpaceAccessibility<ExecSpace, Mem>::accessible;
  // Memory both the host and a device execution space read (pinned, managed): readable in place,
  // but a sorted batch's gathers would cross the bus once per query.
  constexpr bool shared_host = readable && Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible &&
                               !Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  const bool sorted = by_locality<ExecSpace>(order, query, count, !readable || shared_host);
  std::uint64_t flag = 0;

  if constexpr (readable) {
    if (!(sorted && shared_host)) {
      const auto bad = zeroed_view<std::uint64_t, DevMem>(exec, check_label.c_str(), 1);
      if (!sorted) {
        answer_queries(exec, what.c_str(), query, a, b, out, count, Kokkos::subview(bad, 0), 0);
        Kokkos::deep_copy(exec, flag, Kokkos::subview(bad, 0));
        exec.fence((what + ": check").c_str());
      } else {
        auto& staging = QueryStaging<DevMem>::instance();
        const std::lock_guard<std::mutex> lock(staging.mutex);
        const std::uint64_t chunk = count < host_query_chunk ? count : host_query_chunk;
        translate_out_of_memory(what.c_str(), [&] {
          staging.hook();
          staging.order.reserve(exec, (what + "::order").c_str(), chunk * 8);
          for (std::uint64_t begin = 0; begin < count; begin += chunk) {
            const std::uint64_t end = count - begin < chunk ? count : begin + chunk;
            const LocalityScratch<DevMem> scratch(staging.order.raw[0][0], staging.order.raw[0][1], end - begin);
            answer_queries_by_locality(exec, what, query, slice(a, begin, end), slice(b, begin, end),
                                       slice(out, begin, end), end - begin, Kokkos::subview(bad, 0), begin, scratch);
          }
          Kokkos::deep_copy(exec, flag, Kokkos::subview(bad, 0));
          exec.fence((what + ": check").c_str());
        });
      }
      if (flag != 0) {
        if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible)
          reject(~flag);
        else
          throw InputError(what + ": query " + std::to_string(~flag) + " is out of range");
      }
      return;
    }
  }

  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
    const Kokkos::DefaultHostExecutionSpace host;
    using TA = std::uint64_t;
    using TO = typename Out::non_const_value_type;
    using ValueA = typename A::non_const_value_type;
    using ValueB = std::conditional_t<two, typename B::non_const_value_type, TA>;
    if (count == 0) return;
    const std::uint64_t chunk = count < host_query_chunk ? count : host_query_chunk;
    // Pinned or managed views the device's copy engines read: no staging copy on the host.
    bool direct = shared_host && a.span_is_contiguous() && out.span_is_contiguous();
    if constexpr (two) direct = direct && b.span_is_contiguous();
    auto& staging = QueryStaging<DevMem>::instance();
    const std::lock_guard<std::mutex> lock(staging.mutex);
    translate_out_of_memory(what.c_str(), [&] {
      const std::string label = what + "::staging";
      staging.hook();
      if (!direct) staging.host.reserve(host, label.c_str(), chunk * sizeof(TA));
      staging.device.reserve(exec, label.c_str(), chunk * sizeof(TA));
      if (sorted) staging.order.reserve(exec, (what + "::order").c_str(), chunk * 8);
      auto instances = Kokkos::Experimental::partition_space(exec, 1, 1, 1);
      static_assert(staging_slots == 3, "ktext: one execution-space instance per staging slot");
      const auto bad = zeroed_view<std::uint64_t, DevMem>(exec, check_label.c_str(), 1);
      exec.fence((what + ": staging buffers").c_str());
      std::uint64_t begin_of[staging_slots] = {}, size_of[staging_slots] = {};
      bool busy[staging_slots] = {};
      auto drain = [&](int s) {
        if (!busy[s]) return;
        instances[s].fence((what + ": chunk").c_str());
        busy[s] = false;
        if (direct) return;  // the answers went to out by DMA
        const auto result = typed<TO>(staging.host.raw[s][2], size_of[s]);
        const std::uint64_t begin = begin_of[s];
        Kokkos::parallel_for(label, impl::Range<Kokkos::DefaultHostExecutionSpace>(host, 0, size_of[s]),
                             [=](std::uint64_t k) { out(begin + k) = result(k); });
        host.fence(label.c_str());
      };
      // One chunk's arguments are on the device in dev_a, dev_b: answer them into dev_out.
      auto answer = [&](const auto& instance, int s, const auto& dev_a, const auto& dev_b, const auto& dev_out,
                        std::uint64_t size, std::uint64_t begin) {
        if (sorted) {
          const LocalityScratch<DevMem> scratch(staging.order.raw[s][0], staging.order.raw[s][1], size);
          answer_queries_by_locality(instance, what, query, dev_a, dev_b, dev_out, size, Kokkos::subview(bad, 0), begin,
                                     scratch);
        } else {
          answer_queries(instance, what.c_str(), query, dev_a, dev_b, dev_out, size, Kokkos::subview(bad, 0), begin);
        }
      };
      std::uint64_t index = 0;
      for (std::uint64_t begin = 0; begin < count; begin += chunk, ++index) {
        const int s = int(index % staging_slots);
        auto& instance = instances[s];
        drain(s);
        const std::uint64_t size = count - begin < chunk ? count - begin : chunk;
        const std::uint64_t end = begin + size;
        begin_of[s] = begin, size_of[s] = size;
        const auto dev_out = typed<TO>(staging.device.raw[s][2], size);
        if (direct) {
          const auto dev_a = typed<ValueA>(staging.device.raw[s][0], size);
          Kokkos::deep_copy(instance, dev_a, slice(a, begin, end));
          if constexpr (two) {
            const auto dev_b = typed<ValueB>(staging.device.raw[s][1], size);
            Kokkos::deep_copy(instance, dev_b, slice(b, begin, end));
            answer(instance, s, dev_a, dev_b, dev_out, size, begin);
          } else {
            answer(instance, s, dev_a, NoArgument{}, dev_out, size, begin);
          }
          Kokkos::deep_copy(instance, slice(out, begin, end), dev_out);
        } else {
          const auto in_a = typed<TA>(staging.host.raw[s][0], size), in_b = typed<TA>(staging.host.raw[s][1], size);
          Kokkos::parallel_for(label, impl::Range<Kokkos::DefaultHostExecutionSpace>(host, 0, size),
                               [=](std::uint64_t k) {
                                 in_a(k) = TA(a(begin + k));
                                 if constexpr (two) in_b(k) = TA(b(begin + k));
                               });
          host.fence(label.c_str());
          const auto dev_a = typed<TA>(staging.device.raw[s][0], size),
                     dev_b = typed<TA>(staging.device.raw[s][1], size);
          Kokkos::deep_copy(instance, dev_a, in_a);
          if constexpr (two) {
            Kokkos::deep_copy(instance, dev_b, in_b);
            answer(instance, s, dev_a, dev_b, dev_out, size, begin);
          } else {
            answer(instance, s, dev_a, NoArgument{}, dev_out, size, begin);
          }
          Kokkos::deep_copy(instance, typed<TO>(staging.host.raw[s][2], size), dev_out);
        }
        busy[s] = true;
      }
      for (int s = 0; s < staging_slots; ++s) drain(s);
      Kokkos::deep_copy(exec, flag, Kokkos::subview(bad, 0));
      exec.fence((what + ": check").c_str());
    });
    if (flag != 0) reject(~flag);
  } else {
    static_assert(readable, "ktext: query views must be readable by the execution space or by the host");
  }
}

}  // namespace ktext::impl
