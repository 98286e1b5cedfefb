// SPDX-License-Identifier: MIT
#include "devicebench/csv_export.h"

#include "devicebench/atomic_file.h"
#include "devicebench/comparison.h"
#include "devicebench/contention.h"
#include "devicebench/phase_summary.h"
#include "devicebench/run_set.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace devicebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// A statistic that does not exist for the data (stddev and cv of fewer than 2 stable epochs).
constexpr const char *kUndefined = "n/a";

std::string number(double value, int decimals) { return csvNumber(value, decimals); }

// A bound of a speed-up's interval: "n/a" when the speed-up exists but its interval does not
// (a run with fewer than 2 stable epochs on either side), else number().
std::string speedUpBound(double ratio, double bound) {
    return std::isfinite(ratio) && std::isnan(bound) ? std::string(kUndefined) : number(bound, 4);
}

std::string joined(const std::vector<std::string> &fields, const char *separator) {
    std::string text;
    for (std::size_t i = 0; i < fields.size(); ++i)
        text += (i == 0 ? "" : separator) + fields[i];
    return text;
}

std::string line(const std::vector<std::string> &fields, const std::vector<std::string> &more = {},
                 const std::vector<std::string> &evenMore = {}) {
    std::string text;
    for (std::size_t i = 0; i < fields.size(); ++i)
        text += (i == 0 ? "" : ",") + csvField(fields[i]);
    for (const std::string &field : more)
        text += "," + csvField(field);
    for (const std::string &field : evenMore)
        text += "," + csvField(field);
    return text + "\n";
}

// What an epoch got from the machine (contention.h), after the per-epoch CSV's first columns:
// all empty when the load was not measured (records from before issue 15).
const std::vector<std::string> kLoadColumns = {"contended", "cpu_share", "other_cpus",
                                               "steal_fraction", "load_average"};
std::vector<std::string> loadCells(const EpochLoad &load) {
    if (!load.measured)
        return std::vector<std::string>(kLoadColumns.size());
    return {load.contended ? "1" : "0", number(load.cpuShare, 4), number(load.otherCpus, 4),
            number(load.stealFraction, 4), number(load.loadAverage, 2)};
}

// The summary's count of contended stable epochs: empty when no stable epoch was measured.
std::string contendedCount(const RunEntry &run) {
    bool anyMeasured = false;
    for (const EpochResult &e : run.record.epochs)
        anyMeasured = anyMeasured || (!run.isWarmup(e.epoch) && e.load.measured);
    if (!anyMeasured)
        return {};
    return std::to_string(contendedStableEpochs(run.record.epochs, run.warmupEpochs).size());
}

// The model trained (issue 13), after the columns above in both files: its name, image size
// and trainable parameters (empty when unknown: 0, a record from before, not small-cnn).
const std::vector<std::string> kModelColumns = {"model", "image_size", "parameters"};
std::vector<std::string> modelCells(const RunRecord &r) {
    return {r.model, std::to_string(r.config.imageSize),
            r.started.modelParameters > 0 ? std::to_string(r.started.modelParameters) : ""};
}

// The summary's achieved GFLOP/s (achievedGflops, comparison.h): "%.2f"; "n/a" when the
// model's multiply-adds are unknown, "nan" without a stable epoch.
std::string gflopsCell(const RunEntry &run) {
    if (run.record.started.multiplyAddsPerImage <= 0)
        return kUndefined;
    return number(achievedGflops(run.record, run.summary), 2);
}

// Where the time goes (issue 13, phase_summary.h), after the model columns. Per epoch: each
// phase's seconds, all empty when the epoch was not phase-timed.
std::vector<std::string> phaseColumns(const char *prefix, const char *suffix) {
    std::vector<std::string> columns;
    for (const PhaseField &f : phaseFields())
        columns.push_back(std::string(prefix) + f.name + suffix);
    return columns;
}
std::vector<std::string> phaseCells(const PhaseTimes &phases) {
    std::vector<std::string> cells;
    for (const PhaseField &f : phaseFields())
        cells.push_back(phases.measured ? number(phases.*f.seconds, 6) : std::string());
    return cells;
}
// Per run: each phase's fraction of the phase-timed stable epochs' summed time; "n/a" when no
// stable epoch was phase-timed.
std::vector<std::string> phaseFractionCells(const RunEntry &run) {
    const PhaseTimes mean = stablePhaseMean(run.record.epochs, run.warmupEpochs);
    std::vector<std::string> cells;
    for (const double fraction : phaseFractions(mean))
        cells.push_back(std::isfinite(fraction) ? number(fraction, 4) : std::string(kUndefined));
    return cells;
}

std::vector<std::string> joinedLists(std::vector<std::string> a,
                                     const std::vector<std::string> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::string deviceOf(const RunRecord &r) {
    return r.started.device.empty() ? r.config.device : r.started.device;
}

} // namespace

std::string csvNumber(double value, int decimals) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    std::array<char, 512> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::fixed, decimals);
    if (result.ec != std::errc())
        return "nan"; // beyond 1e300 with decimals: not a time, a loss or a ratio we make
    return std::string(buffer.data(), result.ptr);
}

bool isCsvNumber(const std::string &text) {
    if (text == "nan" || text == "inf" || text == "-inf")
        return true;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+'))
        ++i;
    bool digits = false;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
        ++i;
        digits = true;
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
            ++i;
            digits = true;
        }
    }
    if (!digits)
        return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '-' || text[i] == '+'))
            ++i;
        bool exponent = false;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
            ++i;
            exponent = true;
        }
        if (!exponent)
            return false;
    }
    return i == text.size();
}

std::string csvField(const std::string &field) {
    // OWASP "CSV Injection": a cell that starts with = + - @ TAB or CR is run as a formula by
    // spreadsheets; a leading single quote makes it text. Numbers ("-1.5") stay numbers.
    const bool formula = !field.empty() &&
                         std::string("=+-@\t\r").find(field[0]) != std::string::npos &&
                         !isCsvNumber(field);
    const std::string cell = formula ? "'" + field : field;
    if (cell.find_first_of(",\"\r\n") == std::string::npos)
        return cell;
    std::string quoted = "\"";
    for (const char ch : cell) {
        quoted += ch;
        if (ch == '"')
            quoted += '"';
    }
    return quoted + "\"";
}

std::string epochCsv(const RunSet &runs) {
    std::string csv = line({"run", "device", "threads", "epoch", "seconds", "warmup", "train_loss",
                            "test_loss", "test_accuracy", "images_per_s", "data", "status", "host",
                            "comparable", "differences"},
                           joinedLists(kLoadColumns, kModelColumns), phaseColumns("phase_", "_s"));
    for (const RunEntry &run : runs.runs()) {
        const RunRecord &r = run.record;
        const bool synthetic = r.started.synthetic || r.config.synthetic;
        for (const EpochResult &e : r.epochs) {
            csv += line(
                {run.label, deviceOf(r), std::to_string(r.started.threads), std::to_string(e.epoch),
                 number(e.seconds, 4), run.isWarmup(e.epoch) ? "1" : "0", number(e.trainLoss, 6),
                 number(e.testLoss, 6), number(e.testAccuracy, 6), number(e.imagesPerSecond, 2),
                 synthetic ? "synthetic" : "cifar-10", toString(run.state), r.fingerprint.hostName,
                 run.comparable() ? "1" : "0", joined(run.differences, ";")},
                joinedLists(loadCells(e.load), modelCells(r)), phaseCells(e.phases));
        }
    }
    return csv;
}

std::string summaryCsv(const RunSet &runs) {
    const std::vector<std::string> header = {"run",
                                             "device",
                                             "host",
                                             "threads",
                                             "status",
                                             "epochs",
                                             "warmup_epochs",
                                             "mean_all_s",
                                             "stable_mean_s",
                                             "median_s",
                                             "stddev_s",
                                             "min_s",
                                             "max_s",
                                             "cv",
                                             "ci95_low_s",
                                             "ci95_high_s",
                                             "images_per_s",
                                             "speedup",
                                             "speedup_low",
                                             "speedup_high",
                                             "baseline",
                                             "comparable",
                                             "differences",
                                             "max_test_loss_diff",
                                             "cpu_model",
                                             "physical_cores",
                                             "logical_cores",
                                             "cpu_quota",
                                             "affinity",
                                             "omp_num_threads",
                                             "intra_op_threads",
                                             "blas",
                                             "libtorch",
                                             "cuda_built",
                                             "cuda_runtime",
                                             "cudnn",
                                             "driver",
                                             "gpu_name",
                                             "gpu_cc",
                                             "gpu_memory_bytes",
                                             "cudnn_benchmark",
                                             "app_version",
                                             "os",
                                             "contended_stable_epochs"};
    std::string csv = line(header, joinedLists(kModelColumns, {"achieved_gflops"}),
                           phaseColumns("phase_", "_fraction"));

    const int baselineIndex = runs.baselineIndex();
    const std::string baselineLabel = baselineIndex >= 0 ? runs.run(baselineIndex).label : "";
    for (const RunEntry &run : runs.runs()) {
        const RunRecord &r = run.record;
        const Summary &s = run.summary;
        const Fingerprint &f = r.fingerprint;
        const std::string device = deviceOf(r);
        // The run's GPU for a CUDA run; every GPU of the machine otherwise.
        std::vector<std::string> gpuNames;
        std::vector<std::string> gpuCc;
        std::vector<std::string> gpuMemory;
        for (const GpuInfo &gpu : f.gpus) {
            if (device.rfind("cuda", 0) == 0 && device != "cuda:" + std::to_string(gpu.index))
                continue;
            gpuNames.push_back(gpu.name);
            gpuCc.push_back(std::to_string(gpu.computeMajor) + "." +
                            std::to_string(gpu.computeMinor));
            gpuMemory.push_back(std::to_string(gpu.memoryBytes));
        }
        const auto stable = [&s](double value) { return s.hasStable ? value : kNaN; };
        const std::vector<std::string> fields = {
            run.label,
            device,
            f.hostName,
            std::to_string(r.started.threads),
            toString(run.state),
            std::to_string(r.epochs.size()),
            std::to_string(run.warmupEpochs),
            number(s.epochSeconds.empty() ? kNaN : s.meanAll, 4),
            number(stable(s.stableMean), 4),
            number(stable(s.median), 4),
            s.stableCount >= 2 ? number(s.stddev, 4) : std::string(kUndefined),
            number(stable(s.min), 4),
            number(stable(s.max), 4),
            s.stableCount >= 2 ? number(s.cv, 6) : std::string(kUndefined),
            s.stableCount >= 2 ? number(s.ciLow, 4) : std::string(kUndefined),
            s.stableCount >= 2 ? number(s.ciHigh, 4) : std::string(kUndefined),
            number(stable(s.imagesPerSecond), 2),
            number(run.speedUp.ratio, 4),
            speedUpBound(run.speedUp.ratio, run.speedUp.low),
            speedUpBound(run.speedUp.ratio, run.speedUp.high),
            baselineLabel,
            run.comparable() ? "1" : "0",
            joined(run.differences, ";"),
            run.isBaseline ? std::string() : number(run.maxTestLossDiff, 6),
            f.cpuModel,
            std::to_string(f.physicalCores),
            std::to_string(f.logicalCores),
            f.cpuQuota,
            f.affinity,
            f.ompNumThreads,
            std::to_string(f.intraOpThreads),
            f.blasLibrary,
            f.libtorchVersion,
            f.cudaBuilt ? "1" : "0",
            f.cudaRuntimeVersion,
            f.cudnnVersion,
            f.driverVersion,
            joined(gpuNames, ";"),
            joined(gpuCc, ";"),
            joined(gpuMemory, ";"),
            f.cudnnBenchmark ? "1" : "0",
            f.appVersion,
            f.os,
            contendedCount(run),
        };
        csv += line(fields, joinedLists(modelCells(r), {gflopsCell(run)}), phaseFractionCells(run));
    }
    return csv;
}

std::string summaryCsvPath(const std::string &csvPath) {
    std::string base = csvPath;
    if (base.size() >= 4) {
        std::string tail = base.substr(base.size() - 4);
        for (char &ch : tail)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (tail == ".csv")
            base.resize(base.size() - 4);
    }
    return base + "-summary.csv";
}

void writeExportFile(const std::string &path, const std::string &bytes) {
    try {
        writeFileAtomically(path, bytes);
    } catch (const AtomicWriteError &e) {
        const bool full = e.stage() == AtomicWriteError::Stage::Write && e.outOfSpace();
        throw ExportError("Cannot write " + path + ": " +
                          (full ? "only " + std::to_string(e.written()) + " of " +
                                      std::to_string(e.size()) +
                                      " bytes could be written (disk full?)"
                                : std::string(e.what())));
    }
}

void writeComparisonCsv(const RunSet &runs, const std::string &csvPath) {
    writeExportFile(csvPath, epochCsv(runs));
    writeExportFile(summaryCsvPath(csvPath), summaryCsv(runs));
}

} // namespace devicebench
