// SPDX-License-Identifier: MIT
#include "dialogs/diagnostics_dialog.h"

#include "theme/theme.h"

#include "devicebench/probe.h"

#include <QGuiApplication>

#include <QDialogButtonBox>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <string>

namespace devicebench {

namespace {

QString html(const std::string &text) { return QString::fromStdString(text).toHtmlEscaped(); }

QString orDash(const std::string &text) { return text.empty() ? QStringLiteral("–") : html(text); }

// "This machine": the fingerprint, a row per field.
QString machineHtml(const Fingerprint &f) {
    QString page = QStringLiteral("<h3>This machine</h3><table cellspacing=\"0\" "
                                  "cellpadding=\"3\">");
    auto row = [&page](const QString &name, const QString &value) {
        page += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(name, value);
    };
    row(QStringLiteral("host"), orDash(f.hostName));
    row(QStringLiteral("OS"), orDash(f.os));
    row(QStringLiteral("CPU"), orDash(f.cpuModel));
    row(QStringLiteral("cores"),
        QStringLiteral("%1 physical, %2 logical").arg(f.physicalCores).arg(f.logicalCores));
    row(QStringLiteral("CPU quota (cgroup)"), html(cpuQuotaText(f)));
    row(QStringLiteral("affinity"),
        QStringLiteral("%1 (%2 CPUs)").arg(orDash(f.affinity)).arg(f.affinityCount));
    row(QStringLiteral("OMP_NUM_THREADS"),
        f.ompNumThreads.empty() ? QStringLiteral("unset") : html(f.ompNumThreads));
    row(QStringLiteral("intra-op threads"), QString::number(f.intraOpThreads));
    row(QStringLiteral("BLAS"), orDash(f.blasLibrary));
    row(QStringLiteral("LibTorch"), orDash(f.libtorchVersion));
    row(QStringLiteral("CUDA built"), f.cudaBuilt ? QStringLiteral("yes") : QStringLiteral("no"));
    row(QStringLiteral("CUDA runtime"), orDash(f.cudaRuntimeVersion));
    row(QStringLiteral("cuDNN"), orDash(f.cudnnVersion));
    row(QStringLiteral("driver"), orDash(f.driverVersion));
    row(QStringLiteral("cuDNN benchmark"),
        f.cudnnBenchmark ? QStringLiteral("on") : QStringLiteral("off"));
    if (f.gpus.empty())
        row(QStringLiteral("GPUs"), QStringLiteral("none reported by a CUDA driver"));
    for (const GpuInfo &gpu : f.gpus)
        row(QStringLiteral("GPU %1").arg(gpu.index),
            QStringLiteral("%1, compute capability %2.%3, %4 GiB")
                .arg(html(gpu.name))
                .arg(gpu.computeMajor)
                .arg(gpu.computeMinor)
                .arg(static_cast<double>(gpu.memoryBytes) / (1024.0 * 1024.0 * 1024.0), 0, 'f', 1));
    row(QStringLiteral("DeviceBench"), orDash(f.appVersion));
    page += QStringLiteral("</table>");
    return page;
}

// "Devices": a row per device with its probe's outcome.
QString devicesHtml(const std::vector<DeviceInfo> &devices) {
    QString page =
        QStringLiteral(
            "<h3>Devices</h3><p>Each device runs a real convolution forward and backward and is "
            "compared with the CPU (relative error under %1) before a run may use it.</p>"
            "<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\"><tr><th>device</th>"
            "<th>name</th><th>probe</th><th>time</th><th>relative error</th><th>reason</th></tr>")
            .arg(kProbeTolerance);
    const theme::Theme shade = theme::themeOf(QGuiApplication::palette()); // light/dark text
    for (const DeviceInfo &d : devices) {
        const bool probed = !d.probe.device.empty();
        page +=
            QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td>"
                           "<td>%6</td></tr>")
                .arg(html(d.id), html(d.name),
                     d.usable ? QStringLiteral("<span style=\"color:%1\">usable</span>")
                                    .arg(theme::colourName(theme::Role::OkText, shade))
                              : QStringLiteral("<span style=\"color:%1\"><b>unusable</b></span>")
                                    .arg(theme::colourName(theme::Role::ErrorText, shade)),
                     probed ? QStringLiteral("%1 ms").arg(d.probe.seconds * 1000.0, 0, 'f', 1)
                            : QStringLiteral("not run"),
                     probed ? QString::number(d.probe.relativeError, 'g', 2) : QStringLiteral("–"),
                     d.usable ? QString() : html(d.reason));
    }
    page += QStringLiteral("</table>");
    return page;
}

} // namespace

QString diagnosticsHtml(const std::vector<DeviceInfo> &devices, const Fingerprint &f) {
    return machineHtml(f) + devicesHtml(devices);
}

DiagnosticsDialog::DiagnosticsDialog(QWidget *parent) : QDialog(parent) {
    setObjectName(QStringLiteral("diagnosticsDialog"));
    setWindowTitle(QStringLiteral("DeviceBench diagnostics"));
    auto *layout = new QVBoxLayout(this);
    m_text = new QTextBrowser(this);
    m_text->setObjectName(QStringLiteral("diagnosticsText"));
    layout->addWidget(m_text);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_probeAgain = buttons->addButton(QStringLiteral("Probe again"), QDialogButtonBox::ActionRole);
    m_probeAgain->setObjectName(QStringLiteral("probeAgainButton"));
    m_probeAgain->setToolTip(QStringLiteral("Run every device's probe again (in the background)"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_probeAgain, &QPushButton::clicked, this, &DiagnosticsDialog::probeRequested);
    layout->addWidget(buttons);
    resize(820, 640);
    showProbing();
}

void DiagnosticsDialog::showProbing() {
    m_probeAgain->setEnabled(false);
    m_text->setHtml(QStringLiteral("<p><i>Probing the devices (a convolution forward and "
                                   "backward on each, checked against the CPU)…</i></p>") +
                    m_page);
}

void DiagnosticsDialog::showSurvey(const std::vector<DeviceInfo> &devices,
                                   const Fingerprint &fingerprint) {
    m_page = diagnosticsHtml(devices, fingerprint);
    m_text->setHtml(m_page);
    m_probeAgain->setEnabled(true);
}

void DiagnosticsDialog::showProbeFailed(const QString &reason) {
    m_text->setHtml(QStringLiteral("<p><b>The device probe did not run:</b> %1</p>")
                        .arg(reason.toHtmlEscaped()) +
                    m_page);
    m_probeAgain->setEnabled(true);
}

} // namespace devicebench
