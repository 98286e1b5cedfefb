// SPDX-License-Identifier: MIT
// The run settings panel's "GPU" row: the GPUs that passed the device probe, each as
// "cuda:N: <product name>", the one "Run on GPU" and a run set's "cuda" train on; shown once the
// probe found a usable GPU, a choice when there are several, remembered under run/gpu.
// Object name (tests): gpuCombo.
#pragma once

#include "devicebench/devices.h"

#include <QString>

#include <functional>
#include <string>
#include <vector>

class QComboBox;
class QFormLayout;
class QSettings;
class QWidget;

namespace devicebench {

class GpuChoice {
public:
    // Makes the combo as a child of `parent` and adds it as the row "GPU" of `form`, hidden
    // until setGpus finds a usable GPU; `chosen` is called after the user chooses one.
    void addRow(QWidget *parent, QFormLayout *form, std::function<void()> chosen);
    // The usable CUDA devices of a probe's result, in its order; the remembered GPU (or the one
    // chosen before) stays chosen when it is among them.
    void setGpus(const std::vector<DeviceInfo> &devices);
    // The chosen GPU's id ("cuda:1"); "cuda" (the first) before the probe found one.
    std::string device() const;
    // Its product name ("NVIDIA H200"); "" before the probe found one.
    QString name() const;
    // run/gpu: the chosen id.
    void save(QSettings &settings) const;
    // The saved id, chosen now if that GPU is listed, else when setGpus lists it.
    void restore(const QSettings &settings);

private:
    QFormLayout *m_form = nullptr;
    QComboBox *m_combo = nullptr;
    QString m_wanted; // the id to choose when it is listed (restored or chosen before)
};

} // namespace devicebench
