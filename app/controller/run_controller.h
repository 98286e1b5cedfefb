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

namespace devicebench {

// Registers the metric structs above with Qt's meta-type system, so they can travel through
// queued connections and QSignalSpy. Idempotent; the RunController constructor calls it.
void registerRunMetaTypes();

// Owns the worker thread of the current run or run set (at most one at a time). Each run is a job
// of a JobRunner (job_runner.h) whose work is runRecorded (recorded_run.h), the same recorded run
// as the CLI's: its RunRecorder makes the record id, times the steps, takes the fingerprint and
// the data identity and writes the record file on the worker; the GUI thread writes nothing.
// The job returns the RecordedRun, which arrives with the job's terminal signal.
//
// Validation: startRun asks the engine's checkRunRequest before it accepts a job and refuses
// with its messages; that is the one check on the dashboard's path.
//
// Run sets: startRunSet runs several requests as one job, interleaved (runRecordedInterleaved,
// interleaved_run.h: each run on a thread of its own, their epochs in alternation) or one after
// another (runRecorded each; a stop ends the run going and cancels those not started). Each run
// of a set has its own id, reserved consecutively, and gets the signals below as a lone run does.
//
// Every signal is emitted on the controller's thread, and carries the run's id (1, 2, ...; the
// "job id" of the window). For each accepted run: runAccepted (inside startRun / startRunSet),
// recordStarted and runStarted (absent when loading fails), stepLosses / epochFinished
// interleaved (each step with the recorder's seconds), then tensorBoardFailed / recordFailed when
// a write failed, recordEnded (unless no worker thread could start, or the run of a set never
// started) and exactly one runEnded. In a set run one after another each run ends before the
// next starts; in an interleaved set every run ends when the last one has (in request order).
// Events of a run that is no longer current, or that arrive after the controller was destroyed,
// are dropped. When the system refuses the worker thread, every run ends with runEnded(Failed,
// the reason).
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

    // Starts `request` on a new worker thread, emits runAccepted(jobId, request) and returns
    // the job id. Emits runRejected(reasons) and returns 0 when a run is already going or the
    // request fails checkRunRequest (the engine's messages, one per problem).
    int startRun(const devicebench::RunRequest &request);

    // Starts `requests` as one run set: interleaved when `interleave` and there are two or
    // more, else one after another. Emits runSetAccepted(first id, count, interleaved) and then
    // runAccepted for each run in order, and returns the first run's id (the others follow it).
    // Refuses the whole set with runRejected and returns 0 when a run is going, the list is
    // empty, or any request fails checkRunRequest (each message prefixed "run N (device): ").
    int startRunSet(std::vector<devicebench::RunRequest> requests, bool interleave);

    // Asks the current run (or every run of the set) to stop (sets the job's atomic stop
    // flag); a run going ends as cancelled through the usual runEnded, a run of the set not
    // started yet ends cancelled too. No effect when idle.
    void stop();

    // True from an accepted startRun() / startRunSet() until its last runEnded is emitted
    // (false inside that last runEnded, so that a slot may start again).
    bool isRunning() const { return m_firstRunId != 0; }
    // Id of the (first) run of the current set that has not ended yet, or 0 when idle.
    int currentJobId() const { return m_firstRunId == 0 ? 0 : m_firstRunId + m_endedRuns; }

Q_SIGNALS:
    // Emitted inside startRun(), before it returns, for every accepted run.
    void runAccepted(int jobId, devicebench::RunRequest request);
    // Emitted inside startRunSet(), before the set's runAccepted signals: the runs' ids are
    // firstJobId .. firstJobId + runs - 1, in request order.
    void runSetAccepted(int firstJobId, int runs, bool interleaved);
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
    // The run's event file could not be written (the run itself went on); before runEnded.
    void tensorBoardFailed(int jobId, QString message);
    // The run's record file could not be written (the message names the file and the OS
    // error); before runEnded.
    void recordFailed(int jobId, QString message);
    // The final record, as written (every epoch and step with the recorder's times, the status
    // and reason); just before runEnded, also for a run that failed before it started.
    void recordEnded(int jobId, devicebench::RunRecord record);
    void runEnded(int jobId, devicebench::RunOutcome outcome);

private:
    class Observer;

    // The set's work: one after another, or interleaved. Each returns the runs that ran and
    // whose end was not posted yet (std::vector<RecordedRun>), in order.
    std::any runInOrder(JobContext &job, const std::vector<RunRequest> &requests, int firstId);
    std::any runInterleaved(JobContext &job, const std::vector<RunRequest> &requests, int firstId);
    QStringList problemsOf(const std::vector<RunRequest> &requests) const;

    // The job's terminal signals: `result` holds the runs not ended yet when the work returned.
    void onJobFinished(int jobId, const std::any &result);
    void onJobFailed(int jobId, JobFailure kind, const QString &reason, const std::any &result);
    // The ends of the set's runs not ended yet: those in `runs` (in order) with their results,
    // the rest (never started) cancelled, or all with `failure` when it is given.
    void endRemainingRuns(const std::vector<RecordedRun> *runs, const RunOutcome *failure);
    // recordFailed / tensorBoardFailed / recordEnded / runEnded of one run of the set (the next
    // not ended); the set is over (isRunning() false) before its last runEnded.
    void deliverResult(const RecordedRun &run);
    void deliverEnd(const RunOutcome &outcome);

    TrainFunction m_train;
    int m_lastRunId = 0;
    int m_firstRunId = 0; // of the set going; 0 when idle
    int m_runCount = 0;   // runs of the set going
    int m_endedRuns = 0;  // of those, how many got their runEnded
    JobRunner m_jobs;     // last member: destroyed (stopped and joined) first
};

} // namespace devicebench
