// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "suffix_runs.hpp"

namespace ktext::cli {

template <class I>
ktext::SuffixArrayCheck verify_suffix_array(Backend backend, const std::uint8_t* text, std::uint64_t n, const I* sa) {
  return with_exec_space(backend, [&](const auto& exec) {
    using Exec = std::decay_t<decltype(exec)>;
    using Mem = typename Exec::memory_space;
    Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h_text(text, n);
    Kokkos::View<const I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h_sa(sa, n);
    if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible) {
      return ktext::check_suffix_array(exec, h_text, h_sa);
    } else {
      Kokkos::View<std::uint8_t*, Mem> d_text(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::text"), n);
      Kokkos::View<I*, Mem> d_sa(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "ktext_cli::sa"), n);
      Kokkos::deep_copy(exec, d_text, h_text);
      Kokkos::deep_copy(exec, d_sa, h_sa);
      return ktext::check_suffix_array(exec, d_text, d_sa);
    }
  });
}

template ktext::SuffixArrayCheck verify_suffix_array<std::int32_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                   const std::int32_t*);
template ktext::SuffixArrayCheck verify_suffix_array<std::int64_t>(Backend, const std::uint8_t*, std::uint64_t,
                                                                   const std::int64_t*);

}  // namespace ktext::cli
