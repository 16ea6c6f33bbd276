// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "container_io.hpp"

#include <ktext/core/error.hpp>

namespace ktext::cli {

namespace kc = ktext::container;

void write_bwt_container(OutputFile& out, const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary) {
  kc::Writer writer(kc::Kind::bwt);
  writer.set_meta(kc::kMetaN, n);
  writer.set_meta(kc::kMetaPrimaryIndex, primary);
  writer.set_meta(kc::kMetaSymbolWidth, 1);
  writer.add_section(kc::kSectionBwt, bwt, n, 1);
  writer.write([&](const void* p, std::size_t count) { out.write(p, count); });
}

void check_bwt_container(const kc::Container& c) {
  const std::uint64_t n = c.require_meta(kc::kMetaN);
  const std::uint64_t primary = c.require_meta(kc::kMetaPrimaryIndex);
  if (auto w = c.meta(kc::kMetaSymbolWidth); w && *w != 1)
    throw ktext::FormatError("symbol width " + std::to_string(*w) + " is not supported (only 1-byte symbols)");
  const kc::Section& s = c.require(kc::kSectionBwt);
  if (s.element_width != 1)
    throw ktext::FormatError("section 'bwt' has element width " + std::to_string(s.element_width) + ", expected 1");
  if (s.size != n)
    throw ktext::FormatError("metadata says n = " + std::to_string(n) + " but section 'bwt' holds " +
                             std::to_string(s.size) + " bytes");
  if (n == 0 ? primary != 0 : (primary < 1 || primary > n))
    throw ktext::FormatError("primary index " + std::to_string(primary) + " is not in [1, " + std::to_string(n) + "]");
}

BwtContainer read_bwt_container(std::vector<std::uint8_t> bytes, const std::string& name) {
  BwtContainer f;
  f.bytes = std::move(bytes);
  with_file_name(name, [&] {
    f.container = kc::read_container(f.bytes, kc::Kind::bwt);
    check_bwt_container(f.container);
  });
  f.n = *f.container.meta(kc::kMetaN);
  f.primary = *f.container.meta(kc::kMetaPrimaryIndex);
  f.data = f.container.require(kc::kSectionBwt).data;
  return f;
}

}  // namespace ktext::cli
