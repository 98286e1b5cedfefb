// SPDX-License-Identifier: MIT
#include "probe_controller.h"

#include <any>
#include <utility>

namespace devicebench {

ProbeController::ProbeController(ProbeFunction probe, QObject *parent,
                                 JobRunner::ThreadStarter starter)
    : QObject(parent), m_probe(probe ? std::move(probe) : ProbeFunction([] {
          DeviceSurvey survey;
          survey.devices = listDevices();
          survey.fingerprint = collectFingerprint();
          return survey;
      })),
      m_jobs(std::move(starter)) {
    connect(&m_jobs, &JobRunner::finished, this, [this](int jobId, const std::any &result) {
        const DeviceSurvey survey = std::any_cast<DeviceSurvey>(result);
        Q_EMIT probed(jobId, survey.devices, survey.fingerprint);
    });
    connect(&m_jobs, &JobRunner::failed, this,
            [this](int jobId, JobFailure kind, const QString &reason) {
                Q_EMIT probeFailed(jobId,
                                   kind == JobFailure::NoThread
                                       ? QStringLiteral("the probe could not start: ") + reason
                                       : QStringLiteral("the probe failed: ") + reason);
            });
}

ProbeController::~ProbeController() = default;

int ProbeController::start() {
    if (m_jobs.isBusy())
        return 0;
    return m_jobs.start([probe = m_probe](JobContext &) { return std::any(probe()); });
}

} // namespace devicebench
