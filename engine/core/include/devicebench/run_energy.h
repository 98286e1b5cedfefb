// SPDX-License-Identifier: MIT
// A run's energy over its stable epochs, and the summary's energy line (system_metrics.h holds
// the readings). docs/MEASURING.md, "What a run costs": report the stable epochs' total and
// mean, never one short epoch's joules to four digits. Plain C++.
#pragma once

#include "devicebench/run_types.h"
#include "devicebench/system_metrics.h"

#include <string>
#include <vector>

namespace devicebench {

// The energy of a run's stable epochs (those after the warm-up) that measured it.
struct EnergySummary {
    int epochs = 0;                   // stable epochs with energy
    double totalJoules = kNotSampled; // their sum
    double meanJoules = kNotSampled;  // per such epoch
    std::string methods;              // energyMethods() of the last such epoch
};
EnergySummary summarizeEnergy(const std::vector<EpochResult> &epochs, int warmupEpochs);

// Why a sampled run measured no energy: its last epoch's readings' notes, "; "-joined
// ("no RAPL counters (/sys/class/powercap absent); no NVIDIA driver"); "" when it measured some.
std::string energyNotMeasuredReason(const std::vector<EpochResult> &epochs);

// The summary's energy line: "energy: 1.2 kJ per stable epoch (8 epochs, 9.8 kJ; rapl)",
// "energy: not measured: no RAPL counters (/sys/class/powercap absent); no NVIDIA driver", or
// "energy: not sampled" (records written before sampling). Joules below 10 kJ in J with two
// significant digits beyond the counters' resolution at most (docs/MEASURING.md).
std::string energyLine(const std::vector<EpochResult> &epochs, int warmupEpochs,
                       const SamplingInfo &sampling);

// One quantity over the stable epochs that read it: the mean of their means and the peak of
// their peaks; NaN when none did.
SampledStat stableSystemStat(const std::vector<EpochResult> &epochs, int warmupEpochs,
                             SampledStat EpochSystem::*quantity);

// The summary's line of what the machine did in the stable epochs (means of the epochs' means,
// the peak of their peaks): "system: the run's processes kept 1.93 cores busy, the machine
// 1.98; peak memory 1.21 GiB (proportional set size); GPU 87 % busy, peak 3.20 GiB, 210 W"
// (GPU parts when read; the memory's measure by memoryMeasureText of SamplingInfo's);
// "system: not sampled" when no stable epoch was.
std::string systemLine(const std::vector<EpochResult> &epochs, int warmupEpochs,
                       const std::string &memoryMeasure);

// Bytes for people: "812 MiB", "1.21 GiB".
std::string bytesText(double bytes);

} // namespace devicebench
