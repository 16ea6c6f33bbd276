// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file primitives.hpp
/// \brief All data-parallel primitives: sort_pairs, segmented_sort_pairs, scans (and the
/// generated inclusive_scan_apply), select,
/// histogram, gather/scatter.
#include "ktext/primitives/gather_scatter.hpp"
#include "ktext/primitives/histogram.hpp"
#include "ktext/primitives/scan.hpp"
#include "ktext/primitives/segmented_sort.hpp"
#include "ktext/primitives/select.hpp"
#include "ktext/primitives/sort_pairs.hpp"
