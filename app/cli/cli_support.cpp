// SPDX-License-Identifier: MIT
#include "cli_support.h"

#ifdef DEVICEBENCH_HAVE_PNG
#include "png_export.h"
#endif

#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

namespace devicebench::cli {

std::string fixed(double value, int decimals) {
    if (!std::isfinite(value)) {
        return "–";
    }
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << value;
    return s.str();
}

namespace {

// 11173962 -> "11,173,962".
std::string grouped(std::int64_t value) {
    std::string digits = std::to_string(value);
    for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > (value < 0 ? 1 : 0); i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

} // namespace

std::string describeModel(const std::string &model, int imageSize, std::int64_t parameters,
                          std::int64_t multiplyAddsPerImage) {
    std::string text = model + " at " + std::to_string(imageSize) + " px";
    if (parameters > 0 && multiplyAddsPerImage > 0) {
        text += " (" + grouped(parameters) + " parameters, " +
                fixed(static_cast<double>(multiplyAddsPerImage) / 1e6, 1) +
                " M multiply-adds per image)";
    }
    return text;
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
