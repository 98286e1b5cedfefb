// SPDX-License-Identifier: MIT
// FetchDialog ("Get CIFAR-10…" / "Open archive…"): the engine's fetch on a worker thread,
// its outcome back on the GUI thread, Cancel and closing mid-download leaving nothing.
#include "cifar_archive.h"
#include "cifar_files.h"
#include "dialogs/fetch_dialog.h"
#include "http_server.h"
#include "run_controller.h"
#include "test_support.h"
#include "window/main_window.h"
#include "wiring_support.h"

#include "devicebench/data_location.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace devicebench;
using namespace devicebench::testing;

namespace {

class FetchDialogTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new TempDir("devicebench-ui-fetch-archives");
        s_good = new fs::path(s_dir->path() / "cifar-10-binary.tar.gz");
        writeTarGz(*s_good, cifarArchiveItems());
        s_md5 = new QString(QString::fromStdString(md5OfFile(s_good->string())));
    }
    static void TearDownTestSuite() {
        delete s_md5;
        delete s_good;
        delete s_dir;
    }
    void SetUp() override {
        wireFetchDialog(dialog, fetch); // as the dashboard's composition root does
        dialog.setTargetDir(QString::fromStdString(target().string()));
        dialog.setExpectedMd5(*s_md5);
    }
    fs::path target() const { return work.path() / "data"; }

    static TempDir *s_dir;
    static fs::path *s_good;
    static QString *s_md5;

    TempDir work{"devicebench-ui-fetch"};
    LocalHttpServer server;
    FetchController fetch; // the job; outlives the dialog
    FetchDialog dialog;
};

TempDir *FetchDialogTest::s_dir = nullptr;
fs::path *FetchDialogTest::s_good = nullptr;
QString *FetchDialogTest::s_md5 = nullptr;

TEST_F(FetchDialogTest, OpenArchiveUnpacksOnTheWorkerAndAnnouncesTheFolder) {
    QSignalSpy ready(&dialog, &FetchDialog::dataReady);
    ASSERT_TRUE(dialog.startFromArchive(QString::fromStdString(s_good->string())));
    EXPECT_TRUE(dialog.isBusy());
    EXPECT_FALSE(dialog.findChild<QPushButton *>(QStringLiteral("startButton"))->isEnabled());
    EXPECT_TRUE(dialog.findChild<QPushButton *>(QStringLiteral("cancelButton"))->isEnabled());
    EXPECT_FALSE(dialog.startDownload()) << "one job at a time";
    ASSERT_TRUE(ready.wait(60000));
    const QString dir = ready.at(0).at(0).toString();
    EXPECT_EQ(fs::path(dir.toStdString()), target() / "cifar-10-batches-bin");
    EXPECT_EQ(checkCifar10Folder(dir.toStdString()), "");
    EXPECT_FALSE(dialog.isBusy());
    EXPECT_EQ(dialog.lastResult().status, FetchStatus::Ok);
    EXPECT_EQ(dialog.findChild<QProgressBar *>(QStringLiteral("progressBar"))->value(),
              dialog.findChild<QProgressBar *>(QStringLiteral("progressBar"))->maximum());
}

TEST_F(FetchDialogTest, ServerErrorIsShownAndNoFolderIsAnnounced) {
    server.serve("/error", {500, "oops"});
    dialog.setUrl(QString::fromStdString(server.url("/error")));
    QSignalSpy ended(&dialog, &FetchDialog::fetchEnded);
    QSignalSpy ready(&dialog, &FetchDialog::dataReady);
    ASSERT_TRUE(dialog.startDownload());
    ASSERT_TRUE(ended.wait(60000));
    EXPECT_EQ(ready.count(), 0);
    EXPECT_EQ(dialog.lastResult().status, FetchStatus::Failed);
    EXPECT_TRUE(dialog.findChild<QLabel *>(QStringLiteral("resultLabel"))
                    ->text()
                    .contains(QStringLiteral("HTTP 500")));
    EXPECT_FALSE(fs::exists(target()));
}

TEST_F(FetchDialogTest, CancelMidDownloadShowsProgressThenLeavesNothing) {
    LocalHttpServer::Response slow;
    slow.body = readWholeFile(*s_good);
    slow.chunkBytes = 2048;
    slow.pauseMs = 50;
    server.serve("/slow.tar.gz", slow);
    dialog.setUrl(QString::fromStdString(server.url("/slow.tar.gz")));
    QSignalSpy ended(&dialog, &FetchDialog::fetchEnded);
    ASSERT_TRUE(dialog.startDownload());
    auto *detail = dialog.findChild<QLabel *>(QStringLiteral("detailLabel"));
    // Wait (bounded) for the first progress text: bytes of the known total.
    for (int i = 0; i < 600 && !detail->text().contains(QStringLiteral(" of ")); ++i) {
        QTest::qWait(50);
    }
    EXPECT_TRUE(detail->text().contains(QStringLiteral(" of "))) << detail->text().toStdString();
    dialog.findChild<QPushButton *>(QStringLiteral("cancelButton"))->click();
    ASSERT_TRUE(ended.wait(60000));
    EXPECT_EQ(dialog.lastResult().status, FetchStatus::Cancelled);
    EXPECT_FALSE(fs::exists(target()));
    EXPECT_TRUE(dialog.findChild<QPushButton *>(QStringLiteral("startButton"))->isEnabled());
}

TEST_F(FetchDialogTest, TheWindowTakesTheFetchedFolderAsItsDataFolder) {
    RunController controller(test::FakeTrainer{});
    MainWindow window(nullptr, test::scratchRunsFolder());
    test::wire(window, controller);
    auto *synthetic = window.findChild<QCheckBox *>(QStringLiteral("syntheticCheck"));
    synthetic->setChecked(true);
    FetchDialog *windowDialog = window.openFetchDialog();
    windowDialog->setTargetDir(QString::fromStdString(target().string()));
    windowDialog->setExpectedMd5(*s_md5);
    // "Open archive…" after choosing a file: the same dialog, started on that archive.
    EXPECT_EQ(window.openFetchDialog(QString::fromStdString(s_good->string())), windowDialog);
    ASSERT_TRUE(test::waitUntil([&] { return !windowDialog->isBusy(); }, 60000));
    EXPECT_EQ(windowDialog->lastResult().status, FetchStatus::Ok)
        << windowDialog->lastResult().message;
    EXPECT_EQ(window.findChild<QLineEdit *>(QStringLiteral("dataDirEdit"))->text().toStdString(),
              (target() / "cifar-10-batches-bin").string());
    EXPECT_FALSE(synthetic->isChecked());
}

} // namespace
