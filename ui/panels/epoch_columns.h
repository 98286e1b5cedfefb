// SPDX-License-Identifier: MIT
// The columns of the window's epoch table (epoch_table.h), named for its cells' tooltips
// (epoch_table_tips.h) without either including the other.
#pragma once

namespace devicebench {

// What a column is, for its tooltip (epoch_table_tips.h), its colour and tests.
enum class EpochColumn {
    Run,             // run label; its colour as decoration
    Comparable,      // "baseline", "yes" or "no: <fields>" against the baseline
    Device,          // canonical device ("cpu", "cuda:0")
    Threads,         // intra-op threads in use
    Epoch,           // from 1
    Seconds,         // wall time of training + test pass; "⚠ 1.23" when the epoch was not the
                     // device's alone (a busy machine, or one that changed speed)
    Warmup,          // "yes" or ""
    TrainLoss,       // nats
    TestLoss,        // nats
    TestAccuracy,    // percent
    ImagesPerSecond, // (train + test images) / seconds
    CpuCores,        // mean CPU cores the run's processes kept busy (EpochSystem)
    PeakMemory,      // their peak resident memory: "812 MiB", "1.25 GiB"
    Energy,          // the epoch's energy: "850 J", "12.3 kJ"; "n/a" when not measured
    SpeedChanged,    // the machine's speed changed (the canary, machine_drift.h): "canary +22 %"
    Contended,       // the epoch ran on a busy machine (contention.h): "yes" or ""
};

} // namespace devicebench
