// SPDX-License-Identifier: MIT
// The dashboard's side of a run's cost: the bar chart's measure (seconds, joules, money per
// stable epoch; bar_measure.h), the Prices dialog (prices_dialog.h) and its saved settings, the
// cost lines of the Compare box and the summary CSV's cost columns at the dashboard's prices.
#include "charts/charts.h"
#include "dialogs/prices_dialog.h"
#include "export/comparison_export.h"
#include "panels/charts_panel.h"
#include "store/run_store.h"
#include "test_support.h"
#include "window/main_window.h"

#include "csv_lines.h"

#include "devicebench/cost.h"
#include "devicebench/run_record.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QValueAxis>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

// A finished run on cuda:0, a `gpu` (9000 training and 1000 test images per epoch, the first epoch
// warm-up), whose epochs measured `joules` each with the GPU's energy counter; NaN: a run that
// measured none (sampled, the driver absent).
RunRecord gpuRun(const std::string &id, const std::string &gpu, const std::vector<double> &seconds,
                 double joules) {
    RunRecord r;
    r.runId = id;
    r.status = "finished";
    r.config.device = "cuda:0";
    r.config.epochs = static_cast<int>(seconds.size());
    r.config.warmupEpochs = 1;
    r.started.device = "cuda:0";
    r.started.trainImages = 9000;
    r.started.testImages = 1000;
    r.fingerprint.hostName = "host";
    r.data = {"", "synthetic", 9000, 1000, ""};
    r.fingerprint.gpus.push_back(GpuInfo{0, gpu, 7, 5, 16LL << 30});
    r.sampling.sampled = true;
    r.sampling.periodSeconds = 0.5;
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        EpochResult e;
        e.epoch = static_cast<int>(i) + 1;
        e.seconds = seconds[i];
        e.warmup = i == 0;
        e.imagesPerSecond = 9000.0 / seconds[i];
        e.system.sampled = true;
        e.system.gpuEnergy =
            std::isnan(joules) ? EnergyReading{EnergyMethod::None, kNotSampled, "no NVIDIA driver"}
                               : EnergyReading{EnergyMethod::NvmlEnergyCounter, joules, ""};
        r.epochs.push_back(e);
    }
    return r;
}

PriceTable testTable() {
    PriceTable table;
    table.prices = {{"Tesla T4", 0.36, "USD", "a page", "2026-03-31", ""},
                    {"A100", 1.8, "USD", "another page", "2026-05-07", ""},
                    {"cpu", 0.0, "", "your own machine", "", "already paid for"}};
    return table;
}

CostSettings pricedBy(const PriceTable &table) {
    CostSettings settings;
    settings.table = table;
    return settings;
}

// Two priced runs: #1 on a T4 (10 s, 700 J per stable epoch), #2 on an A100 (2 s, 500 J).
void addTwoPricedRuns(RunStore &store) {
    store.addRecord(gpuRun("t4", "Tesla T4", {12.0, 10.0, 10.0}, 700.0), QStringLiteral("a.json"));
    store.addRecord(gpuRun("a100", "NVIDIA A100-SXM4-40GB", {3.0, 2.0, 2.0}, 500.0),
                    QStringLiteral("b.json"));
    store.setCostSettings(pricedBy(testTable()));
}

} // namespace

TEST(BarMeasure, SwitchingTheMeasureChangesTheBarsFromSecondsToJoulesToMoney) {
    RunStore store;
    addTwoPricedRuns(store);
    SpeedChart chart;
    chart.setGeometry(0, 0, 900, 500);
    chart.sync(store);
    ASSERT_EQ(chart.barValues().size(), 2U);
    EXPECT_DOUBLE_EQ(chart.barValues()[0], 10.0);
    EXPECT_DOUBLE_EQ(chart.barValues()[1], 2.0);

    chart.setMeasure(BarMeasure::Joules);
    chart.sync(store);
    ASSERT_EQ(chart.barValues().size(), 2U);
    EXPECT_DOUBLE_EQ(chart.barValues()[0], 700.0);
    EXPECT_DOUBLE_EQ(chart.barValues()[1], 500.0);
    EXPECT_TRUE(chart.errorBars().empty()) << "no interval is derived for joules";
    auto *axis = qobject_cast<QValueAxis *>(chart.axes(Qt::Vertical).value(0));
    ASSERT_NE(axis, nullptr);
    EXPECT_EQ(axis->titleText(), QStringLiteral("joules per epoch"));
    EXPECT_TRUE(chart.title().contains(QStringLiteral("joules")));
    EXPECT_TRUE(chart.hoverText(0).contains(QStringLiteral("stable mean 700 J per epoch")))
        << chart.hoverText(0).toStdString();
    EXPECT_TRUE(chart.categories()[1].contains(QStringLiteral("speed-up 5.00x")))
        << "the speed-up stays one of time: " << chart.categories()[1].toStdString();

    chart.setMeasure(BarMeasure::Money);
    chart.sync(store);
    ASSERT_EQ(chart.barValues().size(), 2U);
    EXPECT_DOUBLE_EQ(chart.barValues()[0], 0.36 * 10.0 / 3600.0);
    EXPECT_DOUBLE_EQ(chart.barValues()[1], 1.8 * 2.0 / 3600.0);
    EXPECT_EQ(axis->titleText(), QStringLiteral("USD per epoch"));
    EXPECT_TRUE(chart.hoverText(0).startsWith(QStringLiteral(
        "#1 Tesla T4 @ host [synthetic]\ncost: 0.001 USD per stable epoch\n0.01 USD per "
        "10-epoch run, 10000000 images per USD\nat 0.36 USD/h (Tesla T4; a page, 2026-03-31)\n")))
        << chart.hoverText(0).toStdString();
    EXPECT_TRUE(chart.footerLines().isEmpty());

    chart.setMeasure(BarMeasure::Seconds);
    chart.sync(store);
    EXPECT_EQ(chart.barValues(), (std::vector<double>{10.0, 2.0}));
    EXPECT_EQ(axis->titleText(), QStringLiteral("seconds per epoch"));
}

TEST(BarMeasure, ARunWithoutEnergyIsLeftOutWithAFooterNoteNamingItAndWhy) {
    RunStore store;
    addTwoPricedRuns(store);
    const int without =
        store
            .run(store.addRecord(gpuRun("h200", "NVIDIA H200", {3.0, 1.0, 1.0}, std::nan("")),
                                 QStringLiteral("c.json")))
            .id;
    SpeedChart chart;
    chart.setGeometry(0, 0, 900, 500);
    chart.setMeasure(BarMeasure::Joules);
    chart.sync(store);
    EXPECT_EQ(chart.barValues(), (std::vector<double>{700.0, 500.0})) << "not a bar at zero";
    EXPECT_EQ(chart.barOfRun(without), -1);
    ASSERT_EQ(chart.footerLines().size(), 1);
    EXPECT_EQ(
        chart.footerLines()[0],
        QStringLiteral(
            "#3 NVIDIA H200 @ host [synthetic]: no bar: no energy measured: no NVIDIA driver"));

    chart.setMeasure(BarMeasure::Money); // an H200 has no price in this table
    chart.sync(store);
    EXPECT_EQ(chart.barValues().size(), 2U);
    ASSERT_EQ(chart.footerLines().size(), 1);
    EXPECT_EQ(chart.footerLines()[0],
              QStringLiteral("#3 NVIDIA H200 @ host [synthetic]: no bar: no price for NVIDIA H200 "
                             "(Settings > Prices)"));

    chart.setMeasure(BarMeasure::Seconds); // every run has seconds: no note
    chart.sync(store);
    EXPECT_EQ(chart.barValues().size(), 3U);
    EXPECT_EQ(chart.barOfRun(without), 2);
    EXPECT_TRUE(chart.footerLines().isEmpty());
}

TEST(BarMeasure, AFreeRunAndARunInAnotherCurrencyGetNoMoneyBar) {
    RunStore store;
    addTwoPricedRuns(store);
    PriceTable table = testTable();
    table.prices[1].currency = "EUR"; // the A100's price in euros
    store.setCostSettings(pricedBy(table));
    RunRecord cpu = gpuRun("cpu", "Tesla T4", {3.0, 1.0, 1.0}, 100.0);
    cpu.config.device = cpu.started.device = "cpu";
    store.addRecord(cpu, QStringLiteral("c.json"));
    SpeedChart chart;
    chart.setMeasure(BarMeasure::Money);
    chart.sync(store);
    EXPECT_EQ(chart.barValues().size(), 1U);
    ASSERT_EQ(chart.footerLines().size(), 2);
    EXPECT_TRUE(
        chart.footerLines()[0].endsWith(QStringLiteral("no bar: priced in EUR, the bars show USD")))
        << chart.footerLines()[0].toStdString();
    EXPECT_TRUE(chart.footerLines()[1].contains(QStringLiteral("no bar: free: 0/h (cpu")))
        << chart.footerLines()[1].toStdString();
}

TEST(BarMeasure, IsAChartControlRememberedWithTheOtherViewSettings) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        auto *combo = window.findChild<QComboBox *>(QStringLiteral("barMeasureCombo"));
        ASSERT_NE(combo, nullptr);
        EXPECT_EQ(window.speedChart()->measure(), BarMeasure::Seconds) << "the default";
        combo->setCurrentIndex(combo->findData(QStringLiteral("joules")));
        EXPECT_EQ(window.speedChart()->measure(), BarMeasure::Joules) << "at once";
        EXPECT_EQ(window.chartsPanel()->chartOptions().barMeasure, BarMeasure::Joules)
            << "what Export PNG draws";
        window.saveSettings(settings);
    }
    EXPECT_EQ(settings.value(QStringLiteral("charts/barMeasure")).toString(),
              QStringLiteral("joules"));
    MainWindow again(nullptr, test::scratchRunsFolder());
    again.restoreSettings(settings);
    EXPECT_EQ(again.speedChart()->measure(), BarMeasure::Joules);
}

TEST(PricesDialog, RefusesANegativeOrNonNumericPriceNamingTheRowAndField) {
    PricesDialog dialog(pricedBy(testTable()), testTable(), QString());
    ASSERT_EQ(dialog.table()->rowCount(), 3);
    dialog.table()->item(1, PricesDialog::PriceColumn)->setText(QStringLiteral("-1"));
    dialog.accept();
    EXPECT_NE(dialog.result(), QDialog::Accepted);
    EXPECT_TRUE(dialog.errorLabel()->isVisibleTo(&dialog));
    EXPECT_EQ(dialog.errorLabel()->text(),
              QStringLiteral("Row 2, price per hour: -1 is negative (a price is 0 or more)"));

    dialog.table()->item(1, PricesDialog::PriceColumn)->setText(QStringLiteral("1.8"));
    dialog.table()->item(2, PricesDialog::PriceColumn)->setText(QStringLiteral("cheap"));
    dialog.accept();
    EXPECT_NE(dialog.result(), QDialog::Accepted);
    EXPECT_EQ(dialog.errorLabel()->text(),
              QStringLiteral("Row 3, price per hour: 'cheap' is not a number"));

    dialog.table()->item(2, PricesDialog::PriceColumn)->setText(QStringLiteral("0"));
    dialog.perKwhEdit()->setText(QStringLiteral("-0.3"));
    dialog.accept();
    EXPECT_NE(dialog.result(), QDialog::Accepted);
    EXPECT_TRUE(dialog.errorLabel()->text().startsWith(QStringLiteral("Price per kWh: ")));

    dialog.perKwhEdit()->setText(QStringLiteral("0.3"));
    dialog.accept();
    EXPECT_EQ(dialog.result(), QDialog::Accepted);
}

TEST(PricesDialog, StartsFromTheShippedTableAddsRemovesAndRestoresRows) {
    CostSettings mine;
    mine.table.prices = {{"H200", 4.0, "USD", "my offer", "today", ""}};
    PricesDialog dialog(mine, testTable(), QStringLiteral("a note"));
    EXPECT_EQ(dialog.table()->rowCount(), 1) << "the user's table, not the shipped one";
    const int row = dialog.addRow();
    dialog.table()->item(row, PricesDialog::MatchColumn)->setText(QStringLiteral("L4"));
    dialog.table()->item(row, PricesDialog::PriceColumn)->setText(QStringLiteral("0.8"));
    QString problem;
    const std::optional<CostSettings> two = dialog.settings(&problem);
    ASSERT_TRUE(two.has_value()) << problem.toStdString();
    ASSERT_EQ(two->table.prices.size(), 2U);
    EXPECT_EQ(two->table.prices[1].match, "L4");
    EXPECT_DOUBLE_EQ(two->table.prices[1].perHour, 0.8);

    dialog.table()->item(row, PricesDialog::MatchColumn)->setText(QString());
    EXPECT_FALSE(dialog.settings(&problem).has_value());
    EXPECT_EQ(problem, QStringLiteral("Row 2, device: empty (part of a GPU's name, or cpu)"));

    dialog.findChild<QPushButton *>(QStringLiteral("restorePricesButton"))->click();
    const std::optional<CostSettings> restored = dialog.settings(&problem);
    ASSERT_TRUE(restored.has_value());
    EXPECT_EQ(priceTableJson(restored->table), priceTableJson(testTable()));
    EXPECT_EQ(restored->table.prices[2].note, "already paid for") << "a row's note is kept";
    EXPECT_TRUE(std::isnan(restored->perKwh));
}

TEST(PriceSettings, RoundTripThroughQSettingsAndKeepNoCopyOfTheShippedTable) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    CostSettings shipped = pricedBy(testTable());
    savePriceSettings(settings, shipped, testTable());
    EXPECT_FALSE(settings.contains(QStringLiteral("prices/table")))
        << "a newer shipped table must reach a user who never edited theirs";

    CostSettings mine = pricedBy(testTable());
    mine.table.prices[0].perHour = 0.5;
    mine.perKwh = 0.3;
    mine.currency = "EUR";
    savePriceSettings(settings, mine, testTable());
    const CostSettings back = restorePriceSettings(settings, testTable());
    EXPECT_EQ(priceTableJson(back.table), priceTableJson(mine.table));
    EXPECT_DOUBLE_EQ(back.perKwh, 0.3);
    EXPECT_EQ(back.currency, "EUR");

    settings.setValue(QStringLiteral("prices/table"), QStringLiteral("{\"format\": 1}"));
    QString problem;
    const CostSettings broken = restorePriceSettings(settings, testTable(), &problem);
    EXPECT_EQ(priceTableJson(broken.table), priceTableJson(testTable())) << "the shipped one";
    EXPECT_TRUE(problem.contains(QStringLiteral("prices/table"))) << problem.toStdString();
}

TEST(PricesDialog, OkChangesTheStoreSoTheBarsTheCompareBoxAndTheSettingsFollow) {
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.json"));
    writeRunRecord(a.toStdString(), gpuRun("t4", "Tesla T4", {12.0, 10.0, 10.0}, 700.0));
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    {
        MainWindow window(nullptr, test::scratchRunsFolder());
        window.setShippedPrices(testTable(), QString());
        ASSERT_EQ(window.importRecords({a}, false).loaded, 1);
        window.chartsPanel()->setChartOptions([&] {
            ChartOptions options = window.chartsPanel()->chartOptions();
            options.barMeasure = BarMeasure::Money;
            return options;
        }());
        ASSERT_EQ(window.speedChart()->barValues().size(), 1U);
        EXPECT_DOUBLE_EQ(window.speedChart()->barValues()[0], 0.001);
        auto *costs = window.findChild<QLabel *>(QStringLiteral("costLabel"));
        ASSERT_NE(costs, nullptr);
        EXPECT_EQ(costs->text(), QStringLiteral("#1 cost: 0.001 USD per stable epoch, 0.01 USD "
                                                "per 10-epoch run, 10000000 images per USD"));
        EXPECT_TRUE(costs->toolTip().contains(QStringLiteral("at 0.36 USD/h (Tesla T4; a page")));

        PricesDialog *dialog = window.openPricesDialog();
        dialog->table()->item(0, PricesDialog::PriceColumn)->setText(QStringLiteral("0.72"));
        dialog->accept();
        EXPECT_DOUBLE_EQ(window.store().run(0).cost.perEpoch, 0.002);
        EXPECT_DOUBLE_EQ(window.speedChart()->barValues()[0], 0.002) << "redrawn at once";
        EXPECT_TRUE(costs->text().startsWith(QStringLiteral("#1 cost: 0.002 USD")));
        window.saveSettings(settings);
    }
    MainWindow again(nullptr, test::scratchRunsFolder());
    again.setShippedPrices(testTable(), QString());
    again.restoreSettings(settings);
    EXPECT_DOUBLE_EQ(again.store().costSettings().table.prices[0].perHour, 0.72);
}

TEST(CostCsv, TheSummaryHasTheCostFilledWhenAPriceIsSet) {
    RunStore store;
    store.addRecord(gpuRun("t4", "Tesla T4", {12.0, 10.0, 10.0}, 700.0), QStringLiteral("a.json"));
    const auto cell = [&](const char *column) {
        const QStringList lines = summaryCsv(store).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const std::vector<std::string> header =
            devicebench::testing::fieldsOf(lines[0].toStdString());
        const std::vector<std::string> row = devicebench::testing::fieldsOf(lines[1].toStdString());
        const auto at = std::find(header.begin(), header.end(), column);
        EXPECT_NE(at, header.end()) << column;
        return at == header.end() ? std::string()
                                  : row[static_cast<std::size_t>(at - header.begin())];
    };
    EXPECT_EQ(cell("cost_per_epoch"), "n/a") << "no prices yet";
    store.setCostSettings(pricedBy(testTable()));
    EXPECT_EQ(cell("cost_basis"), "hourly");
    EXPECT_EQ(cell("currency"), "USD");
    EXPECT_NEAR(std::stod(cell("cost_per_epoch")), 0.001, 1e-9);
    EXPECT_NEAR(std::stod(cell("price_per_hour")), 0.36, 1e-9);
}
