// SPDX-License-Identifier: MIT
// The quantities of the System view (system_chart.h): their names on the command line and in
// settings, their words in the selector and the chart's title, and which runs hold them.
#pragma once

#include <QString>

#include <vector>

namespace devicebench {

class RunStore;
struct RunRecord;
struct SystemSample;

// What the System view draws, one at a time, each in its own unit on the y axis.
enum class SystemQuantity {
    Cpu,            // CPU cores kept busy: the run's processes (solid) and the machine (dashed)
    Memory,         // the run's processes' memory (SamplingInfo::memoryMeasure; MiB or GiB)
    GpuUtilization, // share of the period a kernel ran on the GPU (%)
    GpuMemory,      // GPU memory in use, all processes (MiB or GiB)
    GpuPower,       // GPU board power (W)
};
inline constexpr int kSystemQuantityCount = 5;

// "cpu", "memory", "gpu-utilization", "gpu-memory", "gpu-power"; parseSystemQuantity reads
// those (false on anything else).
QString systemQuantityName(SystemQuantity quantity);
bool parseSystemQuantity(const QString &name, SystemQuantity *quantity);
// The selector's words: "CPU use", "Memory", "GPU utilisation", "GPU memory", "GPU power".
QString systemQuantityTitle(SystemQuantity quantity);

// Whether `record` holds the machine's readings: it says it was sampled, or it has readings
// (a live run's arrive before its record says so).
bool runSampled(const RunRecord &record);
// Whether any of the record's readings has `quantity` (Cpu: the run's processes' cores), i.e.
// is not NaN.
bool hasQuantity(const RunRecord &record, SystemQuantity quantity);
// The quantities that some run the store shows (not hidden) has, in enum order; empty when no
// run in view was sampled.
std::vector<SystemQuantity> sampledQuantities(const RunStore &store);

// The reading's value of `quantity` in the record's unit (cores, bytes, fraction, W); NaN when
// it was not read.
double systemQuantityValue(const SystemSample &sample, SystemQuantity quantity);
// GPU quantities (utilisation, memory, power); quantities in bytes (memory, GPU memory).
bool isGpuQuantity(SystemQuantity quantity);
bool isBytesQuantity(SystemQuantity quantity);
// The chart's title for `quantity`, e.g. "GPU power: the board's draw".
QString systemQuantityChartTitle(SystemQuantity quantity);

} // namespace devicebench
