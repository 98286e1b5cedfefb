// SPDX-License-Identifier: MIT
// Small pieces shared by the CLI's subcommands.
#pragma once

#include <memory>
#include <string>

class QApplication;

namespace devicebench::cli {

// `value` with `decimals` digits after the point ("–" when not finite).
std::string fixed(double value, int decimals);

// A QApplication on the offscreen platform, for drawing the comparison PNG with Qt Charts
// without a display. Qt's own notices are dropped (failures come back from the export
// functions); critical messages still reach stderr.
std::unique_ptr<QApplication> makeOffscreenApplication();

} // namespace devicebench::cli
