// SPDX-License-Identifier: MIT
// Plain value types shared by the engine, the command-line runner and the dashboard.
// This header must stay free of LibTorch and Qt: the dashboard includes it from Qt code
// (LibTorch uses the identifier `slots`, which Qt defines as a macro).
#pragma once

#include "devicebench/system_metrics.h"
#include "devicebench/workloads.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {

// Defaults are the published experiment's (../shared/docs/MEASURING.md, "The experiment").
inline constexpr int kDefaultEpochs = 10;            // article: 10 epochs
inline constexpr int kDefaultBatchSize = 64;         // article: batch 64
inline constexpr double kDefaultLearningRate = 0.01; // article: SGD lr 0.01, no momentum
inline constexpr int kDefaultWarmupEpochs = 2;       // article: "drop the first 2 as warm-up"
inline constexpr std::uint64_t kDefaultSeed = 0;     // article: torch.manual_seed(0)
inline constexpr int kDefaultLossFetchInterval = 50; // steps between fetches of step losses

// Seconds a user's script may take from its start to its first epoch (RunConfig).
inline constexpr int kDefaultScriptStartSeconds = 300;

// The models a run can train (models.h builds them and documents each one's layers).
// small-cnn is the article's network and the default; resnet18 is ResNet-18 in its CIFAR form
// (3x3 stem, no max-pool, 11,173,962 parameters); vit-tiny is a Vision Transformer of
// ViT-Tiny's shape (patch 4, width 192, depth 12, 3 heads, MLP 768; 5,362,762 parameters at
// 32 x 32).
inline constexpr const char *kDefaultModel = "small-cnn";
inline constexpr const char *kModelNames[] = {"small-cnn", "resnet18", "vit-tiny"};
bool isKnownModel(const std::string &name);
// small-cnn at 32 x 32 (small_cnn.h counts them from its layers; a test pins both): its
// trainable parameters and its forward multiply-adds per image. Here as plain numbers for the
// LibTorch-free libraries (a record written before models were recorded is read with them).
inline constexpr std::int64_t kSmallCnnParameters = 145578;
inline constexpr std::int64_t kSmallCnnMultiplyAdds = 12354176;

// Image sizes a run can use (pixels per side). 32 is CIFAR-10's own; 64 and 128 are the data
// upsampled once, before epoch 1 and outside every timed epoch, by bilinear interpolation
// (half-pixel centres, no anti-aliasing: torch.nn.functional.interpolate(mode="bilinear",
// align_corners=False)), rounded back to uint8.
inline constexpr int kDefaultImageSize = 32;
inline constexpr int kImageSizes[] = {32, 64, 128};
bool isSupportedImageSize(int pixels);

// The arithmetic of a run (docs/MEASURING.md, "Precision"). Float32 is the article's and the
// default. The others are automatic mixed precision: the forward pass and the loss run under
// LibTorch's autocast (matrix products and convolutions in the lower precision, reductions
// and the loss in float32; weights, gradients and the optimiser stay float32).
//  - BFloat16: autocast to bfloat16, on the CPU and on CUDA; no loss scaling (bfloat16 has
//    float32's exponent range).
//  - Float16: autocast to float16, CUDA only, with a dynamic loss scaler (loss_scaler.h):
//    a step whose gradients are not finite is skipped and counted (EpochResult::skippedSteps).
enum class Precision { Float32, BFloat16, Float16 };

// The record's text: "float32", "bfloat16", "float16".
const char *toString(Precision precision);
// The short name of the command line and the labels: "fp32", "bf16", "fp16".
const char *shortName(Precision precision);
// Parses a short name or the record's text; false for anything else.
bool parsePrecision(const std::string &text, Precision *precision);

// TensorFloat-32 for float32 matrix products (cuBLAS) and convolutions (cuDNN) on CUDA devices
// of compute capability 8.0 and later: float32 storage, 10-bit mantissa products. Default:
// LibTorch's own setting is left as it is (the run's fingerprint records what it was). No effect
// on the CPU.
enum class Tf32 { Default, On, Off };

// "default", "on", "off".
const char *toString(Tf32 tf32);
// Parses "default" / "on" / "off"; false for anything else.
bool parseTf32(const std::string &text, Tf32 *tf32);

// One training run's settings. Every field is validated by validateRunConfig() (trainer.h).
struct RunConfig {
    std::string device = "cpu";                 // "cpu", "cuda" or "cuda:N" (devices.h)
    int epochs = kDefaultEpochs;                // >= 1
    int batchSize = kDefaultBatchSize;          // images per step, >= 1
    double learningRate = kDefaultLearningRate; // SGD step size, finite and > 0
    int warmupEpochs = kDefaultWarmupEpochs;    // first N epochs flagged warm-up; 0 <= N < epochs
    int threads = 0;                   // CPU intra-op threads; 0 = the cores this process may use
    std::uint64_t seed = kDefaultSeed; // initial weights (data order is fixed: no shuffle)
    std::string dataDir;               // folder holding data_batch_1..5.bin and test_batch.bin
    bool synthetic = false;            // CIFAR-shaped generated data instead of dataDir
    std::int64_t trainImages = 0;      // use only the first N training images; 0 = all 50,000
    std::int64_t testImages = 0;       // use only the first N test images; 0 = all 10,000
    int lossFetchInterval = kDefaultLossFetchInterval; // K: step losses fetched every K steps
    Workload workload = Workload::Faithful;            // how the same training is computed
    // CUDA only: copy the whole data set (uint8, about 184 MB for CIFAR-10) to the device once,
    // before epoch 1 and outside the timed epochs, so that no step copies from the host. No
    // effect on the CPU, where the data already is. Runs that differ in it are not comparable.
    bool dataOnDevice = false;
    std::string model = kDefaultModel; // one of kModelNames
    int imageSize = kDefaultImageSize; // pixels per side, one of kImageSizes
    // Phase timing ("where the time goes"): the device is synchronised and the clock
    // read at every phase boundary of every step (PhaseTimes), so the run is slower than a
    // normal one, on a GPU much slower. Such runs are never comparable with normal runs (their
    // epochs never enter a normal run's stable mean): comparison.cpp compares this field.
    bool phases = false;
    Precision precision = Precision::Float32; // the arithmetic (float16: CUDA only)
    Tf32 tf32 = Tf32::Default;                // CUDA: TF32 for float32 products and convolutions
    // ArticleScript only: the Python that runs the script, a path or a name looked up in PATH;
    // "" = the default ($DEVICEBENCH_PYTHON, else python3: articleScriptPython). It needs torch
    // and torchvision (checked before the run: article_script.h). Script runs use it too.
    std::string python;
    // Script only: the training script (a path), the arguments it gets (its sys.argv[1:]),
    // and its file's content hash ("xxh3-128:<hex>", fileContentHash in run_record.h), set
    // when the run starts (runRecorded). Runs are comparable only with the same hash and args.
    std::string script;
    std::vector<std::string> scriptArgs;
    std::string scriptHash;
    // Script only: seconds the script may take from its start to its first epoch (importing
    // torch, devicebench.run() and the data and model before run.epochs()); past them the
    // run fails and the script's process group is killed.
    int scriptStartSeconds = kDefaultScriptStartSeconds;
    // Time to accuracy (time_to_target.h): the test accuracy in percent, above 0 and at most
    // 100, after whose first reaching the run stops (`epochs` is then the budget). None: every
    // epoch runs. Runs are comparable by time to target only with the same target.
    std::optional<double> targetAccuracy;
};

// Where one epoch's time went, in seconds, when RunConfig::phases is on. One clock
// runs from the epoch's start to its end (the same two reads as EpochResult::seconds) and is
// lapped at every phase boundary, each lap a device synchronisation followed by a steady-clock
// read (engine/train/src/phase_step.h, PhaseClock), so the six phases cover the epoch without a
// gap: their sum is the epoch's seconds (tested: within 5 %; in practice to rounding). What the
// loop does between phases is counted where it happens: the stop check before a step in that
// step's data phase, the loss buffer's work after a step in its loss phase.
// `measured` false: the run was not phase-timed (or the record is older).
struct PhaseTimes {
    bool measured = false;
    double data = 0.0;      // batch preparation: uint8 -> float in [0, 1], labels, copies to
                            // the device (and the loop's stop check before the step)
    double forward = 0.0;   // the model's forward pass (logits)
    double loss = 0.0;      // cross-entropy of the logits, plus the step-loss bookkeeping
                            // (LossBuffer: keeping the loss on the device; every K steps and at
                            // the end of the pass, fetching the losses to the host and handing
                            // them to the observers, e.g. the record and the console)
    double backward = 0.0;  // gradients cleared, then loss.backward()
    double optimizer = 0.0; // the optimiser's step
    double test = 0.0;      // the whole test pass (its own forward passes, loss and accuracy,
                            // and the reads of its sums)
    double total() const { return data + forward + loss + backward + optimizer + test; }
};

// Training loss of one step. `step` counts from 1 across the whole run (epoch 2's first
// step is stepsPerEpoch + 1); `epoch` counts from 1.
struct StepLoss {
    int epoch = 0;
    std::int64_t step = 0;
    double loss = 0.0; // mean cross-entropy over the step's batch (nats)
    // Seconds since the run's RunRecorder was made (steady clock), set by the recorder before
    // it hands the step on: observers behind a recorder all see its one clock. 0 before that.
    double seconds = 0.0;
};

// What one epoch got from the machine ("a busy machine"; measured by EpochLoadMeter
// and judged by judgeContention(), contention.h, which documents the rule and its thresholds).
// Numbers are NaN and `measured` false when unknown: records written before this was measured,
// or a system without /proc.
struct EpochLoad {
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    bool measured = false;        // false: nothing below is known (older record, no /proc)
    double cpuSeconds = kUnknown; // CPU seconds the whole process used over the epoch
                                  // (user + system, CLOCK_PROCESS_CPUTIME_ID)
    double cpuShare = kUnknown;   // cpuSeconds / (wall seconds x min(threads, cpus)): about 1
                                  // when the run's threads had their CPUs to themselves
    double otherCpus = kUnknown;  // CPUs' worth of work the rest of the machine did on the CPUs
                                  // this run may use ((their busy time - cpuSeconds) / wall, >= 0)
    double stealFraction = kUnknown;  // fraction of those CPUs' time taken by the hypervisor
    double iowaitFraction = kUnknown; // fraction of those CPUs' time idle waiting for I/O
    double loadAverage = kUnknown;    // the machine's 1-minute load average at the epoch's end
    int cpus = 0;                     // CPUs this run may use (affinity mask, online); 0 unknown
    bool contended = false; // judgeContention(): the epoch shared its CPUs, so its time is not
                            // the device's alone (false when not measured)
};

// The canary (docs/MEASURING.md, "A machine that changes speed"): one fixed calibration kernel
// (a convolution of the article's network, forward, on a fixed tensor; canary.h) timed outside
// every epoch's clock, before epoch 1 and after each epoch, so that a change of the machine's own
// speed during a run shows. Seconds are the median of a few repetitions.
struct CanaryTime {
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    bool measured = false; // false: no canary (records written before it existed)
    // What the drift rules judge (machine_drift.h, machine_speed.h). On the CPU: at one thread,
    // a per-core speed, comparable between runs of any thread count on the machine (and far
    // steadier than at several threads on a shared host). On CUDA: on the device (synchronised).
    double seconds = kUnknown;
    // On the CPU: at the run's threads (the same measurement as `seconds` in a one-thread run);
    // recorded, not judged. NaN on CUDA.
    double runThreadsSeconds = kUnknown;
    // The spread of `seconds`' repetitions: (second slowest - second fastest) / median, the
    // canary's own noise, a fraction (one outlier left out at each end).
    double noise = kUnknown;
};

// One epoch: a training pass over the training images plus a test pass over the test images,
// timed together (seconds, steady clock, device synchronised before each clock read).
struct EpochResult {
    int epoch = 0;                // from 1
    double seconds = 0.0;         // wall time of training + test pass
    bool warmup = false;          // epoch <= warmupEpochs: kept, but left out of the headline
    double trainLoss = 0.0;       // mean of the epoch's step losses (nats)
    double testLoss = 0.0;        // mean cross-entropy per test image (nats)
    double testAccuracy = 0.0;    // fraction of test images classified correctly, 0..1
    double imagesPerSecond = 0.0; // (training images + test images) / seconds
    EpochLoad load;    // what the epoch got from the machine; load.measured false: unknown
    PhaseTimes phases; // RunConfig::phases: where the epoch's time went; else not measured
    // Data-parallel runs (DistributedInfo): seconds of the epoch spent in the
    // gradient and test all-reduces (c10d), inside `seconds`; in a job record the slowest
    // rank's. NaN: not a data-parallel run (or a record written before such runs existed).
    double allReduceSeconds = std::numeric_limits<double>::quiet_NaN();
    // Float16 runs (Precision::Float16): the training steps the loss scaler skipped because their
    // gradients were not finite, and the loss scale at the epoch's end. -1 and NaN: no loss
    // scaler (other precisions, and records written before precision was a setting).
    std::int64_t skippedSteps = -1;
    double lossScale = std::numeric_limits<double>::quiet_NaN();
    // When the epoch began: seconds since 1970-01-01 UTC (system clock). NaN: unknown (records
    // written before it was recorded). Interleaved runs' epochs alternate in it.
    double startedUnixSeconds = std::numeric_limits<double>::quiet_NaN();
    // The canary measured just after the epoch, outside its clock; not measured in older records.
    CanaryTime canary{};
    // The canary against the run's first one (RunStarted::canary): canary.seconds / first - 1
    // (+0.22: the kernel took 22 % longer, the machine was slower). NaN when either is unknown.
    double canaryChange = std::numeric_limits<double>::quiet_NaN();
    // judgeSpeedChange() (machine_drift.h): |canaryChange| beyond the canaries' noise plus
    // kCanaryMargin, so the epoch ran on a machine of another speed than the run began on.
    bool speedChanged = false;
    // What the machine did during the epoch (system_metrics.h): means and peaks of the sampled
    // quantities and the energy; system.sampled false: not sampled (older records).
    EpochSystem system{};
    // The test pass's part of `seconds` (the evaluation); NaN: not measured (older records,
    // a script that does not time it). Last, so that positional initialisers keep their order.
    double testSeconds = std::numeric_limits<double>::quiet_NaN();
    // A script run's: the training steps the epoch took and the training images those steps
    // saw, as counted (a short last batch counted short). -1: not counted (older records, and
    // the engine's runs, whose epochs are RunStarted's stepsPerEpoch and trainImages).
    std::int64_t steps = -1;
    std::int64_t trainImages = -1;
};

// One process of a data-parallel job: where it ran and its shard of the data.
struct RankPlacement {
    int rank = 0;                 // 0 .. worldSize-1
    int localRank = 0;            // its index on its host (LOCAL_RANK)
    std::string host;             // host name of its machine
    std::string device;           // canonical device string, e.g. "cpu" or "cuda:1"
    int threads = 0;              // intra-op threads it used
    std::int64_t trainImages = 0; // its shard of the training set per epoch
    std::int64_t testImages = 0;  // its shard of the test set
};

// What makes a run one of a data-parallel job (docs/run-record.md, "distributed").
// worldSize 0 means a plain single-process run (and every record written before such jobs).
// A job writes worldSize + 1 records that share jobId: rank 0's job record (role "job": every
// epoch's seconds and all-reduce seconds are the slowest rank's, its images/s the whole job's)
// and one record per rank (role "rank": that rank's own clock). In both, RunConfig::batchSize
// is the global batch size (images per step over all ranks), and RunStarted's image counts are
// the whole job's, so a job compares with a single-process run of the same global batch.
struct DistributedInfo {
    int worldSize = 0;                 // ranks in the job; 0: not data-parallel
    int rank = 0;                      // the record's rank (0 for the job record)
    std::string role;                  // "job" or "rank"
    std::string backend;               // c10d back end: "gloo" or "nccl"
    std::string jobId;                 // shared by the job record and its rank records
    std::int64_t perRankBatchSize = 0; // images per step on each rank (the last rank's shard
                                       // of a short final batch may be smaller)
    // The global batch was the per-rank batch x world size (no --global-batch-size): jobs of
    // other world sizes keep the per-rank batch (weak scaling). false: the global batch was
    // given, and jobs of other world sizes keep it (strong scaling).
    bool weakScaling = false;
    std::vector<RankPlacement> ranks; // every rank, in rank order
    bool isJob() const { return worldSize > 0 && role == "job"; }
};

// Emitted once when a run has loaded its data and built its model, before epoch 1.
struct RunStarted {
    std::string device;     // canonical device string, e.g. "cpu" or "cuda:0"
    std::string deviceName; // human name, e.g. "CPU" or "Tesla T4"
    int threads = 0;        // intra-op threads actually in use
    std::int64_t trainImages = 0;
    std::int64_t testImages = 0;
    std::int64_t stepsPerEpoch = 0; // training steps per epoch (ceil(trainImages / batchSize));
                                    // a script run's: its first epoch's, 0 until that ended
    std::string dataDescription;    // data folder, or "synthetic data (accuracy is meaningless)"
    bool synthetic = false;
    // Seconds the device took to start (the first CUDA start: context creation, a tiny
    // allocation and a synchronisation; startDevice() in devices.h), before epoch 1 and outside
    // every epoch's clock. 0 on the CPU, and on a CUDA device this process had started already
    // (e.g. by an earlier run or probe). NaN when unknown: records written before it was
    // recorded.
    double deviceInitSeconds = 0.0;
    // The model actually trained: its trainable parameters and its forward
    // multiply-adds per image at the run's image size, counted from its layers (models.h).
    // 0 when unknown (records written before they were recorded, other than small-cnn).
    std::int64_t modelParameters = 0;
    std::int64_t multiplyAddsPerImage = 0;
    // A rank of a data-parallel job, or its job record; worldSize 0 otherwise.
    DistributedInfo distributed;
    // Whether the device computes the run's precision natively (precisionSupport(), devices.h),
    // and if not, what to expect ("bf16 is emulated on this CPU (no avx512_bf16 or amx_bf16):
    // expect it slower than fp32"). Float32 is native everywhere; true and empty in records
    // written before precision was a setting.
    bool precisionNative = true;
    std::string precisionNote;
    // The canary before epoch 1 (CanaryTime): what every epoch's canary is held against. Not
    // measured in records written before the canary existed.
    CanaryTime canary{};
    // Script runs: the model's name, the wrapper it was trained in ("DataParallel",
    // "torch.compile"; "" for none), the images per step and the learning rate as the script
    // gave them to devicebench.run() ("", "", 0 and NaN when it did not, and in every other run).
    std::string modelName;
    std::string modelWrapper;
    std::int64_t batchSize = 0;
    double learningRate = std::numeric_limits<double>::quiet_NaN();
    // Script runs: the files of the script's own folder (and below) that it had imported when
    // its first epoch began, other than the script: (path relative to that folder, sha256 of
    // the content in hex), sorted by path. What two runs of one script ran differs when these
    // do. `scriptFilesRecorded` false: not recorded (older records, other runs).
    std::vector<std::pair<std::string, std::string>> scriptFiles;
    bool scriptFilesRecorded = false;
};

enum class RunStatus { Finished, Cancelled, Diverged, Failed };

// "finished", "cancelled", "diverged", "failed".
const char *toString(RunStatus status);

// The article's summary of a run's epoch times (all in seconds).
// Statistics other than meanAll are over the stable epochs (those after the warm-up);
// when there are none, they are NaN and `hasStable` is false.
// Sources: docs/MEASURING.md ("How the numbers are made"); engine/core/src/summary.cpp.
struct Summary {
    std::vector<double> epochSeconds; // every epoch, warm-up included, in order
    int warmupEpochs = 0;
    double meanAll = 0.0; // mean of all epochs
    bool hasStable = false;
    double stableMean = 0.0; // headline: mean of epochs warmupEpochs+1..N
    double median = 0.0;     // median of the stable epochs
    // Sample standard deviation (n-1) of the stable epochs. Undefined with fewer than 2 stable
    // epochs: NaN then (JSON null, "n/a" in text and CSV), never 0.
    double stddev = 0.0;
    double imagesPerSecond = 0.0; // images per epoch / stableMean
    int stableCount = 0;          // number of stable epochs
    double min = 0.0;             // fastest stable epoch
    double max = 0.0;             // slowest stable epoch
    // Coefficient of variation: stddev / stableMean (a fraction). NaN with fewer than 2 stable
    // epochs, like stddev.
    double cv = 0.0;
    // Mean and sample standard deviation (n-1) of the natural logarithms of the stable epochs'
    // seconds: what the intervals are computed from. NaN when an epoch is not above 0 s, and
    // logStddev NaN with fewer than 2 stable epochs.
    double logMean = 0.0;
    double logStddev = 0.0;
    // 95% confidence interval of the typical stable epoch time, on the logarithm of the times
    // (epoch times are positive and skewed to the slow side): exp(logMean -+ t(0.975, n-1) *
    // logStddev / sqrt(n)), Student t with n-1 degrees of freedom, back-transformed. Both ends
    // are above 0 s. It is the interval of the geometric mean exp(logMean), which for epoch
    // times that vary by a few percent is the stable mean to within rounding. NaN with fewer
    // than 2 stable epochs.
    double ciLow = 0.0;
    double ciHigh = 0.0;
};

// Exactly one per run, delivered last.
struct RunOutcome {
    RunStatus status = RunStatus::Failed;
    std::string reason;              // empty when finished; otherwise why it ended
    std::vector<EpochResult> epochs; // every finished epoch, kept whatever the status
    Summary summary;                 // of `epochs`
};

// Everything a front end asks of one recorded run (recorded_run.h): the dashboard's window,
// the CLI and a rank of a data-parallel job fill it the same way. Paths are as given
// (relative to the working directory).
struct RunRequest {
    RunConfig config;
    std::string runId;         // the record's id; empty: a new one (newRunId(), run_record.h)
    std::string recordsFolder; // record written to "<recordsFolder>/<runId>.json" (made if
                               // missing); empty, and no recordFile: kept in memory only
    std::string recordFile;    // exact record path (the CLI's --record FILE); wins over the folder
    std::string tensorBoardFolder; // event files under "<folder>/<runId>_<device>_x<threads>";
                                   // empty: none
};

// Receives a run's events on the thread that runs it, in this order:
// onRunStarted (unless loading fails), then onStepLosses / onEpochFinished interleaved,
// then exactly one onRunEnded. Implementations must return quickly and must not throw.
class TrainingObserver {
public:
    virtual ~TrainingObserver() = default;
    virtual void onRunStarted(const RunStarted & /*info*/) {}
    // A batch of consecutive step losses, fetched from the device every K steps
    // (RunConfig::lossFetchInterval) and at the end of each epoch.
    virtual void onStepLosses(const std::vector<StepLoss> & /*losses*/) {}
    virtual void onEpochFinished(const EpochResult & /*epoch*/) {}
    // Readings of the machine taken since the last call (system_metrics.h), in time order: the
    // system sampler's, handed on by runRecorded on the run's thread with the step losses.
    virtual void onSystemSamples(const std::vector<SystemSample> & /*samples*/) {}
    // How the run is sampled (the period, the sources' notes), whenever that changes: the
    // system sampler's, so that the record says it (RunRecorder keeps the last one).
    virtual void onSamplingChanged(const SamplingInfo & /*sampling*/) {}
    virtual void onRunEnded(const RunOutcome &outcome) = 0;
};

} // namespace devicebench
