# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs the configured ktext build into a scratch prefix, then configures, builds and runs
# a tiny external project that only knows find_package(ktext).
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${KTEXT_BUILD} --prefix ${WORK}/prefix RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
set(prefix_path "${WORK}/prefix;${PREFIX_PATH}")
if(EMBEDDED_KOKKOS)
  # ktext built Kokkos itself: the install must carry a usable Kokkos beside ktext.
  file(GLOB kokkos_config ${WORK}/prefix/lib*/cmake/Kokkos/KokkosConfig.cmake)
  file(GLOB kernels_config ${WORK}/prefix/lib*/cmake/KokkosKernels/KokkosKernelsConfig.cmake)
  if(NOT kokkos_config OR NOT kernels_config)
    message(FATAL_ERROR "the install of a ktext built with the embedded Kokkos has no Kokkos or Kokkos Kernels package")
  endif()
  set(prefix_path "${WORK}/prefix")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${KTEXT_SOURCE}/tests/consumer -B ${WORK}/build -G ${GENERATOR}
                        -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
                        "-DCMAKE_PREFIX_PATH=${prefix_path}" -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
                        RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer configure failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer build failed: ${rc}")
endif()
execute_process(COMMAND ${WORK}/build/ktext_consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "5 3 1 0 4 2")
  message(FATAL_ERROR "consumer run failed: rc=${rc} output=${out}")
endif()
