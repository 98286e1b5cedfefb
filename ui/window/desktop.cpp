// SPDX-License-Identifier: MIT
#include "window/desktop.h"

#include "devicebench/version.h"

#include <QDir>
#include <QStandardPaths>
#include <QStringList>
#include <QtGlobal>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <exception>
#include <memory>
#include <vector>

namespace devicebench {

QString defaultLogFolder() {
#if QT_VERSION >= QT_VERSION_CHECK(6, 7, 0)
    const auto location = QStandardPaths::StateLocation;
#else
    const auto location = QStandardPaths::CacheLocation; // Qt < 6.7 has no state location
#endif
    return QStandardPaths::writableLocation(location) + QStringLiteral("/logs");
}

bool isLogLevelName(const QString &name) {
    static const QStringList kNames = {QStringLiteral("trace"), QStringLiteral("debug"),
                                       QStringLiteral("info"),  QStringLiteral("warn"),
                                       QStringLiteral("error"), QStringLiteral("off")};
    return kNames.contains(name);
}

bool setUpLogging(const QString &level, const QString &folder, QString *error) {
    std::vector<spdlog::sink_ptr> sinks{std::make_shared<spdlog::sinks::stderr_color_sink_mt>()};
    QString problem;
    const QString path = QDir(folder).filePath(QString::fromUtf8(kLogFileName));
    if (!folder.isEmpty()) {
        if (!QDir().mkpath(folder)) {
            problem =
                QDir::toNativeSeparators(folder) + QStringLiteral(": cannot create the folder");
        } else {
            try {
                sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
                    QDir::toNativeSeparators(path).toStdString(), kLogFileBytes, kLogFiles));
            } catch (const std::exception &e) {
                problem = QString::fromUtf8(e.what());
            }
        }
    }
    auto logger = std::make_shared<spdlog::logger>("devicebench", sinks.begin(), sinks.end());
    logger->set_level(isLogLevelName(level) ? spdlog::level::from_str(level.toStdString())
                                            : spdlog::level::warn);
    // Few lines are written (no per-step logging), so each one reaches the file at once and a
    // crash loses none.
    logger->flush_on(spdlog::level::trace);
    spdlog::set_default_logger(logger);
    if (!problem.isEmpty()) {
        spdlog::warn("no log file, logging to stderr only: {}", problem.toStdString());
        if (error != nullptr)
            *error = problem;
        return false;
    }
    if (!folder.isEmpty())
        spdlog::info("DeviceBench {} logging at level {} to {}", kVersion, level.toStdString(),
                     QDir::toNativeSeparators(path).toStdString());
    return true;
}

namespace {

void qtMessageToLog(QtMsgType type, const QMessageLogContext & /*context*/,
                    const QString &message) {
    spdlog::level::level_enum level = spdlog::level::info;
    switch (type) {
    case QtDebugMsg:
        level = spdlog::level::debug;
        break;
    case QtInfoMsg:
        level = spdlog::level::info;
        break;
    case QtWarningMsg:
        level = spdlog::level::warn;
        break;
    case QtCriticalMsg:
        level = spdlog::level::err;
        break;
    case QtFatalMsg:
        level = spdlog::level::critical;
        break;
    }
    spdlog::log(level, "qt: {}", message.toStdString());
    if (type == QtFatalMsg) {
        spdlog::default_logger()->flush();
        std::abort();
    }
}

} // namespace

void routeQtMessagesToLog() { qInstallMessageHandler(qtMessageToLog); }

} // namespace devicebench
