// SPDX-License-Identifier: MIT
// The diagnostics dialog: this machine's fingerprint and every device with its probe result,
// time and reason. It shows what the device probe found (the probe runs as a job elsewhere:
// app/controller/probe_controller.h); "Probe again" asks for a new probe with a signal.
#pragma once

#include "devicebench/devices.h"
#include "devicebench/fingerprint.h"

#include <QDialog>
#include <QString>

#include <vector>

class QPushButton;
class QTextBrowser;

namespace devicebench {

// This machine's fingerprint and the device list with each probe's result, as one HTML page.
QString diagnosticsHtml(const std::vector<DeviceInfo> &devices, const Fingerprint &fingerprint);

// Object names (tests): diagnosticsDialog, diagnosticsText, probeAgainButton.
class DiagnosticsDialog : public QDialog {
    Q_OBJECT

public:
    explicit DiagnosticsDialog(QWidget *parent = nullptr);

    // "Probing the devices…" (the page of the last result stays below it, if any).
    void showProbing();
    // The probe's result.
    void showSurvey(const std::vector<DeviceInfo> &devices, const Fingerprint &fingerprint);
    // The probe could not run (e.g. no thread): the reason.
    void showProbeFailed(const QString &reason);

Q_SIGNALS:
    void probeRequested();

private:
    QTextBrowser *m_text = nullptr;
    QPushButton *m_probeAgain = nullptr;
    QString m_page; // the last result's page; empty before the first
};

} // namespace devicebench
