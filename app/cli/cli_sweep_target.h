// SPDX-License-Identifier: MIT
// `devicebench-cli sweep --target-accuracy P`: the grid's cells as whole runs, each stopped at
// the first epoch whose test accuracy reaches P (--epochs the budget), run and recorded as
// `run` runs several (cli_planned_runs.h) and ranked by time to target.
#pragma once

#include "cli_sweep_options.h"

#include "devicebench/sweep.h"

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

// "" or why the flags given do not fit the sweep's mode: with a target, the step flags
// (--steps, --warmup-steps, --phase-steps, --baseline, --no-peak) are refused; without one,
// the run flags (--epochs, --train-images, --test-images, --interleave).
std::string sweepModeProblem(const SweepOptions &options);

// A recipe workload (the speedrun) sweeps whole runs to a target only: its target unless
// --target-accuracy is given, its network, its batch size unless --batch-size is given, and each
// device's recipePrecision() unless --precision is given. --model, --image-size, --lr and the
// step flags are refused, as `run` refuses them. Any other workload: nothing changes.
// "" or the problem.
std::string applySweepRecipeDefaults(SweepOptions &options);

// Runs `cells` (of options.spec, which buildSpec filled and validateSweepSpec passed) to
// options.targetAccuracy: each cell a RunConfig of the spec's base with the cell's model, batch
// size, image size, precision, device and threads, checked before the first run (exit 2, nothing
// run), then runPlanned with --out-dir (run records, not cell records; default
// "devicebench-sweep-to-target"; a sweep to a target is not resumed), --csv, --png and
// --interleave. Returns an ExitCode.
int sweepToTarget(const SweepOptions &options, const std::vector<SweepCell> &cells,
                  std::ostream &out, std::ostream &err, const std::atomic<bool> &stopRequested);

} // namespace devicebench::cli
