// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// FUZZ_CHECK(condition, message): a wrong result is a finding, so it must stop the fuzzer the
// way a crash does. abort() raises SIGABRT, which libFuzzer reports with the input and a stack
// (-handle_abrt=1 is its default); the message says which property failed.

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition, message)                                                          \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: %s\n", __FILE__, __LINE__, #condition, \
                   message);                                                                    \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)
