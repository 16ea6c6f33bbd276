// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// FUZZ_CHECK(condition, message): a wrong result is a finding, so it must stop the fuzzer the
// way a crash does. abort() raises SIGABRT, which libFuzzer reports with the input and a stack
// (-handle_abrt=1 is its default); the message says which property failed.
//
// KTEXT_FUZZ_KNOWN_FINDING(id, detail): a finding that is reported and awaits its fix, with its
// input in regressions/pending/<target>/. The bounded fuzzing runs of CI would rediscover it
// within seconds, so it is tolerated there; with KTEXT_FUZZ_STRICT=1 in the environment it
// aborts like any finding, which is how the pending input reproduces it. The fix removes the
// marker and moves the input to regressions/<target>/.

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

#define KTEXT_FUZZ_KNOWN_FINDING(id, detail)                                                   \
  do {                                                                                          \
    const char* strict = std::getenv("KTEXT_FUZZ_STRICT");                                     \
    if (strict != nullptr && *strict != '\0' && *strict != '0') {                               \
      std::fprintf(stderr, "%s:%d: known finding %s: %s\n", __FILE__, __LINE__, id, detail);   \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)
