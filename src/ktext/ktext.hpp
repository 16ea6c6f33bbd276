// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file ktext.hpp
/// \brief Everything ktext offers.

/// \namespace ktext
/// \brief Suffix arrays, the Burrows–Wheeler transform, LCP arrays, the FM-index, string sorting,
/// rank/select bit vectors, wavelet trees and matrices, and the data-parallel primitives they
/// are built from.
#include "ktext/core/error.hpp"
#include "ktext/core/index_type.hpp"
#include "ktext/core/memory_info.hpp"
#include "ktext/primitives.hpp"
#include "ktext/strings.hpp"
#include "ktext/succinct.hpp"
#include "ktext/suffix.hpp"
#include "ktext/version.hpp"
