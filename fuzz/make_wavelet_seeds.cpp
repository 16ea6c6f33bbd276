// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Writes the wavelet seeds of corpus/container/ that `ktext wt build` cannot make: trees and
// matrices of 2- and 4-byte symbols, with dense (minimal) and plain alphabets, so the fuzzer
// starts inside the loaders of every symbol width. Not part of the tests; build and run it by
// hand (target fuzz_make_wavelet_seeds) with the output folder as its argument.

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#include <ktext/succinct/wavelet_file.hpp>
#include <ktext/succinct/wavelet_matrix.hpp>
#include <ktext/succinct/wavelet_tree.hpp>

namespace {

template <class Structure, class Symbol>
void write(const std::string& path, const std::vector<Symbol>& symbols, std::uint64_t alphabet_size = 0) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const Kokkos::View<const Symbol*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> text(symbols.data(), symbols.size());
  ktext::WaveletOptions options;
  options.alphabet_size = alphabet_size;  // 0: the minimal alphabet, stored; else the codes are the symbols
  const Structure structure(Exec{}, text, options);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot write " + path);
  ktext::write_wavelet(Exec{}, structure, [&](const void* p, std::size_t n) { std::fwrite(p, 1, n, f); });
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argv[0]);
    return 1;
  }
  Kokkos::ScopeGuard kokkos;
  const std::string out = argv[1];
  using Host = Kokkos::HostSpace;
  std::vector<std::uint16_t> small;  // few distinct symbols spread over 16 bits: a dense alphabet
  std::vector<std::uint16_t> plain;  // symbols below 13, stored as codes 0..12 (no alphabet section)
  std::vector<std::uint32_t> wide;   // symbols beyond 16 bits
  for (std::uint32_t i = 0; i < 40; ++i) {
    small.push_back(std::uint16_t((i * 7 % 5) * 4099 + 17));
    plain.push_back(std::uint16_t(i * 11 % 13));
    wide.push_back((i * 5 % 7) * 100003u + 65536u);
  }
  write<ktext::WaveletTree<Host, std::uint16_t>>(out + "/wt_tree_u16_sparse", small);
  write<ktext::WaveletTree<Host, std::uint16_t>>(out + "/wt_tree_u16_codes", plain, 13);
  write<ktext::WaveletMatrix<Host, std::uint16_t>>(out + "/wt_matrix_u16_codes", plain, 13);
  write<ktext::WaveletMatrix<Host, std::uint16_t>>(out + "/wt_matrix_u16_sparse", small);
  write<ktext::WaveletTree<Host, std::uint32_t>>(out + "/wt_tree_u32_wide", wide);
  write<ktext::WaveletMatrix<Host, std::uint32_t>>(out + "/wt_matrix_u32_wide", wide);
  return 0;
}
