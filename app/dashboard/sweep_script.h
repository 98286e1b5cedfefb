// SPDX-License-Identifier: MIT
// The dashboard's scripted Sweep view options (for demonstrations and the screenshots in
// docs/): a sweep folder to show, the heat map's baseline and the sweep picture to export. They
// act through the Sweep view's own functions, as "Open folder…", the baseline box and "Export
// PNG…" would.
#pragma once

class QCommandLineParser;

namespace devicebench {

class MainWindow;

// Adds --sweep-folder DIR, --sweep-baseline LABEL and --sweep-export-png FILE to `parser`.
void addSweepScriptOptions(QCommandLineParser &parser);

// With --sweep-folder: opens the Sweep view on that folder's cell records (SweepPanel::
// openFolder), then sets --sweep-baseline and writes --sweep-export-png. Returns false, with a
// message on stderr, when a file of the folder was skipped, the baseline names no device of
// the records, the picture cannot be written, or --sweep-baseline / --sweep-export-png come
// without --sweep-folder. Does nothing (true) without these options.
bool applySweepScript(const QCommandLineParser &parser, MainWindow &window);

} // namespace devicebench
