# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Run as the PATCH_COMMAND of the embedded Kokkos 4.6.01 (in its source folder). CUDA 13 changed
# the signatures of two runtime calls that this release makes; Kokkos 4.7.01 (kokkos PR #8298)
# is the first release that builds with CUDA 13. Each call is wrapped so that the same source
# builds with CUDA 12 and 13, and nvcc_wrapper's fallback architecture (used only where no
# -arch is given) moves from sm_70, which CUDA 13 no longer supports, to sm_80.
# Rewriting is idempotent: a folder already rewritten is left alone.

function(ktext_rewrite file old new)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "ktext: ${file} is missing: not the Kokkos release ktext pins")
  endif()
  file(READ "${file}" text)
  string(FIND "${text}" "${new}" done)
  if(NOT done EQUAL -1)
    return()
  endif()
  string(FIND "${text}" "${old}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "ktext: ${file} does not hold the text to adapt for CUDA 13: not the Kokkos release ktext pins")
  endif()
  string(REPLACE "${old}" "${new}" text "${text}")
  file(WRITE "${file}" "${text}")
endfunction()

set(instance core/src/Cuda/Kokkos_Cuda_Instance.hpp)
ktext_rewrite(${instance}
  "    return cudaGraphAddDependencies(graph, from, to, numDependencies);\n"
  "#if CUDART_VERSION >= 13000  // ktext: CUDA 13 added the edge data argument\n    return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);\n#else\n    return cudaGraphAddDependencies(graph, from, to, numDependencies);\n#endif\n")
ktext_rewrite(${instance}
  "    return cudaMemPrefetchAsync(devPtr, count, dstDevice,\n                                get_input_stream(stream));\n"
  "#if CUDART_VERSION >= 13000  // ktext: CUDA 13 takes a location and flags\n    cudaMemLocation location{};\n    location.type = cudaMemLocationTypeDevice;\n    location.id = dstDevice;\n    return cudaMemPrefetchAsync(devPtr, count, location, 0, get_input_stream(stream));\n#else\n    return cudaMemPrefetchAsync(devPtr, count, dstDevice, get_input_stream(stream));\n#endif\n")
ktext_rewrite(bin/nvcc_wrapper "\ndefault_arch=\"sm_70\"\n" "\ndefault_arch=\"sm_80\"  # ktext: CUDA 13 has no sm_70\n")
