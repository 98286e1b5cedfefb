// SPDX-License-Identifier: MIT
// A busy machine in the dashboard: an epoch flagged contended is marked in the epoch
// table (its seconds and its own column, in the error colour, with a tooltip saying what it
// got) and the bar of a run with a contended stable epoch is cross-hatched with a note.
#include "charts/charts.h"
#include "csv_cells.h"
#include "panels/epoch_table.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "record_builder.h"

#include <gtest/gtest.h>

#include <QBrush>
#include <QGuiApplication>

#include <algorithm>
#include <string>
#include <vector>

namespace devicebench {
namespace {

// A finished CPU run of `seconds.size()` epochs (first one warm-up); epochs listed in
// `contended` were measured on a busy machine, the others had their CPU; `measured` false: a
// record from before the load was measured.
RunRecord runOf(const std::string &id, const std::vector<double> &seconds,
                const std::vector<int> &contended, bool measured = true) {
    RunRecord r = testing::finishedCpuRun(id, seconds);
    for (EpochResult &e : r.epochs) {
        const bool busy = std::find(contended.begin(), contended.end(), e.epoch) != contended.end();
        e.load.measured = measured;
        e.load.contended = measured && busy;
        e.load.cpuShare = busy ? 0.25 : 0.97;
        e.load.otherCpus = busy ? 0.7 : 0.0;
        e.load.stealFraction = 0.0;
        e.load.cpus = 1;
    }
    return r;
}

int sectionOf(EpochColumn column) {
    for (int section = 0; section < kEpochTableShownColumns; ++section) {
        if (epochTableColumn(section) == column)
            return section;
    }
    return -1;
}

TEST(BusyMachine, AContendedEpochIsMarkedInTheEpochTableWithWhatItGot) {
    RunStore store;
    store.addRecord(runOf("a", {1.0, 1.0, 3.0}, {3}), QStringLiteral("a.json"));
    store.addRecord(runOf("old", {1.0, 1.0}, {}, false), QStringLiteral("old.json"));
    EpochTableModel table(store);
    table.refresh();
    ASSERT_EQ(table.rowCount(), 5);
    const int seconds = sectionOf(EpochColumn::Seconds);
    const int contended = sectionOf(EpochColumn::Contended);
    ASSERT_EQ(contended, kEpochTableShownColumns - 1) << "the last column shown";
    EXPECT_EQ(table.headerData(contended, Qt::Horizontal).toString(), QStringLiteral("contended"));

    EXPECT_EQ(table.data(table.index(2, seconds)).toString(), QStringLiteral("⚠ 3.00"));
    EXPECT_EQ(table.data(table.index(2, contended)).toString(), QStringLiteral("yes"));
    const QColor error =
        theme::colour(theme::Role::ErrorText, theme::themeOf(QGuiApplication::palette()));
    EXPECT_EQ(table.data(table.index(2, seconds), Qt::ForegroundRole).value<QBrush>().color(),
              error);
    EXPECT_EQ(table.data(table.index(2, seconds), Qt::ToolTipRole).toString(),
              QStringLiteral("Contended: the machine was busy during this epoch (got 25 % of 1 "
                             "CPU; others used 0.7 of its 1 CPU; steal 0 %), so its time is not "
                             "the device's alone."));

    EXPECT_EQ(table.data(table.index(1, seconds)).toString(), QStringLiteral("1.00"));
    EXPECT_EQ(table.data(table.index(1, contended)).toString(), QString());
    EXPECT_TRUE(table.data(table.index(1, contended), Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Not contended: got 97 %")));
    EXPECT_TRUE(table.data(table.index(4, contended), Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Not measured")))
        << "an older record: unknown, not clean";

    // The same epochs in the exported CSV.
    const StoredRun &run = store.run(0);
    EXPECT_EQ(test::csvCell(run, run.record.epochs[2], "contended"), QStringLiteral("1"));
    EXPECT_EQ(test::csvCell(run, run.record.epochs[1], "contended"), QStringLiteral("0"));
    EXPECT_EQ(test::csvCell(run, run.record.epochs[2], "seconds"), QStringLiteral("3.0000"))
        << "no mark inside a CSV number";
}

TEST(BusyMachine, TheBarOfARunWithAContendedStableEpochIsCrossHatchedWithANote) {
    RunStore store;
    store.addRecord(runOf("clean", {1.0, 1.0, 1.0}, {}), QStringLiteral("clean.json"));
    store.addRecord(runOf("busy", {1.0, 1.0, 3.0, 2.5}, {3, 4}), QStringLiteral("busy.json"));
    store.addRecord(runOf("warm", {3.0, 1.0, 1.0}, {1}), QStringLiteral("warm.json"));
    SpeedChart bars;
    bars.setRunsOneByOne(true); // repeats of one configuration: a group otherwise
    bars.sync(store);
    ASSERT_EQ(bars.categories().size(), 3);
    EXPECT_FALSE(bars.barCrossHatched(0));
    EXPECT_FALSE(bars.categories()[0].contains(QStringLiteral("busy machine")));
    EXPECT_TRUE(bars.barCrossHatched(1));
    EXPECT_TRUE(bars.barHatched(1));
    EXPECT_TRUE(bars.categories()[1].contains(QStringLiteral("⚠ busy machine:<br>epochs 3, 4 "
                                                             "contended")))
        << bars.categories()[1].toStdString();
    EXPECT_FALSE(bars.barCrossHatched(2)) << "only its warm-up epoch was contended";

    store.setWarmupEpochs(3); // of the busy run, only epoch 4 is stable now
    bars.sync(store);
    EXPECT_TRUE(
        bars.categories()[1].contains(QStringLiteral("⚠ busy machine:<br>epoch 4 contended")))
        << bars.categories()[1].toStdString();
}

TEST(BusyMachine, ManyContendedEpochsAreCountedUnderTheBarAndListedInItsHover) {
    RunStore store;
    store.addRecord(runOf("busy", {1.0, 2.0, 2.0, 2.0, 2.0}, {2, 3, 4, 5}),
                    QStringLiteral("busy.json"));
    store.setWarmupEpochs(1);
    SpeedChart bars;
    bars.sync(store);
    ASSERT_EQ(bars.categories().size(), 1);
    EXPECT_TRUE(bars.categories()[0].contains(
        QStringLiteral("⚠ busy machine:<br>4 stable epochs contended")))
        << bars.categories()[0].toStdString();
    EXPECT_TRUE(
        bars.hoverText(0).contains(QStringLiteral("⚠ busy machine: epochs 2, 3, 4, 5 contended")))
        << bars.hoverText(0).toStdString();
}

} // namespace
TEST(EpochTableAllReduce, ADataParallelEpochsSecondsSayHowMuchWasAllReduce) {
    RunStore store;
    RunRecord job = runOf("job", {1.0, 2.0}, {2});
    job.epochs[0].allReduceSeconds = 0.125;
    job.epochs[1].allReduceSeconds = 0.25;
    store.addRecord(job, QStringLiteral("job.json"));
    store.addRecord(runOf("single", {1.0, 1.0}, {}), QStringLiteral("single.json"));
    EpochTableModel table(store);
    table.refresh();
    const int seconds = sectionOf(EpochColumn::Seconds);
    EXPECT_EQ(table.data(table.index(0, seconds), Qt::ToolTipRole).toString(),
              QStringLiteral("All-reduce (gradients and test sums, c10d): 0.125 s of the epoch's "
                             "1.000 s."));
    EXPECT_TRUE(table.data(table.index(1, seconds), Qt::ToolTipRole)
                    .toString()
                    .endsWith(QStringLiteral("All-reduce (gradients and test sums, c10d): 0.250 "
                                             "s of the epoch's 2.000 s.")))
        << "after the busy machine's note";
    EXPECT_FALSE(table.data(table.index(2, seconds), Qt::ToolTipRole).isValid())
        << "a single-process epoch has no all-reduce";
}

} // namespace devicebench
