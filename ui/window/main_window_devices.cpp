// SPDX-License-Identifier: MIT
// The devices part of MainWindow: the device probe's result (the GPU button and the
// diagnostics dialog) and the CIFAR-10 fetch dialog. Neither waits on anything: the probe and
// the fetch run as jobs in app/controller, wired by the composition root.
#include "window/main_window.h"

#include "dialogs/diagnostics_dialog.h"
#include "dialogs/fetch_dialog.h"
#include "panels/run_settings_panel.h"
#include "sweep/sweep_panel.h"

#include <vector>

namespace devicebench {

void MainWindow::requestProbe() {
    m_probing = true;
    if (!m_haveSurvey)
        m_gpuReason = QStringLiteral("Checking the GPU (the device probe is running)…");
    if (m_diagnostics != nullptr)
        m_diagnostics->showProbing();
    updateButtons();
    Q_EMIT probeRequested();
}

void MainWindow::onDevicesProbed(const std::vector<DeviceInfo> &devices,
                                 const Fingerprint &fingerprint) {
    m_probing = false;
    m_devices = devices;
    m_fingerprint = fingerprint;
    m_haveSurvey = true;
    // "CUDA is available" is not enough (MEASURING.md, lesson 3): the GPU is offered only
    // after a real convolution forward and backward on it agreed with the CPU.
    QString reason;
    bool usable = false;
    for (const DeviceInfo &d : devices) {
        if (d.id.rfind("cuda", 0) != 0)
            continue;
        usable = usable || d.usable;
        if (!d.usable && reason.isEmpty())
            reason = d.probe.device.empty()
                         ? QString::fromStdString(d.reason)
                         : QStringLiteral("The GPU failed its probe (a convolution forward and "
                                          "backward checked against the CPU): ") +
                               QString::fromStdString(d.reason);
    }
    m_gpuReason = usable
                      ? QString()
                      : (reason.isEmpty() ? QStringLiteral("No CUDA device was found.") : reason);
    if (m_diagnostics != nullptr)
        m_diagnostics->showSurvey(devices, fingerprint);
    m_sweep->setDevices(devices); // the GPUs that passed the probe, for the sweep's grid
    m_settings->setGpus(devices); // the GPU row and the name on "Run on GPU"
    updateButtons();
    sendPendingReproduction(); // "Reproduce the article" waited for the devices
}

void MainWindow::onProbeFailed(const QString &reason) {
    m_probing = false;
    if (!m_haveSurvey)
        m_gpuReason = QStringLiteral("The device probe did not run: ") + reason;
    if (m_diagnostics != nullptr)
        m_diagnostics->showProbeFailed(reason);
    setStatus(QStringLiteral("The device probe did not run: ") + reason, true);
    updateButtons();
    sendPendingReproduction(); // on the CPU alone
}

void MainWindow::showDiagnostics() {
    if (m_diagnostics == nullptr) {
        m_diagnostics = new DiagnosticsDialog(this);
        connect(m_diagnostics, &DiagnosticsDialog::probeRequested, this, &MainWindow::requestProbe);
        if (m_haveSurvey)
            m_diagnostics->showSurvey(m_devices, m_fingerprint);
        if (m_probing)
            m_diagnostics->showProbing();
    }
    m_diagnostics->show();
    m_diagnostics->raise();
}

FetchDialog *MainWindow::openFetchDialog(const QString &archivePath) {
    auto *dialog = findChild<FetchDialog *>();
    if (!dialog) {
        dialog = new FetchDialog(this);
        connect(dialog, &FetchDialog::dataReady, this, [this](const QString &dir) {
            m_settings->useDataDir(dir);
            setStatus(QStringLiteral("CIFAR-10 is ready in ") + dir, false);
        });
        Q_EMIT fetchDialogCreated(dialog);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    if (!archivePath.isEmpty())
        dialog->startFromArchive(archivePath);
    return dialog;
}

} // namespace devicebench
