// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "sa_file.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include <ktext/core/error.hpp>
#include <ktext/core/little_endian.hpp>

#include "errors.hpp"

namespace ktext::cli {

namespace le = ktext::little_endian;

namespace {

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr std::size_t kNpyMagicSize = 6;
constexpr std::size_t kChunk = std::size_t(1) << 20;  // entries converted per write

[[noreturn]] void bad_format(const std::string& why) { throw ktext::FormatError(why); }

// The value of \p key in a .npy header dict as NumPy writes it, e.g.
// {'descr': '<i4', 'fortran_order': False, 'shape': (7,), }: a quoted string, a tuple, or a word.
std::string npy_value(const std::string& header, const char* key) {
  for (const char q : {'\'', '"'}) {
    const std::string quoted_key = std::string(1, q) + key + q;
    auto pos = header.find(quoted_key);
    if (pos == std::string::npos || (pos = header.find(':', pos + quoted_key.size())) == std::string::npos) continue;
    pos = header.find_first_not_of(' ', pos + 1);
    if (pos == std::string::npos) break;
    const char open = header[pos];
    const char close = open == '(' ? ')' : (open == '\'' || open == '"') ? open : '\0';
    const auto end = close ? header.find(close, pos + 1) : header.find_first_of(",}", pos);
    if (end == std::string::npos) break;
    return header.substr(pos, end + (close ? 1 : 0) - pos);
  }
  bad_format(std::string("the .npy header has no readable '") + key + "'");
}

// "(N,)" or "(N)"; more than one dimension is not a suffix array.
std::uint64_t npy_length(const std::string& shape) {
  auto trim = [](const std::string& t) {
    const auto a = t.find_first_not_of(' '), b = t.find_last_not_of(' ');
    return a == std::string::npos ? std::string() : t.substr(a, b + 1 - a);
  };
  // A tuple, "(...)"; npy_value returns a word (possibly empty) for anything else.
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    bad_format("the .npy shape '" + shape + "' is not a tuple");
  const std::string inner = shape.substr(1, shape.size() - 2);
  const auto comma = inner.find(',');
  const std::string digits = trim(inner.substr(0, comma));
  const bool one = !digits.empty() && digits.size() <= 19 && digits.find_first_not_of("0123456789") == std::string::npos &&
                   (comma == std::string::npos || trim(inner.substr(comma + 1)).empty());
  if (!one) bad_format("the .npy shape " + shape + " is not one-dimensional");
  return std::stoull(digits);
}

}  // namespace

std::string npy_header(int width, std::uint64_t n) {
  std::string dict = std::string("{'descr': '<i") + char('0' + width) + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(n) + ",), }";
  const std::size_t unpadded = kNpyMagicSize + 2 + 2 + dict.size() + 1;  // magic, version, length, dict, '\n'
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  std::string header(kNpyMagic, kNpyMagicSize);
  header += std::string("\x01\x00", 2);
  header.push_back(static_cast<char>(dict.size() & 0xff));
  header.push_back(static_cast<char>(dict.size() >> 8));
  return header + dict;
}

template <class I>
void write_sa(OutputFile& out, const I* sa, std::uint64_t n, int width, SaFormat format) {
  if (format == SaFormat::Npy) {
    const std::string header = npy_header(width, n);
    out.write(header.data(), header.size());
  }
  std::vector<std::uint8_t> buf(std::min<std::uint64_t>(n, kChunk) * std::size_t(width));
  for (std::uint64_t begin = 0; begin < n; begin += kChunk) {
    const std::uint64_t count = std::min<std::uint64_t>(n - begin, kChunk);
    if (width < int(sizeof(I)))
      for (std::uint64_t i = begin; i < begin + count; ++i)
        if (sa[i] < INT32_MIN || sa[i] > INT32_MAX)
          throw io_error("value " + std::to_string(sa[i]) + " does not fit --width 4");
    le::encode(buf.data(), sa + begin, count, width);
    out.write(buf.data(), static_cast<std::size_t>(count * std::uint64_t(width)));
  }
}

template void write_sa<std::int32_t>(OutputFile&, const std::int32_t*, std::uint64_t, int, SaFormat);
template void write_sa<std::int64_t>(OutputFile&, const std::int64_t*, std::uint64_t, int, SaFormat);

LoadedSa read_sa(InputFile& in, std::uint64_t n, int width) {
  if (width == 4 && n > std::uint64_t(INT32_MAX))
    bad_format("4-byte indices cannot hold a suffix array of " + std::to_string(n) + " >= 2^31 entries");
  char head[kNpyMagicSize];
  std::size_t got = 0;
  for (std::size_t step = 1; got < kNpyMagicSize && step != 0; got += step) step = in.read_some(head + got, kNpyMagicSize - got);
  LoadedSa sa;
  std::uint64_t header_bytes = 0;
  if (got == kNpyMagicSize && std::memcmp(head, kNpyMagic, kNpyMagicSize) == 0) {
    std::uint8_t version[2], len[4];
    if (!in.read_exact(version, 2)) bad_format(in.name() + ": truncated .npy header");
    const int length_bytes = version[0] == 1 ? 2 : (version[0] == 2 || version[0] == 3) ? 4 : 0;
    if (length_bytes == 0) bad_format(in.name() + ": unsupported .npy version " + std::to_string(version[0]));
    if (!in.read_exact(len, std::uint64_t(length_bytes))) bad_format(in.name() + ": truncated .npy header");
    const std::uint64_t length = le::load(len, length_bytes);
    if (length > (std::uint64_t(1) << 20)) bad_format(in.name() + ": implausible .npy header length " + std::to_string(length));
    std::string header(static_cast<std::size_t>(length), '\0');
    if (!in.read_exact(header.data(), length)) bad_format(in.name() + ": truncated .npy header");
    const std::string descr = npy_value(header, "descr");
    const int w = (descr == "'<i4'" || descr == "\"<i4\"") ? 4 : (descr == "'<i8'" || descr == "\"<i8\"") ? 8 : 0;
    if (w == 0) bad_format(in.name() + ": .npy dtype " + descr + " is not '<i4' or '<i8'");
    const std::uint64_t entries = npy_length(npy_value(header, "shape"));
    if (entries != n)
      bad_format(in.name() + " holds " + std::to_string(entries) + " entries; the text has " + std::to_string(n) + " bytes");
    if (width != 0 && width != w)
      bad_format(in.name() + " holds " + std::to_string(w) + "-byte indices, not --width " + std::to_string(width));
    sa.format = SaFormat::Npy;
    sa.width = w;
    header_bytes = kNpyMagicSize + 2 + std::uint64_t(length_bytes) + length;
    got = 0;
  } else {
    // Raw: the bytes already read are the first of the data.
    sa.width = width != 0 ? width : (n > std::uint64_t(INT32_MAX) || (in.size() && *in.size() == 8 * n)) ? 8 : 4;
  }
  const std::uint64_t total = n * std::uint64_t(sa.width);
  const std::string shape = std::to_string(n) + " entries of " + std::to_string(sa.width) + " bytes";
  if (in.size() && *in.size() != header_bytes + total)
    bad_format(in.name() + " has " + std::to_string(*in.size()) + " bytes; " + (header_bytes ? "a .npy" : "a raw") +
               " suffix array of " + shape + " has " + std::to_string(header_bytes + total));
  auto fill = [&](auto tag) {
    using I = decltype(tag);
    HostArray<I> values(n);
    auto* bytes = reinterpret_cast<std::uint8_t*>(values.data());
    if (total > 0) std::memcpy(bytes, head, std::min<std::uint64_t>(got, total));  // no null pointer for n = 0
    std::uint8_t extra;
    if (got > total || !in.read_exact(bytes + got, total - got) || in.read_some(&extra, 1) != 0)
      bad_format(in.name() + " does not hold exactly " + shape);
    le::to_host_order(values.data(), n);
    sa.values = std::move(values);
  };
  if (sa.width == 4) fill(std::int32_t{});
  else fill(std::int64_t{});
  return sa;
}

}  // namespace ktext::cli
