// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext_batched_queries.hpp
/// \brief One way to run a batch of queries on a succinct structure: check every query, then
/// answer query q as out(q) = query(a(q), b(q)).
///
/// When the execution space can read the views, one kernel does it. When it cannot (host views
/// and a device execution space), the batch goes in chunks through pinned staging buffers on
/// two execution-space instances, so that one chunk's copies overlap another chunk's kernel and
/// the host's staging copies \cite FranzrebBurtscherRudolph2025.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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

/// Index of the first query that \p query rejects (query.valid(a, b) false), or ~0 when all are
/// fine; runs on \p exec (which must read the views).
template <class ExecSpace, class Query, class A, class B>
std::uint64_t first_invalid_query(const ExecSpace& exec, const char* label, const Query& query, const A& a, const B& b,
                                  std::uint64_t count) {
  std::uint64_t first = ~std::uint64_t(0);
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<ExecSpace>(exec, 0, count),
      KOKKOS_LAMBDA(std::uint64_t q, std::uint64_t & f) {
        if (!query.valid(std::uint64_t(a(q)), std::uint64_t(b(q))) && q < f) f = q;
      },
      Kokkos::Min<std::uint64_t>(first));
  return first;
}

/// out(q) = query(a(q), b(q)) for every q on \p exec, views readable there. Does not block.
template <class ExecSpace, class Query, class A, class B, class Out>
void answer_queries(const ExecSpace& exec, const char* label, const Query& query, const A& a, const B& b, const Out& out,
                    std::uint64_t count) {
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecSpace>(exec, 0, count),
      KOKKOS_LAMBDA(std::uint64_t q) { out(q) = query(std::uint64_t(a(q)), std::uint64_t(b(q))); });
}

/// Checks and answers a batch. \p a, \p b (or NoArgument) and \p out are rank-1 views of
/// integers with one entry per query; \p what names the operation in errors and labels.
/// Device views: does not block after the check. Host views with a device execution space:
/// chunked, overlapped, and waits.
/// \throws InputError naming the first invalid query; OutOfMemoryError for the staging buffers.
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

  if constexpr (Kokkos::SpaceAccessibility<ExecSpace, Mem>::accessible) {
    const std::uint64_t bad = first_invalid_query(exec, check_label.c_str(), query, a, b, count);
    if (bad != ~std::uint64_t(0)) {
      if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible) {
        reject(bad);
      } else {
        throw InputError(what + ": query " + std::to_string(bad) + " is out of range");
      }
    }
    answer_queries(exec, what.c_str(), query, a, b, out, count);
  } else {
    static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible,
                  "ktext: query views must be readable by the execution space or by the host");
    const Kokkos::DefaultHostExecutionSpace host;
    const std::uint64_t bad = first_invalid_query(host, check_label.c_str(), query, a, b, count);
    if (bad != ~std::uint64_t(0)) reject(bad);
    using Pinned = Kokkos::SharedHostPinnedSpace;
    using DevMem = typename ExecSpace::memory_space;
    using TA = std::uint64_t;
    using TO = typename Out::non_const_value_type;
    const std::uint64_t chunk = count < host_query_chunk ? count : host_query_chunk;
    translate_out_of_memory(what.c_str(), [&] {
      auto instances = Kokkos::Experimental::partition_space(exec, 1, 1);
      struct Slot {
        Kokkos::View<TA*, Pinned> in_a, in_b;
        Kokkos::View<TO*, Pinned> result;
        Kokkos::View<TA*, DevMem> dev_a, dev_b;
        Kokkos::View<TO*, DevMem> dev_out;
        std::uint64_t begin = 0, size = 0;
        bool busy = false;
      };
      Slot slots[2];
      const std::string label = what + "::staging";
      for (auto& s : slots) {
        s.in_a = uninitialized_view<TA, Pinned>(host, label.c_str(), chunk);
        s.dev_a = uninitialized_view<TA, DevMem>(exec, label.c_str(), chunk);
        if constexpr (!is_no_argument_v<B>) {
          s.in_b = uninitialized_view<TA, Pinned>(host, label.c_str(), chunk);
          s.dev_b = uninitialized_view<TA, DevMem>(exec, label.c_str(), chunk);
        }
        s.result = uninitialized_view<TO, Pinned>(host, label.c_str(), chunk);
        s.dev_out = uninitialized_view<TO, DevMem>(exec, label.c_str(), chunk);
      }
      exec.fence((what + ": staging buffers").c_str());
      auto drain = [&](Slot& s, auto& instance) {
        if (!s.busy) return;
        instance.fence((what + ": chunk").c_str());
        for (std::uint64_t k = 0; k < s.size; ++k) out(s.begin + k) = s.result(k);
        s.busy = false;
      };
      std::uint64_t index = 0;
      for (std::uint64_t begin = 0; begin < count; begin += chunk, ++index) {
        Slot& s = slots[index & 1];
        auto& instance = instances[index & 1];
        drain(s, instance);
        s.begin = begin;
        s.size = count - begin < chunk ? count - begin : chunk;
        for (std::uint64_t k = 0; k < s.size; ++k) s.in_a(k) = TA(a(begin + k));
        if constexpr (!is_no_argument_v<B>)
          for (std::uint64_t k = 0; k < s.size; ++k) s.in_b(k) = TA(b(begin + k));
        const auto range = Kokkos::make_pair(std::uint64_t(0), s.size);
        const auto dev_a = Kokkos::subview(s.dev_a, range);
        const auto dev_out = Kokkos::subview(s.dev_out, range);
        Kokkos::deep_copy(instance, dev_a, Kokkos::subview(s.in_a, range));
        if constexpr (!is_no_argument_v<B>) {
          const auto dev_b = Kokkos::subview(s.dev_b, range);
          Kokkos::deep_copy(instance, dev_b, Kokkos::subview(s.in_b, range));
          answer_queries(instance, what.c_str(), query, dev_a, dev_b, dev_out, s.size);
        } else {
          answer_queries(instance, what.c_str(), query, dev_a, NoArgument{}, dev_out, s.size);
        }
        Kokkos::deep_copy(instance, Kokkos::subview(s.result, range), dev_out);
        s.busy = true;
      }
      drain(slots[0], instances[0]);
      drain(slots[1], instances[1]);
    });
  }
}

}  // namespace ktext::impl
