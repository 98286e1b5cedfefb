// SPDX-License-Identifier: MIT
// Engine-internal (compare): the CSV columns of what the system sampler read (system_metrics.h,
// run_energy.h), added with sampling at the end of the per-epoch rows and before the cost
// columns of the summary rows, empty ("" or "n/a") for runs that were not sampled.
#pragma once

#include "csv_table.h"

#include "devicebench/run_record.h"

namespace devicebench::detail {

// Per epoch: process_cores, machine_cores (means), peak_rss_bytes, gpu_utilization,
// gpu_power_w (means), gpu_memory_peak_bytes, energy_j (the epoch's, epochJoules),
// energy_method (energyMethods, or why not measured).
CsvColumns<EpochResult> epochSystemColumns();

// A run and its warm-up epochs, for the summary's columns.
struct SampledRun {
    const RunRecord &record;
    int warmupEpochs = 0;
};

// Per run, over the stable epochs: mean_process_cores, peak_rss_bytes, mean_gpu_utilization,
// mean_gpu_power_w, energy_j_per_stable_epoch, energy_j_stable_total, energy_method
// (summarizeEnergy; "n/a" and the reason when not measured, "not sampled" for older records).
CsvColumns<SampledRun> runSystemColumns();

} // namespace devicebench::detail
