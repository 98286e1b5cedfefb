// SPDX-License-Identifier: MIT
#include "json_system.h"

#include "devicebench/display_text.h"

#include <cmath>
#include <cstddef>
#include <utility>

namespace devicebench::detail {
namespace {

using OrderedJson = nlohmann::ordered_json;

// The sampled quantities, by their JSON name, with their place in a sample and an epoch and
// the decimals they are kept to (the sources' resolution: /proc's 10 ms ticks over a 0.5 s
// period are 0.02 cores; NVML's power is in milliwatts, its utilisation in percent).
struct Quantity {
    const char *name;
    double SystemSample::*sample;
    SampledStat EpochSystem::*stat;
    double decimals; // 10^decimals
    bool fraction;   // at most 1
};

constexpr Quantity kQuantities[] = {
    {"processCores", &SystemSample::processCores, &EpochSystem::processCores, 1e3, false},
    {"machineCores", &SystemSample::machineCores, &EpochSystem::machineCores, 1e3, false},
    {"rssBytes", &SystemSample::rssBytes, &EpochSystem::rssBytes, 1, false},
    {"gpuUtilization", &SystemSample::gpuUtilization, &EpochSystem::gpuUtilization, 1e2, true},
    {"gpuMemoryBytes", &SystemSample::gpuMemoryBytes, &EpochSystem::gpuMemoryBytes, 1, false},
    {"gpuPowerWatts", &SystemSample::gpuPowerWatts, &EpochSystem::gpuPowerWatts, 1e3, false},
};

struct Counter {
    const char *name;
    double SystemSample::*sample;
};
constexpr Counter kCounters[] = {{"gpuJoules", &SystemSample::gpuJoules},
                                 {"cpuJoules", &SystemSample::cpuJoules}};

OrderedJson rounded(double value, double scale) {
    if (std::isnan(value))
        return nullptr;
    return std::round(value * scale) / scale;
}

OrderedJson energyJson(const EnergyReading &reading) {
    OrderedJson o;
    o["method"] = toString(reading.method);
    o["joules"] = rounded(reading.joules, 1e3);
    o["note"] = reading.note;
    return o;
}

EnergyReading readEnergy(const FieldReader &r, const nlohmann::json &energy, const char *key,
                         const std::string &path) {
    EnergyReading reading;
    const std::string p = FieldReader::join(path, key);
    const nlohmann::json &o = r.object(energy, key, path);
    const std::string method = r.string(o, "method", p);
    if (!parseEnergyMethod(method, &reading.method))
        r.fail(FieldReader::join(p, "method"),
               "must be none, nvml-energy-counter, nvml-power-integral or rapl (got '" + method +
                   "')");
    reading.joules = r.numberOrNull(o, "joules", p);
    if (reading.joules < 0.0 || std::isinf(reading.joules))
        r.fail(FieldReader::join(p, "joules"), "must be 0 or more, or null");
    if (reading.joules > 1e15) // a petajoule, 278 GWh: an edit, and sums of it would overflow
        r.fail(FieldReader::join(p, "joules"), "must be at most 1e15 (a petajoule), or null");
    if (reading.method != EnergyMethod::None && std::isnan(reading.joules))
        r.fail(FieldReader::join(p, "joules"), "must be a number when the method is " + method);
    reading.note = r.string(o, "note", p);
    return reading;
}

void checkReading(const FieldReader &r, double value, bool fraction, const std::string &field) {
    if (std::isnan(value))
        return;
    if (value < 0.0 || std::isinf(value))
        r.fail(field, "must be 0 or more, or null");
    if (fraction && value > 1.0)
        r.fail(field, "must be at most 1 (a fraction)");
}

} // namespace

void writeEpochSystem(OrderedJson &epochObject, const EpochSystem &system) {
    if (!system.sampled)
        return;
    OrderedJson o;
    o["samples"] = system.samples;
    for (const Quantity &q : kQuantities) {
        const SampledStat &s = system.*q.stat;
        if (s.known())
            o[q.name] = {{"mean", rounded(s.mean, q.decimals)},
                         {"peak", rounded(s.peak, q.decimals)}};
    }
    o["energy"] = {{"gpu", energyJson(system.gpuEnergy)}, {"cpu", energyJson(system.cpuEnergy)}};
    epochObject["system"] = std::move(o);
}

EpochSystem readEpochSystem(const FieldReader &r, const nlohmann::json &epochObject,
                            const std::string &path) {
    EpochSystem system;
    if (!epochObject.contains("system"))
        return system;
    const std::string p = FieldReader::join(path, "system");
    const nlohmann::json &o = r.object(epochObject, "system", path);
    system.samples = static_cast<int>(r.int64(o, "samples", p, 0, 1 << 30));
    for (const Quantity &q : kQuantities) {
        if (!o.contains(q.name))
            continue;
        const std::string qp = FieldReader::join(p, q.name);
        const nlohmann::json &stat = r.object(o, q.name, p);
        SampledStat &s = system.*q.stat;
        s.mean = r.finite(stat, "mean", qp);
        s.peak = r.finite(stat, "peak", qp);
        checkReading(r, s.mean, q.fraction, FieldReader::join(qp, "mean"));
        checkReading(r, s.peak, q.fraction, FieldReader::join(qp, "peak"));
        // Both rounded alike, so a peak below its mean is no rounding: no real epoch has it.
        if (s.peak < s.mean)
            r.fail(FieldReader::join(qp, "peak"), "must not be below the mean");
    }
    const nlohmann::json &energy = r.object(o, "energy", p);
    const std::string ep = FieldReader::join(p, "energy");
    system.gpuEnergy = readEnergy(r, energy, "gpu", ep);
    system.cpuEnergy = readEnergy(r, energy, "cpu", ep);
    system.sampled = true;
    return system;
}

void writeSampling(OrderedJson &record, const SamplingInfo &sampling,
                   const std::vector<SystemSample> &samples) {
    if (!sampling.sampled)
        return;
    record["sampling"] = {{"periodSeconds", sampling.periodSeconds}, {"notes", sampling.notes}};
    if (!sampling.memoryMeasure.empty()) // absent: older records (their figures are VmRSS)
        record["sampling"]["memoryMeasure"] = sampling.memoryMeasure;
    OrderedJson columns;
    OrderedJson seconds = OrderedJson::array();
    for (const SystemSample &s : samples)
        seconds.push_back(rounded(s.seconds, 1e3));
    columns["seconds"] = std::move(seconds);
    const auto column = [&](const char *name, double SystemSample::*field, double scale) {
        bool any = false;
        OrderedJson values = OrderedJson::array();
        for (const SystemSample &s : samples) {
            any = any || !std::isnan(s.*field);
            values.push_back(rounded(s.*field, scale));
        }
        if (any)
            columns[name] = std::move(values);
    };
    for (const Quantity &q : kQuantities)
        column(q.name, q.sample, q.decimals);
    for (const Counter &c : kCounters)
        column(c.name, c.sample, 1e3);
    record["samples"] = std::move(columns);
}

void readSampling(const FieldReader &r, const nlohmann::json &record, SamplingInfo *sampling,
                  std::vector<SystemSample> *samples) {
    if (!record.contains("sampling"))
        return;
    const nlohmann::json &o = r.object(record, "sampling", "");
    sampling->periodSeconds = r.finite(o, "periodSeconds", "sampling");
    if (!(sampling->periodSeconds > 0.0))
        r.fail("sampling.periodSeconds", "must be above 0");
    const nlohmann::json &notes = r.array(o, "notes", "sampling");
    for (std::size_t i = 0; i < notes.size(); ++i) {
        if (!notes[i].is_string())
            r.fail("sampling.notes[" + std::to_string(i) + "]", "must be a string");
        sampling->notes.push_back(visibleText(notes[i].get<std::string>())); // never obeyed
    }
    if (o.contains("memoryMeasure")) {
        sampling->memoryMeasure = r.string(o, "memoryMeasure", "sampling");
        if (sampling->memoryMeasure != kProportionalSetSize &&
            sampling->memoryMeasure != kResidentSetSize)
            r.fail("sampling.memoryMeasure", "must be \"pss\" or \"rss\" (got \"" +
                                                 visibleText(sampling->memoryMeasure) + "\")");
    }
    const nlohmann::json &columns = r.object(record, "samples", "");
    const nlohmann::json &seconds = r.array(columns, "seconds", "samples");
    samples->assign(seconds.size(), SystemSample{});
    const auto read = [&](const char *name, double SystemSample::*field, bool fraction,
                          bool timeOrCounter) {
        if (!columns.contains(name))
            return;
        const std::string p = std::string("samples.") + name;
        const nlohmann::json &values = r.array(columns, name, "samples");
        if (values.size() != samples->size())
            r.fail(p, "must have as many readings as samples.seconds (" +
                          std::to_string(values.size()) + " against " +
                          std::to_string(samples->size()) + ")");
        for (std::size_t i = 0; i < values.size(); ++i) {
            const std::string where = p + "[" + std::to_string(i) + "]";
            if (!values[i].is_null() && !values[i].is_number())
                r.fail(where, "must be a number or null");
            const double v = values[i].is_null() ? kNotSampled : values[i].get<double>();
            checkReading(r, v, fraction, where);
            // Times and energy counters only grow (wrap-arounds are undone when sampled).
            if (timeOrCounter && i > 0 && v < (*samples)[i - 1].*field)
                r.fail(where, "must not be below the reading before it");
            (*samples)[i].*field = v;
        }
    };
    read("seconds", &SystemSample::seconds, false, true);
    for (std::size_t i = 0; i < samples->size(); ++i) {
        if (std::isnan((*samples)[i].seconds))
            r.fail("samples.seconds[" + std::to_string(i) + "]", "must be a number");
    }
    for (const Quantity &q : kQuantities)
        read(q.name, q.sample, q.fraction, false);
    for (const Counter &c : kCounters)
        read(c.name, c.sample, false, true);
    sampling->sampled = true;
}

} // namespace devicebench::detail
