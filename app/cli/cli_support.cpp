// SPDX-License-Identifier: MIT
#include "cli_support.h"

#ifdef DEVICEBENCH_HAVE_PNG
#include "png_export.h"
#endif

#include <cmath>
#include <iomanip>
#include <sstream>

namespace devicebench::cli {

std::string fixed(double value, int decimals) {
    if (!std::isfinite(value)) {
        return "–";
    }
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << value;
    return s.str();
}

bool writePng(const RunSet &runs, const std::string &path, std::string *error) {
#ifdef DEVICEBENCH_HAVE_PNG
    return writeComparisonPng(runs, path, error);
#else
    static_cast<void>(runs);
    static_cast<void>(path);
    if (error != nullptr)
        *error = kPngNeedsFullBuild;
    return false;
#endif
}

} // namespace devicebench::cli
