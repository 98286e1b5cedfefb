// SPDX-License-Identifier: MIT
// One recorded run: a RunRecorder (run_record.h) in front, then the TensorBoard writer (when
// the request names a folder) and the caller's observer, each told every event; the training;
// the result. What the dashboard's run job, the CLI's `run` and a rank of a data-parallel job
// call, so that their records and event folders are made one way. LibTorch- and Qt-free header.
//
// Validation: the settings are checked by validateRunConfig (trainer.h), whose messages every
// front end shows: the controller through checkRunRequest before it accepts a job, the CLI and
// a rank for all their runs before the first starts. runRecorded does not check again;
// runTraining keeps its own guard for callers that use it directly (a bad config ends Failed).
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/run_types.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace devicebench {

// The training loop (default: runTraining, trainer.h). It must report to the observer in the
// order TrainingObserver documents and end soon after the stop flag turns true.
using TrainFunction =
    std::function<RunOutcome(const RunConfig &, TrainingObserver &, const std::atomic<bool> &)>;

// The engine's messages for a request that must not run, one per problem (validateRunConfig's,
// trainer.h; for the article's script, what its Python lacks, by checkArticleScriptPython: a
// few seconds; for a user's script, checkScriptRun's problem, script_run.h; and the TensorBoard
// folder, by checkPlannedOutputs, planned_outputs.h: checked, not made). Empty: the request may
// run.
std::vector<std::string> checkRunRequest(const RunRequest &request);

// `config` as its run records it: TF32 acts on CUDA devices only, so a CPU run records it as
// left alone (Tf32::Default) and stays comparable with every other CPU run. What a front end
// shows of a run before it starts comes from this, so that it says what the record will.
RunConfig configAsRecorded(RunConfig config);

// "<runId>_<device>_x<threads>", threads 0 counted as availableCores() (devices.h): the run's
// TensorBoard folder name (sanitised by the writer, tensorboard.h).
std::string tensorBoardRunName(const RunConfig &config, const std::string &runId);

// Runs `request` on the calling thread and returns its result. The record goes to
// request.recordFile, else "<recordsFolder>/<runId>.json", else memory; a folder that cannot be
// made shows as recordError. `downstream` (may be null) sees every event after the recorder and
// the TensorBoard writer, each step with the recorder's seconds. If `train` throws, or returns
// without ending the run, the record is ended with the returned outcome. Precondition: the
// request passed checkRunRequest.
// `fingerprint` (empty: collectFingerprint) is where the record's fingerprint comes from; a
// child run's is its child's. An article-script request with no `train` runs the script
// (runArticleScript, article_script.h), its fingerprint naming the script's Python; a script
// request likewise (runScript, script_run.h), its record's config.scriptHash the script file's
// hash as the run starts.
// A system sampler (system_sampler.h) reads the machine during the run: the record gets its
// samples and each epoch its EpochSystem; `trainingProcess` (empty: this process) gives the pid
// of the process that trains (a child run's, once started), whose tree the sampler reads.
RecordedRun runRecorded(const RunRequest &request, RecordObserver *downstream,
                        const std::atomic<bool> &stopRequested, const TrainFunction &train = {},
                        const FingerprintSource &fingerprint = {},
                        const std::function<int()> &trainingProcess = {});

} // namespace devicebench
