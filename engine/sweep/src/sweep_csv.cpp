// SPDX-License-Identifier: MIT
// The sweep CSV (docs/sweep-record.md, "The CSV").
#include "devicebench/csv_export.h"
#include "devicebench/sweep.h"

#include <cmath>
#include <vector>

namespace devicebench {
namespace {

std::string line(const std::vector<std::string> &fields) {
    std::string text;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        text += (i == 0 ? "" : ",") + csvField(fields[i]);
    }
    return text + "\n";
}

// Each phase's share of the phase-timed steps' time; all empty when not measured.
std::vector<std::string> phaseFractions(const PhaseTimes &p) {
    const double total = p.total();
    if (!p.measured || !(total > 0.0)) {
        return {"", "", "", "", ""};
    }
    std::vector<std::string> cells;
    for (const double seconds : {p.data, p.forward, p.loss, p.backward, p.optimizer}) {
        cells.push_back(csvNumber(seconds / total, 4));
    }
    return cells;
}

} // namespace

std::string sweepCsv(const std::vector<SweepCellRecord> &records,
                     const std::string &baselineLabel) {
    std::string csv = std::string(kSweepCsvHeader) + "\n";
    for (const SweepCellRecord &r : records) {
        const StepBenchResult &s = r.result;
        std::vector<std::string> cells = {
            r.cell.model,
            std::to_string(s.modelParameters),
            std::to_string(r.cell.imageSize),
            std::to_string(r.cell.batchSize),
            r.cell.device.device,
            std::to_string(r.cell.device.threads),
            toString(s.status),
            s.reason,
            std::to_string(r.warmupSteps),
            std::to_string(r.steps),
            csvNumber(s.imagesPerSecond, 2),
            csvNumber(s.imagesPerSecondLow, 2),
            csvNumber(s.imagesPerSecondHigh, 2),
            csvNumber(s.achievedGflops, 3),
            csvNumber(r.peakGflops, 3),
            csvNumber(r.fractionOfPeak, 4),
            std::to_string(s.phaseSteps),
        };
        for (std::string &fraction : phaseFractions(s.phases)) {
            cells.push_back(std::move(fraction));
        }
        cells.push_back(baselineLabel.empty()
                            ? std::string()
                            : csvNumber(sweepSpeedUp(records, r, baselineLabel), 4));
        cells.push_back(baselineLabel);
        cells.push_back(r.workload);
        cells.push_back(r.synthetic ? "synthetic" : "cifar-10");
        cells.push_back(csvNumber(s.setupSeconds, 3));
        csv += line(cells);
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
