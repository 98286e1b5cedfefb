// SPDX-License-Identifier: MIT
// The comparison picture for the command-line runner: a Qt-free header over the dashboard's
// PNG rendering (comparison_export.h), so that the runner's sources include no Qt. Part of the
// `ui_charts` library, which the runner links only in the full build (DEVICEBENCH_BUILD_UI=ON,
// where it defines DEVICEBENCH_HAVE_PNG).
#pragma once

#include <string>
#include <vector>

namespace devicebench {

class RunSet;
struct PublishedSet;

// Draws `runs` as the dashboard's "Export PNG" does (loss chart, the System view's panes when a
// run was sampled, stable-mean bars, caption; kExportWidth x kExportHeight pixels plus the
// panes' height) and writes it to `path` atomically. When the process has
// no QApplication, makes one on the offscreen platform for the call (Qt's own notices are
// dropped; critical messages still reach stderr); call it from the main thread. Returns false
// with `*error` (when not null) naming the path and the reason on failure. `published` (may be
// null): the published sets, drawn beside the runs as the dashboard draws them (hatched bars).
bool writeComparisonPng(const RunSet &runs, const std::string &path, std::string *error,
                        const std::vector<PublishedSet> *published = nullptr);

} // namespace devicebench
