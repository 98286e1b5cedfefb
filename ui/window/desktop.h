// SPDX-License-Identifier: MIT
// Desktop conventions of the dashboard: where its log goes (QStandardPaths), the log itself
// (spdlog: stderr and a rotating file); the appearance's short forms are theme/appearance.h.
// The other places: run records in
// QStandardPaths::AppDataLocation + "/runs" (MainWindow::defaultRunsFolder), the data set in
// GenericCacheLocation + "/devicebench" (data_location.h), settings and window geometry
// through QSettings (MainWindow::saveSettings / restoreSettings).
#pragma once

#include <QString>

#include <cstddef>

namespace devicebench {

// The dashboard's log folder. The XDG spec puts logs in the state location
// ($XDG_STATE_HOME, ~/.local/state), which Qt gives from 6.7 on (QStandardPaths::StateLocation);
// Debian 12's Qt 6.4 has none, so there it is QStandardPaths::CacheLocation
// (~/.cache/<organisation>/<application>). In both cases + "/logs".
QString defaultLogFolder();

// The log file in that folder, and its rotation: at kLogFileBytes the file is renamed .1
// (.1 to .2, ...) and at most kLogFiles old files are kept.
inline constexpr const char *kLogFileName = "devicebench.log";
inline constexpr std::size_t kLogFileBytes = 1024 * 1024;
inline constexpr std::size_t kLogFiles = 3;

// The levels --log-level accepts (the same names as devicebench-cli's): trace, debug, info,
// warn, error, off.
bool isLogLevelName(const QString &name);

// Makes spdlog's default logger ("devicebench", which the engine logs to) write messages of
// `level` (isLogLevelName) and above to stderr and to `folder`/kLogFileName, rotating; the
// folder is made if missing. An empty `folder` means stderr only. When the file cannot be
// opened the logger still writes to stderr, *error (if given) says why, and false is returned.
bool setUpLogging(const QString &level, const QString &folder, QString *error = nullptr);

// Sends Qt's own messages (qWarning, qCritical, ...) to spdlog's default logger as well.
void routeQtMessagesToLog();

} // namespace devicebench
