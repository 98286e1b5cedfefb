// SPDX-License-Identifier: MIT
// ProbeController: the device probe as a job (job_runner.h). Listing the devices runs a real
// convolution forward and backward on each (devicebench/devices.h), and a first CUDA start can
// take seconds: the window never waits on it. Qt Core + engine only.
#pragma once

#include "job_runner.h"

#include "devicebench/devices.h"
#include "devicebench/fingerprint.h"

#include <QObject>
#include <QString>

#include <functional>
#include <vector>

namespace devicebench {

// What one probe found: every device with its probe result, and this machine's fingerprint.
struct DeviceSurvey {
    std::vector<DeviceInfo> devices; // listDevices(): the CPU first, then each CUDA device
    Fingerprint fingerprint;         // collectFingerprint()
};

class ProbeController : public QObject {
    Q_OBJECT

public:
    // The probe; runs on the worker thread. Default: listDevices() and collectFingerprint().
    // Tests inject a slow or failing fake.
    using ProbeFunction = std::function<DeviceSurvey()>;

    explicit ProbeController(ProbeFunction probe = {}, QObject *parent = nullptr,
                             JobRunner::ThreadStarter starter = {});
    // Waits for a probe still going (a probe cannot be interrupted; it takes at most a few
    // seconds on a first CUDA start).
    ~ProbeController() override;

    // Starts a probe and returns its job id; 0 when one is going (its result will do).
    int start();
    bool isBusy() const { return m_jobs.isBusy(); }

Q_SIGNALS:
    // Exactly one of these per started probe.
    void probed(int jobId, std::vector<devicebench::DeviceInfo> devices,
                devicebench::Fingerprint fingerprint);
    void probeFailed(int jobId, QString reason);

private:
    ProbeFunction m_probe;
    JobRunner m_jobs; // last member: destroyed (joined) first
};

} // namespace devicebench
