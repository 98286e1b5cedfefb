// SPDX-License-Identifier: MIT
#include "export/png_export.h"

#include "export/comparison_export.h"
#include "export/sweep_export.h"
#include "export/sweep_png.h"
#include "store/run_store.h"

#include <QApplication>

#include <cstdio>
#include <memory>

namespace devicebench {
namespace {

// The PNG is drawn with Qt Charts, which needs a QApplication (a QGuiApplication is not
// enough); without a display, on the offscreen platform. Null when one exists already.
std::unique_ptr<QApplication> makeOffscreenApplication() {
    if (QApplication::instance() != nullptr)
        return nullptr;
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int qtArgc = 1;
    static char qtArg0[] = "devicebench-cli";
    static char *qtArgv[] = {qtArg0, nullptr};
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &msg) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::fprintf(stderr, "Qt: %s\n", qPrintable(msg));
    });
    return std::make_unique<QApplication>(qtArgc, qtArgv);
}

} // namespace

bool writeComparisonPng(const RunSet &runs, const std::string &path, std::string *error,
                        const std::vector<PublishedSet> *published) {
    const std::unique_ptr<QApplication> app = makeOffscreenApplication(); // for this call only
    RunStore store;
    store.assign(runs);
    if (published != nullptr)
        store.setPublished(*published);
    QString message;
    if (exportComparisonPng(store, QString::fromStdString(path), &message, ChartOptions(),
                            systemPanesFor(store)))
        return true;
    if (error != nullptr)
        *error = message.toStdString();
    return false;
}

bool writeSweepPng(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel,
                   const std::string &path, std::string *error) {
    const std::unique_ptr<QApplication> app = makeOffscreenApplication(); // for this call only
    QString message;
    if (exportSweepPng(records, QString::fromStdString(baselineLabel), QString::fromStdString(path),
                       &message))
        return true;
    if (error != nullptr)
        *error = message.toStdString();
    return false;
}

} // namespace devicebench
