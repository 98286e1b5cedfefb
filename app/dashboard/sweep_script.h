// SPDX-License-Identifier: MIT
// The dashboard's scripted Sweep view options, for demonstrations and the screenshots in docs/.
// They act through the Sweep view's own functions, as its buttons would.
#pragma once

class QCommandLineParser;

namespace devicebench {

class MainWindow;

// Adds --sweep-folder DIR, --sweep-baseline LABEL and --sweep-export-png FILE to `parser`.
void addSweepScriptOptions(QCommandLineParser &parser);

// With --sweep-folder: opens the Sweep view on it, then applies --sweep-baseline and
// --sweep-export-png. False, with a message on stderr, when a file was skipped, the baseline
// names no device or the picture cannot be written; true, doing nothing, without
// --sweep-folder (the options as checkCommandLineSettings checked them, before any run).
bool applySweepScript(const QCommandLineParser &parser, MainWindow &window);

} // namespace devicebench
