// SPDX-License-Identifier: MIT
// The sweep picture for the command-line runner (`devicebench-cli sweep --png`): a Qt-free
// header over the dashboard's rendering of it (sweep_export.h), so that the runner's sources
// include no Qt. Part of the `ui_charts` library, which the runner links only in the full build
// (DEVICEBENCH_BUILD_UI=ON, where it defines DEVICEBENCH_HAVE_PNG).
#pragma once

#include "devicebench/sweep.h"

#include <string>
#include <vector>

namespace devicebench {

// Draws `records` as the dashboard's Sweep view exports them (renderSweep, sweep_export.h: a
// title with the grid and the machine, images/s against batch size, the speed-up heat map
// against the device labelled `baselineLabel` (SweepDevice::label(); empty: the first device of
// the records), the cells left out, a caption; kSweepExportWidth pixels wide) and writes it to
// `path` as PNG, atomically. When the process has no QApplication, makes one on the offscreen
// platform for the call (as writeComparisonPng, png_export.h); call it from the main thread.
// Returns false with `*error` (when not null) naming the path and the reason on failure.
bool writeSweepPng(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel,
                   const std::string &path, std::string *error);

} // namespace devicebench
