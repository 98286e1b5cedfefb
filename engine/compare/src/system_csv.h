// SPDX-License-Identifier: MIT
// Engine-internal (compare): the CSV columns of what the system sampler read (system_metrics.h,
// run_energy.h), added with sampling at the end of the per-epoch rows and before the cost
// columns of the summary rows, empty ("" or "n/a") for runs that were not sampled. Their names
// and formats: docs/run-record.md, "The comparison CSV".
#pragma once

#include "csv_table.h"

#include "devicebench/run_record.h"

namespace devicebench::detail {

// Per epoch: the sampler's means and peaks, the epoch's energy and how it was measured.
CsvColumns<EpochResult> epochSystemColumns();

// A run and its warm-up epochs, for the summary's columns.
struct SampledRun {
    const RunRecord &record;
    int warmupEpochs = 0;
};

// Per run, over the stable epochs: the means of the sampler's means, the peak of the peaks,
// the energy (summarizeEnergy; "n/a" and the reason when not measured, "not sampled" for
// older records).
CsvColumns<SampledRun> runSystemColumns();

} // namespace devicebench::detail
