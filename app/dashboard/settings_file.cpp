// SPDX-License-Identifier: MIT
// The settings file's state: see settings_file.h.
#include "settings_file.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>

namespace devicebench {

QString settingsFileProblem(const QSettings &settings) {
    const QString path = settings.fileName();
    const QFileInfo file(path);
    if (!file.exists() && !file.isSymLink())
        return {};
    const QString defaults = QStringLiteral("; the window starts with the default settings");
    if (file.isDir())
        return QStringLiteral("Settings file %1 exists but cannot be read (a folder, not a "
                              "file)%2.")
            .arg(path, defaults);
    if (settings.status() == QSettings::AccessError || !file.isReadable())
        return QStringLiteral("Settings file %1 exists but cannot be read%2.").arg(path, defaults);
    if (settings.status() != QSettings::FormatError)
        return {};
    const QString copy = path + QStringLiteral(".malformed");
    QFile::remove(copy);
    const bool kept = QFile::copy(path, copy);
    return QStringLiteral("Settings file %1 is malformed (not an INI file Qt can read)%2%3.")
        .arg(path, defaults,
             kept ? QStringLiteral("; the file was kept as %1").arg(copy)
                  : QStringLiteral("; it could not be copied aside and is rewritten on close"));
}

} // namespace devicebench
