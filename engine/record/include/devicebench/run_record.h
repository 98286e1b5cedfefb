// SPDX-License-Identifier: MIT
// Run records: one JSON file per run, schema documented in docs/run-record.md (versioned by
// kRunRecordSchemaVersion). Written atomically (temporary file, fsync, rename) and rewritten
// after every epoch, so a crash keeps the finished epochs. LibTorch-free header and library
// (engine_record): JSON codec run_record_json.cpp, files record_file.cpp, ids run_id.cpp,
// data identity data_identity.cpp, recorder run_recorder.cpp.
#pragma once

#include "devicebench/fingerprint.h"
#include "devicebench/run_types.h"

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench {

inline constexpr int kRunRecordSchemaVersion = 1;
inline constexpr std::int64_t kMaxRunRecordBytes = 64LL * 1024 * 1024; // larger files are refused

// A problem with a record file; what() names the file and the problem, e.g.
// "runs/a.json: field 'epochs[2].seconds' must be a finite number".
class RecordError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Which data a run used.
struct DataIdentity {
    std::string path;    // folder read; "" for synthetic
    std::string variant; // "cifar-10-binary" or "synthetic"
    std::int64_t trainImages = 0;
    std::int64_t testImages = 0;
    // Content hash of every byte a run reads: XXH3-128 (libxxhash) over, for each of
    // data_batch_1..5.bin and test_batch.bin in that order, the file name with its NUL, its size
    // (8 bytes, little-endian) and all its bytes; written "xxh3-128:" + 32 hex digits
    // (kDataHashPrefix). About 0.1 s for the 184 MB of CIFAR-10 in the page cache. "" for
    // synthetic data. Records written before whole-file hashing hold FNV-1a 64 over each file's
    // name, size and first 4,096 bytes only, as 16 hex digits (DataHashMethod::PrefixFnv1a): they
    // are still read, and compared as comparison.h's compareData says.
    std::string contentHash;
};

inline constexpr const char *kDataHashPrefix = "xxh3-128:";

// How a DataIdentity::contentHash was made, from its form.
enum class DataHashMethod {
    None,           // "": synthetic data, or no identity taken
    PrefixFnv1a,    // 16 hex digits: older records, the first 4,096 bytes of each file only
    WholeFilesXxh3, // "xxh3-128:" + 32 hex digits: every byte (this version)
    Unknown,        // any other text (another tool's record)
};
DataHashMethod dataHashMethod(const std::string &contentHash);

// One step's training loss with the host's wall time when it was taken.
struct TimedStepLoss {
    int epoch = 0;
    std::int64_t step = 0;
    double loss = 0.0;
    // Seconds since the RunRecorder was made, just before the run (steady clock; includes
    // loading the data).
    double seconds = 0.0;
};

struct RunRecord {
    int schemaVersion = kRunRecordSchemaVersion;
    std::string runId;               // unique: "<UTC time>-<host>-<random hex>"
    std::string createdUtc;          // ISO 8601, e.g. "2026-11-29T22:40:00Z"
    std::string model = "small-cnn"; // the model trained: RunRecorder writes config.model here
    // What ran: toString(config.precision) ("float32", "bfloat16", "float16"). A record from
    // another tool may name one this version does not know: it stays as text, config.precision
    // stays float32, and the record is never comparable (comparison.cpp).
    std::string precision = "float32";
    std::string workload = "faithful"; // a WorkloadRow::name (workloads.h), or another tool's
    RunConfig config;
    RunStarted started; // device actually used, threads, image counts, steps per epoch
    Fingerprint fingerprint;
    DataIdentity data;
    std::vector<EpochResult> epochs;
    std::vector<TimedStepLoss> steps;
    // The machine's readings during the run (system_metrics.h), in time order, and how they
    // were taken; sampling.sampled false and no samples: not sampled (older records).
    SamplingInfo sampling;
    std::vector<SystemSample> samples;
    // "running" (still going, or the process died: the finished epochs are all there),
    // "finished", "cancelled", "diverged" or "failed".
    std::string status = "running";
    std::string reason; // why it ended, when not finished
};

// Serialises `record` (pretty-printed JSON, numbers with full precision; NaN is written as
// null and read back as NaN).
std::string toJson(const RunRecord &record);

// Appends `epoch` to the record. A run whose steps per epoch were not known when it started
// (a script's) takes its first counted epoch's steps and training images as its own.
void addEpoch(RunRecord &record, const EpochResult &epoch);

// The steps per epoch to place a record's steps by (an axis in epochs): started.stepsPerEpoch,
// or while that is not known (a script's first epoch, live) the steps recorded so far, so that
// they fill the epoch they are in. At least 1.
std::int64_t stepsPerEpochOf(const RunRecord &record);

// Parses a record. `source` names the file in errors. Throws RecordError when the text is not
// JSON, truncated, of another schema version (older or newer: says which), misses a field,
// has a field of the wrong type, or a number that is NaN/inf where a finite one is required;
// then checkRunRecord (below): a record no real run could have made is refused too.
RunRecord parseRunRecord(const std::string &json, const std::string &source);

// Holds a parsed record against what a real run can produce, and throws RecordError naming
// `source` and the first field that fails, e.g. "runs/a.json: field 'epochs[0].seconds' must be
// above 0 (got 0): no real epoch takes no time". The rules (the source of
// each is what RunRecorder writes and validateRunConfig, trainer.h, allows):
//  - epochs numbered 1, 2, ... in order; each epoch's seconds above 0; testAccuracy in [0, 1];
//    imagesPerSecond 0 or more (null: unknown); losses (nats) 0 or more, and finite unless
//    the status is "diverged" (or "running": its process may have died at that very step);
//  - steps: epoch 1 or more, step numbers increasing from 1, seconds 0 or more, losses as
//    above;
//  - counts (threads, images, steps per epoch, model parameters and multiply-adds) 0 or more;
//    with finished epochs, the settings
//    are valid (epochs and batch size 1 or more, learning rate above 0, warm-up, threads and
//    image limits 0 or more, loss fetch interval 1 or more, image size 32, 64 or 128; the
//    model's name is kept whatever it is), there are no more epochs than config.epochs, and
//    started.stepsPerEpoch = ceil(started.trainImages / batchSize);
//  - status "finished": all config.epochs epochs are there, or, with a target accuracy, the
//    last epoch is the first that reached it (and with a target, no epoch follows that one).
// A run refused before its first epoch keeps its refused settings: those are not checked then.
void checkRunRecord(const RunRecord &record, const std::string &source);

// Reads and parses a file. Throws RecordError naming `path`: missing, a directory, unreadable,
// larger than kMaxRunRecordBytes, or any parseRunRecord error.
RunRecord readRunRecord(const std::string &path);

// Writes `record` to `path` atomically: a temporary file in the same folder, fsync, rename.
// On failure throws RecordError naming the path and the OS error, and leaves no partial
// file (the previous version, if any, stays).
void writeRunRecord(const std::string &path, const RunRecord &record);

// A new unique run id: "<UTC time>-<host>-<random hex>", e.g. "20261129T224000Z-host-a-3f9c2a1b"
// (characters other than letters, digits, '.', '_' and '-' in the host name become '-', so the
// id is safe as a file name).
std::string newRunId();

// Identity of the data a config uses: reads every byte of the six batch files (DataIdentity).
// A missing or unreadable file still gives a hash, one that differs from the complete file's.
// A script run (Workload::Script) reads the script's own data: variant "script", no hash.
DataIdentity identifyData(const RunConfig &config, std::int64_t trainImages,
                          std::int64_t testImages);

// The content hash of one file, as identifyData's ("xxh3-128:" and 32 hex digits, of every
// byte); "" when the file cannot be read. A script run's RunConfig::scriptHash.
std::string fileContentHash(const std::string &path);

// Where a recorder gets the machine fingerprint: called once on the run's thread, in
// onRunStarted (after the engine set its thread count and device settings), or in onRunEnded
// when the run ended before it started. Empty: the fingerprint stays empty.
using FingerprintSource = std::function<Fingerprint()>;

// An observer behind a RunRecorder: the run's events, plus the record once the run started,
// so that nothing downstream reads the recorder back (observers are told, never ask). The final
// record comes with the run's result (RecordedRun), not as an event.
class RecordObserver : public TrainingObserver {
public:
    // The record once the run started (runId, createdUtc, config, started, fingerprint, data
    // identity; no epochs yet); just before onRunStarted.
    virtual void onRecordStarted(const RunRecord & /*record*/) {}
};

// What a recorded run returns (runRecorded, recorded_run.h): how it ended and its final record,
// and which of its files were written. The one end of a run that every front end reads.
struct RecordedRun {
    RunOutcome outcome;      // the train function's (Failed with the reason when it threw)
    RunRecord record;        // the final record, as last written; empty (no runId) for a run
                             // that never started (a run set stopped before it)
    std::string recordPath;  // "" when the record was kept in memory only
    std::string recordError; // the last record write's error; "" when it succeeded
    std::string eventFile;   // the TensorBoard event file; "" when none was opened
    std::string eventError;  // the first event write's error; "" when none failed
};

// The clock of one run's steps and machine readings: seconds since it was made (steady clock).
// A recorded run makes one and hands it to its recorder (the steps' times) and its system
// sampler (the readings' times), so that both count from the same instant.
class RunClock {
public:
    RunClock();
    double seconds() const;

private:
    double m_startSeconds;
};

// A TrainingObserver that fills a RunRecord as the run goes, forwards every event to `next`
// (may be null), and rewrites `path` (if not empty) after onRunStarted, after every epoch and
// at the end. Each step is timed here, once, on `clock`, and handed on with its seconds
// (StepLoss::seconds) as the record holds it. Write errors do not stop the run: they are kept in
// writeError() and logged.
class RunRecorder : public TrainingObserver {
public:
    // `runId` empty: a new one (newRunId()). `fingerprint` defaults to collectFingerprint
    // (fingerprint.h): the default argument is taken at the caller, so this library (which has
    // no LibTorch) never calls it itself; a caller using the default links engine_device (or
    // `engine`). A source that throws leaves the fingerprint empty (logged). `clock`: the run's
    // (default: one started now).
    RunRecorder(const RunConfig &config, std::string path, RecordObserver *next = nullptr,
                std::string runId = {}, FingerprintSource fingerprint = collectFingerprint,
                RunClock clock = RunClock());
    void onRunStarted(const RunStarted &info) override;
    void onStepLosses(const std::vector<StepLoss> &losses) override;
    void onEpochFinished(const EpochResult &epoch) override;
    // Appended to the record's samples (written with the next epoch) and handed on.
    void onSystemSamples(const std::vector<SystemSample> &samples) override;
    // Kept in the record from now on (written with the next save); not handed on.
    void onSamplingChanged(const SamplingInfo &sampling) override;
    void onRunEnded(const RunOutcome &outcome) override;
    const RunRecord &record() const { return m_record; }
    // The last write's error ("" when the last write succeeded, or none was made yet).
    const std::string &writeError() const { return m_writeError; }

private:
    void save();
    Fingerprint takeFingerprint() const;
    RunRecord m_record;
    std::string m_path;
    RecordObserver *m_next;
    FingerprintSource m_fingerprint;
    std::string m_writeError;
    RunClock m_clock;
};

} // namespace devicebench
