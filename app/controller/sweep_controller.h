// SPDX-License-Identifier: MIT
// SweepController: runs one sweep (devicebench/sweep.h, runSweep) at a time as a job of a
// JobRunner (job_runner.h), and turns its progress callbacks, made on the worker thread, into
// Qt signals on the controller's own (GUI) thread. Qt Core + engine only; sweep.h is
// LibTorch-free.
#pragma once

#include "job_runner.h"

#include "devicebench/sweep.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <string>

Q_DECLARE_METATYPE(devicebench::SweepSpec)
Q_DECLARE_METATYPE(devicebench::SweepCell)
Q_DECLARE_METATYPE(devicebench::SweepCellRecord)
Q_DECLARE_METATYPE(devicebench::SweepProgress)
Q_DECLARE_METATYPE(devicebench::SweepOutcome)

namespace devicebench {

// For each accepted sweep, on the controller's thread and in this order: sweepAccepted (inside
// start()), then cellStarted / cellEnded per cell as runSweep reports them (a cell found
// finished in the folder has cellEnded with resumed = true and no cellStarted), then exactly
// one sweepEnded. Events of a sweep that is no longer current, or arriving after the controller
// was destroyed, are dropped.
class SweepController : public QObject {
    Q_OBJECT

public:
    // The sweep; runs on the worker thread, reports to the observer, ends soon after the stop
    // flag turns true. Default: devicebench::runSweep. Tests inject a fake.
    using SweepFunction = std::function<SweepOutcome(
        const SweepSpec &, const std::string &, const SweepObserver &, const std::atomic<bool> &)>;

    explicit SweepController(SweepFunction sweep = {}, QObject *parent = nullptr,
                             JobRunner::ThreadStarter starter = {});
    // Requests a stop and waits for the worker to return (the running cell ends within a
    // step). No sweepEnded is emitted for a sweep still going then.
    ~SweepController() override;

    SweepController(const SweepController &) = delete;
    SweepController &operator=(const SweepController &) = delete;

    // Starts `spec` into `folder` on a new worker thread, emits sweepAccepted and returns its
    // id (1, 2, ...). When the spec is invalid (validateSweepSpec) or a sweep is going, emits
    // sweepRejected(reason) and returns 0.
    int start(const devicebench::SweepSpec &spec, const QString &folder);
    // Sets the current sweep's stop flag: its running cell ends as cancelled (no record) and
    // the sweep ends with status Cancelled. No effect when idle.
    void stop();

    bool isRunning() const { return m_jobs.isBusy(); }

Q_SIGNALS:
    // `total`: the cells of the grid (sweepCells(spec).size()).
    void sweepAccepted(int jobId, int total, QString folder);
    void cellStarted(int jobId, devicebench::SweepCell cell, devicebench::SweepProgress progress);
    void cellEnded(int jobId, devicebench::SweepCellRecord record,
                   devicebench::SweepProgress progress, bool resumed);
    // The sweep's end. `error`: why it could not go on (the folder could not be made, the
    // sweep function threw, no thread), empty otherwise; then the outcome's status is Failed.
    // A stop gives status Cancelled and the records of the cells that ended before it.
    void sweepEnded(int jobId, devicebench::SweepOutcome outcome, QString error);
    void sweepRejected(QString reason);

private:
    SweepFunction m_sweep;
    JobRunner m_jobs; // last member: destroyed (stopped and joined) first
};

} // namespace devicebench
