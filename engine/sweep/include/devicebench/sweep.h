// SPDX-License-Identifier: MIT
// The sweep (issue 13): a grid over models x batch sizes x image sizes x devices, each cell a
// short timed run (step_bench.h), one record per cell in a folder, resumable (finished cells
// are not redone), with its CSV. Qt-free and LibTorch-free header; the CLI (`devicebench-cli
// sweep`) and the dashboard's Sweep view both call it.
#pragma once

#include "devicebench/fingerprint.h"
#include "devicebench/run_types.h"
#include "devicebench/step_bench.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace devicebench {

// A device and, on the CPU, its intra-op thread count ("cpu" x 2, "cuda:0").
struct SweepDevice {
    std::string device = "cpu"; // "cpu", "cuda", "cuda:N"
    int threads = 0;            // CPU intra-op threads; 0 = the usable cores; ignored on CUDA
    // "cpu x2", "cuda:0": the label in tables, CSV and charts.
    std::string label() const;
};

struct SweepSpec {
    std::vector<std::string> models{kDefaultModel};
    std::vector<int> batchSizes{kDefaultBatchSize}; // 1..1024 each
    std::vector<int> imageSizes{kDefaultImageSize};
    std::vector<SweepDevice> devices{SweepDevice{}};
    int warmupSteps = 5; // StepBenchConfig
    int steps = 20;
    int phaseSteps = 5;
    RunConfig base; // workload, seed, learningRate, dataDir / synthetic for every cell
};

// "" or the first problem, naming the setting and the value (e.g. "batch size 2048 is not in
// 1..1024").
std::string validateSweepSpec(const SweepSpec &spec);

struct SweepCell {
    std::string model;
    int batchSize = 0;
    int imageSize = 0;
    SweepDevice device;
    // The cell's file stem in the sweep folder, unique within a grid:
    // "<model>_b<batch>_s<image size>_<device>_x<threads>", e.g. "resnet18_b64_s32_cpu_x2".
    std::string key() const;
};

// The grid in run order: devices outermost, then models, image sizes, batch sizes.
std::vector<SweepCell> sweepCells(const SweepSpec &spec);

// One cell's record: <folder>/<cell.key()>.json, written atomically (atomic_file.h) when the
// cell ends; schema in docs/sweep-record.md.
struct SweepCellRecord {
    int schemaVersion = 1;
    std::string createdUtc; // ISO 8601
    SweepCell cell;
    int warmupSteps = 0;
    int steps = 0;
    int phaseSteps = 0;
    std::string workload = "faithful";
    bool synthetic = false;
    StepBenchResult result;
    // Achieved against the machine's measured peak (measurePeakThroughput, once per device per
    // sweep): result.achievedGflops / peakGflops; NaN when not measured.
    double peakGflops = 0.0;
    std::string peakMethod;
    double fractionOfPeak = 0.0;
    Fingerprint fingerprint; // host, CPU, GPU, library versions
};

// JSON text of a record, and back. readSweepCellRecord throws std::runtime_error naming the
// field and the value ("<source>: field 'result.stepSeconds[2]' must be above 0 (got 0)").
std::string toJson(const SweepCellRecord &record);
SweepCellRecord readSweepCellRecord(const std::string &jsonText, const std::string &source);

// Every "*.json" cell record in `folder`, in grid order where they belong to one; a file that
// does not read adds "skipped <file>: <reason>" to *errors and the rest load.
std::vector<SweepCellRecord> loadSweepFolder(const std::string &folder,
                                             std::vector<std::string> *errors);

// Progress of runSweep, on its thread; implementations return quickly and do not throw.
struct SweepProgress {
    int done = 0;           // cells ended (run or found finished) so far
    int total = 0;          // cells in the grid
    int skipped = 0;        // of `done`: found finished in the folder (resumed), not redone
    double secondsLeft = 0; // estimate: mean seconds of the cells run so far x cells left; NaN
                            // before the first run cell
};
struct SweepObserver {
    std::function<void(const SweepCell &, const SweepProgress &)> cellStarted;
    std::function<void(const SweepCellRecord &, const SweepProgress &, bool resumed)> cellEnded;
};

struct SweepOutcome {
    RunStatus status = RunStatus::Finished; // Cancelled when stopped; Finished otherwise, even
                                            // when some cells failed (each says why)
    std::vector<SweepCellRecord> records;   // every cell ended, in grid order
    int failedCells = 0;
};

// Runs the grid, writing one record per cell into `folder` (created if missing). A cell whose
// record is already there with status finished and the same steps, warm-up and phase steps is
// not redone (resume after a kill); a failed one (e.g. out of memory) is kept and not retried;
// a cancelled or unreadable one is run again. A stop request ends the running cell as
// cancelled (no record written) and the sweep as Cancelled. Throws std::runtime_error when the
// folder cannot be made.
SweepOutcome runSweep(const SweepSpec &spec, const std::string &folder,
                      const SweepObserver &observer, const std::atomic<bool> &stopRequested);

// Speed-up of each cell against the cell of `baseline` (a SweepDevice label) with the same
// model, batch size and image size: images/s of the cell / images/s of the baseline's; NaN when
// either did not finish or the baseline has no such cell.
double sweepSpeedUp(const std::vector<SweepCellRecord> &records, const SweepCellRecord &cell,
                    const std::string &baselineLabel);

// The sweep CSV: one row per cell (header in docs/sweep-record.md): model, parameters, image
// size, batch size, device, threads, status, reason, steps, images/s and its interval, GFLOP/s,
// peak GFLOP/s, fraction of peak, each phase's fraction of the phase-timed steps, and the
// speed-up against `baselineLabel` (empty: no speed-up columns' values). Written atomically;
// false with *error naming the file on failure.
bool writeSweepCsv(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel,
                   const std::string &path, std::string *error);

} // namespace devicebench
