// SPDX-License-Identifier: MIT
// summarizeEpoch (system_sampler.h): an epoch's readings out of a run's samples.
#include "devicebench/system_sampler.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace devicebench {
namespace {

// A cumulative counter at time t: linear between the readings that have it around t. NaN when
// no reading with the counter lies on one side of t.
double counterAt(const std::vector<SystemSample> &samples, double SystemSample::*counter,
                 double t) {
    const SystemSample *before = nullptr;
    const SystemSample *after = nullptr;
    for (const SystemSample &s : samples) {
        if (std::isnan(s.*counter))
            continue;
        if (s.seconds <= t)
            before = &s;
        if (s.seconds >= t) {
            after = &s;
            break;
        }
    }
    if (before == nullptr || after == nullptr)
        return kNotSampled;
    if (after->seconds <= before->seconds)
        return before->*counter;
    const double f = (t - before->seconds) / (after->seconds - before->seconds);
    return before->*counter + f * (after->*counter - before->*counter);
}

EnergyReading energyOver(const std::vector<SystemSample> &samples, double SystemSample::*counter,
                         double from, double to, const EnergyReading &source) {
    EnergyReading reading = source;
    if (source.method == EnergyMethod::None)
        return reading;
    reading.joules = counterAt(samples, counter, to) - counterAt(samples, counter, from);
    if (std::isnan(reading.joules)) {
        reading.method = EnergyMethod::None;
        reading.note = "no counter reading on both sides of the epoch";
    }
    return reading;
}

SampledStat statOf(const std::vector<const SystemSample *> &readings,
                   double SystemSample::*quantity) {
    SampledStat stat;
    double sum = 0.0;
    int count = 0;
    for (const SystemSample *s : readings) {
        const double v = s->*quantity;
        if (std::isnan(v))
            continue;
        sum += v;
        ++count;
        stat.peak = count == 1 ? v : std::max(stat.peak, v);
    }
    if (count > 0)
        stat.mean = std::min(sum / count, stat.peak); // no rounding above the peak
    return stat;
}

} // namespace

EpochSystem summarizeEpoch(const std::vector<SystemSample> &samples, double from, double to,
                           const EnergySources &sources) {
    EpochSystem system;
    system.sampled = true;
    std::vector<const SystemSample *> inside;
    for (const SystemSample &s : samples)
        if (s.seconds >= from && s.seconds <= to)
            inside.push_back(&s);
    system.samples = static_cast<int>(inside.size());
    if (inside.empty() && !samples.empty()) { // an epoch shorter than the period
        const double middle = (from + to) / 2.0;
        inside.push_back(&*std::min_element(
            samples.begin(), samples.end(), [&](const SystemSample &a, const SystemSample &b) {
                return std::fabs(a.seconds - middle) < std::fabs(b.seconds - middle);
            }));
    }
    system.processCores = statOf(inside, &SystemSample::processCores);
    system.machineCores = statOf(inside, &SystemSample::machineCores);
    system.rssBytes = statOf(inside, &SystemSample::rssBytes);
    system.gpuUtilization = statOf(inside, &SystemSample::gpuUtilization);
    system.gpuMemoryBytes = statOf(inside, &SystemSample::gpuMemoryBytes);
    system.gpuPowerWatts = statOf(inside, &SystemSample::gpuPowerWatts);
    system.gpuEnergy = energyOver(samples, &SystemSample::gpuJoules, from, to, sources.gpu);
    system.cpuEnergy = energyOver(samples, &SystemSample::cpuJoules, from, to, sources.cpu);
    return system;
}

} // namespace devicebench
