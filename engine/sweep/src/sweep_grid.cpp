// SPDX-License-Identifier: MIT
// The sweep's grid: devices, cells, their keys, the spec's checks, and the speed-up of a cell.
#include "devicebench/devices.h"
#include "devicebench/sweep.h"
#include "devicebench/trainer.h"
#include "devicebench/workloads.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace devicebench {
namespace {

constexpr int kMaxThreads = 1024;
constexpr int kMaxBatchSize = 1024;

// "cpu", "cuda" or "cuda:N" (N decimal digits): the spellings resolveDevice() accepts.
bool isDeviceSpelling(const std::string &device) {
    if (device == "cpu" || device == "cuda") {
        return true;
    }
    if (device.rfind("cuda:", 0) != 0 || device.size() == 5 || device.size() > 9) {
        return false;
    }
    for (std::size_t i = 5; i < device.size(); ++i) {
        if (device[i] < '0' || device[i] > '9') {
            return false;
        }
    }
    return true;
}

SweepDevice normalised(SweepDevice d) {
    if (d.device == "cuda") {
        d.device = "cuda:0";
    }
    if (d.device == "cpu") {
        d.threads = d.threads > 0 ? d.threads : availableCores();
    } else {
        d.threads = 0;
    }
    return d;
}

} // namespace

std::string SweepDevice::label() const {
    if (device != "cpu") {
        return device;
    }
    return threads > 0 ? "cpu x" + std::to_string(threads) : std::string("cpu (all cores)");
}

std::string SweepCell::key() const {
    std::string where =
        device.device == "cpu" ? "cpu_x" + std::to_string(device.threads) : device.device;
    if (const auto colon = where.find(':'); colon != std::string::npos) {
        where.erase(colon, 1); // "cuda:0" -> "cuda0": no ':' in file names
    }
    const std::string arithmetic =
        precision == Precision::Float32 ? std::string() : "_" + std::string(shortName(precision));
    return model + "_b" + std::to_string(batchSize) + "_s" + std::to_string(imageSize) + "_" +
           where + arithmetic;
}

std::vector<SweepCell> sweepCells(const SweepSpec &spec) {
    std::vector<SweepCell> cells;
    for (const SweepDevice &device : spec.devices) {
        const SweepDevice d = normalised(device);
        for (const std::string &model : spec.models) {
            for (int imageSize : spec.imageSizes) {
                for (int batchSize : spec.batchSizes) {
                    for (Precision precision : spec.precisions)
                        cells.push_back(SweepCell{model, batchSize, imageSize, d, precision});
                }
            }
        }
    }
    return cells;
}

StepBenchConfig stepBenchConfig(const SweepSpec &spec, const SweepCell &cell) {
    StepBenchConfig config;
    config.run = spec.base;
    config.run.model = cell.model;
    config.run.batchSize = cell.batchSize;
    config.run.imageSize = cell.imageSize;
    config.run.device = cell.device.device;
    config.run.threads = cell.device.threads;
    config.run.precision = cell.precision;
    config.run.targetAccuracy.reset(); // a cell times steps, with no test pass to reach it
    config.warmupSteps = spec.warmupSteps;
    config.steps = spec.steps;
    config.phaseSteps = spec.phaseSteps;
    return config;
}

std::string validateSweepGrid(const SweepSpec &spec) {
    if (spec.models.empty() || spec.batchSizes.empty() || spec.imageSizes.empty() ||
        spec.devices.empty() || spec.precisions.empty()) {
        return "the sweep needs at least one model, batch size, image size, precision and device";
    }
    const WorkloadRow &workload = workloadRow(spec.base.workload);
    for (const std::string &model : spec.models) {
        // a recipe's network is its own (a sweep of it runs its cells to a target)
        if (!isKnownModel(model) && !(workload.recipe() && model == workload.recipeModel)) {
            return "model '" + model + "' is not known (use small-cnn, resnet18 or vit-tiny)";
        }
    }
    for (int batch : spec.batchSizes) {
        if (batch < 1 || batch > kMaxBatchSize) {
            return "batch size " + std::to_string(batch) + " is not in 1..1024";
        }
    }
    for (int size : spec.imageSizes) {
        if (!isSupportedImageSize(size)) {
            return "image size " + std::to_string(size) + " is not supported (use 32, 64 or 128)";
        }
    }
    for (const SweepDevice &d : spec.devices) {
        if (!isDeviceSpelling(d.device)) {
            return "device '" + d.device + "' is not cpu, cuda or cuda:N";
        }
        if (d.threads < 0 || d.threads > kMaxThreads) {
            return "threads must be between 1 and 1024, or 0 for all cores (got " +
                   std::to_string(d.threads) + ")";
        }
    }
    std::set<std::string> keys;
    for (const SweepCell &cell : sweepCells(spec)) {
        if (!keys.insert(cell.key()).second) {
            return "the grid holds cell " + cell.key() +
                   " twice: a model, batch size, image size, precision or device is given twice";
        }
    }
    // the precision rules (fp16 is CUDA only) on every cell
    for (const SweepCell &cell : sweepCells(spec)) {
        if (std::string problem = precisionProblem(cell.precision, cell.device.device);
            !problem.empty())
            return "cell " + cell.key() + ": " + problem;
    }
    return {};
}

std::string validateSweepSpec(const SweepSpec &spec) {
    if (std::string problem = validateSweepGrid(spec); !problem.empty())
        return problem;
    // the rules of a cell's run (steps, learning rate, data), checked on the first cell
    return validateStepBenchConfig(stepBenchConfig(spec, sweepCells(spec).front()));
}

double sweepSpeedUp(const std::vector<SweepCellRecord> &records, const SweepCellRecord &cell,
                    const std::string &baselineLabel) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    if (cell.result.status != RunStatus::Finished) {
        return kNaN;
    }
    for (const SweepCellRecord &r : records) {
        if (r.cell.model == cell.cell.model && r.cell.batchSize == cell.cell.batchSize &&
            r.cell.imageSize == cell.cell.imageSize && r.cell.precision == cell.cell.precision &&
            r.cell.device.label() == baselineLabel) {
            if (r.result.status != RunStatus::Finished || !(r.result.imagesPerSecond > 0.0)) {
                return kNaN;
            }
            return cell.result.imagesPerSecond / r.result.imagesPerSecond;
        }
    }
    return kNaN;
}

double sweepPrecisionGain(const std::vector<SweepCellRecord> &records,
                          const SweepCellRecord &cell) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    if (cell.cell.precision == Precision::Float32 || cell.result.status != RunStatus::Finished)
        return kNaN;
    SweepCell fp32 = cell.cell;
    fp32.precision = Precision::Float32;
    const std::string fp32Key = fp32.key();
    for (const SweepCellRecord &r : records) {
        if (r.cell.key() != fp32Key)
            continue;
        if (r.result.status != RunStatus::Finished || !(r.result.imagesPerSecond > 0.0))
            return kNaN;
        return cell.result.imagesPerSecond / r.result.imagesPerSecond;
    }
    return kNaN;
}

} // namespace devicebench
