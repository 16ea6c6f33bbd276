// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// The commands; each returns its exit code or throws CliError / ktext::Error.

#include "options.hpp"

namespace ktext::cli {

int run_sa(const GlobalOptions& global, const SaOptions& options);
int run_check(const GlobalOptions& global, const CheckOptions& options);
int run_crosscheck(const GlobalOptions& global, const CrosscheckOptions& options);
int run_bwt(const GlobalOptions& global, const BwtOptions& options);
int run_unbwt(const GlobalOptions& global, const UnbwtOptions& options);
int run_lcp(const GlobalOptions& global, const LcpOptions& options);
int run_info(const GlobalOptions& global, const InfoOptions& options);
int run_index(const GlobalOptions& global, const IndexOptions& options);
int run_search(const GlobalOptions& global, const SearchOptions& options);
int run_wt_build(const GlobalOptions& global, const WtBuildOptions& options);
int run_wt_query(const GlobalOptions& global, const WtQueryOptions& options);
int run_sort(const GlobalOptions& global, const SortOptions& options);

}  // namespace ktext::cli
