// SPDX-License-Identifier: MIT
// runSweep: the grid's cells in turn, each a step run with its record, resumable.
#include "devicebench/fingerprint.h"
#include "devicebench/run_record.h"
#include "devicebench/sweep.h"

#include "record_time.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace devicebench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The record of `cell` already in the folder, when it can be kept: it reads, it is that cell,
// it ended finished or failed, and it was made with the same step settings, workload and data
// kind as `spec`.
std::optional<SweepCellRecord> keptRecord(const SweepSpec &spec, const std::string &folder,
                                          const SweepCell &cell) {
    const std::string path = sweepRecordPath(folder, cell);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    SweepCellRecord r;
    try {
        r = readSweepCellRecord(text.str(), path);
    } catch (const std::exception &e) {
        spdlog::warn("sweep: {} is run again: {}", cell.key(), e.what());
        return std::nullopt;
    }
    const bool ended =
        r.result.status == RunStatus::Finished || r.result.status == RunStatus::Failed;
    const bool same = r.cell.key() == cell.key() && r.warmupSteps == spec.warmupSteps &&
                      r.steps == spec.steps && r.phaseSteps == spec.phaseSteps &&
                      r.workload == toString(spec.base.workload) &&
                      r.synthetic == spec.base.synthetic;
    if (!ended || !same) {
        return std::nullopt;
    }
    r.cell = cell; // the cell as this grid spells it
    return r;
}

struct Peak {
    double gflops = kNaN;
    std::string method;
};

} // namespace

SweepOutcome runSweep(const SweepSpec &spec, const std::string &folder,
                      const SweepObserver &observer, const std::atomic<bool> &stopRequested,
                      const PeakMeasurer &measurePeak) {
    if (const std::string problem = validateSweepSpec(spec); !problem.empty()) {
        throw std::invalid_argument("invalid sweep: " + problem);
    }
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec || !fs::is_directory(folder)) {
        throw std::runtime_error("cannot make the sweep folder " + folder + ": " +
                                 (ec ? ec.message() : std::string("not a folder")));
    }
    const std::vector<SweepCell> cells = sweepCells(spec);
    std::vector<std::optional<SweepCellRecord>> kept;
    SweepProgress progress;
    progress.total = static_cast<int>(cells.size());
    progress.secondsLeft = kNaN;
    int keptCount = 0;
    for (const SweepCell &cell : cells) {
        kept.push_back(keptRecord(spec, folder, cell));
        keptCount += kept.back() ? 1 : 0;
    }
    if (observer.sweepStarted) {
        SweepProgress start = progress;
        start.skipped = keptCount;
        observer.sweepStarted(start);
    }

    SweepOutcome outcome;
    std::map<std::string, Peak> peaks; // by device label, measured once per sweep
    double secondsRun = 0.0;
    int cellsRun = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const SweepCell &cell = cells[i];
        if (kept[i]) {
            ++progress.done;
            ++progress.skipped;
            outcome.records.push_back(*kept[i]);
            if (observer.cellEnded) {
                observer.cellEnded(*kept[i], progress, true);
            }
            continue;
        }
        if (stopRequested.load()) {
            outcome.status = RunStatus::Cancelled;
            break;
        }
        const std::string label = cell.device.label();
        if (spec.measurePeak && peaks.count(label) == 0) {
            Peak &peak = peaks[label];
            PeakThroughput measured;
            measured.gflops = kNaN;
            std::string error;
            try {
                measured = measurePeak(cell.device.device, cell.device.threads);
                peak.gflops = measured.gflops;
                peak.method = measured.method;
            } catch (const std::exception &e) {
                error = e.what();
                peak.method = "not measured: " + error;
            }
            if (observer.peakMeasured) {
                observer.peakMeasured(cell.device, measured, error);
            }
        }
        if (observer.cellStarted) {
            observer.cellStarted(cell, progress);
        }
        const auto start = Clock::now();
        SweepCellRecord record;
        record.cell = cell;
        record.warmupSteps = spec.warmupSteps;
        record.steps = spec.steps;
        record.phaseSteps = spec.phaseSteps;
        record.workload = toString(spec.base.workload);
        record.synthetic = spec.base.synthetic;
        record.seed = spec.base.seed;
        record.learningRate = spec.base.learningRate;
        record.result = runStepBench(stepBenchConfig(spec, cell), stopRequested);
        if (record.result.status == RunStatus::Cancelled) {
            outcome.status = RunStatus::Cancelled; // no record: the cell runs again next time
            break;
        }
        record.createdUtc = detail::utcTime(false);
        record.fingerprint = collectFingerprint();
        if (cell.device.device != "cpu") {
            const int index = std::stoi(cell.device.device.substr(5));
            for (const GpuInfo &gpu : record.fingerprint.gpus) {
                if (gpu.index == index && !gpu.name.empty()) {
                    record.result.deviceName = gpu.name;
                }
            }
        }
        const auto peak = peaks.find(label);
        record.peakGflops = peak != peaks.end() ? peak->second.gflops : kNaN;
        record.peakMethod = peak != peaks.end() ? peak->second.method : std::string();
        record.fractionOfPeak = record.result.achievedGflops / record.peakGflops;
        if (!std::isfinite(record.fractionOfPeak)) {
            record.fractionOfPeak = kNaN;
        }
        writeSweepCellRecord(folder, record);
        secondsRun += std::chrono::duration<double>(Clock::now() - start).count();
        ++cellsRun;
        ++progress.done;
        // Cells still to run: those not ended yet, less the kept ones further on.
        const int toRun = progress.total - progress.done - (keptCount - progress.skipped);
        progress.secondsLeft = secondsRun / cellsRun * toRun;
        outcome.records.push_back(record);
        if (observer.cellEnded) {
            observer.cellEnded(record, progress, false);
        }
    }
    for (const SweepCellRecord &r : outcome.records) {
        outcome.failedCells += r.result.status == RunStatus::Finished ? 0 : 1;
    }
    return outcome;
}

} // namespace devicebench
