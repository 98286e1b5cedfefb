// SPDX-License-Identifier: MIT
// runSweep: the grid's cells in turn, each a step run with its record, resumable.
#include "devicebench/fingerprint.h"
#include "devicebench/gpu_bus.h"
#include "devicebench/run_record.h"
#include "devicebench/sweep.h"
#include "devicebench/system_sampler.h"

#include "record_time.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

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

// Makes `folder` (and its parents) unless it is there; throws std::runtime_error naming it.
void makeSweepFolder(const std::string &folder) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec || !fs::is_directory(folder)) {
        throw std::runtime_error("cannot make the sweep folder " + folder + ": " +
                                 (ec ? ec.message() : std::string("not a folder")));
    }
}

// One sweep over a valid spec: the cells in grid order, each kept (resumed) or run, the
// progress and each device's peak kept along the way.
class SweepRun {
public:
    SweepRun(const SweepSpec &spec, const std::string &folder, const SweepObserver &observer,
             const std::atomic<bool> &stopRequested, const PeakMeasurer &measurePeak)
        : m_spec(spec), m_folder(folder), m_observer(observer), m_stopRequested(stopRequested),
          m_measurePeak(measurePeak) {}

    SweepOutcome run();

private:
    std::vector<std::optional<SweepCellRecord>> start(const std::vector<SweepCell> &cells);
    void resume(const SweepCellRecord &kept, SweepOutcome &outcome);
    bool runCell(const SweepCell &cell, SweepOutcome &outcome);
    void measurePeakOf(const SweepDevice &device);
    SweepCellRecord newRecord(const SweepCell &cell) const;
    void completeRecord(SweepCellRecord &record) const;

    const SweepSpec &m_spec;
    const std::string &m_folder;
    const SweepObserver &m_observer;
    const std::atomic<bool> &m_stopRequested;
    const PeakMeasurer &m_measurePeak;
    SweepProgress m_progress;
    int m_keptCount = 0;
    std::map<std::string, Peak> m_peaks; // by device label, measured once per sweep
    double m_secondsRun = 0.0;
    int m_cellsRun = 0;
};

SweepOutcome SweepRun::run() {
    const std::vector<SweepCell> cells = sweepCells(m_spec);
    const std::vector<std::optional<SweepCellRecord>> kept = start(cells);
    SweepOutcome outcome;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (kept[i]) {
            resume(*kept[i], outcome);
            continue;
        }
        if (m_stopRequested.load() || !runCell(cells[i], outcome)) {
            outcome.status = RunStatus::Cancelled;
            break;
        }
    }
    for (const SweepCellRecord &r : outcome.records) {
        outcome.failedCells += r.result.status == RunStatus::Finished ? 0 : 1;
    }
    return outcome;
}

// The records kept from an earlier sweep, by cell; tells sweepStarted.
std::vector<std::optional<SweepCellRecord>> SweepRun::start(const std::vector<SweepCell> &cells) {
    std::vector<std::optional<SweepCellRecord>> kept;
    m_progress.total = static_cast<int>(cells.size());
    m_progress.secondsLeft = kNaN;
    for (const SweepCell &cell : cells) {
        kept.push_back(keptRecord(m_spec, m_folder, cell));
        m_keptCount += kept.back() ? 1 : 0;
    }
    if (m_observer.sweepStarted) {
        SweepProgress started = m_progress;
        started.skipped = m_keptCount;
        m_observer.sweepStarted(started);
    }
    return kept;
}

void SweepRun::resume(const SweepCellRecord &kept, SweepOutcome &outcome) {
    ++m_progress.done;
    ++m_progress.skipped;
    outcome.records.push_back(kept);
    if (m_observer.cellEnded) {
        m_observer.cellEnded(kept, m_progress, true);
    }
}

// Runs `cell`, writes and keeps its record; false when it was cancelled (then no record: the
// cell runs again next time).
bool SweepRun::runCell(const SweepCell &cell, SweepOutcome &outcome) {
    if (m_spec.measurePeak) {
        measurePeakOf(cell.device);
    }
    if (m_observer.cellStarted) {
        m_observer.cellStarted(cell, m_progress);
    }
    const auto start = Clock::now();
    SweepCellRecord record = newRecord(cell);
    const StepBenchConfig config = stepBenchConfig(m_spec, cell);
    // The machine over the whole cell (set-up included): its CPU, memory, GPU and energy.
    const auto elapsed = [start] {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    const int gpu = cudaDeviceIndex(config.run.device);
    SamplerOptions sampling =
        samplerOptionsFor(config.run.device, gpu >= 0 ? cudaPciBusId(gpu) : std::string());
    sampling.clock = elapsed;
    std::optional<SystemSampler> sampler;
    double from = 0.0;
    if (sampling.periodSeconds > 0.0) {
        sampler.emplace(sampling);
        sampler->start(); // its first reading: the energy counters' base
        from = elapsed();
    }
    record.result = runStepBench(config, m_stopRequested);
    if (sampler) {
        const double to = elapsed();
        sampler->readNow(); // a reading after the cell's end
        record.system = sampler->epoch(from, to);
    }
    if (record.result.status == RunStatus::Cancelled) {
        return false;
    }
    completeRecord(record);
    writeSweepCellRecord(m_folder, record);
    m_secondsRun += std::chrono::duration<double>(Clock::now() - start).count();
    ++m_cellsRun;
    ++m_progress.done;
    // Cells still to run: those not ended yet, less the kept ones further on.
    const int toRun = m_progress.total - m_progress.done - (m_keptCount - m_progress.skipped);
    m_progress.secondsLeft = m_secondsRun / m_cellsRun * toRun;
    outcome.records.push_back(record);
    if (m_observer.cellEnded) {
        m_observer.cellEnded(record, m_progress, false);
    }
    return true;
}

// The peak of `device`, measured before its first cell that runs, and told.
void SweepRun::measurePeakOf(const SweepDevice &device) {
    const std::string label = device.label();
    if (m_peaks.count(label) != 0) {
        return;
    }
    Peak &peak = m_peaks[label];
    PeakThroughput measured;
    measured.gflops = kNaN;
    std::string error;
    try {
        measured = m_measurePeak(device.device, device.threads);
        peak.gflops = measured.gflops;
        peak.method = measured.method;
    } catch (const std::exception &e) {
        error = e.what();
        peak.method = "not measured: " + error;
    }
    if (m_observer.peakMeasured) {
        m_observer.peakMeasured(device, measured, error);
    }
}

// `cell`'s record before it runs: the sweep's step settings.
SweepCellRecord SweepRun::newRecord(const SweepCell &cell) const {
    SweepCellRecord record;
    record.cell = cell;
    record.warmupSteps = m_spec.warmupSteps;
    record.steps = m_spec.steps;
    record.phaseSteps = m_spec.phaseSteps;
    record.workload = toString(m_spec.base.workload);
    record.synthetic = m_spec.base.synthetic;
    record.seed = m_spec.base.seed;
    record.learningRate = m_spec.base.learningRate;
    return record;
}

// After the cell ran: its time, the machine's fingerprint, the GPU's name, the device's peak.
void SweepRun::completeRecord(SweepCellRecord &record) const {
    const SweepDevice &device = record.cell.device;
    record.createdUtc = detail::utcTime(false);
    record.fingerprint = collectFingerprint();
    if (device.device != "cpu") {
        const int index = std::stoi(device.device.substr(5));
        for (const GpuInfo &gpu : record.fingerprint.gpus) {
            if (gpu.index == index && !gpu.name.empty()) {
                record.result.deviceName = gpu.name;
            }
        }
    }
    const auto peak = m_peaks.find(device.label());
    record.peakGflops = peak != m_peaks.end() ? peak->second.gflops : kNaN;
    record.peakMethod = peak != m_peaks.end() ? peak->second.method : std::string();
    record.fractionOfPeak = record.result.achievedGflops / record.peakGflops;
    if (!std::isfinite(record.fractionOfPeak)) {
        record.fractionOfPeak = kNaN;
    }
}

} // namespace

SweepOutcome runSweep(const SweepSpec &spec, const std::string &folder,
                      const SweepObserver &observer, const std::atomic<bool> &stopRequested,
                      const PeakMeasurer &measurePeak) {
    if (const std::string problem = validateSweepSpec(spec); !problem.empty()) {
        throw std::invalid_argument("invalid sweep: " + problem);
    }
    makeSweepFolder(folder);
    return SweepRun(spec, folder, observer, stopRequested, measurePeak).run();
}

} // namespace devicebench
