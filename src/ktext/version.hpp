// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#pragma once
/// \file version.hpp
/// \brief Library version.
#define KTEXT_VERSION_MAJOR 0
#define KTEXT_VERSION_MINOR 1
#define KTEXT_VERSION_PATCH 0
#define KTEXT_VERSION_STRING "0.1.0"
