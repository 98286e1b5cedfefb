// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include "devicebench/run_record.h"
#include "devicebench/tensorboard.h"
#include "devicebench/trainer.h"

#include <exception>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

namespace devicebench {

void registerRunMetaTypes() {
    qRegisterMetaType<RunConfig>();
    qRegisterMetaType<RunStarted>();
    qRegisterMetaType<StepLoss>();
    qRegisterMetaType<std::vector<StepLoss>>();
    qRegisterMetaType<EpochResult>();
    qRegisterMetaType<RunOutcome>();
    qRegisterMetaType<RunRecord>();
}

// Lives on the worker thread for the duration of one run. It never touches the controller's
// members except the thread-safe event queue: each event is copied into a call that runs on
// the controller's thread, so no member is written from two threads (KDAB/hotspot's pattern).
// It sits behind the run's RunRecorder, so that at onRunStarted the recorder's record already
// holds the fingerprint and the data identity.
class RunController::Observer final : public TrainingObserver {
public:
    Observer(RunController *controller, int runId) : m_controller(controller), m_runId(runId) {}
    void setRecorder(const RunRecorder *recorder) { m_recorder = recorder; }

    void onRunStarted(const RunStarted &info) override {
        post([c = m_controller, id = m_runId, record = m_recorder->record(), info] {
            c->deliverStarted(id, record, info);
        });
    }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        post([c = m_controller, id = m_runId, losses] { c->deliverStepLosses(id, losses); });
    }
    void onEpochFinished(const EpochResult &epoch) override {
        post([c = m_controller, id = m_runId, epoch] { c->deliverEpoch(id, epoch); });
    }
    // The terminal event is posted by the worker after the train function has returned (with
    // its return value), so that it is sent exactly once even if the function throws.
    void onRunEnded(const RunOutcome & /*outcome*/) override {}

private:
    template <typename F> void post(F &&call) { m_controller->m_events.post(std::forward<F>(call)); }

    RunController *m_controller;
    int m_runId;
    const RunRecorder *m_recorder = nullptr;
};

RunController::RunController(TrainFunction train, QObject *parent)
    : QObject(parent),
      m_train(train ? std::move(train)
                    : TrainFunction(static_cast<RunOutcome (*)(const RunConfig &,
                                                               TrainingObserver &,
                                                               const std::atomic<bool> &)>(
                          &runTraining))) {
    registerRunMetaTypes();
}

RunController::~RunController() {
    m_stopRequested.store(true);
    if (m_thread.joinable()) {
        // The train function checks the flag every step; the events still queued for this
        // object are discarded with m_events.
        m_thread.join();
    }
}

int RunController::startRun(const RunConfig &config) {
    if (m_currentRunId != 0) {
        Q_EMIT runRejected(QStringLiteral("Run #%1 is still going: stop it or wait for it to end.")
                               .arg(m_currentRunId));
        return 0;
    }
    const int runId = ++m_lastRunId;
    m_currentRunId = runId;
    m_config = config;
    m_stopRequested.store(false);

    // A std::thread, not a QThread: ThreadSanitizer ignores threads started from inside an
    // uninstrumented Qt (docs/SANITIZERS.md), and this one runs our code.
    m_thread = std::thread([this, runId, config, train = m_train,
                                logDir = m_tensorBoardLogDir.toStdString(),
                                recordsDir = m_recordsFolder.toStdString()] {
        Observer observer(this, runId);
        // One run id for the record, its file and the TensorBoard folder (as in the CLI).
        const std::string recordId = newRunId();
        // TensorBoard (when a log folder is set) sees every event before the observer does.
        std::unique_ptr<TensorBoardObserver> board;
        if (!logDir.empty()) {
            board = std::make_unique<TensorBoardObserver>(
                config, logDir,
                recordId + "_" + config.device + "_x" + std::to_string(config.threads),
                &observer);
        }
        TrainingObserver &next = board ? static_cast<TrainingObserver &>(*board) : observer;
        std::string recordPath;
        if (!recordsDir.empty()) {
            std::error_code ignored; // a folder that cannot be made: the write says why
            std::filesystem::create_directories(recordsDir, ignored);
            recordPath = (std::filesystem::path(recordsDir) / (recordId + ".json")).string();
        }
        // The recorder sees every event first, as in the CLI.
        RunRecorder recorder(config, recordPath, &next, recordId);
        observer.setRecorder(&recorder);
        RunOutcome outcome;
        try {
            outcome = train(config, recorder, m_stopRequested);
        } catch (const std::exception &e) {
            outcome.status = RunStatus::Failed;
            outcome.reason = std::string("training stopped with an error: ") + e.what();
        } catch (...) {
            outcome.status = RunStatus::Failed;
            outcome.reason = "training stopped with an unknown error";
        }
        if (recorder.record().status == "running") // the train function threw or never ended
            recorder.onRunEnded(outcome);
        if (board && !board->writeError().empty()) {
            m_events.post([this, runId, message = QString::fromStdString(board->writeError())] {
                if (runId == m_currentRunId)
                    Q_EMIT tensorBoardFailed(runId, message);
            });
        }
        if (!recorder.writeError().empty()) {
            m_events.post([this, runId, message = QString::fromStdString(recorder.writeError())] {
                if (runId == m_currentRunId)
                    Q_EMIT recordFailed(runId, message);
            });
        }
        m_events.post([this, runId, record = recorder.record(), outcome] {
            deliverEnded(runId, record, outcome);
        });
    });
    return runId;
}

void RunController::stop() {
    if (m_currentRunId != 0)
        m_stopRequested.store(true);
}

bool RunController::isRunning() const { return m_currentRunId != 0; }

int RunController::currentRunId() const { return m_currentRunId; }

void RunController::setTensorBoardLogDir(const QString &dir) { m_tensorBoardLogDir = dir; }

void RunController::setRecordsFolder(const QString &dir) { m_recordsFolder = dir; }

void RunController::deliverStarted(int runId, const RunRecord &record, const RunStarted &info) {
    if (runId != m_currentRunId)
        return; // stale
    Q_EMIT recordStarted(runId, record);
    Q_EMIT runStarted(runId, m_config, info);
}

void RunController::deliverStepLosses(int runId, const std::vector<StepLoss> &losses) {
    if (runId != m_currentRunId)
        return;
    Q_EMIT stepLosses(runId, losses);
}

void RunController::deliverEpoch(int runId, const EpochResult &epoch) {
    if (runId != m_currentRunId)
        return;
    Q_EMIT epochFinished(runId, epoch);
}

void RunController::deliverEnded(int runId, const RunRecord &record, const RunOutcome &outcome) {
    if (runId != m_currentRunId)
        return;
    // The worker posted this as its last act: the wait is only for the thread to unwind, and
    // it makes the controller idle before runEnded, so a slot may start the next run at once.
    if (m_thread.joinable()) {
        m_thread.join();
    }
    m_currentRunId = 0;
    Q_EMIT recordEnded(runId, record);
    Q_EMIT runEnded(runId, outcome);
}

} // namespace devicebench
