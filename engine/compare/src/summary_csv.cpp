// SPDX-License-Identifier: MIT
// The summary (per-run) CSV (csv_export.h: summaryCsv): its table of columns, one line per run.
#include "devicebench/csv_export.h"

#include "csv_table.h"
#include "system_csv.h"

#include "devicebench/comparison.h"
#include "devicebench/contention.h"
#include "devicebench/cost.h"
#include "devicebench/machine_drift.h"
#include "devicebench/phase_summary.h"
#include "devicebench/run_set.h"
#include "devicebench/time_to_target.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace devicebench {
namespace {

using detail::columnsOf;
using detail::CsvColumns;
using detail::finite;
using detail::flag;
using detail::joined;
using detail::runSystemColumns;
using detail::SampledRun;
using detail::unlessNaN;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// A statistic that does not exist for the data (stddev and cv of fewer than 2 stable epochs).
constexpr const char *kUndefined = "n/a";

// `value` at `decimals` while that keeps 6 significant digits and stays short; else 6
// significant digits in exponent form ("8.78049e-09", "1e+100"): money and prices span many
// orders of magnitude, and fixed decimals would print a tiny cost as 0.00000001 or 0.
std::string preciseNumber(double value, int decimals) {
    const double size = std::fabs(value);
    if (!std::isfinite(value) || value == 0.0 ||
        (size >= std::pow(10.0, 5 - decimals) && size < 1e15))
        return csvNumber(value, decimals);
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::general, 6);
    return std::string(buffer.data(), result.ptr);
}

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

using Column = CsvColumn<RunRow>;

// A statistic of the stable epochs: NaN without one.
double stable(const Summary &s, double value) { return s.hasStable ? value : kNaN; }

// A spread of the stable epochs: none ("n/a") for fewer than 2.
std::optional<double> spread(const Summary &s, double value) {
    return s.stableCount >= 2 ? std::optional<double>(value) : std::nullopt;
}

// A bound of a speed-up's interval: none ("n/a") when the speed-up exists but its interval
// does not (a run with fewer than 2 stable epochs on either side).
std::optional<double> speedUpBound(double ratio, double bound) {
    if (std::isfinite(ratio) && std::isnan(bound))
        return std::nullopt;
    return bound;
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

// The run, its statistics under the set's warm-up setting, its speed-up and control.
CsvColumns<RunRow> statisticsColumns() {
    return {
        {"run", [](const RunRow &x) { return x.run.label; }},
        {"device", [](const RunRow &x) { return x.device; }},
        {"host", [](const RunRow &x) { return x.f.hostName; }},
        {"threads", [](const RunRow &x) { return std::to_string(x.r.started.threads); }},
        {"status", [](const RunRow &x) { return toString(x.run.state); }},
        {"epochs", [](const RunRow &x) { return std::to_string(x.r.epochs.size()); }},
        {"warmup_epochs", [](const RunRow &x) { return std::to_string(x.run.warmupEpochs); }},
        Column::number(
            "mean_all_s", "s", 4,
            [](const RunRow &x) { return x.s.epochSeconds.empty() ? kNaN : x.s.meanAll; }),
        Column::number("stable_mean_s", "s", 4,
                       [](const RunRow &x) { return stable(x.s, x.s.stableMean); }),
        Column::number("median_s", "s", 4, [](const RunRow &x) { return stable(x.s, x.s.median); }),
        Column::number(
            "stddev_s", "s", 4, [](const RunRow &x) { return spread(x.s, x.s.stddev); },
            kUndefined),
        Column::number("min_s", "s", 4, [](const RunRow &x) { return stable(x.s, x.s.min); }),
        Column::number("max_s", "s", 4, [](const RunRow &x) { return stable(x.s, x.s.max); }),
        Column::number(
            "cv", "fraction", 6, [](const RunRow &x) { return spread(x.s, x.s.cv); }, kUndefined),
        Column::number(
            "ci95_low_s", "s", 4, [](const RunRow &x) { return spread(x.s, x.s.ciLow); },
            kUndefined),
        Column::number(
            "ci95_high_s", "s", 4, [](const RunRow &x) { return spread(x.s, x.s.ciHigh); },
            kUndefined),
        Column::number("images_per_s", "images/s", 2,
                       [](const RunRow &x) { return stable(x.s, x.s.imagesPerSecond); }),
        Column::number("speedup", "", 4, [](const RunRow &x) { return x.run.speedUp.ratio; }),
        Column::number(
            "speedup_low", "", 4,
            [](const RunRow &x) { return speedUpBound(x.run.speedUp.ratio, x.run.speedUp.low); },
            kUndefined),
        Column::number(
            "speedup_high", "", 4,
            [](const RunRow &x) { return speedUpBound(x.run.speedUp.ratio, x.run.speedUp.high); },
            kUndefined),
        {"baseline", [](const RunRow &x) { return x.baseline; }},
        {"comparable", [](const RunRow &x) { return flag(x.run.comparable()); }},
        {"differences", [](const RunRow &x) { return joined(x.run.differences, ";"); }},
        Column::number("max_test_loss_diff", "nats", 6,
                       [](const RunRow &x) -> std::optional<double> {
                           if (x.run.isBaseline)
                               return std::nullopt;
                           return x.run.maxTestLossDiff;
                       }),
    };
}

// The machine and its libraries (the fingerprint), and how many stable epochs were contended.
CsvColumns<RunRow> fingerprintColumns() {
    return {
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
    };
}

// The summary's achieved GFLOP/s (achievedGflops, comparison.h): none ("n/a") when the model's
// multiply-adds are unknown, NaN without a stable epoch.
std::optional<double> gflops(const RunRow &x) {
    if (x.r.started.multiplyAddsPerImage <= 0)
        return std::nullopt;
    return achievedGflops(x.r, x.run.summary);
}

// Added with precision as a setting, then with the canary: after the columns of earlier
// versions, in place; the canary's empty in records written before it.
CsvColumns<RunRow> precisionAndCanaryColumns() {
    return {
        {"precision", [](const RunRow &x) { return detail::precisionName(x.r); }},
        {"precision_native", [](const RunRow &x) { return flag(x.r.started.precisionNative); }},
        {"precision_note", [](const RunRow &x) { return x.r.started.precisionNote; }},
        {"tf32", [](const RunRow &x) { return toString(x.r.config.tf32); }},
        Column::number("canary_drift", "fraction", 4,
                       [](const RunRow &x) {
                           return unlessNaN(stableCanaryDrift(x.r.epochs, x.run.warmupEpochs));
                       }),
        {"speed_changed_stable_epochs", [](const RunRow &x) { return speedChangedCount(x.run); }},
        Column::number("machine_speed_vs_baseline", "fraction", 4,
                       [](const RunRow &x) -> std::optional<double> {
                           if (!x.run.machineSpeed.compared)
                               return std::nullopt;
                           return x.run.machineSpeed.change;
                       }),
        {"machine_speed_biased",
         [](const RunRow &x) {
             return x.run.machineSpeed.compared ? flag(x.run.machineSpeed.biased) : std::string();
         }},
    };
}

// Money and prices: preciseNumber, so that a tiny figure keeps its digits.
Column money(const char *name, const char *unit, int decimals, Column::Value value,
             const char *absent) {
    Column column = Column::number(name, unit, decimals, std::move(value), absent);
    column.format = preciseNumber;
    return column;
}

// What the run costs (cost.h), added with the prices: at the end, so that readers of the columns
// before keep them. Money cells are "n/a" without a figure (RunCost::reason in cost_note).
CsvColumns<RunRow> costColumns() {
    return {
        {"cost_basis", [](const RunRow &x) { return toString(x.run.cost.basis); }},
        money(
            "price_per_hour", "money/h", 6,
            [](const RunRow &x) -> std::optional<double> {
                const RunPrice &p = x.run.cost.price;
                if (!p.found)
                    return std::nullopt;
                return p.perHour;
            },
            ""),
        money(
            "price_per_kwh", "money/kWh", 6,
            [](const RunRow &x) -> std::optional<double> {
                if (x.run.cost.basis != CostBasis::Energy)
                    return std::nullopt;
                return x.run.cost.perKwh;
            },
            ""),
        {"currency", [](const RunRow &x) { return x.run.cost.currency; }},
        money(
            "cost_per_epoch", "money", 8,
            [](const RunRow &x) { return finite(x.run.cost.perEpoch); }, kUndefined),
        money(
            "cost_per_10_epochs", "money", 8,
            [](const RunRow &x) { return finite(x.run.cost.perRun); }, kUndefined),
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

// Time to accuracy (time_to_target.h), added with targets: at the end; empty for a run
// without a target, "n/a" for the times of a run that did not reach it.
CsvColumns<RunRow> targetColumns() {
    const auto target = [](const RunRow &x) {
        return timeToTarget(x.r.epochs, x.r.config.targetAccuracy);
    };
    const auto reachedTime = [target](double TargetResult::*field) {
        return [target, field](const RunRow &x) -> std::optional<double> {
            const TargetResult t = target(x);
            return t.set && t.reached ? unlessNaN(t.*field) : std::nullopt;
        };
    };
    return {
        Column::number("target_accuracy_pct", "%", 2,
                       [](const RunRow &x) { return x.r.config.targetAccuracy; }),
        {"target_reached",
         [target](const RunRow &x) {
             const TargetResult t = target(x);
             return t.set ? flag(t.reached) : std::string();
         }},
        {"target_epoch",
         [target](const RunRow &x) {
             const TargetResult t = target(x);
             return t.set && t.reached ? std::to_string(t.epoch) : std::string();
         }},
        // Empty without a target or when not reached (target_reached says which).
        Column::number("time_to_target_s", "s", 4, reachedTime(&TargetResult::seconds)),
        Column::number("training_to_target_s", "s", 4, reachedTime(&TargetResult::trainingSeconds)),
    };
}

CsvColumns<RunRow> makeSummaryColumns() {
    using detail::operator+;
    const auto record = [](const RunRow &x) -> const RunRecord & { return x.r; };
    return statisticsColumns() + fingerprintColumns() +
           columnsOf<RunRow>(detail::modelColumns(), record) +
           CsvColumns<RunRow>{Column::number("achieved_gflops", "GFLOP/s", 2, gflops, kUndefined)} +
           detail::phaseColumns<RunRow>(
               "_fraction", "fraction", 4,
               [](const RunRow &x, std::size_t phase) { return finite(x.phaseFractions[phase]); },
               kUndefined) +
           precisionAndCanaryColumns() +
           // Added with the system sampler, then the prices.
           columnsOf<RunRow>(runSystemColumns(),
                             [](const RunRow &x) {
                                 return SampledRun{x.r, x.run.warmupEpochs};
                             }) +
           costColumns() + targetColumns();
}

const CsvColumns<RunRow> &summaryColumns() {
    static const CsvColumns<RunRow> columns = makeSummaryColumns();
    return columns;
}

} // namespace

int summaryCsvColumnCount() { return static_cast<int>(summaryColumns().size()); }

std::string summaryCsv(const RunSet &runs) {
    const CsvColumns<RunRow> &columns = summaryColumns();
    std::string csv = detail::csvHeader(columns);
    const int baselineIndex = runs.baselineIndex();
    const std::string baseline = baselineIndex >= 0 ? runs.run(baselineIndex).label : "";
    for (const RunEntry &run : runs.runs()) {
        const RunRow row{run,
                         run.record,
                         run.summary,
                         run.record.fingerprint,
                         detail::deviceOf(run.record),
                         baseline,
                         phaseFractions(stablePhaseMean(run.record.epochs, run.warmupEpochs))};
        csv += detail::csvRow(columns, row);
    }
    return csv;
}

} // namespace devicebench
