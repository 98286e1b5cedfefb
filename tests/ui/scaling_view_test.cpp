// SPDX-License-Identifier: MIT
// The Scaling view: after importing a 1-rank and a 2-rank job's records, the
// chart draws images/s against world size with the ideal line and each point's efficiency,
// the table lists the points, and rank records are labelled as ranks, not drawn. Job records
// are made from a single-process example record (job_records.h): no training.
#include "charts/scaling_chart.h"
#include "job_records.h"
#include "panels/scaling_panel.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"

#include <QDir>
#include <QLineSeries>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QValueAxis>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace devicebench;
using test::exampleRecord;
using test::jobRecordFrom;
using test::rankRecordOf;

namespace {

// The records of a 1-rank and a 2-rank job (each with its rank records) as files in `dir`.
QStringList writeJobPair(const QTemporaryDir &dir) {
    const RunRecord single = exampleRecord("cpu-1-thread.json");
    std::vector<RunRecord> records;
    const RunRecord one = jobRecordFrom(single, 1, 1.0, 0.02);
    const RunRecord two = jobRecordFrom(single, 2, 1.8, 0.125);
    records = {one, rankRecordOf(one, 0), two, rankRecordOf(two, 0), rankRecordOf(two, 1)};
    QStringList paths;
    for (const RunRecord &r : records) {
        const QString path =
            QDir(dir.path()).filePath(QString::fromStdString(r.runId) + QStringLiteral(".json"));
        writeRunRecord(path.toStdString(), r);
        paths.append(path);
    }
    return paths;
}

} // namespace

TEST(ScalingView, ImportedOneAndTwoRankJobsDrawImagesPerSecondTheIdealAndTheEfficiency) {
    QTemporaryDir dir;
    MainWindow window(nullptr, test::scratchRunsFolder());
    ASSERT_EQ(window.importRecords(writeJobPair(dir), false).loaded, 5);
    window.redrawNow();

    const RunStore &store = window.store();
    EXPECT_EQ(store.run(0).label, QStringLiteral("#1 1 x CPU (1 thread), Gloo @ host-a"));
    EXPECT_EQ(store.run(1).label, QStringLiteral("#2 rank 0 of 1: CPU x1 @ host-a"));
    EXPECT_EQ(store.run(2).label, QStringLiteral("#3 2 x CPU (1 thread), Gloo @ host-a"));
    const double one = store.run(0).summary.imagesPerSecond;
    const double two = store.run(2).summary.imagesPerSecond;
    ASSERT_GT(one, 0.0);

    ScalingPanel *panel = window.scalingPanel();
    ASSERT_NE(panel, nullptr);
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->tabText(2), QStringLiteral("Scaling"));
    window.showScalingView();
    EXPECT_EQ(tabs->currentWidget(), panel);
    const ScalingChart *chart = panel->chart();
    ASSERT_EQ(chart->series().size(), 1U);
    ASSERT_EQ(chart->measuredLines().size(), 1);
    const QLineSeries *measured = chart->measuredLines().front();
    EXPECT_EQ(measured->name(), QStringLiteral("CPU (1 thread), Gloo · batch 64"));
    EXPECT_EQ(measured->points(), (QList<QPointF>{{1.0, one}, {2.0, two}}));
    EXPECT_TRUE(measured->pointsVisible());
    const QLineSeries *ideal = chart->idealLines().front();
    ASSERT_NE(ideal, nullptr);
    EXPECT_EQ(ideal->points(), (QList<QPointF>{{1.0, one}, {2.0, 2.0 * one}}));
    EXPECT_EQ(ideal->pen().style(), Qt::DashLine);
    EXPECT_EQ(ideal->pen().color(), measured->pen().color());
    EXPECT_EQ(chart->pointLabels(0),
              (QStringList{QStringLiteral("100 %"), QStringLiteral("90 %")}));

    // Axes from 0 with units, wide enough for both points and the ideal.
    EXPECT_EQ(chart->xAxis()->titleText(), QStringLiteral("world size (ranks)"));
    EXPECT_TRUE(chart->yAxis()->titleText().startsWith(QStringLiteral("images/s")));
    EXPECT_EQ(chart->xAxis()->min(), 0.0);
    EXPECT_GT(chart->xAxis()->max(), 2.0);
    EXPECT_EQ(chart->yAxis()->min(), 0.0);
    EXPECT_GT(chart->yAxis()->max(), 2.0 * one);

    const QString hover = chart->hoverText(0, 1);
    EXPECT_TRUE(hover.startsWith(QStringLiteral("#3 2 x CPU (1 thread), Gloo @ host-a")))
        << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("efficiency 90 %"))) << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("all-reduce: 12.5 %"))) << hover.toStdString();

    QTableWidget *table = panel->table();
    ASSERT_EQ(table->rowCount(), 2);
    EXPECT_EQ(table->item(1, ScalingPanel::WorldSize)->text(), QStringLiteral("2"));
    EXPECT_EQ(table->item(1, ScalingPanel::Efficiency)->text(), QStringLiteral("90 %"));
    EXPECT_EQ(table->item(1, ScalingPanel::AllReduce)->text(), QStringLiteral("12.5 %"));
    EXPECT_EQ(table->item(1, ScalingPanel::Run)->text(), store.run(2).label);
    EXPECT_TRUE(panel->note().startsWith(QStringLiteral("Efficiency:")));
}

TEST(ScalingView, WithoutAOneRankRunTheJobIsDrawnWithoutIdealOrEfficiencyAndTheNoteSaysWhy) {
    RunStore store;
    ScalingPanel panel(store);
    EXPECT_TRUE(panel.chart()->series().empty());
    EXPECT_TRUE(panel.note().startsWith(QStringLiteral("No data-parallel job in view")));

    store.addRecord(jobRecordFrom(exampleRecord("cpu-1-thread.json"), 2, 1.8), QStringLiteral("a"));
    panel.sync();
    ASSERT_EQ(panel.chart()->series().size(), 1U);
    EXPECT_EQ(panel.chart()->idealLines().front(), nullptr);
    EXPECT_EQ(panel.chart()->pointLabels(0), QStringList{QString()});
    EXPECT_EQ(panel.table()->item(0, ScalingPanel::Efficiency)->text(), QStringLiteral("n/a"));
    EXPECT_TRUE(panel.note().contains(QStringLiteral("no 1-rank run in view")));
}

TEST(ScalingView, TheChartIsRebuiltOnlyWhenWhatItDrawsChanges) {
    RunStore store;
    ScalingChart chart;
    EXPECT_TRUE(chart.sync(store)) << "the first sync draws";
    EXPECT_FALSE(chart.sync(store));
    const RunRecord single = exampleRecord("cpu-1-thread.json");
    store.addRecord(single, QStringLiteral("single"));
    EXPECT_FALSE(chart.sync(store)) << "a single device alone is not a scaling series";
    store.addRecord(jobRecordFrom(single, 2, 1.5), QStringLiteral("job"));
    EXPECT_TRUE(chart.sync(store));
    EXPECT_EQ(chart.pointLabels(0), (QStringList{QStringLiteral("100 %"), QStringLiteral("75 %")}));
    EXPECT_FALSE(chart.sync(store));
}

TEST(EfficiencyText, IsAWholePercentWithASpaceAndEmptyForNaN) {
    EXPECT_EQ(efficiencyText(0.874), QStringLiteral("87 %"));
    EXPECT_EQ(efficiencyText(1.0), QStringLiteral("100 %"));
    EXPECT_EQ(efficiencyText(std::nan("")), QString());
}
