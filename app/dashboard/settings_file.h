// SPDX-License-Identifier: MIT
// The dashboard's settings file (QSettings: ~/.config/DeviceBench/DeviceBench.conf) told apart
// as the other files the product reads are (docs/ROBUSTNESS.md, "Broken is not missing"):
// absent (a first start), unreadable, or present but malformed.
#pragma once

#include <QString>

class QSettings;

namespace devicebench {

// "" when `settings`' file is absent or was read; else one sentence naming the file, what is
// wrong, that the window starts with the default settings, and, for a malformed file, where its
// copy was kept (FILE.malformed: the window rewrites FILE when it closes).
QString settingsFileProblem(const QSettings &settings);

} // namespace devicebench
