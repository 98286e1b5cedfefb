// SPDX-License-Identifier: MIT
// One epoch of a run record as JSON (json_epoch.h).
#include "json_epoch.h"

#include "json_canary.h"
#include "json_phases.h"
#include "json_system.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace devicebench::detail {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A count the epoch may carry (steps, training images): 0 or more; -1 when absent or null
// (not counted: a script's steps that did not say their images).
std::int64_t countOrUnknown(const FieldReader &r, const nlohmann::json &o, const char *key,
                            const std::string &p) {
    return o.contains(key) && !o.at(key).is_null() ? r.int64(o, key, p, 0) : -1;
}

// What the epoch got from the machine (contention.h). Added after schema 1 was first written:
// the fields are optional together; "contended" present means measured, absent means unknown.
// Numbers may be null (unknown); a share or fraction is 0 or more, a fraction at most 1.
EpochLoad readEpochLoad(const FieldReader &r, const nlohmann::json &o, const std::string &p) {
    EpochLoad load;
    if (!o.contains("contended"))
        return load;
    load.measured = true;
    load.contended = r.boolean(o, "contended", p);
    const auto optional = [&](const char *key, double max) {
        if (!o.contains(key))
            return kNaN;
        const double value = r.numberOrNull(o, key, p);
        if (value < 0.0 || value > max)
            r.fail(FieldReader::join(p, key), "is out of range (" + o.at(key).dump() + ")");
        return value;
    };
    constexpr double kAny = std::numeric_limits<double>::max();
    load.cpuSeconds = optional("cpuSeconds", kAny);
    load.cpuShare = optional("cpuShare", kAny);
    load.otherCpus = optional("otherCpus", kAny);
    load.stealFraction = optional("stealFraction", 1.0);
    load.iowaitFraction = optional("iowaitFraction", 1.0);
    load.loadAverage = optional("loadAverage", kAny);
    load.cpus = o.contains("cpus") ? r.integer(o, "cpus", p) : 0;
    if (load.cpus < 0)
        r.fail(FieldReader::join(p, "cpus"), "must be 0 or more");
    return load;
}

} // namespace

nlohmann::ordered_json epochJson(const EpochResult &e) {
    nlohmann::ordered_json o;
    o["epoch"] = e.epoch;
    o["seconds"] = e.seconds;
    if (!std::isnan(e.testSeconds)) // absent: not measured (older records, some scripts)
        o["testSeconds"] = e.testSeconds;
    o["warmup"] = e.warmup;
    o["trainLoss"] = e.trainLoss;
    o["testLoss"] = e.testLoss;
    o["testAccuracy"] = e.testAccuracy;
    o["imagesPerSecond"] = e.imagesPerSecond;
    if (e.steps >= 0) // absent: not counted (older records)
        o["steps"] = e.steps;
    if (e.trainImages >= 0)
        o["trainImages"] = e.trainImages;
    if (e.load.measured) { // absent: not measured (older records, no /proc)
        o["cpuSeconds"] = e.load.cpuSeconds;
        o["cpuShare"] = e.load.cpuShare;
        o["otherCpus"] = e.load.otherCpus;
        o["stealFraction"] = e.load.stealFraction;
        o["iowaitFraction"] = e.load.iowaitFraction;
        o["loadAverage"] = e.load.loadAverage;
        o["cpus"] = e.load.cpus;
        o["contended"] = e.load.contended;
    }
    if (e.phases.measured) // absent: not phase-timed
        o["phases"] = detail::phasesJson(e.phases);
    if (!std::isnan(e.allReduceSeconds)) // absent: not data-parallel
        o["allReduceSeconds"] = e.allReduceSeconds;
    if (e.skippedSteps >= 0) { // absent: no loss scaler (not float16)
        o["skippedSteps"] = e.skippedSteps;
        o["lossScale"] = e.lossScale;
    }
    if (!std::isnan(e.startedUnixSeconds)) // absent: older records
        o["startedUnixSeconds"] = e.startedUnixSeconds;
    detail::writeEpochCanary(o, e);
    detail::writeEpochSystem(o, e.system); // absent: not sampled (older records)
    return o;
}

EpochResult readEpoch(const FieldReader &r, const nlohmann::json &o, const std::string &p) {
    EpochResult e;
    e.epoch = r.integer(o, "epoch", p);
    e.seconds = r.finite(o, "seconds", p);
    if (o.contains("testSeconds")) {
        e.testSeconds = r.finite(o, "testSeconds", p);
        if (e.testSeconds < 0.0 || e.testSeconds > e.seconds)
            r.fail(p + ".testSeconds", "must be from 0 to the epoch's seconds");
    }
    e.warmup = r.boolean(o, "warmup", p);
    e.trainLoss = r.numberOrNull(o, "trainLoss", p);
    e.testLoss = r.numberOrNull(o, "testLoss", p);
    e.testAccuracy = r.numberOrNull(o, "testAccuracy", p); // null: a script that did not test
    e.imagesPerSecond = r.numberOrNull(o, "imagesPerSecond", p);
    e.steps = countOrUnknown(r, o, "steps", p);
    e.trainImages = countOrUnknown(r, o, "trainImages", p);
    e.load = readEpochLoad(r, o, p);
    e.phases = detail::readPhases(r, o, p);
    if (o.contains("allReduceSeconds")) {
        e.allReduceSeconds = r.finite(o, "allReduceSeconds", p);
        if (e.allReduceSeconds < 0.0)
            r.fail(p + ".allReduceSeconds", "must be 0 or more");
    }
    if (o.contains("skippedSteps")) {
        e.skippedSteps = r.int64(o, "skippedSteps", p);
        if (e.skippedSteps < 0)
            r.fail(p + ".skippedSteps", "must be 0 or more");
        e.lossScale = r.numberOrNull(o, "lossScale", p);
        if (!(e.lossScale > 0.0) && !std::isnan(e.lossScale))
            r.fail(p + ".lossScale", "must be above 0, or null");
    }
    if (o.contains("startedUnixSeconds")) {
        e.startedUnixSeconds = r.finite(o, "startedUnixSeconds", p);
        if (e.startedUnixSeconds < 0.0)
            r.fail(p + ".startedUnixSeconds", "must be 0 or more");
    }
    detail::readEpochCanary(r, o, p, e);
    e.system = detail::readEpochSystem(r, o, p);
    return e;
}

} // namespace devicebench::detail
