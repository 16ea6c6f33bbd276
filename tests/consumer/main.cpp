// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A user of the installed package: suffix array of "banana" on the default execution space, and
// the container checksum, which links the compiled ktext::container (and zlib behind it).
#include <ktext/ktext.hpp>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const char* word = "banana";
  Kokkos::View<std::uint8_t*, Kokkos::HostSpace> host("text", std::strlen(word));
  std::memcpy(host.data(), word, host.extent(0));
  auto text = Kokkos::create_mirror_view_and_copy(Kokkos::DefaultExecutionSpace::memory_space{}, host);
  Kokkos::View<std::int32_t*> sa("sa", host.extent(0));
  ktext::suffix_array(text, sa);
  auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, sa);
  for (std::size_t i = 0; i < out.extent(0); ++i) std::printf("%d ", out(i));
  std::printf("\n");
  if (ktext::container::crc32_of(word, 6) != 0x038b67cfu) return 2;  // zlib.crc32(b"banana")
  return ktext::check_suffix_array(Kokkos::DefaultHostExecutionSpace{}, host, out) ? 0 : 1;
}
