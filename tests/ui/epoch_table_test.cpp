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

// The headers, then one line per cell: "row header: text [colour, L] {tooltip}".
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
            text += std::to_string(r) + " " +
                    model.headerData(c, Qt::Horizontal).toString().toStdString() + ": " +
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
0 run: #1 cuda:0 @ box [muted, L] {#1 cuda:0 @ box / from measured.json}
0 comparable: baseline [muted, L]
0 device: cuda:0 [muted, L]
0 threads: 4 [muted, R]
0 epoch: 1 [muted, R]
0 seconds: 4.25 [muted, R] {All-reduce (gradients and test sums, c10d): 0.500 s of the epoch's 4.250 s.}
0 warm-up: yes [muted, R]
0 train loss: 2.0000 [muted, R]
0 test loss: 1.7500 [muted, R]
0 test accuracy: 25.0 % [muted, R]
0 images/s: 235 [muted, R]
0 CPU cores: 1.3 [muted, R] {Mean CPU cores the run's processes kept busy (peak 1.5; the whole machine: mean 1.8) over 8 readings.}
0 peak memory: 900 MiB [muted, R] {Peak memory of the run's processes, resident set size, shared pages counted in each process (mean 812 MiB).}
0 energy: 4170 J [muted, R] {Energy of the epoch: nvml-energy-counter + rapl / GPU: 4000 J (nvml-energy-counter) / CPU packages: 170 J (rapl)}
0 machine speed:  [muted, R] {machine speed steady: canary +1 % against the run's first canary (noise 2 %).}
0 contended:  [muted, R] {Not contended: got 99 % of 4 CPUs; others used 0.0 of its 8 CPUs; steal 0 %.}
1 run: #1 cuda:0 @ box [, L] {#1 cuda:0 @ box / from measured.json}
1 comparable: baseline [, L]
1 device: cuda:0 [, L]
1 threads: 4 [, R]
1 epoch: 2 [, R]
1 seconds: ⚠ 4.25 [error, R] {Contended: the machine was busy during this epoch (got 99 % of 4 CPUs; others used 0.0 of its 8 CPUs; steal 0 %), so its time is not the device's alone.}
1 warm-up:  [, R]
1 train loss: 1.0000 [, R]
1 test loss: 0.8750 [, R]
1 test accuracy: 50.0 % [, R]
1 images/s: 235 [, R]
1 CPU cores: 1.3 [, R] {Mean CPU cores the run's processes kept busy (peak 1.5; the whole machine: mean 1.8) over 8 readings.}
1 peak memory: 1.76 GiB [, R] {Peak memory of the run's processes, resident set size, shared pages counted in each process (mean 812 MiB).}
1 energy: 8170 J [, R] {Energy of the epoch: nvml-energy-counter + rapl / GPU: 8000 J (nvml-energy-counter) / CPU packages: 170 J (rapl)}
1 machine speed:  [, R] {machine speed steady: canary +1 % against the run's first canary (noise 2 %).}
1 contended: yes [error, R] {Contended: the machine was busy during this epoch (got 99 % of 4 CPUs; others used 0.0 of its 8 CPUs; steal 0 %), so its time is not the device's alone.}
2 run: #1 cuda:0 @ box [, L] {#1 cuda:0 @ box / from measured.json}
2 comparable: baseline [, L]
2 device: cuda:0 [, L]
2 threads: 4 [, R]
2 epoch: 3 [, R]
2 seconds: ⚠ 6.38 [error, R] {machine speed changed: canary +25 % against the run's first canary (noise 2 %), so this epoch's time mixes the device's speed with the machine's.}
2 warm-up:  [, R]
2 train loss: 0.6667 [, R]
2 test loss: 0.5833 [, R]
2 test accuracy: 75.0 % [, R]
2 images/s: 157 [, R]
2 CPU cores: 1.3 [, R] {Mean CPU cores the run's processes kept busy (peak 1.5; the whole machine: mean 1.8) over 8 readings.}
2 peak memory: 2.64 GiB [, R] {Peak memory of the run's processes, resident set size, shared pages counted in each process (mean 812 MiB).}
2 energy: 12.3 kJ [, R] {Energy of the epoch: nvml-energy-counter + rapl / GPU: 12.0 kJ (nvml-energy-counter) / CPU packages: 255 J (rapl)}
2 machine speed: canary +25 % [error, R] {machine speed changed: canary +25 % against the run's first canary (noise 2 %), so this epoch's time mixes the device's speed with the machine's.}
2 contended:  [, R] {Not contended: got 99 % of 4 CPUs; others used 0.0 of its 8 CPUs; steal 0 %.}
3 run: #2 CPU x2 @ box · batch 32 [muted, L] {#2 CPU x2 @ box · batch 32 / from sampled.json}
3 comparable: no: batch size [error, L] {The workload differs from the baseline's in: batch size}
3 device: cpu [muted, L]
3 threads: 2 [muted, R]
3 epoch: 1 [muted, R]
3 seconds: 4.25 [muted, R]
3 warm-up: yes [muted, R]
3 train loss: 2.0000 [muted, R]
3 test loss: 1.7500 [muted, R]
3 test accuracy: 25.0 % [muted, R]
3 images/s: 235 [muted, R]
3 CPU cores: 1.9 [muted, R] {Mean CPU cores the run's processes kept busy (peak 2.0; the whole machine: mean nan) over 4 readings.}
3 peak memory: 296 MiB [muted, R] {Peak memory of the run's processes, resident set size, shared pages counted in each process (mean 286 MiB).}
3 energy: n/a [muted, R] {Energy not measured. / GPU: not measured: no NVIDIA driver / CPU packages: not measured: no RAPL counters}
3 machine speed:  [muted, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
3 contended:  [muted, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
4 run: #2 CPU x2 @ box · batch 32 [, L] {#2 CPU x2 @ box · batch 32 / from sampled.json}
4 comparable: no: batch size [error, L] {The workload differs from the baseline's in: batch size}
4 device: cpu [, L]
4 threads: 2 [, R]
4 epoch: 2 [, R]
4 seconds: 4.25 [, R]
4 warm-up:  [, R]
4 train loss: 1.0000 [, R]
4 test loss: 0.8750 [, R]
4 test accuracy: 50.0 % [, R]
4 images/s: 235 [, R]
4 CPU cores: 1.9 [, R] {Mean CPU cores the run's processes kept busy (peak 2.0; the whole machine: mean nan) over 4 readings.}
4 peak memory: 296 MiB [, R] {Peak memory of the run's processes, resident set size, shared pages counted in each process (mean 286 MiB).}
4 energy: n/a [, R] {Energy not measured. / GPU: not measured: no NVIDIA driver / CPU packages: not measured: no RAPL counters}
4 machine speed:  [, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
4 contended:  [, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
5 run: #2 CPU x2 @ box · batch 32 [, L] {#2 CPU x2 @ box · batch 32 / from sampled.json}
5 comparable: no: batch size [error, L] {The workload differs from the baseline's in: batch size}
5 device: cpu [, L]
5 threads: 2 [, R]
5 epoch: 3 [, R]
5 seconds: 6.38 [, R]
5 warm-up:  [, R]
5 train loss: – [, R]
5 test loss: 0.5833 [, R]
5 test accuracy: 75.0 % [, R]
5 images/s: 157 [, R]
5 CPU cores: 1.9 [, R] {Mean CPU cores the run's processes kept busy (peak 2.0; the whole machine: mean nan) over 4 readings.}
5 peak memory: 296 MiB [, R] {Peak memory of the run's processes, resident set size, shared pages counted in each process (mean 286 MiB).}
5 energy: n/a [, R] {Energy not measured. / GPU: not measured: no NVIDIA driver / CPU packages: not measured: no RAPL counters}
5 machine speed:  [, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
5 contended:  [, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
6 run: #3 CPU x1 @ old-box [muted, L] {#3 CPU x1 @ old-box / from older.json}
6 comparable: yes [muted, L]
6 device: cpu [muted, L]
6 threads: 1 [muted, R]
6 epoch: 1 [muted, R]
6 seconds: 4.25 [muted, R]
6 warm-up: yes [muted, R]
6 train loss: 2.0000 [muted, R]
6 test loss: 1.7500 [muted, R]
6 test accuracy: 25.0 % [muted, R]
6 images/s: 235 [muted, R]
6 CPU cores: – [muted, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
6 peak memory: – [muted, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
6 energy: – [muted, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
6 machine speed:  [muted, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
6 contended:  [muted, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
7 run: #3 CPU x1 @ old-box [, L] {#3 CPU x1 @ old-box / from older.json}
7 comparable: yes [, L]
7 device: cpu [, L]
7 threads: 1 [, R]
7 epoch: 2 [, R]
7 seconds: 4.25 [, R]
7 warm-up:  [, R]
7 train loss: 1.0000 [, R]
7 test loss: 0.8750 [, R]
7 test accuracy: 50.0 % [, R]
7 images/s: 235 [, R]
7 CPU cores: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
7 peak memory: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
7 energy: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
7 machine speed:  [, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
7 contended:  [, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
8 run: #3 CPU x1 @ old-box [, L] {#3 CPU x1 @ old-box / from older.json}
8 comparable: yes [, L]
8 device: cpu [, L]
8 threads: 1 [, R]
8 epoch: 3 [, R]
8 seconds: 6.38 [, R]
8 warm-up:  [, R]
8 train loss: 0.6667 [, R]
8 test loss: 0.5833 [, R]
8 test accuracy: 75.0 % [, R]
8 images/s: 157 [, R]
8 CPU cores: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
8 peak memory: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
8 energy: – [, R] {Not sampled: the record was written before DeviceBench sampled the machine during a run.}
8 machine speed:  [, R] {No canary: the record was written before DeviceBench timed the canary after every epoch.}
8 contended:  [, R] {Not measured: the record was written before DeviceBench measured what each epoch got from the machine.}
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
