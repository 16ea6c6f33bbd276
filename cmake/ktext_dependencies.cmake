# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Kokkos and Kokkos Kernels, found the way the Kokkos integration guide recommends for libraries
# ("Supporting both external and embedded Kokkos"), each in this order:
#   1. a target the enclosing project already made (ktext added with add_subdirectory);
#   2. an installed package: find_package(... CONFIG) honours <Pkg>_ROOT, CMAKE_PREFIX_PATH,
#      CMAKE_DISABLE_FIND_PACKAGE_<Pkg> and CMAKE_REQUIRE_FIND_PACKAGE_<Pkg>;
#   3. the pinned release, built in-tree with FetchContent, from (first that applies)
#      FETCHCONTENT_SOURCE_DIR_KOKKOS / FETCHCONTENT_SOURCE_DIR_KOKKOSKERNELS (a source tree),
#      KTEXT_DEPS_DIR (a folder holding the two release tarballs; their SHA-256 is checked),
#      or the upstream git repository at the release's tag commit (network).
include(FetchContent)

set(KTEXT_KOKKOS_VERSION 4.6.01)
set(KTEXT_KOKKOS_COMMIT 1b1383c6001f3bfe9fe309ca923c2d786600cc79)
set(KTEXT_KOKKOS_SHA256 d8a8a5e15331c46b900d3f75d2b62b0b32f067b126a4a75d465224c899765084)
set(KTEXT_KOKKOSKERNELS_VERSION 4.6.02)
set(KTEXT_KOKKOSKERNELS_COMMIT 312235c4268a04e8e711787c968a55af59dccd30)
set(KTEXT_KOKKOSKERNELS_SHA256 581ec04666a9bf922db6f471c468a65ad03a0d0d0c23db64cc7717c93d5ca17b)

set(KTEXT_DEPS_DIR "$ENV{KTEXT_DEPS_DIR}" CACHE PATH
    "Folder with kokkos-${KTEXT_KOKKOS_VERSION}.tar.gz and kokkos-kernels-${KTEXT_KOKKOSKERNELS_VERSION}.tar.gz (offline builds; default: the environment variable KTEXT_DEPS_DIR)")
option(KTEXT_ENABLE_CUDA "Embedded Kokkos only: enable the Cuda backend" OFF)
set(KTEXT_CUDA_ARCH "HOPPER90" CACHE STRING
    "Embedded Kokkos only: the GPU architecture, as Kokkos names it (Kokkos_ARCH_<name>: VOLTA70, AMPERE80, ADA89, HOPPER90, BLACKWELL100, ...)")

# ktext_declare_pinned(<name> <tarball> <sha256> <git repository> <commit> [PATCH_COMMAND ...])
function(ktext_declare_pinned name tarball sha256 repository commit)
  string(TOUPPER ${name} upper)
  if(FETCHCONTENT_SOURCE_DIR_${upper})
    # FetchContent uses that tree as it is; the declaration only names the dependency.
    FetchContent_Declare(${name} GIT_REPOSITORY ${repository} GIT_TAG ${commit})
    message(STATUS "ktext: ${name} from FETCHCONTENT_SOURCE_DIR_${upper} = ${FETCHCONTENT_SOURCE_DIR_${upper}}")
  elseif(KTEXT_DEPS_DIR)
    set(file "${KTEXT_DEPS_DIR}/${tarball}")
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "ktext: KTEXT_DEPS_DIR is '${KTEXT_DEPS_DIR}' but it has no ${tarball}. "
                          "Put the upstream release tarball there, or unset KTEXT_DEPS_DIR to download it.")
    endif()
    file(SHA256 "${file}" actual)
    if(NOT actual STREQUAL sha256)
      message(FATAL_ERROR "ktext: ${file} has SHA-256 ${actual}, expected ${sha256} "
                          "(the pinned ${name} release). Replace it with the upstream tarball.")
    endif()
    FetchContent_Declare(${name} URL "${file}" URL_HASH SHA256=${sha256}
                         DOWNLOAD_EXTRACT_TIMESTAMP TRUE ${ARGN})
    message(STATUS "ktext: ${name} from ${file} (SHA-256 checked)")
  else()
    FetchContent_Declare(${name} GIT_REPOSITORY ${repository} GIT_TAG ${commit} ${ARGN})
    message(STATUS "ktext: ${name} from ${repository} at ${commit}")
  endif()
endfunction()

# --- Kokkos -------------------------------------------------------------------------------------
set(KTEXT_EMBEDDED_KOKKOS OFF)
if(TARGET Kokkos::kokkos)
  message(STATUS "ktext: Kokkos from the enclosing project")
else()
  find_package(Kokkos 4.4 CONFIG QUIET)
  if(Kokkos_FOUND)
    message(STATUS "ktext: Kokkos ${Kokkos_VERSION} installed at ${Kokkos_DIR}")
  else()
    set(KTEXT_EMBEDDED_KOKKOS ON)
    set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "ktext: embedded Kokkos backend")
    set(Kokkos_ENABLE_OPENMP ON CACHE BOOL "ktext: embedded Kokkos backend")
    if(KTEXT_ENABLE_CUDA)
      set(Kokkos_ENABLE_CUDA ON CACHE BOOL "ktext: embedded Kokkos backend")
      set(Kokkos_ARCH_${KTEXT_CUDA_ARCH} ON CACHE BOOL "ktext: embedded Kokkos GPU architecture")
    endif()
    set(Kokkos_ENABLE_TESTS OFF CACHE BOOL "")
    set(Kokkos_ENABLE_EXAMPLES OFF CACHE BOOL "")
    set(Kokkos_ENABLE_BENCHMARKS OFF CACHE BOOL "")
    ktext_declare_pinned(kokkos kokkos-${KTEXT_KOKKOS_VERSION}.tar.gz ${KTEXT_KOKKOS_SHA256}
                         https://github.com/kokkos/kokkos.git ${KTEXT_KOKKOS_COMMIT}
                         PATCH_COMMAND ${CMAKE_COMMAND} -P ${CMAKE_CURRENT_LIST_DIR}/ktext_kokkos_cuda13.cmake)
    FetchContent_MakeAvailable(kokkos)
  endif()
endif()
if(KTEXT_ENABLE_CUDA AND NOT Kokkos_ENABLE_CUDA)
  message(FATAL_ERROR "ktext: KTEXT_ENABLE_CUDA is ON but the Kokkos in use (${Kokkos_DIR}) has no Cuda "
                      "backend. Point Kokkos_ROOT at a Kokkos built with Cuda, or pass "
                      "-DCMAKE_DISABLE_FIND_PACKAGE_Kokkos=ON to build the pinned release with Cuda.")
endif()

# --- Kokkos Kernels -----------------------------------------------------------------------------
set(KTEXT_EMBEDDED_KOKKOSKERNELS OFF)
if(TARGET Kokkos::kokkoskernels)
  message(STATUS "ktext: Kokkos Kernels from the enclosing project")
else()
  if(NOT KTEXT_EMBEDDED_KOKKOS)
    # An installed Kokkos Kernels is built against an installed Kokkos, never the embedded one.
    find_package(KokkosKernels CONFIG QUIET)
  endif()
  if(KokkosKernels_FOUND)
    message(STATUS "ktext: Kokkos Kernels ${KokkosKernels_VERSION} installed at ${KokkosKernels_DIR}")
  else()
    set(KTEXT_EMBEDDED_KOKKOSKERNELS ON)
    # ktext uses KokkosSparse::sort_crs_matrix, a header template: no explicit instantiations,
    # no vendor libraries.
    set(KokkosKernels_ENABLE_ALL_COMPONENTS OFF CACHE BOOL "")
    set(KokkosKernels_ENABLE_COMPONENT_SPARSE ON CACHE BOOL "")
    set(KokkosKernels_ADD_DEFAULT_ETI OFF CACHE BOOL "")
    foreach(tpl CUBLAS CUSPARSE CUSOLVER BLAS LAPACK)
      set(KokkosKernels_ENABLE_TPL_${tpl} OFF CACHE BOOL "")
    endforeach()
    set(KokkosKernels_ENABLE_TESTS OFF CACHE BOOL "")
    set(KokkosKernels_ENABLE_EXAMPLES OFF CACHE BOOL "")
    set(KokkosKernels_ENABLE_PERFTESTS OFF CACHE BOOL "")
    ktext_declare_pinned(kokkoskernels kokkos-kernels-${KTEXT_KOKKOSKERNELS_VERSION}.tar.gz
                         ${KTEXT_KOKKOSKERNELS_SHA256} https://github.com/kokkos/kokkos-kernels.git
                         ${KTEXT_KOKKOSKERNELS_COMMIT})
    FetchContent_MakeAvailable(kokkoskernels)
  endif()
endif()
