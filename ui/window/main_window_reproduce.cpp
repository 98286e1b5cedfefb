// SPDX-License-Identifier: MIT
// "Reproduce the article" (main_window.h, reproduceArticle): the article's script and
// DeviceBench's faithful workload on every device here, at the published settings, as one
// interleaved run set, with the published rows shown beside them so that the result reads as
// the article's table.
#include "window/main_window.h"

#include "panels/compare_panel.h"
#include "panels/run_settings_panel.h"
#include "store/run_store.h"

#include "devicebench/reproduction.h"
#include "devicebench/resource_files.h"

#include <QCheckBox>

#include <algorithm>
#include <string>
#include <vector>

namespace devicebench {

std::vector<std::string> reproductionDevices(const std::vector<DeviceInfo> &devices) {
    std::vector<std::string> out{"cpu"};
    for (const DeviceInfo &device : devices) {
        if (device.usable && device.id.rfind("cuda", 0) == 0)
            out.push_back(device.id);
    }
    return out;
}

std::vector<RunRequest> reproductionRequests(const PublishedSet &set, const RunRequest &base,
                                             const std::vector<std::string> &devices,
                                             const ReproductionOverrides &overrides) {
    std::vector<RunRequest> requests;
    for (RunConfig config : reproductionRuns(set, base.config, devices)) {
        if (overrides.epochs) {
            config.epochs = *overrides.epochs;
            config.warmupEpochs = std::max(0, std::min(config.warmupEpochs, config.epochs - 1));
        }
        config.warmupEpochs = overrides.warmupEpochs.value_or(config.warmupEpochs);
        config.trainImages = overrides.trainImages.value_or(config.trainImages);
        config.testImages = overrides.testImages.value_or(config.testImages);
        RunRequest request = base;
        request.config = config;
        requests.push_back(std::move(request));
    }
    return requests;
}

void MainWindow::refuse(const QStringList &reasons) {
    m_settings->showProblems(reasons);
    setStatus(QStringLiteral("Not started: %1").arg(reasons.join(QStringLiteral("; "))), true);
    Q_EMIT runRefused(reasons);
}

bool MainWindow::reproduceArticle(const ReproductionOverrides &overrides) {
    const PublishedSet *set = articleSet(m_store->publishedSets());
    if (set == nullptr) {
        refuse({QStringLiteral("Reproduce the article: the article's published results are not "
                               "loaded (no published/article.json in the built-in folder; set "
                               "%1 to the folder that holds published/)")
                    .arg(QString::fromUtf8(kResourcesVariable))});
        return false;
    }
    if (m_probing && !m_haveSurvey && !isRunning()) {
        // The devices are the probe's to say; the set goes once it has answered.
        m_pendingReproduction = overrides;
        setStatus(QStringLiteral("Reproduce the article: waiting for the device probe…"), false);
        return true;
    }
    sendReproduction(*set, overrides);
    return true;
}

void MainWindow::sendPendingReproduction() {
    if (!m_pendingReproduction)
        return;
    const ReproductionOverrides overrides = *m_pendingReproduction;
    m_pendingReproduction.reset();
    if (isRunning())
        return; // a run started meanwhile: the user asks again
    if (const PublishedSet *set = articleSet(m_store->publishedSets()))
        sendReproduction(*set, overrides);
}

void MainWindow::sendReproduction(const PublishedSet &set, const ReproductionOverrides &overrides) {
    RunRequest base = runRequest("cpu");
    base.config.python = m_settings->python().toStdString(); // whatever the workload chosen
    const std::vector<std::string> devices = reproductionDevices(m_devices);
    m_compare->publishedCheck()->setChecked(true); // the article's rows beside the runs
    QStringList names;
    for (const std::string &device : devices)
        names.append(QString::fromStdString(device));
    setStatus(QStringLiteral("Reproduce the article: the article's script and DeviceBench's "
                             "faithful workload on %1, interleaved…")
                  .arg(names.join(QStringLiteral(", "))),
              false);
    m_reproductionSent = true;
    Q_EMIT startRunSetRequested(reproductionRequests(set, base, devices, overrides), true);
}

} // namespace devicebench
