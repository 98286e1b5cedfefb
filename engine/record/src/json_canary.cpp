// SPDX-License-Identifier: MIT
#include "json_canary.h"

#include <cmath>

namespace devicebench::detail {

void writeCanary(nlohmann::ordered_json &object, const CanaryTime &canary) {
    if (!canary.measured)
        return;
    nlohmann::ordered_json j;
    j["seconds"] = canary.seconds;
    j["runThreadsSeconds"] = canary.runThreadsSeconds; // NaN (CUDA) is written as null
    j["noise"] = canary.noise;
    object["canary"] = std::move(j);
}

void writeEpochCanary(nlohmann::ordered_json &epochObject, const EpochResult &epoch) {
    if (!epoch.canary.measured)
        return;
    writeCanary(epochObject, epoch.canary);
    epochObject["canaryChange"] = epoch.canaryChange;
    epochObject["speedChanged"] = epoch.speedChanged;
}

CanaryTime readCanary(const FieldReader &reader, const nlohmann::json &object,
                      const std::string &path) {
    CanaryTime canary;
    if (!object.contains("canary"))
        return canary;
    const std::string p = FieldReader::join(path, "canary");
    const nlohmann::json &o = reader.object(object, "canary", path);
    canary.seconds = reader.finite(o, "seconds", p);
    if (!(canary.seconds > 0.0))
        reader.fail(FieldReader::join(p, "seconds"), "must be above 0");
    canary.runThreadsSeconds = reader.numberOrNull(o, "runThreadsSeconds", p);
    if (!(canary.runThreadsSeconds > 0.0) && !std::isnan(canary.runThreadsSeconds))
        reader.fail(FieldReader::join(p, "runThreadsSeconds"), "must be above 0, or null");
    canary.noise = reader.finite(o, "noise", p);
    if (canary.noise < 0.0)
        reader.fail(FieldReader::join(p, "noise"), "must be 0 or more");
    canary.measured = true;
    return canary;
}

void readEpochCanary(const FieldReader &reader, const nlohmann::json &epochObject,
                     const std::string &path, EpochResult &epoch) {
    epoch.canary = readCanary(reader, epochObject, path);
    if (epochObject.contains("canaryChange"))
        epoch.canaryChange = reader.numberOrNull(epochObject, "canaryChange", path);
    if (epochObject.contains("speedChanged"))
        epoch.speedChanged = reader.boolean(epochObject, "speedChanged", path);
}

} // namespace devicebench::detail
