// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Out-of-memory per backend: the translation helper on each kind of failure, ktext's
// allocation helper on a request no memory space can hold, and entry points whose own size
// checks pass but whose first work buffer cannot exist (views over a few bytes that claim
// 2^50 elements: nothing reads them before that allocation fails).
#include <gtest/gtest.h>

#include <cstdint>
#include <new>
#include <string>

#include <ktext/core/allocate.hpp>
#include <ktext/core/error.hpp>
#include <ktext/suffix/bwt.hpp>
#include <ktext/suffix/fm_index.hpp>
#include <ktext/suffix/lcp.hpp>
#include <ktext/suffix/unbwt.hpp>

#include "test_views.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KTEXT_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KTEXT_TEST_ASAN 1
#endif
#if defined(KTEXT_TEST_ASAN)
// AddressSanitizer aborts on impossible requests unless it may return null as the real
// allocator does; these tests make such requests on purpose.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
#endif

namespace {

using namespace ktext::test;

/// More elements than any memory space holds, in any element size: 2^50 (a petabyte of bytes,
/// above the 47-bit address space of x86-64 processes and any GPU).
constexpr std::size_t kHuge = std::size_t(1) << 50;

/// A view of \p n elements of \p T over the storage of \p backing, never read.
template <class T, class Backing>
Kokkos::View<T*, Mem, Kokkos::MemoryUnmanaged> claims(const Backing& backing, std::size_t n) {
  return Kokkos::View<T*, Mem, Kokkos::MemoryUnmanaged>(reinterpret_cast<T*>(backing.data()), n);
}

/// The OutOfMemoryError \p f throws (a failure if it throws anything else or nothing).
template <class F>
ktext::OutOfMemoryError out_of_memory_of(F&& f) {
  try {
    f();
  } catch (const ktext::OutOfMemoryError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected ktext::OutOfMemoryError, got " << e.what();
    return ktext::OutOfMemoryError("");
  }
  ADD_FAILURE() << "expected ktext::OutOfMemoryError, nothing was thrown";
  return ktext::OutOfMemoryError("");
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(out_of_memory, the_helper_translates_bad_alloc) {
  namespace ki = ktext::impl;
  const auto plain =
      out_of_memory_of([] { ki::translate_out_of_memory("ktext::example", [] { throw std::bad_alloc(); }); });
  EXPECT_TRUE(contains(plain.what(), "ktext::example: out of memory")) << plain.what();
  EXPECT_EQ(plain.label(), "");
  EXPECT_EQ(plain.requested_bytes(), 0u);

  const auto labelled = out_of_memory_of([] {
    ki::translate_out_of_memory("ktext::example",
                                [] { throw ki::AllocationFailure("HostSpace", "ktext::example::buffer", 12345); });
  });
  EXPECT_TRUE(contains(labelled.what(), "ktext::example: out of memory")) << labelled.what();
  EXPECT_TRUE(contains(labelled.what(), "HostSpace")) << labelled.what();
  EXPECT_TRUE(contains(labelled.what(), "12345 bytes")) << labelled.what();
  EXPECT_TRUE(contains(labelled.what(), "'ktext::example::buffer'")) << labelled.what();
  EXPECT_EQ(labelled.label(), "ktext::example::buffer");
  EXPECT_EQ(labelled.requested_bytes(), 12345u);

  // Other errors pass through untouched, and so do results.
  EXPECT_THROW(ki::translate_out_of_memory("ktext::example", []() -> int { throw ktext::InputError("bad"); }),
               ktext::InputError);
  EXPECT_THROW(ki::translate_out_of_memory("ktext::example", [] { throw std::runtime_error("other"); }),
               std::runtime_error);
  EXPECT_EQ(ki::translate_out_of_memory("ktext::example", [] { return 42; }), 42);
}

TEST(out_of_memory, the_allocation_helper_gives_the_failure_its_type) {
  // Kokkos 4.5 and later throw a plain std::runtime_error for a failed allocation; the helper
  // turns it into AllocationFailure, a std::bad_alloc with the space, label and size.
  try {
    (void)ktext::impl::uninitialized_view<std::uint64_t, Mem>(Exec{}, "ktext::test::huge", kHuge);
    ADD_FAILURE() << "an allocation of 2^53 bytes succeeded";
  } catch (const ktext::impl::AllocationFailure& e) {
    EXPECT_EQ(e.label(), "ktext::test::huge");
    EXPECT_EQ(e.bytes(), std::uint64_t(kHuge) * 8);
    EXPECT_EQ(e.space(), Mem::name());
    const std::bad_alloc& as_bad_alloc = e;
    EXPECT_TRUE(contains(as_bad_alloc.what(), "ktext::test::huge")) << as_bad_alloc.what();
  }
  EXPECT_THROW((void)(ktext::impl::zeroed_view<std::uint8_t, Mem>(Exec{}, "ktext::test::huge", kHuge)), std::bad_alloc);
}

TEST(out_of_memory, entry_points_report_their_first_buffer) {
  Kokkos::View<std::uint64_t*, Mem> backing("backing", 4);
  {
    const auto bwt = claims<const std::uint8_t>(backing, kHuge);
    const auto out = claims<std::uint8_t>(backing, kHuge);
    const auto e = out_of_memory_of([&] { ktext::unbwt(Exec{}, bwt, 1, out); });
    EXPECT_TRUE(contains(e.what(), "ktext::unbwt: out of memory")) << e.what();
    EXPECT_EQ(e.label(), "ktext::unbwt::next");
    EXPECT_EQ(e.requested_bytes(), (std::uint64_t(kHuge) + 1) * 8);
  }
  {
    const auto text = claims<const std::uint8_t>(backing, kHuge);
    const auto sa = claims<const std::int64_t>(backing, kHuge);
    const auto lcp = claims<std::int64_t>(backing, kHuge);
    const auto e = out_of_memory_of([&] { ktext::lcp(Exec{}, text, sa, lcp); });
    EXPECT_TRUE(contains(e.what(), "ktext::lcp: out of memory")) << e.what();
    EXPECT_EQ(e.label(), "ktext::lcp::plcp");
    EXPECT_EQ(e.requested_bytes(), std::uint64_t(kHuge) * 8);
  }
  {
    const auto text = claims<const std::uint8_t>(backing, kHuge);
    const auto out = claims<std::uint8_t>(backing, kHuge);
    const auto e = out_of_memory_of([&] { (void)ktext::bwt(Exec{}, text, out); });
    EXPECT_TRUE(contains(e.what(), "ktext::bwt: out of memory")) << e.what();
    EXPECT_EQ(e.label(), "ktext::bwt::sa");
  }
  {
    const auto text = claims<const std::uint8_t>(backing, kHuge);
    const auto e = out_of_memory_of([&] { const ktext::FMIndex<Mem, std::int64_t> index(Exec{}, text); });
    EXPECT_TRUE(contains(e.what(), "ktext::FMIndex: out of memory")) << e.what();
    EXPECT_EQ(e.label(), "ktext::FMIndex::bwt");
    EXPECT_EQ(e.requested_bytes(), std::uint64_t(kHuge));
  }
}

}  // namespace
