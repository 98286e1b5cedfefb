// SPDX-License-Identifier: MIT
#include "devicebench/system_metrics.h"

#include "devicebench/run_energy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace devicebench {

const char *toString(EnergyMethod method) {
    switch (method) {
    case EnergyMethod::NvmlEnergyCounter:
        return "nvml-energy-counter";
    case EnergyMethod::NvmlPowerIntegral:
        return "nvml-power-integral";
    case EnergyMethod::Rapl:
        return "rapl";
    case EnergyMethod::None:
        break;
    }
    return "none";
}

bool parseEnergyMethod(const std::string &text, EnergyMethod *method) {
    for (EnergyMethod m : {EnergyMethod::None, EnergyMethod::NvmlEnergyCounter,
                           EnergyMethod::NvmlPowerIntegral, EnergyMethod::Rapl}) {
        if (text == toString(m)) {
            *method = m;
            return true;
        }
    }
    return false;
}

double epochJoules(const EpochSystem &system) {
    double joules = 0.0;
    bool any = false;
    for (const EnergyReading *r : {&system.gpuEnergy, &system.cpuEnergy}) {
        if (r->measured()) {
            joules += r->joules;
            any = true;
        }
    }
    return any ? joules : kNotSampled;
}

std::string energyMethods(const EpochSystem &system) {
    std::string methods;
    for (const EnergyReading *r : {&system.gpuEnergy, &system.cpuEnergy}) {
        if (r->measured())
            methods += (methods.empty() ? "" : " + ") + std::string(toString(r->method));
    }
    return methods.empty() ? "none" : methods;
}

EnergySummary summarizeEnergy(const std::vector<EpochResult> &epochs, int warmupEpochs) {
    EnergySummary s;
    double total = 0.0;
    for (const EpochResult &e : epochs) {
        const double joules = epochJoules(e.system);
        if (e.epoch <= warmupEpochs || !(joules == joules))
            continue;
        total += joules;
        ++s.epochs;
        s.methods = energyMethods(e.system);
    }
    if (s.epochs > 0) {
        s.totalJoules = total;
        s.meanJoules = total / s.epochs;
    }
    return s;
}

std::string energyNotMeasuredReason(const std::vector<EpochResult> &epochs) {
    for (const EpochResult &e : epochs) {
        if (epochJoules(e.system) == epochJoules(e.system))
            return {};
    }
    if (epochs.empty() || !epochs.back().system.sampled)
        return {};
    std::string reason;
    for (const EnergyReading *r :
         {&epochs.back().system.cpuEnergy, &epochs.back().system.gpuEnergy}) {
        if (!r->note.empty() && r->note != kNotTheRunsDevice)
            reason += (reason.empty() ? "" : "; ") + r->note;
    }
    return reason;
}

namespace {

// Joules with the precision the counters and the spread of epochs allow: three significant
// digits, in J below 10 kJ, kJ below 10 MJ, MJ above.
std::string joulesText(double joules) {
    char text[32];
    if (std::fabs(joules) < 1e4)
        std::snprintf(text, sizeof text, "%.3g J", joules);
    else if (std::fabs(joules) < 1e7)
        std::snprintf(text, sizeof text, "%.3g kJ", joules / 1e3);
    else
        std::snprintf(text, sizeof text, "%.3g MJ", joules / 1e6);
    return text;
}

} // namespace

std::string energyLine(const std::vector<EpochResult> &epochs, int warmupEpochs,
                       const SamplingInfo &sampling) {
    if (!sampling.sampled)
        return "energy: not sampled";
    const EnergySummary s = summarizeEnergy(epochs, warmupEpochs);
    if (s.epochs > 0)
        return "energy: " + joulesText(s.meanJoules) + " per stable epoch (" +
               std::to_string(s.epochs) + (s.epochs == 1 ? " epoch, " : " epochs, ") +
               joulesText(s.totalJoules) + "; " + s.methods + ")";
    const std::string reason = energyNotMeasuredReason(epochs);
    if (!reason.empty())
        return "energy: not measured: " + reason;
    return epochs.empty() ? "energy: not measured: no epoch finished"
                          : "energy: not measured in a stable epoch";
}

namespace {

std::string number(double value, int decimals, const char *unit = "") {
    char text[48];
    std::snprintf(text, sizeof text, "%.*f%s", decimals, value, unit);
    return text;
}

} // namespace

SampledStat stableSystemStat(const std::vector<EpochResult> &epochs, int warmupEpochs,
                             SampledStat EpochSystem::*quantity) {
    SampledStat stat;
    double sum = 0.0;
    int count = 0;
    for (const EpochResult &e : epochs) {
        const SampledStat &s = e.system.*quantity;
        if (e.epoch <= warmupEpochs || !e.system.sampled || !s.known())
            continue;
        sum += s.mean;
        stat.peak = count == 0 ? s.peak : std::max(stat.peak, s.peak);
        ++count;
    }
    if (count > 0)
        stat.mean = sum / count;
    return stat;
}

// `value` with `decimals` digits after the point, then `unit` ("" for none).
std::string bytesText(double bytes) {
    if (bytes >= 1024.0 * 1024.0 * 1024.0)
        return number(bytes / (1024.0 * 1024.0 * 1024.0), 2, " GiB");
    return number(bytes / (1024.0 * 1024.0), 0, " MiB");
}

std::string memoryMeasureText(const std::string &measure) {
    return measure == kProportionalSetSize
               ? "proportional set size"
               : "resident set size, shared pages counted in each process";
}

std::string systemLine(const std::vector<EpochResult> &epochs, int warmupEpochs,
                       const std::string &memoryMeasure) {
    const SampledStat process = stableSystemStat(epochs, warmupEpochs, &EpochSystem::processCores);
    const SampledStat machine = stableSystemStat(epochs, warmupEpochs, &EpochSystem::machineCores);
    const SampledStat rss = stableSystemStat(epochs, warmupEpochs, &EpochSystem::rssBytes);
    const SampledStat gpu = stableSystemStat(epochs, warmupEpochs, &EpochSystem::gpuUtilization);
    const SampledStat gpuMemory =
        stableSystemStat(epochs, warmupEpochs, &EpochSystem::gpuMemoryBytes);
    const SampledStat power = stableSystemStat(epochs, warmupEpochs, &EpochSystem::gpuPowerWatts);
    if (!process.known() && !machine.known() && !rss.known())
        return "system: not sampled";
    std::string line = "system:";
    if (process.known())
        line += " the run's processes kept " + number(process.mean, 2) + " cores busy";
    if (machine.known())
        line += std::string(process.known() ? ", the machine " : " the machine kept ") +
                number(machine.mean, 2) + (process.known() ? "" : " cores busy");
    if (rss.known())
        line +=
            "; peak memory " + bytesText(rss.peak) + " (" + memoryMeasureText(memoryMeasure) + ")";
    if (gpu.known())
        line += "; GPU " + number(100.0 * gpu.mean, 0) + " % busy";
    if (gpuMemory.known())
        line +=
            std::string(gpu.known() ? ", peak " : "; GPU memory peak ") + bytesText(gpuMemory.peak);
    if (power.known())
        line += std::string(gpu.known() || gpuMemory.known() ? ", " : "; GPU ") +
                number(power.mean, 0, " W");
    return line;
}

} // namespace devicebench
