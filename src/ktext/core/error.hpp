// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file error.hpp
/// \brief Exceptions thrown by ktext host entry points. Device code never throws or aborts on
/// user data; host code turns every failure into one of these with an actionable message.

#include <stdexcept>
#include <string>

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
};

/// \brief A file that is corrupt, truncated, foreign or of an unsupported version.
class FormatError : public Error {
 public:
  using Error::Error;
};

}  // namespace ktext
