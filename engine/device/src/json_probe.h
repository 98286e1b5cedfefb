// SPDX-License-Identifier: MIT
// JSON form of a probe result, part of `devicebench-cli devices --json` (devicesJson in
// devices.h). Engine-internal (device): it exposes nlohmann::json, linked privately.
//
// Shape: {"device": str, "usable": bool, "error": str, "seconds": number,
//         "relativeError": number or null when not finite}
#pragma once

#include "devicebench/probe.h"

#include <nlohmann/json.hpp>

namespace devicebench {

nlohmann::json toJson(const ProbeResult &probe);

} // namespace devicebench
