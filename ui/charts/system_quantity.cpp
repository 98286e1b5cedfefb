// SPDX-License-Identifier: MIT
#include "charts/system_quantity.h"

#include "store/run_store.h"

#include "devicebench/system_metrics.h"

#include <algorithm>
#include <cmath>

namespace devicebench {

namespace {

constexpr SystemQuantity kQuantities[] = {SystemQuantity::Cpu, SystemQuantity::Memory,
                                          SystemQuantity::GpuUtilization, SystemQuantity::GpuMemory,
                                          SystemQuantity::GpuPower};

} // namespace

double systemQuantityValue(const SystemSample &sample, SystemQuantity quantity) {
    switch (quantity) {
    case SystemQuantity::Cpu:
        return sample.processCores;
    case SystemQuantity::Memory:
        return sample.rssBytes;
    case SystemQuantity::GpuUtilization:
        return sample.gpuUtilization;
    case SystemQuantity::GpuMemory:
        return sample.gpuMemoryBytes;
    case SystemQuantity::GpuPower:
        return sample.gpuPowerWatts;
    }
    return kNotSampled;
}

bool isGpuQuantity(SystemQuantity quantity) {
    return quantity == SystemQuantity::GpuUtilization || quantity == SystemQuantity::GpuMemory ||
           quantity == SystemQuantity::GpuPower;
}

bool isBytesQuantity(SystemQuantity quantity) {
    return quantity == SystemQuantity::Memory || quantity == SystemQuantity::GpuMemory;
}

QString systemQuantityChartTitle(SystemQuantity quantity) {
    switch (quantity) {
    case SystemQuantity::Cpu:
        return QStringLiteral("CPU use: the run's processes (solid), the whole machine (dashed)");
    case SystemQuantity::Memory:
        return QStringLiteral("Memory: the run's processes, shared pages counted once");
    case SystemQuantity::GpuUtilization:
        return QStringLiteral("GPU utilisation: share of the time a kernel ran");
    case SystemQuantity::GpuMemory:
        return QStringLiteral("GPU memory in use (every process on the GPU)");
    case SystemQuantity::GpuPower:
        return QStringLiteral("GPU power: the board's draw");
    }
    return QString();
}

QString systemQuantityName(SystemQuantity quantity) {
    switch (quantity) {
    case SystemQuantity::Cpu:
        return QStringLiteral("cpu");
    case SystemQuantity::Memory:
        return QStringLiteral("memory");
    case SystemQuantity::GpuUtilization:
        return QStringLiteral("gpu-utilization");
    case SystemQuantity::GpuMemory:
        return QStringLiteral("gpu-memory");
    case SystemQuantity::GpuPower:
        return QStringLiteral("gpu-power");
    }
    return QStringLiteral("cpu"); // not reached
}

bool parseSystemQuantity(const QString &name, SystemQuantity *quantity) {
    for (const SystemQuantity q : kQuantities) {
        if (name == systemQuantityName(q)) {
            *quantity = q;
            return true;
        }
    }
    return false;
}

QString systemQuantityTitle(SystemQuantity quantity) {
    switch (quantity) {
    case SystemQuantity::Cpu:
        return QStringLiteral("CPU use");
    case SystemQuantity::Memory:
        return QStringLiteral("Memory");
    case SystemQuantity::GpuUtilization:
        return QStringLiteral("GPU utilisation");
    case SystemQuantity::GpuMemory:
        return QStringLiteral("GPU memory");
    case SystemQuantity::GpuPower:
        return QStringLiteral("GPU power");
    }
    return QString();
}

bool runSampled(const RunRecord &record) {
    return record.sampling.sampled || !record.samples.empty();
}

bool hasQuantity(const RunRecord &record, SystemQuantity quantity) {
    return std::any_of(record.samples.begin(), record.samples.end(), [&](const SystemSample &s) {
        return std::isfinite(systemQuantityValue(s, quantity)) && std::isfinite(s.seconds);
    });
}

std::vector<SystemQuantity> sampledQuantities(const RunStore &store) {
    std::vector<SystemQuantity> quantities;
    for (const SystemQuantity q : kQuantities)
        for (const StoredRun &run : store.runs())
            if (!store.isRunHidden(run.id) && hasQuantity(run.record, q)) {
                quantities.push_back(q);
                break;
            }
    return quantities;
}

} // namespace devicebench
