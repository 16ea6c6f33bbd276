// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file suffix.hpp
/// \brief Suffix arrays (construction, verification, inverse), the Burrows–Wheeler transform, LCP
/// arrays and the FM-index.
#include "ktext/suffix/bwt.hpp"
#include "ktext/suffix/bwt_file.hpp"
#include "ktext/suffix/check_suffix_array.hpp"
#include "ktext/suffix/fm_index.hpp"
#include "ktext/suffix/fm_index_file.hpp"
#include "ktext/suffix/inverse_suffix_array.hpp"
#include "ktext/suffix/lcp.hpp"
#include "ktext/suffix/memory_bounds.hpp"
#include "ktext/suffix/suffix_array.hpp"
#include "ktext/suffix/unbwt.hpp"
