#pragma once
// The commands; each returns its exit code or throws CliError / ktext::Error.

#include "options.hpp"

namespace ktext::cli {

int run_sa(const GlobalOptions& global, const SaOptions& options);
int run_check(const GlobalOptions& global, const CheckOptions& options);
int run_crosscheck(const GlobalOptions& global, const CrosscheckOptions& options);

}  // namespace ktext::cli
