// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Moving std::vector data to and from the memory space of the backend under test.

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

namespace ktext::test {

using Exec = KTEXT_TEST_EXEC;
using Mem = typename Exec::memory_space;

template <class T>
Kokkos::View<T*, Mem> to_device(const std::vector<T>& v, const char* label = "test") {
  Kokkos::View<T*, Mem> d(std::string(label), v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, d);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

}  // namespace ktext::test
