// SPDX-License-Identifier: MIT
#include "comparison_export.h"
#include "epoch_table.h"
#include "run_store.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

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
    store->addRun(1, config, info);
    for (int n = 1; n <= 2; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = 1.5 / n;
        e.warmup = n == 1;
        e.trainLoss = 2.0;
        e.testLoss = 1.5;
        e.testAccuracy = 0.125;
        e.imagesPerSecond = 110 / e.seconds;
        store->addEpoch(1, e);
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
    EXPECT_EQ(lines[0], QStringLiteral("run,device,threads,epoch,seconds,warmup,train_loss,"
                                       "test_loss,test_accuracy,images_per_s,data,status"));
    EXPECT_TRUE(lines[1].startsWith(QStringLiteral("\"#1 cuda:0 Tesla, T4\",cuda:0,1,1,1.5000,1,")))
        << lines[1].toStdString();
    EXPECT_TRUE(lines[2].contains(QStringLiteral(",0.125000,")));
    EXPECT_TRUE(lines[2].endsWith(QStringLiteral(",cifar-10,running")));
}

TEST(CsvExport, TableAndCsvShareOneCellSource) {
    QObject owner;
    RunStore *store = storeWithOneRun(&owner, "Tesla T4");
    EpochTableModel model(*store);
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), kEpochTableShownColumns);
    const RunRecord &run = store->run(0);
    for (int c = 0; c < model.columnCount(); ++c) {
        const auto column = static_cast<EpochColumn>(c);
        EXPECT_EQ(model.data(model.index(1, c)).toString(),
                  epochCell(run, run.epochs[1], column, CellFormat::Display));
    }
    EXPECT_EQ(model.data(model.index(0, static_cast<int>(EpochColumn::Warmup))).toString(),
              QStringLiteral("yes"));
    EXPECT_EQ(model.data(model.index(0, static_cast<int>(EpochColumn::TestAccuracy))).toString(),
              QStringLiteral("12.5 %"));
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
    store->addRun(2, config, info);
    EXPECT_TRUE(comparisonCaption(*store).contains(
        QStringLiteral("synthetic data: times are real, accuracy is meaningless")));
    EXPECT_TRUE(comparisonCaption(*store).startsWith(QStringLiteral("DeviceBench ")));
}

} // namespace
} // namespace devicebench
