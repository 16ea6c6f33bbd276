// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "fm_runs.hpp"

#include <limits>

#include <ktext/core/error.hpp>
#include <ktext/suffix/fm_index.hpp>
#include <ktext/suffix/fm_index_file.hpp>

#include "backend_views.hpp"
#include "report.hpp"
#include "suffix_runs.hpp"

namespace ktext::cli {

namespace {

constexpr std::uint64_t kMax32 = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());

template <class Exec, class I>
class Engine final : public SearchEngine {
  using Mem = typename Exec::memory_space;

 public:
  Engine(const Exec& exec, ktext::FMIndex<Mem, I> index) : exec_(exec), index_(std::move(index)) {}

  std::uint64_t n() const override { return index_.size(); }
  std::uint64_t primary_index() const override { return index_.primary_index(); }
  std::uint32_t sample_rate() const override { return index_.sample_rate(); }
  int alphabet_size() const override { return index_.alphabet_size(); }
  std::uint64_t bytes() const override { return index_.bytes(); }

  std::vector<std::uint64_t> count(const PatternBatch& batch) override {
    auto symbols = to_backend(exec_, batch.symbols.data(), batch.symbols.size(), "ktext_cli::patterns");
    auto offsets = to_backend(exec_, batch.offsets.data(), batch.offsets.size(), "ktext_cli::pattern_offsets");
    Kokkos::View<std::uint64_t*, Mem> counts(Kokkos::view_alloc(exec_, Kokkos::WithoutInitializing, "ktext_cli::counts"),
                                             batch.size());
    index_.count(exec_, symbols, offsets, counts);
    std::vector<std::uint64_t> out(batch.size());
    Kokkos::deep_copy(exec_, HostView<std::uint64_t>(out.data(), out.size()), counts);
    exec_.fence("ktext cli: counts copied");
    return out;
  }

  Occurrences locate(const PatternBatch& batch) override {
    auto symbols = to_backend(exec_, batch.symbols.data(), batch.symbols.size(), "ktext_cli::patterns");
    auto offsets = to_backend(exec_, batch.offsets.data(), batch.offsets.size(), "ktext_cli::pattern_offsets");
    const auto found = index_.locate(exec_, symbols, offsets);
    Occurrences out;
    out.offsets.resize(found.offsets.extent(0));
    Kokkos::deep_copy(exec_, HostView<std::int64_t>(out.offsets.data(), out.offsets.size()), found.offsets);
    auto positions = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, found.positions);
    exec_.fence("ktext cli: occurrences copied");
    out.positions.resize(positions.extent(0));
    for (std::size_t k = 0; k < out.positions.size(); ++k) {
      if (positions(k) < 0)
        throw ktext::FormatError("the index is inconsistent: a located row reaches no sampled position");
      out.positions[k] = positions(k);
    }
    return out;
  }

  std::uint64_t write(OutputFile& out) const override {
    std::uint64_t written = 0;
    ktext::write_fm_index(exec_, index_, [&](const void* p, std::size_t count) {
      out.write(p, count);
      written += count;
    });
    return written;
  }

 private:
  Exec exec_;
  ktext::FMIndex<Mem, I> index_;
};

}  // namespace

std::unique_ptr<SearchEngine> build_search_engine(Backend backend, const std::uint8_t* text, std::uint64_t n,
                                                  std::uint32_t sample_rate, const ktext::SuffixArrayOptions& options,
                                                  double& seconds) {
  auto build = [&](auto index) -> std::unique_ptr<SearchEngine> {
    using I = decltype(index);
    require_device_memory<I>(backend, n);
    return on_backend(backend, [&](const auto& exec) -> std::unique_ptr<SearchEngine> {
      using Exec = std::decay_t<decltype(exec)>;
      auto d_text = to_backend(exec, text, n, "ktext_cli::text");
      ktext::FMIndexOptions fm_options;
      fm_options.sample_rate = sample_rate;
      fm_options.suffix_array = options;
      Stopwatch watch;
      ktext::FMIndex<typename Exec::memory_space, I> index(exec, d_text, fm_options);
      seconds = watch.seconds();
      return std::make_unique<Engine<Exec, I>>(exec, std::move(index));
    });
  };
  return n <= kMax32 ? build(std::int32_t{}) : build(std::int64_t{});
}

std::unique_ptr<SearchEngine> load_search_engine(Backend backend, const ktext::container::Container& c) {
  const ktext::FMIndexFileInfo info = ktext::fm_index_file_check(c);
  auto load = [&](auto index) -> std::unique_ptr<SearchEngine> {
    using I = decltype(index);
    return on_backend(backend, [&](const auto& exec) -> std::unique_ptr<SearchEngine> {
      using Exec = std::decay_t<decltype(exec)>;
      return std::make_unique<Engine<Exec, I>>(exec, ktext::read_fm_index<I>(exec, c));
    });
  };
  return info.n <= kMax32 ? load(std::int32_t{}) : load(std::int64_t{});
}

}  // namespace ktext::cli
