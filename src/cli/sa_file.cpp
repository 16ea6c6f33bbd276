// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "sa_file.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include <ktext/core/error.hpp>

#include "errors.hpp"

namespace ktext::cli {

namespace {

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr std::size_t kNpyMagicSize = 6;
constexpr std::size_t kChunk = std::size_t(1) << 20;  // entries converted per write

constexpr bool host_is_little_endian() {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
  return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
#else
  return false;  // the portable byte-by-byte path is correct everywhere
#endif
}

void store_le(unsigned char* dst, std::uint64_t v, int width) {
  for (int b = 0; b < width; ++b) dst[b] = static_cast<unsigned char>(v >> (8 * b));
}

template <class T>
void to_host_order(T* values, std::uint64_t n) {
  if constexpr (host_is_little_endian()) {
    (void)values, (void)n;
  } else {
    using U = std::make_unsigned_t<T>;
    for (std::uint64_t i = 0; i < n; ++i) {
      unsigned char bytes[sizeof(T)];
      std::memcpy(bytes, &values[i], sizeof(T));
      U v = 0;
      for (std::size_t b = 0; b < sizeof(T); ++b) v |= U(bytes[b]) << (8 * b);
      values[i] = static_cast<T>(v);
    }
  }
}

[[noreturn]] void bad_format(const std::string& why) { throw ktext::FormatError(why); }

// Values of a Python dict literal as NumPy writes it: {'descr': '<i4', 'fortran_order': False, 'shape': (7,), }
std::string npy_value(const std::string& header, const char* key) {
  for (const char q : {'\'', '"'}) {
    const std::string quoted_key = std::string(1, q) + key + q;
    auto pos = header.find(quoted_key);
    if (pos == std::string::npos) continue;
    pos = header.find(':', pos + quoted_key.size());
    if (pos == std::string::npos) break;
    ++pos;
    while (pos < header.size() && header[pos] == ' ') ++pos;
    if (pos >= header.size()) break;
    std::size_t end;
    if (header[pos] == '\'' || header[pos] == '"') {
      end = header.find(header[pos], pos + 1);
      if (end == std::string::npos) break;
      return header.substr(pos, end + 1 - pos);
    }
    if (header[pos] == '(') {
      end = header.find(')', pos);
      if (end == std::string::npos) break;
      return header.substr(pos, end + 1 - pos);
    }
    end = header.find_first_of(",}", pos);
    if (end == std::string::npos) break;
    return header.substr(pos, end - pos);
  }
  bad_format(std::string("the .npy header has no readable '") + key + "'");
}

std::uint64_t parse_npy_shape(const std::string& shape) {
  // "(N,)" or "(N)"; more than one dimension is not a suffix array.
  std::size_t i = 1;
  auto skip_spaces = [&] { while (i < shape.size() && shape[i] == ' ') ++i; };
  skip_spaces();
  if (i >= shape.size() || shape[i] < '0' || shape[i] > '9') bad_format("the .npy shape " + shape + " is not one-dimensional");
  std::uint64_t n = 0;
  for (; i < shape.size() && shape[i] >= '0' && shape[i] <= '9'; ++i) {
    const std::uint64_t digit = std::uint64_t(shape[i] - '0');
    if (n > (UINT64_MAX - digit) / 10) bad_format("the .npy shape " + shape + " overflows");
    n = n * 10 + digit;
  }
  skip_spaces();
  if (i < shape.size() && shape[i] == ',') ++i;
  skip_spaces();
  if (i + 1 != shape.size() || shape[i] != ')') bad_format("the .npy shape " + shape + " is not one-dimensional");
  return n;
}

template <class I>
HostArray<I> read_values(InputFile& in, std::uint64_t n, std::uint64_t header_bytes, int width) {
  if (in.size()) {
    const std::uint64_t expected = n * std::uint64_t(width);
    if (*in.size() < header_bytes || *in.size() - header_bytes != expected)
      bad_format(in.name() + " holds " + std::to_string(*in.size() - std::min(*in.size(), header_bytes)) +
                 " bytes of indices; a suffix array of " + std::to_string(n) + " entries of " + std::to_string(width) +
                 " bytes needs " + std::to_string(expected));
  }
  HostArray<I> values(n);
  if (!in.read_exact(values.data(), n * sizeof(I)))
    bad_format(in.name() + " ends before " + std::to_string(n) + " entries of " + std::to_string(width) + " bytes");
  unsigned char extra;
  if (in.read_some(&extra, 1) != 0)
    bad_format(in.name() + " holds more than " + std::to_string(n) + " entries of " + std::to_string(width) + " bytes");
  to_host_order(values.data(), n);
  return values;
}

LoadedSa load(InputFile& in, std::uint64_t n, std::uint64_t header_bytes, int width, SaFormat format) {
  LoadedSa sa;
  sa.width = width;
  sa.format = format;
  if (width == 4) sa.values = read_values<std::int32_t>(in, n, header_bytes, width);
  else sa.values = read_values<std::int64_t>(in, n, header_bytes, width);
  return sa;
}

}  // namespace

std::string npy_header(int width, std::uint64_t n) {
  std::string dict = std::string("{'descr': '<i") + char('0' + width) + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(n) + ",), }";
  const std::size_t unpadded = kNpyMagicSize + 2 + 2 + dict.size() + 1;  // magic, version, length, dict, '\n'
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  std::string header(kNpyMagic, kNpyMagicSize);
  header.push_back('\x01');
  header.push_back('\x00');
  header.push_back(static_cast<char>(dict.size() & 0xff));
  header.push_back(static_cast<char>(dict.size() >> 8));
  return header + dict;
}

template <class I>
void write_sa(OutputFile& out, const I* sa, std::uint64_t n, int width, SaFormat format) {
  if (width != 4 && width != 8) throw usage_error("--width must be 4 or 8");
  if (format == SaFormat::Npy) {
    const std::string header = npy_header(width, n);
    out.write(header.data(), header.size());
  }
  if (host_is_little_endian() && sizeof(I) == std::size_t(width)) {
    out.write(sa, static_cast<std::size_t>(n * sizeof(I)));
    return;
  }
  std::vector<unsigned char> buf(kChunk * std::size_t(width));
  for (std::uint64_t begin = 0; begin < n; begin += kChunk) {
    const std::uint64_t end = std::min(n, begin + kChunk);
    unsigned char* p = buf.data();
    for (std::uint64_t i = begin; i < end; ++i, p += width) {
      const std::int64_t v = sa[i];
      if (width == 4 && (v < INT32_MIN || v > INT32_MAX))
        throw io_error("suffix array value " + std::to_string(v) + " does not fit --width 4");
      store_le(p, static_cast<std::uint64_t>(v), width);
    }
    out.write(buf.data(), static_cast<std::size_t>(p - buf.data()));
  }
}

template void write_sa<std::int32_t>(OutputFile&, const std::int32_t*, std::uint64_t, int, SaFormat);
template void write_sa<std::int64_t>(OutputFile&, const std::int64_t*, std::uint64_t, int, SaFormat);

LoadedSa read_sa(InputFile& in, std::uint64_t n, int width) {
  if (width == 4 && n > std::uint64_t(INT32_MAX))
    bad_format("4-byte indices cannot hold a suffix array of " + std::to_string(n) + " >= 2^31 entries");
  char magic[kNpyMagicSize];
  std::size_t got = 0;
  while (got < kNpyMagicSize) {
    const std::size_t step = in.read_some(magic + got, kNpyMagicSize - got);
    if (step == 0) break;
    got += step;
  }
  if (got == kNpyMagicSize && std::memcmp(magic, kNpyMagic, kNpyMagicSize) == 0) {
    unsigned char version[2];
    if (!in.read_exact(version, 2)) bad_format(in.name() + ": truncated .npy header");
    std::uint64_t length = 0;
    std::size_t length_bytes = version[0] == 1 ? 2 : (version[0] == 2 || version[0] == 3) ? 4 : 0;
    if (length_bytes == 0) bad_format(in.name() + ": unsupported .npy version " + std::to_string(version[0]));
    unsigned char len[4];
    if (!in.read_exact(len, length_bytes)) bad_format(in.name() + ": truncated .npy header");
    for (std::size_t b = 0; b < length_bytes; ++b) length |= std::uint64_t(len[b]) << (8 * b);
    if (length > (std::uint64_t(1) << 20)) bad_format(in.name() + ": implausible .npy header length " + std::to_string(length));
    std::string header(static_cast<std::size_t>(length), '\0');
    if (!in.read_exact(header.data(), length)) bad_format(in.name() + ": truncated .npy header");
    const std::string descr = npy_value(header, "descr");
    int w = 0;
    if (descr == "'<i4'" || descr == "\"<i4\"") w = 4;
    else if (descr == "'<i8'" || descr == "\"<i8\"") w = 8;
    else bad_format(in.name() + ": .npy dtype " + descr + " is not '<i4' or '<i8'");
    const std::uint64_t entries = parse_npy_shape(npy_value(header, "shape"));
    if (entries != n)
      bad_format(in.name() + " holds " + std::to_string(entries) + " entries; the text has " + std::to_string(n) + " bytes");
    if (width != 0 && width != w)
      bad_format(in.name() + " holds " + std::to_string(w) + "-byte indices, not --width " + std::to_string(width));
    return load(in, n, kNpyMagicSize + 2 + length_bytes + length, w, SaFormat::Npy);
  }

  // Raw: the bytes already consumed are the first of the data.
  if (width == 0) {
    width = n > std::uint64_t(INT32_MAX) ? 8 : 4;
    if (in.size() && *in.size() == 8 * n) width = 8;
  }
  if (in.size()) {
    const std::uint64_t expected = n * std::uint64_t(width);
    if (*in.size() != expected)
      bad_format(in.name() + " has " + std::to_string(*in.size()) + " bytes; a raw suffix array of " + std::to_string(n) +
                 " entries of " + std::to_string(width) + " bytes has " + std::to_string(expected));
  }
  LoadedSa sa;
  sa.width = width;
  sa.format = SaFormat::Raw;
  auto fill = [&](auto tag) {
    using I = decltype(tag);
    HostArray<I> values(n);
    auto* bytes = reinterpret_cast<unsigned char*>(values.data());
    const std::uint64_t total = n * sizeof(I);
    const std::size_t head = static_cast<std::size_t>(std::min<std::uint64_t>(got, total));
    std::memcpy(bytes, magic, head);
    if (got > total || !in.read_exact(bytes + head, total - head))
      bad_format(in.name() + (got > total ? " holds more than " : " ends before ") + std::to_string(n) + " entries of " +
                 std::to_string(width) + " bytes");
    unsigned char extra;
    if (in.read_some(&extra, 1) != 0)
      bad_format(in.name() + " holds more than " + std::to_string(n) + " entries of " + std::to_string(width) + " bytes");
    to_host_order(values.data(), n);
    sa.values = std::move(values);
  };
  if (width == 4) fill(std::int32_t{});
  else fill(std::int64_t{});
  return sa;
}

}  // namespace ktext::cli
