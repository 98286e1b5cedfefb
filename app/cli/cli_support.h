// SPDX-License-Identifier: MIT
// Small pieces shared by the CLI's subcommands.
#pragma once

#include <cstdint>
#include <string>

namespace devicebench {
class RunSet;
}

namespace devicebench::cli {

// `value` with `decimals` digits after the point ("–" when not finite).
std::string fixed(double value, int decimals);

// The model a run trains, for its first line (issue 13): "<model> at <S> px" and, when known
// (not 0), its trainable parameters and forward multiply-adds per image, e.g.
// "resnet18 at 32 px (11,173,962 parameters, 555.4 M multiply-adds per image)".
std::string describeModel(const std::string &model, int imageSize, std::int64_t parameters,
                          std::int64_t multiplyAddsPerImage);

// The comparison picture (--png): writeComparisonPng() of the full build (ui/png_export.h).
// Without it (DEVICEBENCH_BUILD_UI=OFF), false with `*error` saying that PNG needs the full
// build. kPngAvailable tells which, so that --png is refused before any run.
#ifdef DEVICEBENCH_HAVE_PNG
inline constexpr bool kPngAvailable = true;
#else
inline constexpr bool kPngAvailable = false;
#endif
inline constexpr const char *kPngNeedsFullBuild =
    "--png needs the full build (DEVICEBENCH_BUILD_UI=ON): this devicebench-cli was built "
    "without Qt; write the CSV with --csv, or draw the picture with a full build's "
    "`devicebench-cli compare RECORD... --png FILE` from the run records";
bool writePng(const RunSet &runs, const std::string &path, std::string *error);

} // namespace devicebench::cli
