// SPDX-License-Identifier: MIT
// Engine-internal (record): the UTC time stamps of run ids and records. Plain C++.
#pragma once

#include <string>

namespace devicebench::detail {

// The current UTC time, ISO 8601 ("2026-11-29T22:40:00Z"), or compact ("20261129T224000Z")
// for run ids and file names.
std::string utcTime(bool compact);

} // namespace devicebench::detail
