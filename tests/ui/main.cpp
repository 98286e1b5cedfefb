// SPDX-License-Identifier: MIT
// GoogleTest main for the Qt tests: one QApplication on the offscreen platform, whatever the
// environment says, so the tests run the same on a desktop, over SSH and in CI; its one screen
// is a desktop's 1920 x 1200 on every Qt (the plugin's own default differs: 800 x 600 in 6.4,
// 800 x 800 in 6.8, and Qt 6.8 fits a restored window into the screen).
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QFont>
#include <QStandardPaths>
#include <QTemporaryDir>

int main(int argc, char **argv) {
    QTemporaryDir config;
    const QString screens = config.filePath(QStringLiteral("offscreen.json"));
    QFile file(screens);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(R"({"screens": [{"name": "OffscreenScreen", "x": 0, "y": 0, "width": 1920,
                       "height": 1200, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})") < 0)
        qFatal("tests/ui: cannot write the offscreen screen's settings into %s",
               qPrintable(screens));
    file.close();
    const QByteArray platform = QByteArray("offscreen:configfile=").append(screens.toUtf8());
    qputenv("QT_QPA_PLATFORM", platform);
    qputenv("QT_FONT_DPI", "96"); // deterministic pixel metrics
    QApplication app(argc, argv);
    // A window left with its default runs folder must not touch the user's data location.
    QStandardPaths::setTestModeEnabled(true);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
