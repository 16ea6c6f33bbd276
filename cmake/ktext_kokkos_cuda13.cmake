# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Run as the PATCH_COMMAND of the embedded Kokkos 4.6.01 (in its source folder). CUDA 13 changed
# the signatures of three runtime calls that this release makes (cudaGraphAddDependencies,
# cudaMemPrefetchAsync: kokkos PR #8298, first released in 4.7.01; cudaMemAdvise: kokkos PR
# #8726, in 4.7.02). Each call is wrapped so that the same source
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
ktext_rewrite(${instance}
  "    return cudaMemAdvise(devPtr, count, advice, device);\n"
  "#if CUDART_VERSION >= 13000  // ktext: CUDA 13 takes a location\n    cudaMemLocation location{};\n    location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;\n    location.id = device;\n    return cudaMemAdvise(devPtr, count, advice, location);\n#else\n    return cudaMemAdvise(devPtr, count, advice, device);\n#endif\n")
ktext_rewrite(bin/nvcc_wrapper "\ndefault_arch=\"sm_70\"\n" "\ndefault_arch=\"sm_80\"  # ktext: CUDA 13 has no sm_70\n")
