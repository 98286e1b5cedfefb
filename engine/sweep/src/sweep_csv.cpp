// SPDX-License-Identifier: MIT
// The sweep CSV (docs/sweep-record.md, "The CSV").
#include "devicebench/csv_export.h"
#include "devicebench/sweep.h"

#include "csv_table.h"

#include <string>
#include <vector>

namespace devicebench {
namespace {

using detail::CsvColumns;

// A cell's row, with what its speed-up is taken against.
struct CellRow {
    const SweepCellRecord &r;
    const StepBenchResult &s;
    const std::vector<SweepCellRecord> &records;
    const std::string &baseline; // a SweepDevice label; "" for no speed-up
};

// A phase's share of the phase-timed steps' time; empty when not measured.
std::string phaseFraction(const CellRow &x, double PhaseTimes::*phase) {
    const PhaseTimes &p = x.s.phases;
    const double total = p.total();
    if (!p.measured || !(total > 0.0)) {
        return {};
    }
    return csvNumber(p.*phase / total, 4);
}

std::string speedUp(const CellRow &x) {
    return x.baseline.empty() ? std::string()
                              : csvNumber(sweepSpeedUp(x.records, x.r, x.baseline), 4);
}

// The columns of kSweepCsvHeader (sweep.h), in its order.
const CsvColumns<CellRow> kSweepColumns = {
    {"model", [](const CellRow &x) { return x.r.cell.model; }},
    {"parameters", [](const CellRow &x) { return std::to_string(x.s.modelParameters); }},
    {"image_size", [](const CellRow &x) { return std::to_string(x.r.cell.imageSize); }},
    {"batch_size", [](const CellRow &x) { return std::to_string(x.r.cell.batchSize); }},
    {"device", [](const CellRow &x) { return x.r.cell.device.device; }},
    {"threads", [](const CellRow &x) { return std::to_string(x.r.cell.device.threads); }},
    {"status", [](const CellRow &x) { return toString(x.s.status); }},
    {"reason", [](const CellRow &x) { return x.s.reason; }},
    {"warmup_steps", [](const CellRow &x) { return std::to_string(x.r.warmupSteps); }},
    {"steps", [](const CellRow &x) { return std::to_string(x.r.steps); }},
    {"images_per_s", [](const CellRow &x) { return csvNumber(x.s.imagesPerSecond, 2); }},
    {"ci95_low", [](const CellRow &x) { return csvNumber(x.s.imagesPerSecondLow, 2); }},
    {"ci95_high", [](const CellRow &x) { return csvNumber(x.s.imagesPerSecondHigh, 2); }},
    {"achieved_gflops", [](const CellRow &x) { return csvNumber(x.s.achievedGflops, 3); }},
    {"peak_gflops", [](const CellRow &x) { return csvNumber(x.r.peakGflops, 3); }},
    {"fraction_of_peak", [](const CellRow &x) { return csvNumber(x.r.fractionOfPeak, 4); }},
    {"phase_steps", [](const CellRow &x) { return std::to_string(x.s.phaseSteps); }},
    {"data_fraction", [](const CellRow &x) { return phaseFraction(x, &PhaseTimes::data); }},
    {"forward_fraction", [](const CellRow &x) { return phaseFraction(x, &PhaseTimes::forward); }},
    {"loss_fraction", [](const CellRow &x) { return phaseFraction(x, &PhaseTimes::loss); }},
    {"backward_fraction", [](const CellRow &x) { return phaseFraction(x, &PhaseTimes::backward); }},
    {"optimizer_fraction",
     [](const CellRow &x) { return phaseFraction(x, &PhaseTimes::optimizer); }},
    {"speedup", speedUp},
    {"baseline", [](const CellRow &x) { return x.baseline; }},
    {"workload", [](const CellRow &x) { return x.r.workload; }},
    {"data", [](const CellRow &x) { return x.r.synthetic ? "synthetic" : "cifar-10"; }},
    {"setup_s", [](const CellRow &x) { return csvNumber(x.s.setupSeconds, 3); }},
    {"precision", [](const CellRow &x) { return shortName(x.r.cell.precision); }},
    {"precision_gain",
     [](const CellRow &x) { return csvNumber(sweepPrecisionGain(x.records, x.r), 4); }},
};

} // namespace

std::string sweepCsv(const std::vector<SweepCellRecord> &records,
                     const std::string &baselineLabel) {
    std::string csv = detail::csvHeader(kSweepColumns);
    for (const SweepCellRecord &r : records) {
        csv += detail::csvRow(kSweepColumns, CellRow{r, r.result, records, baselineLabel});
    }
    return csv;
}

bool writeSweepCsv(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel,
                   const std::string &path, std::string *error) {
    try {
        writeExportFile(path, sweepCsv(records, baselineLabel));
        return true;
    } catch (const ExportError &e) {
        if (error != nullptr) {
            *error = e.what();
        }
        return false;
    }
}

} // namespace devicebench
