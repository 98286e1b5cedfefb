// SPDX-License-Identifier: MIT
#include "sweep_script.h"

#include "charts/sweep_heat_map.h"
#include "sweep/sweep_panel.h"
#include "window/main_window.h"

#include <QCommandLineParser>
#include <QStringList>

#include <cstdio>

namespace devicebench {

namespace {

const QString kSweepFolder = QStringLiteral("sweep-folder");
const QString kSweepBaseline = QStringLiteral("sweep-baseline");
const QString kSweepExportPng = QStringLiteral("sweep-export-png");

void complain(const QString &message) {
    std::fprintf(stderr, "devicebench: %s\n", qPrintable(message));
}

} // namespace

void addSweepScriptOptions(QCommandLineParser &parser) {
    parser.addOptions({
        {kSweepFolder,
         QStringLiteral("Open the Sweep view on the cell records of the sweep folder DIR."),
         QStringLiteral("DIR")},
        {kSweepBaseline,
         QStringLiteral("With --sweep-folder: the speed-up heat map's baseline device, as the "
                        "records label it (e.g. \"cpu x1\")."),
         QStringLiteral("LABEL")},
        {kSweepExportPng,
         QStringLiteral("With --sweep-folder: export the sweep picture (chart and heat map) to "
                        "FILE."),
         QStringLiteral("FILE")},
    });
}

bool applySweepScript(const QCommandLineParser &parser, MainWindow &window) {
    if (!parser.isSet(kSweepFolder))
        return true; // the others without it were refused before (checkCommandLineSettings)
    bool ok = true;
    SweepPanel *panel = window.sweepPanel();
    window.showSweepView();
    QStringList errors;
    if (!panel->openFolder(parser.value(kSweepFolder), &errors)) {
        for (const QString &error : errors)
            complain(QStringLiteral("--sweep-folder: ") + error);
        ok = false;
    }
    if (parser.isSet(kSweepBaseline) && !panel->setBaseline(parser.value(kSweepBaseline))) {
        complain(QStringLiteral("--sweep-baseline: no device '%1' in the sweep (devices: %2)")
                     .arg(parser.value(kSweepBaseline),
                          sweepDeviceLabels(panel->records()).join(QStringLiteral(", "))));
        ok = false;
    }
    QString error;
    if (parser.isSet(kSweepExportPng) && !panel->exportPng(parser.value(kSweepExportPng), &error)) {
        complain(error);
        ok = false;
    }
    return ok;
}

} // namespace devicebench
