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
    int warmupSteps = 5; // StepBenchConfig
    int steps = 20;
    int phaseSteps = 5;
    RunConfig base; // workload, seed, learningRate, dataDir / synthetic for every cell
    // Measure each device's peak (measurePeakThroughput, about a second per device) for the
    // cells' fraction of peak; false: not measured (peakGflops and fractionOfPeak NaN).
    bool measurePeak = true;
};

// "" or the first problem, naming the setting and the value (e.g. "batch size 2048 is not in
// 1..1024"): empty lists, unknown models, image sizes other than kImageSizes, batch sizes
// outside 1..1024, devices other than cpu, cuda, cuda:N, threads outside 0..1024, a value
// given twice, and the StepBenchConfig rules (steps >= 2, warm-up and phase steps >= 0,
// learning rate, data folder or synthetic).
std::string validateSweepSpec(const SweepSpec &spec);

struct SweepCell {
    std::string model;
    int batchSize = 0;
    int imageSize = 0;
    SweepDevice device;
    // The cell's file stem in the sweep folder, unique within a grid:
    // "<model>_b<batch>_s<image size>_cpu_x<threads>" on the CPU, e.g. "resnet18_b64_s32_cpu_x2",
    // and "<model>_b<batch>_s<image size>_cuda<N>" on cuda:N, e.g. "vit-tiny_b256_s32_cuda0".
    std::string key() const;
};

// The grid in run order: devices outermost, then models, image sizes, batch sizes, each list
// in the order given. Devices are normalised: "cuda" -> "cuda:0"; CPU threads 0 -> the usable
// cores (availableCores(), devices.h); CUDA threads -> 0. The spec is not validated.
std::vector<SweepCell> sweepCells(const SweepSpec &spec);

// The StepBenchConfig of `cell`: spec.base with the cell's model, batch size, image size,
// device and threads, and the spec's steps.
StepBenchConfig stepBenchConfig(const SweepSpec &spec, const SweepCell &cell);

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
    std::uint64_t seed = kDefaultSeed;          // absent in a file: 0
    double learningRate = kDefaultLearningRate; // absent in a file: 0.01
    StepBenchResult result;
    // Achieved against the machine's measured peak (measurePeakThroughput, once per device per
    // sweep): result.achievedGflops / peakGflops; NaN when not measured.
    double peakGflops = 0.0;
    std::string peakMethod;
    double fractionOfPeak = 0.0;
    Fingerprint fingerprint; // host, CPU, GPU, library versions
};

// JSON text of a record, and back. readSweepCellRecord throws std::runtime_error (RecordError,
// run_record.h) naming the source, the field and the value ("<source>: field
// 'result.stepSeconds[2]' must be above 0 (got 0)"); the rules are in docs/sweep-record.md.
std::string toJson(const SweepCellRecord &record);
SweepCellRecord readSweepCellRecord(const std::string &jsonText, const std::string &source);

// Where runSweep keeps `cell`'s record: <folder>/<cell.key()>.json.
std::string sweepRecordPath(const std::string &folder, const SweepCell &cell);

// Writes `record` to sweepRecordPath(folder, record.cell) atomically (atomic_file.h). Throws
// std::runtime_error "cannot write sweep record <path>: <OS error>"; the previous file, if any,
// then stays.
void writeSweepCellRecord(const std::string &folder, const SweepCellRecord &record);

// Every "*.json" cell record in `folder`, sorted in grid order: CPU devices (by threads) before
// CUDA devices (by index), then models (kModelNames order), image sizes, batch sizes. A file
// that does not read adds "skipped <file>: <reason>" to *errors (when not null) and the rest
// load; a folder that cannot be listed adds one error and returns nothing.
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

// Runs the grid, writing one record per cell into `folder` (created if missing). A cell whose
// record is already there with status finished or failed and the same steps, warm-up steps,
// phase steps, workload and data kind (synthetic or not) is not redone (resume after a kill; a
// failed one, e.g. out of memory, is kept and not retried) and is reported as resumed; any
// other (cancelled, unreadable, other settings) is run again and its file replaced. Each
// record gets the machine's fingerprint (collectFingerprint) taken after its cell ran. A stop
// request ends the running cell as cancelled (no record written) and the sweep as Cancelled.
// Throws std::invalid_argument when validateSweepSpec refuses the spec, std::runtime_error when
// the folder cannot be made or a record cannot be written (naming the path; the records
// written before stay).
SweepOutcome runSweep(const SweepSpec &spec, const std::string &folder,
                      const SweepObserver &observer, const std::atomic<bool> &stopRequested,
                      const PeakMeasurer &measurePeak = measurePeakThroughput);

// Speed-up of each cell against the cell of `baseline` (a SweepDevice label) with the same
// model, batch size and image size: images/s of the cell / images/s of the baseline's; NaN when
// either did not finish or the baseline has no such cell.
double sweepSpeedUp(const std::vector<SweepCellRecord> &records, const SweepCellRecord &cell,
                    const std::string &baselineLabel);

// The sweep CSV text: one row per record, in the order given (header and cells in
// docs/sweep-record.md, kSweepCsvHeader): model, parameters, image size, batch size, device,
// threads, status, reason, steps, images/s and its interval, GFLOP/s, peak GFLOP/s, fraction of
// peak, each phase's fraction of the phase-timed steps, and the speed-up against
// `baselineLabel` (empty: the speed-up and baseline cells are empty). Numbers use '.' whatever
// the locale; cells go through csvField (csv_export.h: RFC 4180 quoting, formulas neutralised).
std::string sweepCsv(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel);
inline constexpr const char *kSweepCsvHeader =
    "model,parameters,image_size,batch_size,device,threads,status,reason,warmup_steps,steps,"
    "images_per_s,ci95_low,ci95_high,achieved_gflops,peak_gflops,fraction_of_peak,phase_steps,"
    "data_fraction,forward_fraction,loss_fraction,backward_fraction,optimizer_fraction,speedup,"
    "baseline,workload,data,setup_s";

// sweepCsv written to `path` atomically; false with *error (when not null) naming the file on
// failure ("Cannot write <path>: <OS error>", as writeExportFile), the file then unchanged.
bool writeSweepCsv(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel,
                   const std::string &path, std::string *error);

} // namespace devicebench
