// SPDX-License-Identifier: MIT
#include "cli_support.h"

#include <QApplication>

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace devicebench::cli {

std::string fixed(double value, int decimals) {
    if (!std::isfinite(value)) {
        return "–";
    }
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << value;
    return s.str();
}

std::unique_ptr<QApplication> makeOffscreenApplication() {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int qtArgc = 1;
    static char qtArg0[] = "devicebench-cli";
    static char *qtArgv[] = {qtArg0, nullptr};
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &msg) {
        if (type == QtCriticalMsg || type == QtFatalMsg) {
            std::fprintf(stderr, "Qt: %s\n", qPrintable(msg));
        }
    });
    return std::make_unique<QApplication>(qtArgc, qtArgv);
}

} // namespace devicebench::cli
