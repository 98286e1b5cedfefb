// SPDX-License-Identifier: MIT
#include "csv_cells.h"
#include "export/comparison_export.h"
#include "panels/epoch_table.h"
#include "store/run_store.h"
#include "test_support.h"

#include "devicebench/csv_export.h"
#include "devicebench/run_set.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <map>
#include <string>

namespace devicebench {
namespace {

RunStore *storeWithOneRun(QObject *parent, const std::string &deviceName) {
    auto *store = new RunStore(parent);
    RunConfig config;
    config.epochs = 2;
    config.warmupEpochs = 1;
    RunStarted info;
    info.device = "cuda:0";
    info.deviceName = deviceName;
    info.threads = 1;
    info.trainImages = 100;
    info.testImages = 10;
    info.stepsPerEpoch = 2;
    test::addLiveRun(*store, 1, config, info);
    for (int n = 1; n <= 2; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = 1.5 / n;
        e.warmup = n == 1;
        e.trainLoss = 2.0;
        e.testLoss = 1.5;
        e.testAccuracy = 0.125;
        e.imagesPerSecond = 110 / e.seconds;
        store->liveRun(1)->onEpochFinished(e);
    }
    return store;
}

TEST(CsvExport, QuotesALabelContainingACommaOrQuote) {
    EXPECT_EQ(csvField(QStringLiteral("plain")), QStringLiteral("plain"));
    EXPECT_EQ(csvField(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
    EXPECT_EQ(csvField(QStringLiteral("say \"hi\"")), QStringLiteral("\"say \"\"hi\"\"\""));

    QObject owner;
    RunStore *store = storeWithOneRun(&owner, "Tesla, T4");
    const QStringList lines = comparisonCsv(*store).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 3);
    // The engine's per-epoch CSV (its columns pinned in compare_tests' CsvColumns.*).
    EXPECT_EQ(lines[0], QString::fromStdString(epochCsv(RunSet())).trimmed());
    // The label names the run's GPU as the fingerprint reports it; quoted for its comma.
    store->setLabel(1, QStringLiteral("#1 Tesla, T4 @ host"));
    const QStringList relabelled =
        comparisonCsv(*store).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    EXPECT_TRUE(
        relabelled[1].startsWith(QStringLiteral("\"#1 Tesla, T4 @ host\",cuda:0,1,1,1.5000,1,")))
        << relabelled[1].toStdString();
    EXPECT_TRUE(lines[2].contains(QStringLiteral(",0.125000,")));
    // From the data on: the run's state, host and comparability, the model, the precision; every
    // measurement of the machine (load, phases, canary, sampler, test pass) empty, as not
    // measured; elapsed_s the epochs' seconds so far (1.5 + 0.75).
    const QStringList header = lines[0].split(QLatin1Char(','));
    const QStringList cells = lines[2].split(QLatin1Char(','));
    ASSERT_EQ(cells.size(), header.size()) << lines[2].toStdString();
    const QString host = QString::fromStdString(store->run(0).record.fingerprint.hostName);
    const std::map<QString, QString> filled{
        {QStringLiteral("data"), QStringLiteral("cifar-10")},
        {QStringLiteral("status"), QStringLiteral("running")},
        {QStringLiteral("host"), csvField(host)},
        {QStringLiteral("comparable"), QStringLiteral("1")},
        {QStringLiteral("model"), QStringLiteral("small-cnn")},
        {QStringLiteral("image_size"), QStringLiteral("32")},
        {QStringLiteral("precision"), QStringLiteral("fp32")},
        {QStringLiteral("elapsed_s"), QStringLiteral("2.2500")}};
    for (qsizetype c = header.indexOf(QStringLiteral("data")); c < header.size(); ++c) {
        const auto it = filled.find(header[c]);
        EXPECT_EQ(cells[c], it == filled.end() ? QString() : it->second) << header[c].toStdString();
    }
}

TEST(CsvExport, TableAndCsvShareOneCellSource) {
    QObject owner;
    RunStore *store = storeWithOneRun(&owner, "Tesla T4");
    EpochTableModel model(*store);
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), kEpochTableShownColumns);
    const StoredRun &run = store->run(0);
    for (int c = 0; c < model.columnCount(); ++c) {
        const auto column = epochTableColumn(c);
        EXPECT_EQ(model.data(model.index(1, c)).toString(),
                  epochCell(run, run.record.epochs[1], column));
    }
    EXPECT_EQ(epochTableColumn(1), EpochColumn::Comparable);
    EXPECT_EQ(model.data(model.index(1, 1)).toString(), QStringLiteral("baseline"));
    // The table shows the exported CSV's values, for reading.
    const EpochResult &first = run.record.epochs[0];
    EXPECT_EQ(model.data(model.index(0, epochTableSection(EpochColumn::Warmup))).toString(),
              QStringLiteral("yes"));
    EXPECT_EQ(test::csvCell(run, first, "warmup"), QStringLiteral("1"));
    EXPECT_EQ(model.data(model.index(0, epochTableSection(EpochColumn::TestAccuracy))).toString(),
              QStringLiteral("12.5 %"));
    EXPECT_EQ(test::csvCell(run, first, "test_accuracy"), QStringLiteral("0.125000"));
    EXPECT_EQ(model.data(model.index(0, epochTableSection(EpochColumn::Seconds))).toString(),
              QStringLiteral("1.50"));
    EXPECT_EQ(test::csvCell(run, first, "seconds"), QStringLiteral("1.5000"));
}

TEST(Export, UnwritablePathFailsWithAMessageNamingThePathAndLeavesNoFile) {
    QObject owner;
    RunStore *store = storeWithOneRun(&owner, "Tesla T4");
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString missingDir = dir.filePath(QStringLiteral("no/such/dir"));
    const QStringList paths = {QString(missingDir + QStringLiteral("/x.png")),
                               QStringLiteral("/proc/forbidden/x.png")};
    for (const QString &path : paths) {
        QString error;
        EXPECT_FALSE(exportComparisonPng(*store, path, &error));
        EXPECT_TRUE(error.contains(QDir::toNativeSeparators(path))) << error.toStdString();
        EXPECT_GT(error.size(), path.size() + 10)
            << "names the OS error too: " << error.toStdString();
        EXPECT_FALSE(QFileInfo::exists(path));

        QString csvPath = path;
        csvPath.replace(QStringLiteral(".png"), QStringLiteral(".csv"));
        error.clear();
        EXPECT_FALSE(exportComparisonCsv(*store, csvPath, &error));
        EXPECT_TRUE(error.contains(QDir::toNativeSeparators(csvPath))) << error.toStdString();
        EXPECT_FALSE(QFileInfo::exists(csvPath));
    }
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("no"))));
    // A null error pointer is allowed.
    EXPECT_FALSE(exportComparisonCsv(*store, missingDir + QStringLiteral("/y.csv"), nullptr));
}

TEST(Export, CaptionWarnsAboutSyntheticData) {
    QObject owner;
    RunStore *store = storeWithOneRun(&owner, "Tesla T4");
    EXPECT_FALSE(comparisonCaption(*store).contains(QStringLiteral("synthetic")));
    RunConfig config;
    config.synthetic = true;
    RunStarted info;
    info.device = "cpu";
    info.synthetic = true;
    test::addLiveRun(*store, 2, config, info);
    EXPECT_TRUE(comparisonCaption(*store).contains(
        QStringLiteral("synthetic data: times are real, accuracy is meaningless")));
    EXPECT_TRUE(comparisonCaption(*store).startsWith(QStringLiteral("DeviceBench ")));
}

// Splits one CSV line (RFC 4180 quotes) into fields.
QStringList csvFields(const QString &line) {
    QStringList fields;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar ch = line[i];
        if (quoted) {
            if (ch == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += ch;
                ++i;
            } else if (ch == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += ch;
            }
        } else if (ch == QLatin1Char('"')) {
            quoted = true;
        } else if (ch == QLatin1Char(',')) {
            fields.append(field);
            field.clear();
        } else {
            field += ch;
        }
    }
    fields.append(field);
    return fields;
}

TEST(SummaryCsv, HasOneRowPerRunWithStatisticsSpeedUpComparabilityAndFingerprint) {
    QObject owner;
    RunStore *store = storeWithOneRun(&owner, "Tesla T4");
    RunConfig config;
    config.epochs = 2;
    config.warmupEpochs = 1;
    config.batchSize = 32; // differs from run 1's 64
    RunStarted info;
    info.device = "cpu";
    info.threads = 2;
    info.trainImages = 100;
    info.testImages = 10;
    test::addLiveRun(*store, 2, config, info);
    for (int n = 1; n <= 2; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = 3.0 / n;
        e.warmup = n == 1;
        store->liveRun(2)->onEpochFinished(e);
    }

    const QStringList lines = summaryCsv(*store).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 3) << "header + one row per run";
    const QStringList header = csvFields(lines[0]);
    ASSERT_EQ(header.size(), summaryCsvColumnCount());
    const QStringList expected = {
        QStringLiteral("run"),           QStringLiteral("device"),
        QStringLiteral("host"),          QStringLiteral("threads"),
        QStringLiteral("status"),        QStringLiteral("epochs"),
        QStringLiteral("warmup_epochs"), QStringLiteral("mean_all_s"),
        QStringLiteral("stable_mean_s"), QStringLiteral("median_s"),
        QStringLiteral("stddev_s"),      QStringLiteral("min_s"),
        QStringLiteral("max_s"),         QStringLiteral("cv"),
        QStringLiteral("ci95_low_s"),    QStringLiteral("ci95_high_s"),
        QStringLiteral("images_per_s"),  QStringLiteral("speedup"),
        QStringLiteral("speedup_low"),   QStringLiteral("speedup_high"),
        QStringLiteral("baseline"),      QStringLiteral("comparable"),
        QStringLiteral("differences"),   QStringLiteral("max_test_loss_diff")};
    EXPECT_EQ(header.mid(0, expected.size()), expected);
    for (const char *name : {"cpu_model", "logical_cores", "cpu_quota", "affinity", "blas",
                             "libtorch", "cuda_built", "gpu_name", "gpu_cc", "app_version", "os"})
        EXPECT_TRUE(header.contains(QString::fromLatin1(name))) << name;

    const QStringList first = csvFields(lines[1]);
    const QStringList second = csvFields(lines[2]);
    ASSERT_EQ(first.size(), summaryCsvColumnCount());
    ASSERT_EQ(second.size(), summaryCsvColumnCount());
    const auto col = [&header](const char *name) {
        return static_cast<int>(header.indexOf(QString::fromLatin1(name)));
    };
    // Run 2 (stable mean 1.5 s) is the slowest, so the baseline; run 1's stable mean is 0.75 s.
    EXPECT_EQ(first[col("stable_mean_s")].toDouble(), 0.75);
    EXPECT_EQ(second[col("stable_mean_s")].toDouble(), 1.5);
    EXPECT_EQ(first[col("speedup")].toDouble(), 2.0);
    EXPECT_EQ(first[col("baseline")], store->run(1).label);
    EXPECT_EQ(first[col("comparable")], QStringLiteral("0"));
    EXPECT_EQ(first[col("differences")], QStringLiteral("batch size"));
    EXPECT_EQ(second[col("comparable")], QStringLiteral("1"));
    EXPECT_EQ(second[col("device")], QStringLiteral("cpu"));
    EXPECT_EQ(second[col("threads")], QStringLiteral("2"));
    EXPECT_EQ(second[col("intra_op_threads")], QStringLiteral("2"));
    EXPECT_EQ(second[col("epochs")], QStringLiteral("2"));
    EXPECT_EQ(second[col("warmup_epochs")], QStringLiteral("1"));
    EXPECT_EQ(second[col("ci95_low_s")], QStringLiteral("n/a")) << "one stable epoch";

    // The export writes both files.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("cmp.csv"));
    QString error;
    ASSERT_TRUE(exportComparisonCsv(*store, csv, &error)) << error.toStdString();
    EXPECT_EQ(summaryCsvPath(csv), dir.filePath(QStringLiteral("cmp-summary.csv")));
    EXPECT_TRUE(QFileInfo::exists(dir.filePath(QStringLiteral("cmp-summary.csv"))));
}

} // namespace
} // namespace devicebench
