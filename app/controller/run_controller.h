// SPDX-License-Identifier: MIT
// RunController: runs one recorded run at a time on a worker thread and turns its events into
// Qt signals delivered on the controller's own (main) thread. Qt Core + engine only; no
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
Q_DECLARE_METATYPE(devicebench::RunStarted)
Q_DECLARE_METATYPE(devicebench::StepLoss)
Q_DECLARE_METATYPE(std::vector<devicebench::StepLoss>)
Q_DECLARE_METATYPE(devicebench::EpochResult)
Q_DECLARE_METATYPE(devicebench::RunOutcome)
Q_DECLARE_METATYPE(devicebench::RunRecord)

namespace devicebench {

// Registers the metric structs above with Qt's meta-type system, so they can travel through
// queued connections and QSignalSpy. Idempotent; the RunController constructor calls it.
void registerRunMetaTypes();

// Owns the worker thread of the current run (at most one run at a time). Each run is a job of
// a JobRunner (job_runner.h) whose work is runRecorded (recorded_run.h), the same recorded run
// as the CLI's: its RunRecorder makes the record id, times the steps, takes the fingerprint and
// the data identity and writes the record file on the worker; the GUI thread writes nothing.
// The job returns the RecordedRun, which arrives with the job's terminal signal.
//
// Validation: startRun asks the engine's checkRunRequest before it accepts a job and refuses
// with its messages; that is the one check on the dashboard's path.
//
// Every signal is emitted on the controller's thread, and carries the job id (1, 2, ...). For
// each accepted run: runAccepted (inside startRun), recordStarted and runStarted (absent when
// loading fails), stepLosses / epochFinished interleaved (each step with the recorder's
// seconds), then tensorBoardFailed / recordFailed when a write failed, recordEnded (unless no
// worker thread could start) and exactly one runEnded. Events of a run that is no longer
// current, or that arrive after the controller was destroyed, are dropped. When the system
// refuses the worker thread, the run ends with runEnded(Failed, the reason).
class RunController : public QObject {
    Q_OBJECT

public:
    // `train` defaults to devicebench::runTraining (trainer.h); tests inject a fake, and a
    // thread starter that fails (JobRunner::ThreadStarter; default: std::thread).
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

    // Asks the current run to stop (sets its atomic stop flag); it then ends as cancelled
    // through the usual runEnded. No effect when idle.
    void stop();

    // True from an accepted startRun() until its runEnded has been emitted.
    bool isRunning() const { return m_jobs.isBusy(); }
    // Job id of the run that is going, or 0 when idle.
    int currentJobId() const { return m_jobs.currentJobId(); }

Q_SIGNALS:
    // Emitted inside startRun(), before it returns, for every accepted run.
    void runAccepted(int jobId, devicebench::RunRequest request);
    void runRejected(QStringList reasons);
    // The record as its recorder holds it once the run started (runId, createdUtc, config,
    // started, fingerprint, data identity; no epochs yet); just before runStarted.
    void recordStarted(int jobId, devicebench::RunRecord record);
    void runStarted(int jobId, devicebench::RunConfig config, devicebench::RunStarted info);
    void stepLosses(int jobId, std::vector<devicebench::StepLoss> losses);
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

    // The job's terminal signals: `result` holds the RecordedRun when the work returned.
    void onJobFinished(int jobId, const std::any &result);
    void onJobFailed(int jobId, JobFailure kind, const QString &reason, const std::any &result);
    // recordFailed / tensorBoardFailed / recordEnded / runEnded of a returned job.
    void deliverResult(int jobId, const RecordedRun &run, const RunOutcome &outcome);

    TrainFunction m_train;
    JobRunner m_jobs; // last member: destroyed (stopped and joined) first
};

} // namespace devicebench
