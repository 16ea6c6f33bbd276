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

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "ktext/core/range.hpp"
#include "ktext/core/allocate.hpp"
#include "ktext/core/error.hpp"
#include "ktext/core/view_checks.hpp"

namespace ktext::impl {

/// A missing second argument (access queries): every entry reads 0.
struct NoArgument {
  using memory_space = Kokkos::HostSpace;
  using non_const_value_type = std::uint64_t;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t) const { return 0; }
};

template <class T>
inline constexpr bool is_no_argument_v = std::is_same_v<T, NoArgument>;

/// Queries per chunk on the host path: large enough to hide a kernel launch, small enough that
/// the four staging buffers stay below 128 MiB.
inline constexpr std::uint64_t host_query_chunk = std::uint64_t(1) << 22;

/// out(q) = query(a(q), b(q)) for every q on \p exec, views readable there; a query that
/// query.valid rejects gets 0 and raises \p first_bad (a scalar view in exec's memory, zero when
/// no query was rejected) to ~(offset + q), so ~first_bad is the first rejected index. Does not
/// block.
template <class ExecSpace, class Query, class A, class B, class Out, class Bad>
void answer_queries(const ExecSpace& exec, const char* label, const Query& query, const A& a, const B& b, const Out& out,
                    std::uint64_t count, const Bad& first_bad, std::uint64_t offset) {
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

/// Pinned and device staging buffers of the host path, one set per device memory space, kept
/// between calls: raw bytes, typed per call.
template <class DevMem>
struct QueryStaging {
  using Pinned = Kokkos::SharedHostPinnedSpace;
  static constexpr int slots = 2;
  std::mutex mutex;
  std::uint64_t bytes = 0;  ///< per buffer
  Kokkos::View<std::byte*, Pinned> host[slots][3];
  Kokkos::View<std::byte*, DevMem> device[slots][3];

  bool hooked = false;  ///< a finalize hook will release the buffers

  static QueryStaging& instance() {
    static QueryStaging* s = new QueryStaging;  // never destroyed: its views go at finalize
    return *s;
  }
  void release() {
    for (auto& slot : host)
      for (auto& v : slot) v = {};
    for (auto& slot : device)
      for (auto& v : slot) v = {};
    bytes = 0;
  }
  /// Buffers of at least \p need bytes each (grown geometrically).
  template <class ExecSpace>
  void reserve(const ExecSpace& exec, const Kokkos::DefaultHostExecutionSpace& host_exec, const char* label,
               std::uint64_t need) {
    if (need <= bytes) return;
    release();
    if (!hooked) {  // once per Kokkos session: views must not outlive Kokkos::finalize
      Kokkos::push_finalize_hook([this] {
        release();
        hooked = false;
      });
      hooked = true;
    }
    const std::uint64_t grown = need > 2 * bytes ? need : 2 * bytes;
    for (int s = 0; s < slots; ++s)
      for (int k = 0; k < 3; ++k) {
        host[s][k] = uninitialized_view<std::byte, Pinned>(host_exec, label, grown);
        device[s][k] = uninitialized_view<std::byte, DevMem>(exec, label, grown);
      }
    bytes = grown;
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
/// them). Host views with a device execution space go chunked and overlapped.
/// \throws InputError naming the first invalid query (out is then unspecified);
/// OutOfMemoryError for the staging buffers.
template <class ExecSpace, class Query, class A, class B, class Out>
void run_queries(const ExecSpace& exec, const std::string& what, const Query& query, const A& a, const B& b,
                 const Out& out) {
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
  if constexpr (Kokkos::SpaceAccessibility<ExecSpace, Mem>::accessible) {
    const auto bad = zeroed_view<std::uint64_t, DevMem>(exec, check_label.c_str(), 1);
    answer_queries(exec, what.c_str(), query, a, b, out, count, Kokkos::subview(bad, 0), 0);
    std::uint64_t flag = 0;
    Kokkos::deep_copy(exec, flag, Kokkos::subview(bad, 0));
    exec.fence((what + ": check").c_str());
    const std::uint64_t first = ~flag;
    if (flag != 0) {
      if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible)
        reject(first);
      else
        throw InputError(what + ": query " + std::to_string(first) + " is out of range");
    }
  } else {
    static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible,
                  "ktext: query views must be readable by the execution space or by the host");
    const Kokkos::DefaultHostExecutionSpace host;
    using TA = std::uint64_t;
    using TO = typename Out::non_const_value_type;
    constexpr bool two = !is_no_argument_v<B>;
    const std::uint64_t chunk = count < host_query_chunk ? count : host_query_chunk;
    if (count == 0) return;
    auto& staging = QueryStaging<DevMem>::instance();
    const std::lock_guard<std::mutex> lock(staging.mutex);
    std::uint64_t flag = 0;
    translate_out_of_memory(what.c_str(), [&] {
      const std::string label = what + "::staging";
      staging.reserve(exec, host, label.c_str(), chunk * sizeof(TA));
      auto instances = Kokkos::Experimental::partition_space(exec, 1, 1);
      const auto bad = zeroed_view<std::uint64_t, DevMem>(exec, check_label.c_str(), 1);
      exec.fence((what + ": staging buffers").c_str());
      std::uint64_t begin_of[2] = {0, 0}, size_of[2] = {0, 0};
      bool busy[2] = {false, false};
      auto drain = [&](int s) {
        if (!busy[s]) return;
        instances[s].fence((what + ": chunk").c_str());
        const auto result = typed<TO>(staging.host[s][2], size_of[s]);
        const std::uint64_t begin = begin_of[s];
        Kokkos::parallel_for(
            label, impl::Range<Kokkos::DefaultHostExecutionSpace>(host, 0, size_of[s]),
            [=](std::uint64_t k) { out(begin + k) = result(k); });
        host.fence(label.c_str());
        busy[s] = false;
      };
      std::uint64_t index = 0;
      for (std::uint64_t begin = 0; begin < count; begin += chunk, ++index) {
        const int s = int(index & 1);
        auto& instance = instances[s];
        drain(s);
        const std::uint64_t size = count - begin < chunk ? count - begin : chunk;
        begin_of[s] = begin, size_of[s] = size;
        const auto in_a = typed<TA>(staging.host[s][0], size), in_b = typed<TA>(staging.host[s][1], size);
        Kokkos::parallel_for(
            label, impl::Range<Kokkos::DefaultHostExecutionSpace>(host, 0, size), [=](std::uint64_t k) {
              in_a(k) = TA(a(begin + k));
              if constexpr (two) in_b(k) = TA(b(begin + k));
            });
        host.fence(label.c_str());
        const auto dev_a = typed<TA>(staging.device[s][0], size), dev_b = typed<TA>(staging.device[s][1], size);
        const auto dev_out = typed<TO>(staging.device[s][2], size);
        Kokkos::deep_copy(instance, dev_a, in_a);
        if constexpr (two) {
          Kokkos::deep_copy(instance, dev_b, in_b);
          answer_queries(instance, what.c_str(), query, dev_a, dev_b, dev_out, size, Kokkos::subview(bad, 0), begin);
        } else {
          answer_queries(instance, what.c_str(), query, dev_a, NoArgument{}, dev_out, size, Kokkos::subview(bad, 0),
                         begin);
        }
        Kokkos::deep_copy(instance, typed<TO>(staging.host[s][2], size), dev_out);
        busy[s] = true;
      }
      drain(0);
      drain(1);
      Kokkos::deep_copy(exec, flag, Kokkos::subview(bad, 0));
      exec.fence((what + ": check").c_str());
    });
    if (flag != 0) reject(~flag);
  }
}

}  // namespace ktext::impl
