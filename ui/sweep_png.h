// SPDX-License-Identifier: MIT
// The sweep picture for `devicebench-cli sweep --png`: a Qt-free header (the runner's sources
// include no Qt), part of the `ui_export` library, which the runner links only in the full
// build (DEVICEBENCH_BUILD_UI=ON, where it defines DEVICEBENCH_HAVE_PNG).
#pragma once

#include <string>
#include <vector>

namespace devicebench {

struct SweepCellRecord;

// Draws the sweep's cells (sweep.h) and writes the picture to `path` atomically: images/s
// against batch size (log scale), one line per model, image size and device, with the speed-up
// of each device against `baselineLabel` (a SweepDevice label, e.g. "cpu x1"). When the
// process has no Qt application, makes one on the offscreen platform for the call; call it
// from the main thread. Returns false with `*error` (when not null) naming the path and the
// reason on failure.
bool writeSweepPng(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel,
                   const std::string &path, std::string *error);

} // namespace devicebench
