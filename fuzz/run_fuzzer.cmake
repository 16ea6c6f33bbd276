# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs one libFuzzer target for ctest (fuzz/CMakeLists.txt). The inputs are listed when the test
# runs, not when CMake configures, so a new file in corpus/ or regressions/ needs no reconfigure.
#   -DFUZZER=<binary> -DNAME=<name> -DSOURCE=<fuzz/ in the source tree> -DWORK=<build folder>
#   -DOPTIONS="<flags>"  libFuzzer flags
#   -DMODE=regressions  every file of corpus/<name>/ and regressions/<name>/, each run once
#   -DMODE=fuzz -DSECONDS=<n>  fuzzing for n seconds on a copy of corpus/<name>/
# libFuzzer writes new inputs into its first corpus folder and crash artifacts beside its
# -artifact_prefix: both lie under WORK, never in the source tree.
cmake_minimum_required(VERSION 3.20)
separate_arguments(options UNIX_COMMAND "${OPTIONS}")
set(artifacts ${WORK}/artifacts/${NAME}/)
file(MAKE_DIRECTORY ${artifacts})

if(MODE STREQUAL "regressions")
  file(GLOB inputs LIST_DIRECTORIES false ${SOURCE}/corpus/${NAME}/* ${SOURCE}/regressions/${NAME}/*)
  list(LENGTH inputs count)
  message(STATUS "fuzz_${NAME}: replaying ${count} inputs")
  if(count EQUAL 0)
    return()
  endif()
  # Files given on its command line are run once each, without fuzzing.
  execute_process(COMMAND ${FUZZER} -artifact_prefix=${artifacts} ${options} ${inputs} RESULT_VARIABLE rc)
elseif(MODE STREQUAL "fuzz")
  set(corpus ${WORK}/corpus/${NAME})
  file(REMOVE_RECURSE ${corpus})
  file(MAKE_DIRECTORY ${corpus})
  file(GLOB seeds LIST_DIRECTORIES false ${SOURCE}/corpus/${NAME}/*)
  if(seeds)
    file(COPY ${seeds} DESTINATION ${corpus})
  endif()
  set(read_only)
  if(IS_DIRECTORY ${SOURCE}/regressions/${NAME})
    set(read_only ${SOURCE}/regressions/${NAME})
  endif()
  execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -print_final_stats=1 -artifact_prefix=${artifacts}
                          ${options} ${corpus} ${read_only}
                  RESULT_VARIABLE rc)
else()
  message(FATAL_ERROR "run_fuzzer.cmake: MODE must be regressions or fuzz, not '${MODE}'")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz_${NAME} failed (${rc}); the input is in ${artifacts}")
endif()
