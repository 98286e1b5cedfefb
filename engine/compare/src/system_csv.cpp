// SPDX-License-Identifier: MIT
#include "system_csv.h"

#include "devicebench/run_energy.h"

#include <cmath>
#include <cstdio>

namespace devicebench::detail {
namespace {

std::string number(double value, int decimals) {
    if (!std::isfinite(value))
        return {};
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// The stable epochs' mean of a quantity's means, or the peak of their peaks.
double stable(const SampledRun &run, SampledStat EpochSystem::*quantity, bool peak) {
    const SampledStat s = stableSystemStat(run.record.epochs, run.warmupEpochs, quantity);
    return peak ? s.peak : s.mean;
}

} // namespace

CsvColumns<EpochResult> epochSystemColumns() {
    using E = const EpochResult &;
    return {
        {"process_cores", [](E e) { return number(e.system.processCores.mean, 3); }},
        {"machine_cores", [](E e) { return number(e.system.machineCores.mean, 3); }},
        {"peak_rss_bytes", [](E e) { return number(e.system.rssBytes.peak, 0); }},
        {"gpu_utilization", [](E e) { return number(e.system.gpuUtilization.mean, 3); }},
        {"gpu_power_w", [](E e) { return number(e.system.gpuPowerWatts.mean, 1); }},
        {"gpu_memory_peak_bytes", [](E e) { return number(e.system.gpuMemoryBytes.peak, 0); }},
        {"energy_j", [](E e) { return number(epochJoules(e.system), 1); }},
        {"energy_method",
         [](E e) {
             if (!e.system.sampled)
                 return std::string();
             const std::string methods = energyMethods(e.system);
             const std::string why = energyNotMeasuredReason({e});
             return methods == "none" && !why.empty() ? "none: " + why : methods;
         }},
    };
}

CsvColumns<SampledRun> runSystemColumns() {
    using R = const SampledRun &;
    const auto energy = [](R r) { return summarizeEnergy(r.record.epochs, r.warmupEpochs); };
    return {
        {"mean_process_cores",
         [](R r) { return number(stable(r, &EpochSystem::processCores, false), 3); }},
        {"peak_rss_bytes", [](R r) { return number(stable(r, &EpochSystem::rssBytes, true), 0); }},
        {"mean_gpu_utilization",
         [](R r) { return number(stable(r, &EpochSystem::gpuUtilization, false), 3); }},
        {"mean_gpu_power_w",
         [](R r) { return number(stable(r, &EpochSystem::gpuPowerWatts, false), 1); }},
        {"energy_j_per_stable_epoch",
         [energy](R r) {
             const EnergySummary s = energy(r);
             return s.epochs > 0 ? number(s.meanJoules, 1) : std::string("n/a");
         }},
        {"energy_j_stable_total",
         [energy](R r) {
             const EnergySummary s = energy(r);
             return s.epochs > 0 ? number(s.totalJoules, 1) : std::string("n/a");
         }},
        {"energy_method",
         [energy](R r) {
             if (!r.record.sampling.sampled)
                 return std::string("not sampled");
             const EnergySummary s = energy(r);
             if (s.epochs > 0)
                 return s.methods;
             const std::string why = energyNotMeasuredReason(r.record.epochs);
             return why.empty() ? std::string("none") : "none: " + why;
         }},
    };
}

} // namespace devicebench::detail
