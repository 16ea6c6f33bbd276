// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file strings.hpp
/// \brief Sets of byte strings: sorting (and the LCP of sorted neighbours).
#include "ktext/strings/string_sort.hpp"
#include "ktext/strings/string_sort_types.hpp"
