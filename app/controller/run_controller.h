// SPDX-License-Identifier: MIT
// RunController: runs one training run at a time on a worker thread and turns the engine's
// observer callbacks into Qt signals delivered on the controller's own (main) thread.
// Qt Core + engine only; no LibTorch header may be included here (STYLE.md, point 2).
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/run_types.h"
#include "job_runner.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <vector>

Q_DECLARE_METATYPE(devicebench::RunConfig)
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

// Owns the worker thread of the current run (at most one run at a time).
//
// Every run is recorded on the worker thread by the engine's RunRecorder (run_record.h), the
// same recorder as the CLI's: it makes the run id, takes the step times, collects the
// fingerprint and the data identity, and (with a records folder) writes
// "<folder>/<runId>.json" after the start, after every epoch and at the end; the GUI thread
// writes nothing. The record reaches the controller's thread through recordStarted (before
// runStarted) and recordEnded (before runEnded); its runId also names the run's TensorBoard
// folder.
//
// The run is a job of a JobRunner (job_runner.h): the run id is the job id, and every signal is
// emitted on the thread the controller lives on (normally the GUI thread). For each accepted
// run the order is runAccepted (inside startRun), runStarted (absent when loading fails),
// then stepLosses / epochFinished interleaved, then exactly one runEnded. Events of a run that
// is no longer current, or that arrive after the controller was destroyed, are dropped. When
// the system refuses the worker thread, the run ends with runEnded(Failed, the reason) and the
// controller is idle again.
class RunController : public QObject {
    Q_OBJECT

public:
    // The training loop. It runs on the worker thread, must report to the observer in the
    // order TrainingObserver documents, and must end soon after the stop flag becomes true.
    using TrainFunction =
        std::function<RunOutcome(const RunConfig &, TrainingObserver &, const std::atomic<bool> &)>;

    // `train` defaults to devicebench::runTraining (trainer.h); tests inject a fake, and a
    // thread starter that fails (JobRunner::ThreadStarter; default: std::thread).
    explicit RunController(TrainFunction train = {}, QObject *parent = nullptr,
                           JobRunner::ThreadStarter starter = {});
    // Requests a stop and waits for the worker thread to return (never terminates it).
    // No runEnded is emitted for a run that is still going at that point.
    ~RunController() override;

    RunController(const RunController &) = delete;
    RunController &operator=(const RunController &) = delete;

    // Starts a run of `config` on a new worker thread, emits runAccepted(id, config) and returns
    // its id (1, 2, ...). When a run is already going, emits runRejected(reason) and returns 0.
    // The config is not validated here: the train function reports a bad config as a Failed
    // outcome (validate with validateRunConfig() first to show messages before starting).
    int startRun(const RunConfig &config);

    // Asks the current run to stop (sets its atomic stop flag); it then ends as cancelled
    // through the usual runEnded. No effect when idle.
    void stop();

    // True from an accepted startRun() until its runEnded has been emitted.
    bool isRunning() const { return m_jobs.isBusy(); }

    // Id of the run that is going, or 0 when idle.
    int currentRunId() const { return m_jobs.currentJobId(); }

    // TensorBoard event files (devicebench/tensorboard.h) of the runs started from now on, one
    // folder per run in `dir` ("<record runId>_<device>_x<threads>"); empty (the default): none.
    void setTensorBoardLogDir(const QString &dir);
    QString tensorBoardLogDir() const { return m_tensorBoardLogDir; }

    // The same as startRun, as a slot for a window's request (tensorBoardDir: as
    // setTensorBoardLogDir, for this and later runs).
    void requestRun(const devicebench::RunConfig &config, const QString &tensorBoardDir);

    // Run records of the runs started from now on: "<dir>/<runId>.json", written by the
    // worker's RunRecorder (the folder is created if missing). Empty (the default): records are
    // kept in memory only (still sent with recordStarted / recordEnded).
    void setRecordsFolder(const QString &dir);
    QString recordsFolder() const { return m_recordsFolder; }

Q_SIGNALS:
    // Emitted inside startRun(), before it returns, for every accepted run.
    void runAccepted(int runId, devicebench::RunConfig config);
    // The run's record as its recorder holds it once the run started (runId, createdUtc,
    // config, started, fingerprint, data identity; no epochs yet); emitted just before
    // runStarted.
    void recordStarted(int runId, devicebench::RunRecord record);
    void runStarted(int runId, devicebench::RunConfig config, devicebench::RunStarted info);
    void stepLosses(int runId, std::vector<devicebench::StepLoss> losses);
    void epochFinished(int runId, devicebench::EpochResult epoch);
    // The run's final record, as written (every epoch and step with the recorder's times, the
    // status and reason); emitted just before runEnded, also for a run that failed before it
    // started (then without recordStarted). Not emitted when no worker thread could be started.
    void recordEnded(int runId, devicebench::RunRecord record);
    void runEnded(int runId, devicebench::RunOutcome outcome);
    void runRejected(QString reason);
    // The run's event file could not be written (the run itself goes on); emitted before its
    // runEnded, at most once per run.
    void tensorBoardFailed(int runId, QString message);
    // The run's record file could not be written (the run itself goes on; the message names
    // the file and the OS error); emitted before its runEnded, at most once per run.
    void recordFailed(int runId, QString message);

private:
    class Observer;

    // Called on the controller's thread with the events posted by the worker.
    void deliverStarted(int runId, const RunRecord &record, const RunStarted &info);
    void deliverStepLosses(int runId, const std::vector<StepLoss> &losses);
    void deliverEpoch(int runId, const EpochResult &epoch);
    // The job's terminal signals, turned into runEnded.
    void onJobFinished(int jobId);
    void onJobFailed(int jobId, JobFailure kind, const QString &reason);

    TrainFunction m_train;
    RunConfig m_config;   // of the current run
    RunOutcome m_outcome; // of the current run: set on the controller's thread by a posted call
    RunRecord m_record;   // of the current run, as its recorder ended it: likewise
    QString m_tensorBoardLogDir; // empty: no event files
    QString m_recordsFolder;     // empty: records in memory only
    JobRunner m_jobs;            // last member: destroyed (stopped and joined) first
};

} // namespace devicebench
