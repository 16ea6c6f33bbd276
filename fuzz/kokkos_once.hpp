// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Kokkos is initialized once per fuzzer process, from LLVMFuzzerInitialize, and never finalized.
// libFuzzer leaves the process through exit() from several places (after -runs or
// -max_total_time, on a timeout or an out-of-memory report, in its crash handlers), sometimes
// while an input is still being processed and views are alive; Kokkos::finalize() there would
// itself abort and mask the finding. Kokkos' remaining allocations are reachable from its
// globals, so LeakSanitizer does not report them.

#include <Kokkos_Core.hpp>

namespace ktext_fuzz {

inline void initialize_kokkos_once() {
  static const bool initialized = [] {
    Kokkos::InitializationSettings settings;
    settings.set_disable_warnings(true);  // one hint per process is noise in every run's log
    Kokkos::initialize(settings);
    return true;
  }();
  (void)initialized;
}

}  // namespace ktext_fuzz
