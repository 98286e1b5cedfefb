// SPDX-License-Identifier: MIT
// RunController: runs one recorded run, or one run set (several runs, interleaved or one after
// another), at a time on a worker thread and turns their events into Qt signals delivered on the
// controller's own (main) thread. Qt Core + engine only; no
// LibTorch header may be included here (LibTorch's identifier `slots` is Qt's macro).
#pragma once

#include "devicebench/recorded_run.h"
#include "devicebench/run_record.h"
#include "devicebench/run_types.h"
#include "job_runner.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <any>
#include <vector>

Q_DECLARE_METATYPE(devicebench::RunConfig)
Q_DECLARE_METATYPE(devicebench::RunRequest)
Q_DECLARE_METATYPE(std::vector<devicebench::RunRequest>)
Q_DECLARE_METATYPE(devicebench::RunStarted)
Q_DECLARE_METATYPE(devicebench::StepLoss)
Q_DECLARE_METATYPE(std::vector<devicebench::StepLoss>)
Q_DECLARE_METATYPE(std::vector<devicebench::SystemSample>)
Q_DECLARE_METATYPE(devicebench::EpochResult)
Q_DECLARE_METATYPE(devicebench::RunOutcome)
Q_DECLARE_METATYPE(devicebench::RunRecord)
Q_DECLARE_METATYPE(devicebench::RecordedRun)

namespace devicebench {

// Registers the metric structs above with Qt's meta-type system, so they can travel through
// queued connections and QSignalSpy. Idempotent; the RunController constructor calls it.
void registerRunMetaTypes();

// Owns the worker thread of the current run or run set (at most one at a time). A run is a job
// of a JobRunner (job_runner.h) whose work is runRecorded (recorded_run.h), the same recorded run
// as the CLI's: its RunRecorder makes the record id, times the steps, takes the fingerprint and
// the data identity and writes the record file on the worker; the GUI thread writes nothing.
//
// Validation: startRun / startRunSet ask the engine's checkRunRequest before they accept, and
// refuse a request while a run is going; runRejected then carries the words the window shows.
//
// Run sets: startRunSet runs several requests, one after another (each run a job of its own,
// started when the one before has ended; a stop ends the run going and cancels those not
// started) or interleaved (one job, runRecordedInterleaved, interleaved_run.h: each run in a
// process of its own, their epochs in alternation). Each run has its own id, reserved
// consecutively, and gets the signals below as a lone run does.
//
// Every signal is emitted on the controller's thread and carries the run's id (1, 2, ...). For
// each accepted run: runAccepted (inside startRun / startRunSet), recordStarted and runStarted
// (absent when it ended before it started), stepLosses / systemSamples / epochFinished as it
// trains, and exactly one runEnded with its RecordedRun: every run ends that way, the first of a
// set as the last. In a set run one after another each run ends before the next starts; in an
// interleaved set every run ends when the last one has (in request order). Events of a run that
// is no longer current, or that arrive after the controller was destroyed, are dropped.
class RunController : public QObject {
    Q_OBJECT

public:
    // `train` defaults to devicebench::runTraining (trainer.h); tests inject a fake, and a
    // thread starter that fails (JobRunner::ThreadStarter; default: std::thread). An
    // interleaved set always trains with the engine's turn-taking runTraining.
    explicit RunController(TrainFunction train = {}, QObject *parent = nullptr,
                           JobRunner::ThreadStarter starter = {});
    // Requests a stop and waits for the worker thread to return (never terminates it).
    // No runEnded is emitted for a run that is still going at that point.
    ~RunController() override;

    RunController(const RunController &) = delete;
    RunController &operator=(const RunController &) = delete;

    // Starts `request` on a new worker thread, emits runAccepted(runId, request) and returns
    // the run's id. Emits runRejected(reasons) and returns 0 when a run is already going or the
    // request fails checkRunRequest (the engine's messages, one per problem).
    int startRun(const devicebench::RunRequest &request);

    // Starts `requests` as one run set: interleaved when `interleave` and there are two or
    // more, else one after another. Emits runSetAccepted(first id, count, interleaved) and then
    // runAccepted for each run in order, and returns the first run's id (the others follow it).
    // Refuses the whole set with runRejected and returns 0 when a run is going, the list is
    // empty, or any request fails checkRunRequest (each message prefixed "run N (device): ").
    int startRunSet(std::vector<devicebench::RunRequest> requests, bool interleave);

    // Asks the current run (or every run of the set) to stop: the run going ends as cancelled
    // through the usual runEnded, and so does each run of the set not started yet. No effect
    // when idle.
    void stop();

    // True from an accepted startRun() / startRunSet() until its last runEnded is emitted
    // (false inside that last runEnded, so that a slot may start again).
    bool isRunning() const { return !m_going.empty(); }
    // Id of the (first) run of the current set that has not ended yet, or 0 when idle.
    int currentJobId() const { return m_going.empty() ? 0 : m_going.front(); }

Q_SIGNALS:
    // Emitted inside startRun(), before it returns, for every accepted run.
    void runAccepted(int jobId, devicebench::RunRequest request);
    // Emitted inside startRunSet(), before the set's runAccepted signals: the runs' ids are
    // firstJobId .. firstJobId + runs - 1, in request order.
    void runSetAccepted(int firstJobId, int runs, bool interleaved);
    // A request was refused: the controller's words ("Run #2 is still going: ..."), or the
    // engine's messages for settings that must not run.
    void runRejected(QStringList reasons);
    // The record as its recorder holds it once the run started (runId, createdUtc, config,
    // started, fingerprint, data identity; no epochs yet); just before runStarted.
    void recordStarted(int jobId, devicebench::RunRecord record);
    void runStarted(int jobId, devicebench::RunConfig config, devicebench::RunStarted info);
    void stepLosses(int jobId, std::vector<devicebench::StepLoss> losses);
    // The machine's readings since the previous ones (a few a second, with the step losses;
    // seconds on their clock); also for each run of an interleaved set.
    void systemSamples(int jobId, std::vector<devicebench::SystemSample> samples);
    void epochFinished(int jobId, devicebench::EpochResult epoch);
    // The run's end, once for every accepted run: how it ended (run.outcome), its final record
    // as written (run.record; empty for a run that never started), and its files' errors
    // (recordError: the record could not be written; eventError: the TensorBoard events).
    void runEnded(int jobId, devicebench::RecordedRun run);

private:
    class Observer;
    // One job: the runs it trains, in order (one run, or the runs of an interleaved set).
    struct Job {
        std::vector<int> ids;
        std::vector<RunRequest> requests;
        bool interleaved = false;
    };

    // Refuses (runRejected) and returns false when a run is going or `requests` must not run.
    bool refuses(const std::vector<RunRequest> &requests, bool inSet);
    QStringList problemsOf(const std::vector<RunRequest> &requests) const;
    // Reserves ids for `requests`, plans their jobs and starts the first; the first id.
    int accept(const std::vector<RunRequest> &requests, bool interleaved);
    void startNextJob(); // the first waiting job; every waiting run cancelled after a stop
    // On the worker: the job's runs, their results in order (std::vector<RecordedRun>).
    std::any runJob(JobContext &context, const Job &job);
    // The job's terminal signals.
    void onJobFinished(int jobId, const std::any &result);
    void onJobFailed(int jobId, JobFailure kind, const QString &reason);
    // runEnded for run `id`, which then is no longer going.
    void endRun(int id, const RecordedRun &run);

    TrainFunction m_train;
    int m_lastRunId = 0;
    std::vector<int> m_going; // the runs accepted and not ended, in order
    Job m_job;                // the job going (its JobRunner id: m_jobId; 0 when none)
    int m_jobId = 0;
    std::vector<Job> m_waiting; // of a set run one after another: the jobs not started yet
    bool m_stopRequested = false;
    JobRunner m_jobs; // last member: destroyed (stopped and joined) first
};

} // namespace devicebench
