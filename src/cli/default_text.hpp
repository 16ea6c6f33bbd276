// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The text `ktext crosscheck` uses when given no input.

#include <cstdint>
#include <vector>

namespace ktext::cli {

/// Exactly 1 MiB, the same on every run and machine: English-like words, long repeats, runs of
/// one byte, every byte value 0..255, NUL runs and pseudo-random bytes. Each part stresses a
/// different path of the algorithm (many short groups; deep doubling; A^n; full alphabet;
/// the byte 0 as an ordinary symbol; random text resolved by the initial sort).
std::vector<std::uint8_t> default_crosscheck_text();

}  // namespace ktext::cli
