// SPDX-License-Identifier: MIT
// GoogleTest main for the Qt tests: one QApplication on the offscreen platform, whatever the
// environment says, so the tests run the same on a desktop, over SSH and in CI.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFont>
#include <QStandardPaths>

int main(int argc, char **argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_FONT_DPI", "96"); // deterministic pixel metrics
    QApplication app(argc, argv);
    // A window left with its default runs folder must not touch the user's data location.
    QStandardPaths::setTestModeEnabled(true);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
