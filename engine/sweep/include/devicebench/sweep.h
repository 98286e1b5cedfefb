// SPDX-License-Identifier: MIT
// The sweep: a grid over models x batch sizes x image sizes x precisions x devices, each cell a
// short timed step run (step_bench.h), one record per cell in a folder, resumable, with its CSV.
// Records, resume rule and CSV columns: docs/sweep-record.md. Qt-free and LibTorch-free header.
#pragma once

#include "devicebench/fingerprint.h"
#include "devicebench/run_types.h"
#include "devicebench/step_bench.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace devicebench {

// A device and, on the CPU, its intra-op thread count ("cpu" x 2, "cuda:0").
struct SweepDevice {
    std::string device = "cpu"; // "cpu", "cuda", "cuda:N"
    int threads = 0;            // CPU intra-op threads; 0 = the usable cores; ignored on CUDA
    // "cpu x2", "cuda:0": the label in tables, CSV and charts ("cpu (all cores)" for threads 0,
    // which sweepCells() never leaves in a cell).
    std::string label() const;
};

struct SweepSpec {
    std::vector<std::string> models{kDefaultModel};
    std::vector<int> batchSizes{kDefaultBatchSize}; // 1..1024 each
    std::vector<int> imageSizes{kDefaultImageSize};
    std::vector<SweepDevice> devices{SweepDevice{}};
    std::vector<Precision> precisions{Precision::Float32}; // each cell's arithmetic
    int warmupSteps = 5;                                   // StepBenchConfig
    int steps = 20;
    int phaseSteps = 5;
    RunConfig base; // workload, seed, learningRate, dataDir / synthetic for every cell
    // Measure each device's peak (measurePeakThroughput, about a second per device) for the
    // cells' fraction of peak; false: not measured (peakGflops and fractionOfPeak NaN).
    bool measurePeak = true;
};

// "" or the first problem of the grid, naming the setting and the value ("batch size 2048 is
// not in 1..1024"): empty lists, unknown values, a value given twice, a precision a device cannot
// run. What a sweep to a target checks before each cell's run is checked as a run.
std::string validateSweepGrid(const SweepSpec &spec);

// validateSweepGrid, then the StepBenchConfig rules of a step sweep (its steps, and a workload
// the engine's loop trains: a recipe is swept to a target only).
std::string validateSweepSpec(const SweepSpec &spec);

struct SweepCell {
    std::string model;
    int batchSize = 0;
    int imageSize = 0;
    SweepDevice device;
    Precision precision = Precision::Float32;
    // The cell's file stem in the sweep folder, unique within a grid: "resnet18_b64_s32_cpu_x2",
    // "vit-tiny_b256_s32_cuda0"; a precision other than fp32 adds "_bf16" / "_fp16" (so fp32
    // cells keep the names of sweeps made before precision was an axis).
    std::string key() const;
};

// The grid in run order: devices outermost, then models, image sizes, batch sizes, precisions.
// Devices are normalised ("cuda" -> "cuda:0", CPU threads 0 -> the usable cores, CUDA threads ->
// 0). The spec is not validated.
std::vector<SweepCell> sweepCells(const SweepSpec &spec);

// The StepBenchConfig of `cell`: spec.base with the cell's model, batch size, image size,
// device and threads, and the spec's steps; no target accuracy (a cell has no test pass).
StepBenchConfig stepBenchConfig(const SweepSpec &spec, const SweepCell &cell);

// One cell's record, <folder>/<cell.key()>.json, written when the cell ends.
struct SweepCellRecord {
    int schemaVersion = 1;
    std::string createdUtc; // ISO 8601
    SweepCell cell;
    int warmupSteps = 0;
    int steps = 0;
    int phaseSteps = 0;
    std::string workload = "faithful";
    bool synthetic = false;
    std::uint64_t seed = kDefaultSeed;          // absent in a file: 0
    double learningRate = kDefaultLearningRate; // absent in a file: 0.01
    StepBenchResult result;
    // Achieved against the machine's measured peak (measurePeakThroughput, once per device per
    // sweep): result.achievedGflops / peakGflops; NaN when not measured.
    double peakGflops = 0.0;
    std::string peakMethod;
    double fractionOfPeak = 0.0;
    Fingerprint fingerprint; // host, CPU, GPU, library versions
    // What the machine did over the whole cell (set-up, warm-up and timed steps), read by the
    // system sampler (system_sampler.h); sampled false in records written before it.
    EpochSystem system{};
};

// JSON text of a record, and back. readSweepCellRecord throws RecordError naming the source,
// the field and the value ("<source>: field 'result.stepSeconds[2]' must be above 0 (got 0)").
std::string toJson(const SweepCellRecord &record);
SweepCellRecord readSweepCellRecord(const std::string &jsonText, const std::string &source);

// Where runSweep keeps `cell`'s record: <folder>/<cell.key()>.json.
std::string sweepRecordPath(const std::string &folder, const SweepCell &cell);

// Writes `record` to sweepRecordPath(folder, record.cell) atomically (atomic_file.h). Throws
// std::runtime_error "cannot write sweep record <path>: <OS error>"; the previous file, if any,
// then stays.
void writeSweepCellRecord(const std::string &folder, const SweepCellRecord &record);

// Every "*.json" cell record in `folder`, in grid order (CPUs by threads, then GPUs by index).
// A file that does not read adds "skipped <file>: <reason>" to *errors (when not null) and the
// rest load; a folder that cannot be listed adds one error and returns nothing.
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
// Every member may be empty.
struct SweepObserver {
    // Once, first: the grid's size and how many of its cells were found finished (resumed).
    std::function<void(const SweepProgress &)> sweepStarted;
    // Before the first cell of a device that runs: its peak, or why it could not be measured
    // (then peak.gflops is NaN). Not called when SweepSpec::measurePeak is false.
    std::function<void(const SweepDevice &, const PeakThroughput &, const std::string &error)>
        peakMeasured;
    std::function<void(const SweepCell &, const SweepProgress &)> cellStarted;
    std::function<void(const SweepCellRecord &, const SweepProgress &, bool resumed)> cellEnded;
};

struct SweepOutcome {
    RunStatus status = RunStatus::Finished; // Cancelled when stopped; Finished otherwise, even
                                            // when some cells failed (each says why)
    std::vector<SweepCellRecord> records;   // every cell ended, in grid order
    int failedCells = 0;
};

// How runSweep measures a device's peak (measurePeakThroughput by default; tests inject one).
using PeakMeasurer = std::function<PeakThroughput(const std::string &device, int threads)>;

// Runs the grid, one record per cell into `folder` (created if missing). A cell already ended
// there with the same settings is not redone but reported as resumed (docs/sweep-record.md,
// "Resume"). A stop request ends the running cell unrecorded and the sweep as Cancelled.
// Throws std::invalid_argument for a spec validateSweepSpec refuses, std::runtime_error naming
// the path when the folder or a record cannot be written (earlier records stay).
SweepOutcome runSweep(const SweepSpec &spec, const std::string &folder,
                      const SweepObserver &observer, const std::atomic<bool> &stopRequested,
                      const PeakMeasurer &measurePeak = measurePeakThroughput);

// images/s of `cell` / images/s of the `baselineLabel` device's cell of the same model, batch
// size, image size and precision; NaN when either did not finish or there is no such cell.
double sweepSpeedUp(const std::vector<SweepCellRecord> &records, const SweepCellRecord &cell,
                    const std::string &baselineLabel);

// images/s of `cell` / images/s of the fp32 cell of the same device, model, batch size and
// image size (what mixed precision gains there: above 1 faster); NaN when either did not
// finish, there is no such cell, or `cell` is itself fp32.
double sweepPrecisionGain(const std::vector<SweepCellRecord> &records, const SweepCellRecord &cell);

// The sweep CSV: kSweepCsvHeader, then one row per record in the order given, speed-ups
// against `baselineLabel` (empty: those cells empty). Cells as csv_export.h's; columns:
// docs/sweep-record.md.
std::string sweepCsv(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel);
inline constexpr const char *kSweepCsvHeader =
    "model,parameters,image_size,batch_size,device,threads,status,reason,warmup_steps,steps,"
    "images_per_s,ci95_low,ci95_high,achieved_gflops,peak_gflops,fraction_of_peak,phase_steps,"
    "data_fraction,forward_fraction,loss_fraction,backward_fraction,optimizer_fraction,speedup,"
    "baseline,workload,data,setup_s,precision,precision_gain";

// sweepCsv written to `path` atomically; false with *error (when not null) naming the file on
// failure ("Cannot write <path>: <OS error>", as writeExportFile), the file then unchanged.
bool writeSweepCsv(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel,
                   const std::string &path, std::string *error);

} // namespace devicebench
