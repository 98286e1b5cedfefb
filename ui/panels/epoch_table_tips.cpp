// SPDX-License-Identifier: MIT
#include "panels/epoch_table_tips.h"

#include "store/run_store.h"

#include "devicebench/run_types.h"

#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/system_metrics.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <string>

namespace devicebench {

QString bytesText(double bytes) {
    constexpr double mib = 1024.0 * 1024.0;
    constexpr double gib = 1024.0 * mib;
    return bytes >= gib ? QStringLiteral("%1 GiB").arg(bytes / gib, 0, 'f', 2)
                        : QStringLiteral("%1 MiB").arg(bytes / mib, 0, 'f', 0);
}

QString joulesText(double joules) {
    if (joules >= 1e7)
        return QStringLiteral("%1 MJ").arg(joules / 1e6, 0, 'f', 2);
    if (joules >= 1e4)
        return QStringLiteral("%1 kJ").arg(joules / 1e3, 0, 'f', 1);
    return QStringLiteral("%1 J").arg(joules, 0, 'f', 0);
}

namespace {

// What an epoch got from the machine, for the seconds and contended cells' tooltips; a
// data-parallel epoch's seconds also say how much of them was all-reduce.
QVariant loadToolTip(const EpochResult &epoch, int threads, EpochColumn column) {
    const QString load = QString::fromStdString(describeLoad(epoch.load, threads));
    const QString allReduce =
        column == EpochColumn::Seconds && std::isfinite(epoch.allReduceSeconds)
            ? QStringLiteral(
                  "All-reduce (gradients and test sums, c10d): %1 s of the epoch's %2 s.")
                  .arg(epoch.allReduceSeconds, 0, 'f', 3)
                  .arg(epoch.seconds, 0, 'f', 3)
            : QString();
    if (epoch.load.contended)
        return QStringLiteral("Contended: the machine was busy during this epoch (%1), so its "
                              "time is not the device's alone. %2")
            .arg(load, allReduce)
            .trimmed();
    if (column != EpochColumn::Contended)
        return allReduce.isEmpty() ? QVariant() : QVariant(allReduce);
    if (!epoch.load.measured)
        return QStringLiteral("Not measured: the record was written before DeviceBench measured "
                              "what each epoch got from the machine.");
    return QStringLiteral("Not contended: %1.").arg(load);
}

// Whole percent of a fraction; "?" when unknown.
QString percentText(double fraction) {
    return std::isfinite(fraction) ? QStringLiteral("%1 %").arg(std::lround(100.0 * fraction))
                                   : QStringLiteral("?");
}

// Whether the machine's speed changed for the epoch, for the seconds and machine speed cells'
// tooltips: the canary's change against the run's first and the noise the rule allowed for.
QString speedToolTip(const RunRecord &record, const EpochResult &epoch, EpochColumn column) {
    const QString change = QString::fromStdString(describeCanaryChange(epoch.canaryChange));
    const double noise =
        std::max(std::isfinite(record.started.canary.noise) ? record.started.canary.noise : 0.0,
                 std::isfinite(epoch.canary.noise) ? epoch.canary.noise : 0.0);
    if (epoch.speedChanged)
        return QStringLiteral("machine speed changed: %1 against the run's first canary (noise "
                              "%2), so this epoch's time mixes the device's speed with the "
                              "machine's.")
            .arg(change, percentText(noise));
    if (column != EpochColumn::SpeedChanged)
        return QString();
    if (!epoch.canary.measured)
        return QStringLiteral("No canary: the record was written before DeviceBench timed the "
                              "canary after every epoch.");
    return QStringLiteral("machine speed steady: %1 against the run's first canary (noise %2).")
        .arg(change.isEmpty() ? QStringLiteral("canary unchanged") : change, percentText(noise));
}

// The tooltip of the seconds cell: what the epoch got from the machine, and its speed.
QVariant secondsToolTip(const RunRecord &record, const EpochResult &epoch) {
    QStringList parts;
    const QVariant load = loadToolTip(epoch, record.started.threads, EpochColumn::Seconds);
    if (load.isValid())
        parts.append(load.toString());
    const QString speed = speedToolTip(record, epoch, EpochColumn::Seconds);
    if (!speed.isEmpty())
        parts.append(speed);
    return parts.isEmpty() ? QVariant() : QVariant(parts.join(QLatin1Char('\n')));
}

// One energy reading for the energy cell's tooltip: "GPU: 812 J (nvml-energy-counter)" or
// "GPU: not measured: no NVIDIA driver"; "" for a source that does not apply to the run.
QString readingText(const QString &source, const EnergyReading &reading) {
    if (reading.measured())
        return QStringLiteral("%1: %2 (%3)")
            .arg(source, joulesText(reading.joules), QString::fromLatin1(toString(reading.method)));
    if (reading.note == kNotTheRunsDevice)
        return QString();
    return QStringLiteral("%1: not measured: %2")
        .arg(source, reading.note.empty() ? QStringLiteral("no reason given")
                                          : QString::fromStdString(reading.note));
}

// The tooltip of the CPU cores, peak memory and energy cells.
QVariant systemToolTip(const EpochSystem &system, const SamplingInfo &sampling,
                       EpochColumn column) {
    if (!system.sampled)
        return QStringLiteral("Not sampled: the record was written before DeviceBench sampled "
                              "the machine during a run.");
    switch (column) {
    case EpochColumn::CpuCores:
        return QStringLiteral("Mean CPU cores the run's processes kept busy (peak %1; the whole "
                              "machine: mean %2) over %3 readings.")
            .arg(system.processCores.peak, 0, 'f', 1)
            .arg(system.machineCores.mean, 0, 'f', 1)
            .arg(system.samples);
    case EpochColumn::PeakMemory:
        return QStringLiteral("Peak memory of the run's processes, %1 (mean %2).")
            .arg(QString::fromStdString(memoryMeasureText(sampling.memoryMeasure)),
                 std::isfinite(system.rssBytes.mean) ? bytesText(system.rssBytes.mean)
                                                     : QStringLiteral("?"));
    case EpochColumn::Energy: {
        QStringList lines;
        lines.append(std::isfinite(epochJoules(system))
                         ? QStringLiteral("Energy of the epoch: %1")
                               .arg(QString::fromStdString(energyMethods(system)))
                         : QStringLiteral("Energy not measured."));
        for (const QString &line : {readingText(QStringLiteral("GPU"), system.gpuEnergy),
                                    readingText(QStringLiteral("CPU packages"), system.cpuEnergy)})
            if (!line.isEmpty())
                lines.append(line);
        return lines.join(QLatin1Char('\n'));
    }
    default:
        return QVariant();
    }
}

} // namespace

QString differencesText(const StoredRun &run, const QString &separator) {
    QStringList fields;
    for (const std::string &field : run.differences)
        fields.append(QString::fromStdString(field));
    return fields.join(separator);
}

QVariant epochCellToolTip(const StoredRun &run, const EpochResult &epoch, EpochColumn column) {
    switch (column) {
    case EpochColumn::Run:
        return QStringLiteral("%1\nfrom %2").arg(run.label, run.origin);
    case EpochColumn::Comparable:
        if (run.comparable())
            return QVariant();
        return QStringLiteral("The workload differs from the baseline's in: %1")
            .arg(differencesText(run, QStringLiteral(", ")));
    case EpochColumn::Seconds:
        return secondsToolTip(run.record, epoch);
    case EpochColumn::Contended:
        return loadToolTip(epoch, run.record.started.threads, column);
    case EpochColumn::SpeedChanged:
        return speedToolTip(run.record, epoch, column);
    case EpochColumn::CpuCores:
    case EpochColumn::PeakMemory:
    case EpochColumn::Energy:
        return systemToolTip(epoch.system, run.record.sampling, column);
    default:
        return QVariant();
    }
}

} // namespace devicebench
