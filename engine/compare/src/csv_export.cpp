// SPDX-License-Identifier: MIT
#include "devicebench/csv_export.h"
#include "devicebench/precision_text.h"

#include "ascii_case.h"
#include "csv_table.h"
#include "system_csv.h"

#include "devicebench/atomic_file.h"
#include "devicebench/comparison.h"
#include "devicebench/contention.h"
#include "devicebench/cost.h"
#include "devicebench/machine_drift.h"
#include "devicebench/phase_summary.h"
#include "devicebench/published.h"
#include "devicebench/run_set.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <vector>

namespace devicebench {
namespace {

using detail::columnsOf;
using detail::CsvColumns;
using detail::epochSystemColumns;
using detail::runSystemColumns;
using detail::SampledRun;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// A statistic that does not exist for the data (stddev and cv of fewer than 2 stable epochs).
constexpr const char *kUndefined = "n/a";

std::string number(double value, int decimals) { return csvNumber(value, decimals); }

// `value` at `decimals` while that keeps 6 significant digits and stays short; else 6
// significant digits in exponent form ("8.78049e-09", "1e+100"): money and prices span many
// orders of magnitude, and fixed decimals would print a tiny cost as 0.00000001 or 0.
std::string preciseNumber(double value, int decimals) {
    const double size = std::fabs(value);
    if (!std::isfinite(value) || value == 0.0 ||
        (size >= std::pow(10.0, 5 - decimals) && size < 1e15))
        return number(value, decimals);
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::general, 6);
    return std::string(buffer.data(), result.ptr);
}

std::string flag(bool value) { return value ? "1" : "0"; }

std::string joined(const std::vector<std::string> &fields, const char *separator) {
    std::string text;
    for (std::size_t i = 0; i < fields.size(); ++i)
        text += (i == 0 ? "" : separator) + fields[i];
    return text;
}

std::string deviceOf(const RunRecord &r) {
    return r.started.device.empty() ? r.config.device : r.started.device;
}

// The model trained, after the first columns in both files: its name, image size and
// trainable parameters (empty when unknown: 0, a record from before, not small-cnn). `Row`
// has the run's record as `r`.
template <class Row> CsvColumns<Row> modelColumns() {
    return {
        {"model", [](const Row &x) { return x.r.model; }},
        {"image_size", [](const Row &x) { return std::to_string(x.r.config.imageSize); }},
        {"parameters",
         [](const Row &x) {
             const std::int64_t n = x.r.started.modelParameters;
             return n > 0 ? std::to_string(n) : std::string();
         }},
    };
}

// Where the time goes (phase_summary.h), in both files before the precision columns: one per phase
// of phaseFields(), "phase_<name><suffix>", its cell `cell(row, the phase's index)`.
template <class Row, class Cell> CsvColumns<Row> phaseColumns(const char *suffix, Cell cell) {
    CsvColumns<Row> columns;
    for (std::size_t i = 0; i < kPhaseCount; ++i)
        columns.push_back({std::string("phase_") + phaseFields()[i].name + suffix,
                           [cell, i](const Row &x) { return cell(x, i); }});
    return columns;
}

// The run's precision by its short name ("bf16"); a name this version does not know as written.
std::string precisionName(const RunRecord &r) { return precisionShortText(r.precision); }

// ---- the per-epoch CSV -----------------------------------------------------------------------

struct EpochRow {
    const RunEntry &run;
    const RunRecord &r;
    const EpochResult &e;
};

// What an epoch got from the machine (contention.h): a number of its load, empty when the load
// was not measured (older records).
std::string loadNumber(const EpochRow &x, double EpochLoad::*value, int decimals) {
    return x.e.load.measured ? number(x.e.load.*value, decimals) : std::string();
}

// A number, empty when NaN (not known: an older record).
std::string optionalNumber(double value, int decimals) {
    return std::isnan(value) ? std::string() : number(value, decimals);
}

// A canary number of the epoch: empty when the epoch has no canary (older records) or the value
// is not known (no run-threads canary on CUDA).
std::string canaryNumber(const EpochRow &x, double value) {
    return x.e.canary.measured ? optionalNumber(value, 6) : std::string();
}

const CsvColumns<EpochRow> kEpochColumns =
    CsvColumns<EpochRow>{
        {"run", [](const EpochRow &x) { return x.run.label; }},
        {"device", [](const EpochRow &x) { return deviceOf(x.r); }},
        {"threads", [](const EpochRow &x) { return std::to_string(x.r.started.threads); }},
        {"epoch", [](const EpochRow &x) { return std::to_string(x.e.epoch); }},
        {"seconds", [](const EpochRow &x) { return number(x.e.seconds, 4); }},
        {"warmup", [](const EpochRow &x) { return flag(x.run.isWarmup(x.e.epoch)); }},
        {"train_loss", [](const EpochRow &x) { return number(x.e.trainLoss, 6); }},
        {"test_loss", [](const EpochRow &x) { return number(x.e.testLoss, 6); }},
        {"test_accuracy", [](const EpochRow &x) { return number(x.e.testAccuracy, 6); }},
        {"images_per_s", [](const EpochRow &x) { return number(x.e.imagesPerSecond, 2); }},
        {"data",
         [](const EpochRow &x) {
             return x.r.started.synthetic || x.r.config.synthetic ? "synthetic" : "cifar-10";
         }},
        {"status", [](const EpochRow &x) { return toString(x.run.state); }},
        {"host", [](const EpochRow &x) { return x.r.fingerprint.hostName; }},
        {"comparable", [](const EpochRow &x) { return flag(x.run.comparable()); }},
        {"differences", [](const EpochRow &x) { return joined(x.run.differences, ";"); }},
        {"contended",
         [](const EpochRow &x) { return x.e.load.measured ? flag(x.e.load.contended) : ""; }},
        {"cpu_share", [](const EpochRow &x) { return loadNumber(x, &EpochLoad::cpuShare, 4); }},
        {"other_cpus", [](const EpochRow &x) { return loadNumber(x, &EpochLoad::otherCpus, 4); }},
        {"steal_fraction",
         [](const EpochRow &x) { return loadNumber(x, &EpochLoad::stealFraction, 4); }},
        {"load_average",
         [](const EpochRow &x) { return loadNumber(x, &EpochLoad::loadAverage, 2); }},
    } +
    modelColumns<EpochRow>() +
    phaseColumns<EpochRow>("_s",
                           [](const EpochRow &x, std::size_t phase) {
                               // Each phase's seconds, all empty when the epoch was not
                               // phase-timed.
                               const PhaseTimes &p = x.e.phases;
                               return p.measured ? number(p.*phaseFields()[phase].seconds, 6)
                                                 : std::string();
                           }) +
    // Added with precision as a setting: after the columns of earlier versions, in place.
    CsvColumns<EpochRow>{
        {"precision", [](const EpochRow &x) { return precisionName(x.r); }},
        // float16: the steps the loss scaler skipped; empty without a loss scaler.
        {"skipped_steps",
         [](const EpochRow &x) {
             return x.e.skippedSteps >= 0 ? std::to_string(x.e.skippedSteps) : std::string();
         }},
    } +
    // Added with the canary (machine_drift.h): empty in records written before it.
    CsvColumns<EpochRow>{
        {"started_unix_s",
         [](const EpochRow &x) { return optionalNumber(x.e.startedUnixSeconds, 3); }},
        {"canary_s", [](const EpochRow &x) { return canaryNumber(x, x.e.canary.seconds); }},
        {"canary_run_threads_s",
         [](const EpochRow &x) { return canaryNumber(x, x.e.canary.runThreadsSeconds); }},
        {"canary_change", [](const EpochRow &x) { return canaryNumber(x, x.e.canaryChange); }},
        {"speed_changed",
         [](const EpochRow &x) { return x.e.canary.measured ? flag(x.e.speedChanged) : ""; }},
    } +
    // Added with the system sampler: empty for epochs that were not sampled.
    columnsOf<EpochRow>(epochSystemColumns(),
                        [](const EpochRow &x) -> const EpochResult & { return x.e; });

// ---- the summary CSV -------------------------------------------------------------------------

// A run's row of the summary.
struct RunRow {
    const RunEntry &run;
    const RunRecord &r;
    const Summary &s;
    const Fingerprint &f;
    std::string device;   // deviceOf(r)
    std::string baseline; // the baseline run's label; "" without one
    // Each phase's share of the phase-timed stable epochs' summed time (phaseFractions).
    std::array<double, kPhaseCount> phaseFractions;
};

// A statistic of the stable epochs: NaN without one.
double stable(const Summary &s, double value) { return s.hasStable ? value : kNaN; }

// A spread of the stable epochs: "n/a" for fewer than 2.
std::string spread(const Summary &s, double value, int decimals) {
    return s.stableCount >= 2 ? number(value, decimals) : std::string(kUndefined);
}

// A bound of a speed-up's interval: "n/a" when the speed-up exists but its interval does not
// (a run with fewer than 2 stable epochs on either side), else number().
std::string speedUpBound(double ratio, double bound) {
    return std::isfinite(ratio) && std::isnan(bound) ? std::string(kUndefined) : number(bound, 4);
}

// `value` of the run's GPU for a CUDA run, of every GPU of the machine otherwise, joined by ';'.
std::string gpuCells(const RunRow &x, std::string (*value)(const GpuInfo &)) {
    std::vector<std::string> cells;
    for (const GpuInfo &gpu : x.f.gpus) {
        if (x.device.rfind("cuda", 0) == 0 && x.device != "cuda:" + std::to_string(gpu.index))
            continue;
        cells.push_back(value(gpu));
    }
    return joined(cells, ";");
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

// The summary's count of stable epochs flagged "machine speed changed": empty when no stable
// epoch has a canary.
std::string speedChangedCount(const RunEntry &run) {
    if (std::isnan(stableCanaryDrift(run.record.epochs, run.warmupEpochs)))
        return {};
    return std::to_string(speedChangedStableEpochs(run.record.epochs, run.warmupEpochs).size());
}

// The summary's achieved GFLOP/s (achievedGflops, comparison.h): "%.2f"; "n/a" when the
// model's multiply-adds are unknown, "nan" without a stable epoch.
std::string gflopsCell(const RunEntry &run) {
    if (run.record.started.multiplyAddsPerImage <= 0)
        return kUndefined;
    return number(achievedGflops(run.record, run.summary), 2);
}

// Each phase's fraction of the phase-timed stable epochs' summed time; "n/a" when no stable
// epoch was phase-timed.
std::string phaseFractionCell(const RunRow &x, std::size_t phase) {
    const double fraction = x.phaseFractions[phase];
    return std::isfinite(fraction) ? number(fraction, 4) : std::string(kUndefined);
}

// What the run costs (cost.h), added with the prices: at the end, so that readers of the columns
// before keep them. Money cells are "n/a" without a figure (RunCost::reason in cost_note).
CsvColumns<RunRow> costColumns() {
    const auto money = [](double value) {
        return std::isfinite(value) ? preciseNumber(value, 8) : std::string(kUndefined);
    };
    return {
        {"cost_basis", [](const RunRow &x) { return toString(x.run.cost.basis); }},
        {"price_per_hour",
         [](const RunRow &x) {
             const RunPrice &p = x.run.cost.price;
             return p.found ? preciseNumber(p.perHour, 6) : std::string();
         }},
        {"price_per_kwh",
         [](const RunRow &x) {
             return x.run.cost.basis == CostBasis::Energy ? preciseNumber(x.run.cost.perKwh, 6)
                                                          : std::string();
         }},
        {"currency", [](const RunRow &x) { return x.run.cost.currency; }},
        {"cost_per_epoch", [money](const RunRow &x) { return money(x.run.cost.perEpoch); }},
        {"cost_per_10_epochs", [money](const RunRow &x) { return money(x.run.cost.perRun); }},
        {"images_per_money",
         [](const RunRow &x) {
             const RunCost &c = x.run.cost;
             return std::isfinite(c.imagesPerMoney) ? preciseNumber(c.imagesPerMoney, 1)
                                                    : imagesPerMoneyText(c);
         }},
        {"price_source",
         [](const RunRow &x) {
             const RunPrice &p = x.run.cost.price;
             if (!p.found)
                 return std::string();
             std::string text = p.match;
             if (!p.source.empty())
                 text += "; " + p.source;
             if (!p.date.empty())
                 text += "; " + p.date;
             return text;
         }},
        {"cost_note",
         [](const RunRow &x) {
             const RunCost &c = x.run.cost;
             return c.basis == CostBasis::None ? c.reason : costBasisText(c);
         }},
    };
}

const CsvColumns<RunRow> kSummaryColumns =
    CsvColumns<RunRow>{
        {"run", [](const RunRow &x) { return x.run.label; }},
        {"device", [](const RunRow &x) { return x.device; }},
        {"host", [](const RunRow &x) { return x.f.hostName; }},
        {"threads", [](const RunRow &x) { return std::to_string(x.r.started.threads); }},
        {"status", [](const RunRow &x) { return toString(x.run.state); }},
        {"epochs", [](const RunRow &x) { return std::to_string(x.r.epochs.size()); }},
        {"warmup_epochs", [](const RunRow &x) { return std::to_string(x.run.warmupEpochs); }},
        {"mean_all_s",
         [](const RunRow &x) { return number(x.s.epochSeconds.empty() ? kNaN : x.s.meanAll, 4); }},
        {"stable_mean_s", [](const RunRow &x) { return number(stable(x.s, x.s.stableMean), 4); }},
        {"median_s", [](const RunRow &x) { return number(stable(x.s, x.s.median), 4); }},
        {"stddev_s", [](const RunRow &x) { return spread(x.s, x.s.stddev, 4); }},
        {"min_s", [](const RunRow &x) { return number(stable(x.s, x.s.min), 4); }},
        {"max_s", [](const RunRow &x) { return number(stable(x.s, x.s.max), 4); }},
        {"cv", [](const RunRow &x) { return spread(x.s, x.s.cv, 6); }},
        {"ci95_low_s", [](const RunRow &x) { return spread(x.s, x.s.ciLow, 4); }},
        {"ci95_high_s", [](const RunRow &x) { return spread(x.s, x.s.ciHigh, 4); }},
        {"images_per_s",
         [](const RunRow &x) { return number(stable(x.s, x.s.imagesPerSecond), 2); }},
        {"speedup", [](const RunRow &x) { return number(x.run.speedUp.ratio, 4); }},
        {"speedup_low",
         [](const RunRow &x) { return speedUpBound(x.run.speedUp.ratio, x.run.speedUp.low); }},
        {"speedup_high",
         [](const RunRow &x) { return speedUpBound(x.run.speedUp.ratio, x.run.speedUp.high); }},
        {"baseline", [](const RunRow &x) { return x.baseline; }},
        {"comparable", [](const RunRow &x) { return flag(x.run.comparable()); }},
        {"differences", [](const RunRow &x) { return joined(x.run.differences, ";"); }},
        {"max_test_loss_diff",
         [](const RunRow &x) {
             return x.run.isBaseline ? std::string() : number(x.run.maxTestLossDiff, 6);
         }},
        {"cpu_model", [](const RunRow &x) { return x.f.cpuModel; }},
        {"physical_cores", [](const RunRow &x) { return std::to_string(x.f.physicalCores); }},
        {"logical_cores", [](const RunRow &x) { return std::to_string(x.f.logicalCores); }},
        {"cpu_quota", [](const RunRow &x) { return x.f.cpuQuota; }},
        {"affinity", [](const RunRow &x) { return x.f.affinity; }},
        {"omp_num_threads", [](const RunRow &x) { return x.f.ompNumThreads; }},
        {"intra_op_threads", [](const RunRow &x) { return std::to_string(x.f.intraOpThreads); }},
        {"blas", [](const RunRow &x) { return x.f.blasLibrary; }},
        {"libtorch", [](const RunRow &x) { return x.f.libtorchVersion; }},
        {"cuda_built", [](const RunRow &x) { return flag(x.f.cudaBuilt); }},
        {"cuda_runtime", [](const RunRow &x) { return x.f.cudaRuntimeVersion; }},
        {"cudnn", [](const RunRow &x) { return x.f.cudnnVersion; }},
        {"driver", [](const RunRow &x) { return x.f.driverVersion; }},
        {"gpu_name",
         [](const RunRow &x) { return gpuCells(x, [](const GpuInfo &g) { return g.name; }); }},
        {"gpu_cc",
         [](const RunRow &x) {
             return gpuCells(x, [](const GpuInfo &g) {
                 return std::to_string(g.computeMajor) + "." + std::to_string(g.computeMinor);
             });
         }},
        {"gpu_memory_bytes",
         [](const RunRow &x) {
             return gpuCells(x, [](const GpuInfo &g) { return std::to_string(g.memoryBytes); });
         }},
        {"cudnn_benchmark", [](const RunRow &x) { return flag(x.f.cudnnBenchmark); }},
        {"app_version", [](const RunRow &x) { return x.f.appVersion; }},
        {"os", [](const RunRow &x) { return x.f.os; }},
        {"contended_stable_epochs", [](const RunRow &x) { return contendedCount(x.run); }},
    } +
    modelColumns<RunRow>() +
    CsvColumns<RunRow>{{"achieved_gflops", [](const RunRow &x) { return gflopsCell(x.run); }}} +
    phaseColumns<RunRow>("_fraction", phaseFractionCell) +
    // Added with precision as a setting: after the columns of earlier versions, in place.
    CsvColumns<RunRow>{
        {"precision", [](const RunRow &x) { return precisionName(x.r); }},
        {"precision_native", [](const RunRow &x) { return flag(x.r.started.precisionNative); }},
        {"precision_note", [](const RunRow &x) { return x.r.started.precisionNote; }},
        {"tf32", [](const RunRow &x) { return toString(x.r.config.tf32); }},
    } +
    // Added with the canary: empty in records written before it.
    CsvColumns<RunRow>{
        {"canary_drift",
         [](const RunRow &x) {
             return optionalNumber(stableCanaryDrift(x.r.epochs, x.run.warmupEpochs), 4);
         }},
        {"speed_changed_stable_epochs", [](const RunRow &x) { return speedChangedCount(x.run); }},
        {"machine_speed_vs_baseline",
         [](const RunRow &x) {
             return x.run.machineSpeed.compared ? number(x.run.machineSpeed.change, 4)
                                                : std::string();
         }},
        {"machine_speed_biased",
         [](const RunRow &x) {
             return x.run.machineSpeed.compared ? flag(x.run.machineSpeed.biased) : "";
         }},
    } +
    // Added with the system sampler, then the prices.
    columnsOf<RunRow>(runSystemColumns(),
                      [](const RunRow &x) {
                          return SampledRun{x.r, x.run.warmupEpochs};
                      }) +
    costColumns();

} // namespace

std::string epochCsv(const RunSet &runs) {
    std::string csv = detail::csvHeader(kEpochColumns);
    for (const RunEntry &run : runs.runs()) {
        for (const EpochResult &e : run.record.epochs)
            csv += detail::csvRow(kEpochColumns, EpochRow{run, run.record, e});
    }
    return csv;
}

std::string summaryCsv(const RunSet &runs) {
    std::string csv = detail::csvHeader(kSummaryColumns);
    const int baselineIndex = runs.baselineIndex();
    const std::string baseline = baselineIndex >= 0 ? runs.run(baselineIndex).label : "";
    for (const RunEntry &run : runs.runs()) {
        const RunRow row{run,
                         run.record,
                         run.summary,
                         run.record.fingerprint,
                         deviceOf(run.record),
                         baseline,
                         phaseFractions(stablePhaseMean(run.record.epochs, run.warmupEpochs))};
        csv += detail::csvRow(kSummaryColumns, row);
    }
    return csv;
}

} // namespace devicebench
