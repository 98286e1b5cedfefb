// SPDX-License-Identifier: MIT
// The window's epoch table, pinned: every header, and every shown cell's text, tooltip, colour
// and alignment for a run whose epochs were measured in full, one sampled without energy and
// one recorded before any of it; its one table of columns, each the value of a per-epoch CSV
// column; and the model's contract under Qt's model tester.
#include "panels/epoch_table.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/run_record.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QGuiApplication>
#include <QPalette>

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <string>

namespace devicebench {
namespace {

const DataIdentity kData{"/data", "cifar-10-binary", 900, 100, "0123456789abcdef"};

// Three epochs of a run on `device`, the first warm-up, 1000 images each.
RunRecord runOn(const std::string &id, const std::string &device, int threads) {
    RunRecord r;
    r.runId = id;
    r.config.epochs = 3;
    r.config.warmupEpochs = 1;
    r.started.device = device;
    r.started.threads = threads;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.data = kData;
    r.fingerprint.hostName = "box";
    for (int n = 1; n <= 3; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = n == 1 ? 4.25 : 2.125 * n;
        e.warmup = n == 1;
        e.trainLoss = 2.0 / n;
        e.testLoss = 1.75 / n;
        e.testAccuracy = 0.25 * n;
        e.imagesPerSecond = 1000.0 / e.seconds;
        r.epochs.push_back(e);
    }
    r.status = "finished";
    return r;
}

// A CUDA run measured in full: epoch 2 contended, epoch 3 on a slower machine; a data-parallel
// job's all-reduce seconds in epoch 1.
RunRecord measuredRun() {
    RunRecord r = runOn("measured", "cuda:0", 4);
    r.started.canary = {true, 0.0100, 0.0030, 0.02};
    r.sampling.sampled = true;
    for (EpochResult &e : r.epochs) {
        const int n = e.epoch;
        e.load = {true, 2.5, 0.99, 0.01, 0.0, 0.0, 3.25, 8, n == 2};
        e.canary = {true, n == 3 ? 0.0125 : 0.0101, 0.0031, 0.02};
        e.canaryChange = n == 3 ? 0.25 : 0.01;
        e.speedChanged = n == 3;
        e.allReduceSeconds = n == 1 ? 0.5 : std::numeric_limits<double>::quiet_NaN();
        e.system.sampled = true;
        e.system.samples = 8;
        e.system.processCores = {1.25, 1.5};
        e.system.machineCores = {1.75, 2.0};
        e.system.rssBytes = {812.0 * 1024 * 1024, n * 900.0 * 1024 * 1024};
        e.system.gpuEnergy = {EnergyMethod::NvmlEnergyCounter, 4000.0 * n, "cuda:0"};
        e.system.cpuEnergy = {EnergyMethod::Rapl, 40.0 * e.seconds, "package-0"};
    }
    return r;
}

// A CPU run sampled without energy (no RAPL, no NVIDIA driver), one of batch 32.
RunRecord sampledWithoutEnergy() {
    RunRecord r = runOn("sampled", "cpu", 2);
    r.config.batchSize = 32;
    r.sampling.sampled = true;
    for (EpochResult &e : r.epochs) {
        e.system.sampled = true;
        e.system.samples = 4;
        e.system.processCores = {1.9, 2.0};
        e.system.rssBytes = {300e6, 310e6};
        e.system.gpuEnergy = {EnergyMethod::None, kNotSampled, "no NVIDIA driver"};
        e.system.cpuEnergy = {EnergyMethod::None, kNotSampled, "no RAPL counters"};
    }
    r.epochs[2].trainLoss = std::numeric_limits<double>::quiet_NaN();
    return r;
}

// "error", "muted" or "" for a cell's ForegroundRole.
std::string colourOf(const QVariant &foreground) {
    if (!foreground.isValid())
        return "";
    const theme::Theme shown = theme::themeOf(QGuiApplication::palette());
    const QColor colour = foreground.value<QBrush>().color();
    if (colour == theme::colour(theme::Role::ErrorText, shown))
        return "error";
    if (colour == theme::colour(theme::Role::MutedText, shown))
        return "muted";
    return "other";
}

// The headers, then one line per cell: "row.section: text [colour, L] {tooltip}".
std::string tableText(const EpochTableModel &model) {
    std::string text;
    for (int c = 0; c < model.columnCount(); ++c)
        text +=
            (c == 0 ? "" : " | ") + model.headerData(c, Qt::Horizontal).toString().toStdString();
    text += "\n";
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(r, c);
            const auto align = model.data(index, Qt::TextAlignmentRole).value<Qt::Alignment>();
            QString tip = model.data(index, Qt::ToolTipRole).toString();
            tip.replace(QLatin1Char('\n'), QStringLiteral(" / "));
            text += std::to_string(r) + "." + std::to_string(c) + ": " +
                    model.data(index).toString().toStdString() + " [" +
                    colourOf(model.data(index, Qt::ForegroundRole)) +
                    ((align & Qt::AlignLeft) != 0 ? ", L]" : ", R]") +
                    (tip.isEmpty() ? "" : " {" + tip.toStdString() + "}") + "\n";
        }
    }
    return text;
}

TEST(EpochTable, EveryHeaderAndCellReadsAsPinned) {
    RunStore store;
    store.addRecord(measuredRun(), QStringLiteral("measured.json"));
    store.addRecord(sampledWithoutEnergy(), QStringLiteral("sampled.json"));
    RunRecord older = runOn("older", "cpu", 1);
    older.fingerprint.hostName = "old-box";
    store.addRecord(older, QStringLiteral("older.json"));
    EpochTableModel model(store);
    EXPECT_EQ(
        tableText(model),
        R"table(run | comparable | device | threads | epoch | seconds | warm-up | train loss | test loss | test accuracy | images/s | CPU cores | peak memory | energy | machine speed | contended
0.0: #1 cuda:0 @ box [muted, L] {#1 cuda:0 @ box / from measured.json}
0.1: baseline [muted, L]
0.2: cuda:0 [muted, L]
0.3: 4 [muted, R]
0.4: 1 [muted, R]
0.5: 4.25 [muted, R] {All-reduce (gradients and test sums, c10d): 0.500 s of the epoch's 4.250 s.}
0.6: yes [muted, R]
0.7: 2.0000 [muted, R]
0.8: 1.7500 [muted, R]
0.9: 25.0 % [muted, R]
0.10: 235 [muted, R]
0.11: 1.3 [muted, R] {Mean CPU cores the run's processes kept busy (peak 1.5; the whole machine: mean 1.8) over 8 readings.}
0.12: 900 MiB [muted, R] {Peak resident memory of the run's processes (mean 812 MiB).}
0.13: 4170 J [muted, R] {Energy of the epoch: nvml-energy-counter + rapl / GPU: 4000 J (nvml-energy-counter) / CPU packages: 170 J (rapl)}
0.14:  [muted, R] {machine speed steady: canary +1 % against the run's first canary (noise 2 %).}
0.15:  [muted, R] {Not contended: got 99 % of 4 CPUs; others used 0.0 of its 8 CPUs; steal 0 %.}
1.0: #1 cuda:0 @ box [, L] {#1 cuda:0 @ box / from measured.json}
1.1: baseline [, L]
1.2: cuda:0 [, L]
1.3: 4 [, R]
1.4: 2 [, R]
1.5: ⚠ 4.25 [error, R] {Contended: the machine was busy during this epoch (got 99 % of 4 CPUs; others used 0.0 of its 8 CPUs; steal 0 %), so its time is not the device's alone.}
1.6:  [, R]
1.7: 1.0000 [, R]
1.8: 0.8750 [, R]
1.9: 50.0 % [, R]
1.10: 235 [, R]
1.11: 1.3 [, R] {Mean CPU cores the run's processes kept busy (peak 1.5; the whole machine: mean 1.8) over 8 readings.}
1.12: 1.76 GiB [, R] {Peak resident memory of the run's processes (mean 812 MiB).}
1.13: 8170 J [, R] {Energy of the epoch: nvml-energy-counter + rapl / GPU: 8000 J (nvml-energy-counter) / CPU packages: 170 J (rapl)}
1.14:  [, R] {machine speed steady: canary +1 % against the run's first canary (noise 2 %).}
1.15: yes [error, R] {Contended: the machine was busy during this epoch (got 99 % of 4 CPUs; others used 0.0 of its 8 CPUs; steal 0 %), so its time is not the device's alone.}
2.0: #1 cuda:0 @ box [, L] {#1 cuda:0 @ box / from measured.json}
2.1: baseline [, L]
2.2: cuda:0 [, L]
2.3: 4 [, R]
2.4: 3 [, R]
2.5: ⚠ 6.38 [error, R] {machine speed changed: canary +25 % against the run's first canary (noise 2 %), so this epoch's time mixes the device's speed with the machine's.}
2.6:  [, R]
2.7: 0.6667 [, R]
2.8: 0.5833 [, R]
2.9: 75.0 % [, R]
2.10: 157 [, R]
2.11: 1.3 [, R] {Mean CPU cores the run's processes kept busy (peak 1.5; the whole machine: mean 1.8) over 8 readings.}
2.12: 2.64 GiB [, R] {Peak resident memory of the run's processes (mean 812 MiB).}
2.13: 12.3 kJ [, R] {Energy of the epoch: nvml-energy-counter + rapl / GPU: 12.0 kJ (nvml-energy-counter) / CPU packages: 255 J (rapl)}
2.14: canary +25 % [error, R] {machine speed changed: canary +25 % against the run's first canary (noise 2 %), so this epoch's time mixes the device's speed with the machine's.}
2.15:  [, R] {Not contended: got 99 % of 4 CPUs; others used 0.0 of its 8 CPUs; steal 0 %.}
3.0: #2 CPU x2 @ box [muted, L] {#2 CPU x2 @ box / from sampled.json}
3.1: no: batch size [error, L] {The workload differs from the baseline's in: batch size}
3.2: cpu [muted, L]
3.3: 2 [muted, R]
3.4: 1 [muted, R]
3.5: 4.25 [muted, R]
3.6: yes [muted, R]
3.7: 2.0000 [muted, R]
3.8: 1.7500 [muted, R]
3.9: 25.0 % [muted, R]
3.10: 235 [muted, R]
3.11: 1.9 [muted, R] {Mean CPU cores the run's processes kept busy (peak 2.0; the whole machine: mean nan) over 4 readings.}
3.12: 296 MiB [muted, R] {Peak resident memory of the run's processes (mean 286 MiB).}
3.13: n/a [muted, R] {Energy not measured. / GPU: not measured: no NVIDIA driver / CPU packages: not measured: no RAPL counters}
3.14:  [muted, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
3.15:  [muted, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
4.0: #2 CPU x2 @ box [, L] {#2 CPU x2 @ box / from sampled.json}
4.1: no: batch size [error, L] {The workload differs from the baseline's in: batch size}
4.2: cpu [, L]
4.3: 2 [, R]
4.4: 2 [, R]
4.5: 4.25 [, R]
4.6:  [, R]
4.7: 1.0000 [, R]
4.8: 0.8750 [, R]
4.9: 50.0 % [, R]
4.10: 235 [, R]
4.11: 1.9 [, R] {Mean CPU cores the run's processes kept busy (peak 2.0; the whole machine: mean nan) over 4 readings.}
4.12: 296 MiB [, R] {Peak resident memory of the run's processes (mean 286 MiB).}
4.13: n/a [, R] {Energy not measured. / GPU: not measured: no NVIDIA driver / CPU packages: not measured: no RAPL counters}
4.14:  [, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
4.15:  [, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
5.0: #2 CPU x2 @ box [, L] {#2 CPU x2 @ box / from sampled.json}
5.1: no: batch size [error, L] {The workload differs from the baseline's in: batch size}
5.2: cpu [, L]
5.3: 2 [, R]
5.4: 3 [, R]
5.5: 6.38 [, R]
5.6:  [, R]
5.7: – [, R]
5.8: 0.5833 [, R]
5.9: 75.0 % [, R]
5.10: 157 [, R]
5.11: 1.9 [, R] {Mean CPU cores the run's processes kept busy (peak 2.0; the whole machine: mean nan) over 4 readings.}
5.12: 296 MiB [, R] {Peak resident memory of the run's processes (mean 286 MiB).}
5.13: n/a [, R] {Energy not measured. / GPU: not measured: no NVIDIA driver / CPU packages: not measured: no RAPL counters}
5.14:  [, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
5.15:  [, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
6.0: #3 CPU x1 @ old-box [muted, L] {#3 CPU x1 @ old-box / from older.json}
6.1: yes [muted, L]
6.2: cpu [muted, L]
6.3: 1 [muted, R]
6.4: 1 [muted, R]
6.5: 4.25 [muted, R]
6.6: yes [muted, R]
6.7: 2.0000 [muted, R]
6.8: 1.7500 [muted, R]
6.9: 25.0 % [muted, R]
6.10: 235 [muted, R]
6.11: – [muted, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
6.12: – [muted, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
6.13: – [muted, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
6.14:  [muted, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
6.15:  [muted, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
7.0: #3 CPU x1 @ old-box [, L] {#3 CPU x1 @ old-box / from older.json}
7.1: yes [, L]
7.2: cpu [, L]
7.3: 1 [, R]
7.4: 2 [, R]
7.5: 4.25 [, R]
7.6:  [, R]
7.7: 1.0000 [, R]
7.8: 0.8750 [, R]
7.9: 50.0 % [, R]
7.10: 235 [, R]
7.11: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
7.12: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
7.13: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
7.14:  [, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
7.15:  [, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
8.0: #3 CPU x1 @ old-box [, L] {#3 CPU x1 @ old-box / from older.json}
8.1: yes [, L]
8.2: cpu [, L]
8.3: 1 [, R]
8.4: 3 [, R]
8.5: 6.38 [, R]
8.6:  [, R]
8.7: 0.6667 [, R]
8.8: 0.5833 [, R]
8.9: 75.0 % [, R]
8.10: 157 [, R]
8.11: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
8.12: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
8.13: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
8.14:  [, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
8.15:  [, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
)table");
}

TEST(EpochTable, EachColumnShowsOnePerEpochCsvColumnAndItsHeaderSaysWhichInWhatUnit) {
    std::set<EpochColumn> keys;
    for (const EpochTableColumn &entry : kEpochTableColumns) {
        EXPECT_TRUE(keys.insert(entry.key).second) << entry.title << ": in the table once";
        EXPECT_EQ(&epochTableEntry(entry.key), &entry) << entry.title;
        ASSERT_NO_THROW(epochCsvColumn(entry.csvColumn)) << entry.title;
        const bool number =
            entry.display == CellDisplay::Fixed || entry.display == CellDisplay::Seconds ||
            entry.display == CellDisplay::Percent || entry.display == CellDisplay::Bytes ||
            entry.display == CellDisplay::Joules;
        EXPECT_EQ(epochCsvColumn(entry.csvColumn).isNumber(), number) << entry.title;
    }
    RunStore store;
    EpochTableModel model(store);
    ASSERT_EQ(model.columnCount(), kEpochTableShownColumns);
    const auto tip = [&model](EpochColumn column) {
        return model.headerData(epochTableSection(column), Qt::Horizontal, Qt::ToolTipRole)
            .toString();
    };
    EXPECT_EQ(tip(EpochColumn::Seconds), QStringLiteral("CSV column seconds (s)"));
    EXPECT_EQ(tip(EpochColumn::TestAccuracy),
              QStringLiteral("CSV column test_accuracy (fraction)"));
    EXPECT_EQ(tip(EpochColumn::CpuCores), QStringLiteral("CSV column process_cores (cores)"));
    EXPECT_EQ(tip(EpochColumn::PeakMemory), QStringLiteral("CSV column peak_rss_bytes (bytes)"));
    EXPECT_EQ(tip(EpochColumn::Run), QStringLiteral("CSV column run"));
    EXPECT_EQ(epochColumnKey(EpochColumn::Energy), QStringLiteral("energy_j"));
}

TEST(EpochTable, KeepsQtsModelContractAsRowsArriveAndVanish) {
    RunStore store;
    EpochTableModel model(store);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    store.addRecord(measuredRun(), QStringLiteral("measured.json"));
    model.refresh();
    EXPECT_EQ(model.rowCount(), 3);
    store.addRecord(runOn("cpu", "cpu", 1), QStringLiteral("cpu.json"));
    model.refresh();
    EXPECT_EQ(model.rowCount(), 6);
    store.clear();
    model.refresh();
    EXPECT_EQ(model.rowCount(), 0);
}

} // namespace
} // namespace devicebench
