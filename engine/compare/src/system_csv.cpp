// SPDX-License-Identifier: MIT
#include "system_csv.h"

#include "devicebench/run_energy.h"

#include <optional>
#include <string>

namespace devicebench::detail {
namespace {

using E = const EpochResult &;
using R = const SampledRun &;

// The stable epochs' mean of a quantity's means, or the peak of their peaks; none when unknown.
std::optional<double> stable(R run, SampledStat EpochSystem::*quantity, bool peak) {
    const SampledStat s = stableSystemStat(run.record.epochs, run.warmupEpochs, quantity);
    return finite(peak ? s.peak : s.mean);
}

// The summary's energy of the stable epochs that measured it: "n/a" when none did.
CsvColumn<SampledRun> stableEnergy(const char *name, double EnergySummary::*joules) {
    return CsvColumn<SampledRun>::number(
        name, "J", 1,
        [joules](R r) -> std::optional<double> {
            const EnergySummary s = summarizeEnergy(r.record.epochs, r.warmupEpochs);
            if (s.epochs == 0)
                return std::nullopt;
            return s.*joules;
        },
        "n/a");
}

} // namespace

CsvColumns<EpochResult> epochSystemColumns() {
    using C = CsvColumn<EpochResult>;
    return {
        C::number("process_cores", "cores", 3,
                  [](E e) { return finite(e.system.processCores.mean); }),
        C::number("machine_cores", "cores", 3,
                  [](E e) { return finite(e.system.machineCores.mean); }),
        C::number("peak_rss_bytes", "bytes", 0, [](E e) { return finite(e.system.rssBytes.peak); }),
        C::number("gpu_utilization", "fraction", 3,
                  [](E e) { return finite(e.system.gpuUtilization.mean); }),
        C::number("gpu_power_w", "W", 1, [](E e) { return finite(e.system.gpuPowerWatts.mean); }),
        C::number("gpu_memory_peak_bytes", "bytes", 0,
                  [](E e) { return finite(e.system.gpuMemoryBytes.peak); }),
        C::number("energy_j", "J", 1, [](E e) { return finite(epochJoules(e.system)); }),
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
    using C = CsvColumn<SampledRun>;
    return {
        C::number("mean_process_cores", "cores", 3,
                  [](R r) { return stable(r, &EpochSystem::processCores, false); }),
        C::number("peak_rss_bytes", "bytes", 0,
                  [](R r) { return stable(r, &EpochSystem::rssBytes, true); }),
        C::number("mean_gpu_utilization", "fraction", 3,
                  [](R r) { return stable(r, &EpochSystem::gpuUtilization, false); }),
        C::number("mean_gpu_power_w", "W", 1,
                  [](R r) { return stable(r, &EpochSystem::gpuPowerWatts, false); }),
        stableEnergy("energy_j_per_stable_epoch", &EnergySummary::meanJoules),
        stableEnergy("energy_j_stable_total", &EnergySummary::totalJoules),
        {"energy_method",
         [](R r) {
             if (!r.record.sampling.sampled)
                 return std::string("not sampled");
             const EnergySummary s = summarizeEnergy(r.record.epochs, r.warmupEpochs);
             if (s.epochs > 0)
                 return s.methods;
             const std::string why = energyNotMeasuredReason(r.record.epochs);
             return why.empty() ? std::string("none") : "none: " + why;
         }},
    };
}

} // namespace devicebench::detail
