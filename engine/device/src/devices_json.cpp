// SPDX-License-Identifier: MIT
// JSON of probe results and of the device list (`devicebench-cli devices --json`).
#include "json_probe.h"

#include "devicebench/devices.h"

#include "json_fingerprint.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {

using nlohmann::json;

nlohmann::json toJson(const ProbeResult &probe) {
    json j = json::object();
    j["device"] = probe.device;
    j["usable"] = probe.usable;
    j["error"] = probe.error;
    j["seconds"] = probe.seconds;
    if (std::isfinite(probe.relativeError)) {
        j["relativeError"] = probe.relativeError;
    } else {
        j["relativeError"] = nullptr;
    }
    return j;
}

std::string devicesJson(const std::vector<DeviceInfo> &devices, const Fingerprint &fingerprint) {
    json list = json::array();
    for (const auto &d : devices) {
        list.push_back({{"id", d.id},
                        {"name", d.name},
                        {"usable", d.usable},
                        {"reason", d.reason},
                        // null: there was nothing to probe (e.g. "cuda" without CUDA)
                        {"probe", d.probe.device.empty() ? json(nullptr) : toJson(d.probe)}});
    }
    json document = json::object();
    document["devices"] = std::move(list);
    document["fingerprint"] = toJson(fingerprint);
    // Replace invalid UTF-8 (e.g. from a driver's device name) instead of throwing.
    return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace devicebench
