// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext: command-line front end of the library. main() turns every failure into one line on
// stderr and the exit code of the CLI contract; nothing escapes as a crash.

#include <cstdio>
#include <exception>
#include <new>

#include <ktext/core/error.hpp>

#include "commands.hpp"
#include "errors.hpp"
#include "io.hpp"
#include "options.hpp"

namespace {

int fail(int code, const char* message) {
  std::fflush(stdout);
  std::fprintf(stderr, "ktext: error: %s\n", message);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ktext::cli;
  install_signal_handlers();
  try {
    const CommandLine cl = parse_command_line(argc, argv);
    switch (cl.command) {
      case Command::Sa: return run_sa(cl.global, cl.sa);
      case Command::Check: return run_check(cl.global, cl.check);
      case Command::Crosscheck: return run_crosscheck(cl.global, cl.crosscheck);
      case Command::Bwt: return run_bwt(cl.global, cl.bwt);
      case Command::Unbwt: return run_unbwt(cl.global, cl.unbwt);
      case Command::Lcp: return run_lcp(cl.global, cl.lcp);
      case Command::Info: return run_info(cl.global, cl.info);
      case Command::Index: return run_index(cl.global, cl.index);
      case Command::Search: return run_search(cl.global, cl.search);
      case Command::WtBuild: return run_wt_build(cl.global, cl.wt_build);
      case Command::WtQuery: return run_wt_query(cl.global, cl.wt_query);
      case Command::Sort: return run_sort(cl.global, cl.sort);
      case Command::None: break;
    }
    return cl.exit_code;
  } catch (const CliError& e) {
    return fail(e.code(), e.what());
  } catch (const ktext::FormatError& e) {
    return fail(kExitInvalid, e.what());
  } catch (const ktext::Error& e) {  // InputError, OutOfMemoryError: the input cannot be processed here
    return fail(kExitIo, e.what());
  } catch (const std::bad_alloc&) {
    return fail(kExitIo, "out of host memory");
  } catch (const std::exception& e) {
    return fail(kExitIo, e.what());
  } catch (...) {
    return fail(kExitIo, "unknown failure");
  }
}
