// SPDX-License-Identifier: MIT
#include "wiring.h"

#include "dialogs/fetch_dialog.h"
#include "fetch_controller.h"
#include "probe_controller.h"
#include "run_controller.h"
#include "sweep/sweep_panel.h"
#include "sweep_controller.h"
#include "window/main_window.h"

#include <vector>

namespace devicebench {

void wireFetchDialog(FetchDialog &dialog, FetchController &fetch) {
    QObject::connect(&dialog, &FetchDialog::fetchRequested, &fetch, &FetchController::start);
    QObject::connect(&dialog, &FetchDialog::cancelRequested, &fetch, &FetchController::cancel);
    QObject::connect(&fetch, &FetchController::fetchStarted, &dialog, &FetchDialog::onFetchStarted);
    QObject::connect(&fetch, &FetchController::progress, &dialog, &FetchDialog::onProgress);
    QObject::connect(&fetch, &FetchController::ended, &dialog, &FetchDialog::onEnded);
}

void wireSweepPanel(SweepPanel &panel, SweepController &sweeps) {
    QObject::connect(&panel, &SweepPanel::startSweepRequested, &sweeps, &SweepController::start);
    QObject::connect(&panel, &SweepPanel::stopSweepRequested, &sweeps, &SweepController::stop);
    QObject::connect(&sweeps, &SweepController::sweepAccepted, &panel,
                     &SweepPanel::onSweepAccepted);
    QObject::connect(&sweeps, &SweepController::cellStarted, &panel, &SweepPanel::onCellStarted);
    QObject::connect(&sweeps, &SweepController::cellEnded, &panel, &SweepPanel::onCellEnded);
    QObject::connect(&sweeps, &SweepController::sweepEnded, &panel, &SweepPanel::onSweepEnded);
    QObject::connect(&sweeps, &SweepController::sweepRejected, &panel,
                     &SweepPanel::onSweepRejected);
}

void wireDashboard(MainWindow &window, RunController &runs, ProbeController &probe,
                   FetchController &fetch, SweepController *sweeps) {
    if (sweeps != nullptr)
        wireSweepPanel(*window.sweepPanel(), *sweeps);
    QObject::connect(&window, &MainWindow::startRunRequested, &runs, &RunController::startRun);
    QObject::connect(&window, &MainWindow::startRunSetRequested, &runs,
                     &RunController::startRunSet);
    QObject::connect(&runs, &RunController::runSetAccepted, &window, &MainWindow::onRunSetAccepted);
    QObject::connect(&window, &MainWindow::stopRequested, &runs, &RunController::stop);
    QObject::connect(&runs, &RunController::runAccepted, &window, &MainWindow::onRunAccepted);
    QObject::connect(&runs, &RunController::recordStarted, &window, &MainWindow::onRecordStarted);
    QObject::connect(&runs, &RunController::runStarted, &window, &MainWindow::onRunStarted);
    QObject::connect(&runs, &RunController::stepLosses, &window, &MainWindow::onStepLosses);
    QObject::connect(&runs, &RunController::systemSamples, &window, &MainWindow::onSystemSamples);
    QObject::connect(&runs, &RunController::epochFinished, &window, &MainWindow::onEpochFinished);
    QObject::connect(&runs, &RunController::runEnded, &window, &MainWindow::onRunEnded);
    QObject::connect(&runs, &RunController::runRejected, &window, &MainWindow::onRunRejected);

    QObject::connect(&window, &MainWindow::probeRequested, &probe, &ProbeController::start);
    QObject::connect(
        &probe, &ProbeController::probed, &window,
        [&window](int, const std::vector<DeviceInfo> &devices, const Fingerprint &fingerprint) {
            window.onDevicesProbed(devices, fingerprint);
        });
    QObject::connect(&probe, &ProbeController::probeFailed, &window,
                     [&window](int, const QString &reason) { window.onProbeFailed(reason); });

    QObject::connect(&window, &MainWindow::fetchDialogCreated, &fetch,
                     [&fetch](FetchDialog *dialog) { wireFetchDialog(*dialog, fetch); });

    window.requestProbe();
}

} // namespace devicebench
