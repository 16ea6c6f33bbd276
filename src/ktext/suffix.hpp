#pragma once
/// \file suffix.hpp
/// \brief Suffix arrays (construction, verification, inverse) and the Burrows–Wheeler transform.
#include "ktext/suffix/bwt.hpp"
#include "ktext/suffix/check_suffix_array.hpp"
#include "ktext/suffix/inverse_suffix_array.hpp"
#include "ktext/suffix/suffix_array.hpp"
#include "ktext/suffix/unbwt.hpp"
