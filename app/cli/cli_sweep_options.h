// SPDX-License-Identifier: MIT
// What `devicebench-cli sweep` is asked for, as its options fill it (cli_sweep.cpp); read by
// the sweep of timed steps (cli_sweep.h) and the sweep to a target (cli_sweep_target.h).
#pragma once

#include "devicebench/sweep.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace devicebench::cli {

// The lists as given (each value may hold a comma-separated list; split by sweepCommand).
struct SweepOptions {
    std::vector<std::string> models{kDefaultModel};
    std::vector<std::string> batchSizes{std::to_string(kDefaultBatchSize)};
    std::vector<std::string> imageSizes{std::to_string(kDefaultImageSize)};
    std::vector<std::string> devices{"cpu"};
    std::vector<std::string> threads{"0"}; // CPU thread counts; 0 = all cores
    std::string workload = "faithful";
    std::vector<std::string> precisions{"fp32"}; // fp32, bf16, fp16
    SweepSpec spec; // steps, warm-up and phase steps, base (seed, lr, data); lists come from above
    std::string outDir = "devicebench-sweep"; // the sweep folder: running again resumes
    std::string baseline;                     // a device label; empty: the first device
    std::string csvPath;                      // empty: no CSV
    std::string pngPath;                      // empty: no PNG
    bool noPeak = false;                      // --no-peak: SweepSpec::measurePeak false
    // A sweep to a target (cli_sweep_target.h): each cell a whole run stopped at the first epoch
    // whose test accuracy reaches this percentage, `epochs` its budget.
    std::optional<double> targetAccuracy;
    double targetParsed = 0.0; // --target-accuracy as parsed, into targetAccuracy when given
    int epochs = kDefaultEpochs;
    std::int64_t trainImages = 0; // 0: all
    std::int64_t testImages = 0;  // 0: all
    bool interleave = false;      // the cells' epochs in alternation
    // A recipe workload without --precision: each cell in recipePrecision() of its device.
    bool precisionPerDevice = false;
    std::vector<std::string> givenFlags; // the flags given ("--steps"), checked against the mode
};

} // namespace devicebench::cli
