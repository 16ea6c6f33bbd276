// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
// Parsed command line: global options shared by every command, and one struct per command.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktext::cli {

struct GlobalOptions {
  std::string backend = "auto";
  bool json = false;
  bool quiet = false;
  bool progress = false;
  int threads = 0;   ///< 0: Kokkos' default
  int device = -1;   ///< -1: Kokkos' default
  std::string algorithm = "auto";  ///< suffix sorting: auto, dc3 or doubling
};

/// `sa` and `lcp`: one integer per input byte.
struct SaOptions {
  std::string input;
  std::string output;
  int width = 0;  ///< 0: 4 if n < 2^31, else 8
  std::string format = "raw";
};

struct CheckOptions {
  std::string input;
  std::string sa;
  int width = 0;  ///< 0: inferred from the SA file's size
};

struct CrosscheckOptions {
  std::vector<std::string> inputs;  ///< empty: the embedded default text
};

struct BwtOptions {
  std::string input;
  std::string output;
  bool raw = false;  ///< the n bytes only; the primary index is reported, not stored
};

struct UnbwtOptions {
  std::string input;
  std::string output;
  bool has_primary = false;
  std::uint64_t primary = 0;  ///< required for raw input; must agree with a container's
  bool verify = false;        ///< accepted everywhere a file is loaded; inverting proves the transform anyway
};

/// `lcp` takes the same arguments as `sa` and writes the same encodings.
using LcpOptions = SaOptions;

struct InfoOptions {
  std::string input;
  bool verify = false;  ///< also prove an fm_index's or bwt's contents (one O(n) LF walk)
};

struct IndexOptions {
  std::string input;
  std::string output;
  std::uint32_t sample_rate = 32;
  std::string occurrences = "table";  ///< table or wm
};

struct SearchOptions {
  std::string index;
  std::vector<std::string> patterns;  ///< from the command line, searched first
  std::string pattern_file;           ///< one pattern per line; empty: none
  bool locate = false;
  bool verify = false;  ///< prove the index (one O(n) LF walk) before searching
  std::string output = "-";
};

struct WtBuildOptions {
  std::string input;
  std::string output;
  bool matrix = false;  ///< a wavelet matrix instead of a tree
};

struct WtQueryOptions {
  std::string structure;  ///< the file of wt build
  std::string op;         ///< access, rank or select
  std::string queries;    ///< one query per line
  std::string output = "-";
  bool verify = false;    ///< accepted everywhere a file is loaded; the default checks prove a wavelet file
};

/// `sort`: GNU sort's options without keys.
struct SortOptions {
  std::vector<std::string> inputs;  ///< empty: standard input
  std::string output = "-";
  bool unique = false;
  bool reverse = false;
  bool zero_terminated = false;
  std::optional<std::string> buffer_size;  ///< -S as given; none: a quarter of physical memory
  std::string temp_dir;                    ///< -T; empty: $TMPDIR, else /tmp
  std::optional<std::string> chunk;        ///< --chunk: most backend bytes one sort may use; none: what is free
};

enum class Command { None, Sa, Check, Crosscheck, Bwt, Unbwt, Lcp, Info, Index, Search, WtBuild, WtQuery, Sort };

struct CommandLine {
  Command command = Command::None;
  int exit_code = 0;  ///< meaningful when command is None (help, version, usage error)
  GlobalOptions global;
  SaOptions sa;
  CheckOptions check;
  CrosscheckOptions crosscheck;
  BwtOptions bwt;
  UnbwtOptions unbwt;
  LcpOptions lcp;
  InfoOptions info;
  IndexOptions index;
  SearchOptions search;
  WtBuildOptions wt_build;
  WtQueryOptions wt_query;
  SortOptions sort;
};

/// Parses argv. Help and --version are printed here (command None, exit 0); usage errors are
/// printed here too (command None, exit 1), since CLI11's own exit codes are not ours.
CommandLine parse_command_line(int argc, char** argv);

}  // namespace ktext::cli
