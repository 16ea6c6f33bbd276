// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file succinct.hpp
/// \brief Succinct structures: bit vectors with rank and select, wavelet trees and wavelet
/// matrices, and their container files.
#include "ktext/succinct/bit_vector.hpp"
#include "ktext/succinct/elias_fano.hpp"
#include "ktext/succinct/rank_select.hpp"
#include "ktext/succinct/wavelet_matrix.hpp"
#include "ktext/succinct/wavelet_tree.hpp"
#include "ktext/succinct/wavelet_file.hpp"
