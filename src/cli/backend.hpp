// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Choosing a Kokkos execution space at run time and calling a generic callable on it.

#include <Kokkos_Core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "errors.hpp"
#include "options.hpp"

namespace ktext::cli {

enum class Backend { Serial, OpenMP, Cuda };

const char* backend_name(Backend b);
std::vector<Backend> compiled_backends();
std::string compiled_backends_text();  ///< "Serial OpenMP Cuda", as the build has them

/// --backend without Kokkos: nullopt for auto; usage error for a backend this build lacks.
std::optional<Backend> parse_backend(const std::string& name);

/// Kokkos lives exactly as long as this object; views must die before it does.
class KokkosSession {
 public:
  explicit KokkosSession(const GlobalOptions& options);
  ~KokkosSession();
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;
};

/// Needs a KokkosSession. True when CUDA is built and at least one GPU is visible.
bool gpu_present();
/// Needs a KokkosSession: auto becomes CUDA, OpenMP or Serial; an explicit CUDA without a GPU is an I/O error.
Backend resolve_backend(std::optional<Backend> requested);
/// Needs a KokkosSession: runs the first launches whose set-up cost a backend pays once per
/// process (CUDA), so that the first command's timed work does not include them.
void warm_up(Backend b);
/// Needs a KokkosSession: every backend that can run here.
std::vector<Backend> usable_backends();

/// Calls f(exec) with a default instance of the backend's execution space.
template <class F>
decltype(auto) with_exec_space(Backend b, F&& f) {
  switch (b) {
#if defined(KOKKOS_ENABLE_CUDA)
    case Backend::Cuda:
      return f(Kokkos::Cuda{});
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    case Backend::OpenMP:
      return f(Kokkos::OpenMP{});
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
    case Backend::Serial:
      return f(Kokkos::Serial{});
#endif
    default:
      break;
  }
  throw usage_error(std::string("backend ") + backend_name(b) + " is not built into this ktext");
}

}  // namespace ktext::cli
