// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The deterministic inputs of src/oracles (runs, periods, Fibonacci and Thue-Morse words, NUL
// bytes, every byte value, seeded random texts) as the tests use them.

#include <ktext_oracles/texts.hpp>

namespace ktext::test {

using oracle::all_bytes_text;
using oracle::fibonacci_text;
using oracle::named_texts;
using oracle::periodic_text;
using oracle::random_text;
using oracle::run_text;
using oracle::thue_morse_text;

}  // namespace ktext::test
