// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file error.hpp
/// \brief Exceptions thrown by ktext host entry points. Device code never throws or aborts on
/// user data; host code turns every failure into one of these with an actionable message.

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace ktext {

/// \brief Base class of every error ktext reports.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// \brief Bad input: sizes out of range, empty or unreadable data, inconsistent arguments.
class InputError : public Error {
 public:
  using Error::Error;
};

/// \brief Not enough memory in the target memory space for the requested work.
class OutOfMemoryError : public Error {
 public:
  using Error::Error;
  /// \brief An error that names the buffer that could not be allocated and its size.
  OutOfMemoryError(const std::string& message, std::string label, std::uint64_t requested_bytes)
      : Error(message), label_(std::move(label)), requested_bytes_(requested_bytes) {}
  /// \brief Label of the buffer that could not be allocated; empty when unknown.
  [[nodiscard]] const std::string& label() const noexcept { return label_; }
  /// \brief Bytes the failed allocation asked for; 0 when unknown.
  [[nodiscard]] std::uint64_t requested_bytes() const noexcept { return requested_bytes_; }

 private:
  std::string label_;
  std::uint64_t requested_bytes_ = 0;
};

/// \brief A file that is corrupt, truncated, foreign or of an unsupported version.
class FormatError : public Error {
 public:
  using Error::Error;
};

namespace impl {

/// A failed allocation of a labelled buffer, as ktext's allocation helpers (core/allocate.hpp)
/// report it. A std::bad_alloc, so it is caught where every other allocation failure is:
/// Kokkos 4.5 and later report a failed allocation as a plain std::runtime_error (the former
/// RawMemoryAllocationFailure was dropped), so the helpers give it a type at the one place
/// where the cause is known, the allocation itself.
class AllocationFailure : public std::bad_alloc {
 public:
  AllocationFailure(std::string space, std::string label, std::uint64_t bytes)
      : space_(std::move(space)),
        label_(std::move(label)),
        bytes_(bytes),
        what_(space_ + " could not allocate " + std::to_string(bytes_) + " bytes for '" + label_ + "'") {}
  [[nodiscard]] const char* what() const noexcept override { return what_.c_str(); }
  [[nodiscard]] const std::string& space() const noexcept { return space_; }
  [[nodiscard]] const std::string& label() const noexcept { return label_; }
  [[nodiscard]] std::uint64_t bytes() const noexcept { return bytes_; }

 private:
  std::string space_, label_;
  std::uint64_t bytes_;
  std::string what_;
};

/// Rethrows \p e, a failed allocation inside the public entry point \p entry, as
/// OutOfMemoryError naming the entry point and, when the failure says, the buffer and its
/// size. The one translation of out-of-memory: a ktext buffer, a std::vector and operator new
/// all end up as the same type with the same message shape. Entry points whose body holds
/// device lambdas catch std::bad_alloc around it and call this (nvcc restricts device lambdas
/// nested in host lambdas); the others use translate_out_of_memory().
[[noreturn]] inline void throw_out_of_memory(const char* entry, const std::bad_alloc& e) {
  if (const auto* failure = dynamic_cast<const AllocationFailure*>(&e))
    throw OutOfMemoryError(std::string(entry) + ": out of memory: " + failure->what(), failure->label(),
                           failure->bytes());
  throw OutOfMemoryError(std::string(entry) + ": out of memory (" + e.what() + ")");
}

/// Runs \p f() with any std::bad_alloc it throws rethrown by throw_out_of_memory(\p entry).
template <class F>
decltype(auto) translate_out_of_memory(const char* entry, F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const std::bad_alloc& e) {
    throw_out_of_memory(entry, e);
  }
}

}  // namespace impl

}  // namespace ktext
