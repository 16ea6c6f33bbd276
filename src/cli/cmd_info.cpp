// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ktext info FILE [--verify] [--json]: check a ktext container as its loader does (with
// --verify: prove an index's or transform's contents too) and describe it. Corrupt, truncated,
// foreign, too-new or inconsistent files exit 3.

#include <ktext/core/container.hpp>
#include <ktext/suffix/bwt_file.hpp>
#include <ktext/succinct/wavelet_file.hpp>
#include <ktext/suffix/fm_index_file.hpp>

#include "commands.hpp"
#include "errors.hpp"
#include "io.hpp"
#include "report.hpp"

namespace ktext::cli {

namespace kc = ktext::container;

int run_info(const GlobalOptions& global, const InfoOptions& options) {
  Stopwatch watch;
  InputFile in = InputFile::open(options.input);
  const std::vector<std::uint8_t> bytes = in.read_rest();
  const kc::Container c = with_file_name(in.name(), [&] {
    kc::Container parsed = kc::read_container(bytes);
    if (parsed.kind == kc::Kind::bwt) (void)(options.verify ? ktext::bwt_file_verify(parsed) : ktext::bwt_file_check(parsed));
    if (parsed.kind == kc::Kind::fm_index)
      (void)(options.verify ? ktext::fm_index_file_verify(parsed) : ktext::fm_index_file_check(parsed));
    if (parsed.kind == kc::Kind::wavelet_tree || parsed.kind == kc::Kind::wavelet_matrix)
      (void)ktext::wavelet_file_check(parsed);
    return parsed;
  });
  const std::string kind = kc::kind_name(std::uint32_t(c.kind));
  const std::uint64_t n = c.meta(kc::kMetaN).value_or(0);

  if (global.json) {
    Json report;
    report["command"] = "info";
    report["backend"] = "host";
    report["n"] = n;
    report["seconds"] = watch.seconds();
    report["input"] = utf8_safe(options.input);
    report["kind"] = kind;
    report["version"] = c.version;
    report["file_size"] = c.file_size;
    report["checksums"] = "ok";
    // "checked": every check a loader runs passed; "verified": --verify proved the contents too.
    report["contents"] = options.verify ? "verified" : "checked";
    Json sections = Json::array();
    for (const kc::Section& s : c.sections)
      sections.push_back(Json{{"id", s.id}, {"name", s.name()}, {"offset", s.offset}, {"size", s.size},
                              {"element_width", s.element_width}, {"crc32", format("%08x", s.crc)}, {"checksum", "ok"}});
    report["sections"] = sections;
    Json meta = Json::object();
    for (const auto& kv : c.metadata) meta[kc::meta_key_name(kv.first)] = kv.second;
    report["metadata"] = meta;
    print_json(report);
  } else if (!global.quiet) {
    std::string text = format("%s: ktext container, kind %s, format version %u, %llu bytes, checksums ok, contents %s\nsections:\n",
                              in.name().c_str(), kind.c_str(), unsigned(c.version),
                              static_cast<unsigned long long>(c.file_size), options.verify ? "verified" : "checked");
    for (const kc::Section& s : c.sections)
      text += format("  %-12s id %u  offset %llu  size %llu  element width %u  crc32 %08x ok\n", s.name().c_str(), s.id,
                     static_cast<unsigned long long>(s.offset), static_cast<unsigned long long>(s.size),
                     s.element_width, s.crc);
    text += "metadata:\n";
    for (const auto& kv : c.metadata)
      text += format("  %s: %llu\n", kc::meta_key_name(kv.first).c_str(), static_cast<unsigned long long>(kv.second));
    emit(stdout, text);
  }
  return kExitOk;
}

}  // namespace ktext::cli
