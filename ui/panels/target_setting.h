// SPDX-License-Identifier: MIT
// The run settings panel's "Target accuracy" row (time to accuracy, devicebench/time_to_target.h):
// a percentage after whose first reaching a run stops, the epochs then its budget; "none" (0)
// runs every epoch. Feeds RunConfig::targetAccuracy and the QSettings key run/targetAccuracy.
// Whether a target suits the run (its epochs) is the engine's to say (validateRunConfig).
// Object name (tests): targetAccuracySpin.
#pragma once

#include "devicebench/run_types.h"

class QDoubleSpinBox;
class QFormLayout;
class QSettings;
class QWidget;

namespace devicebench {

class TargetSetting {
public:
    // Makes the spin box (0.01-100 %, "none" at 0, none chosen) as a child of `parent` and adds
    // it as the row "Target accuracy" to `form`.
    void addRow(QWidget *parent, QFormLayout *form);
    // Sets config->targetAccuracy from the spin box (none at 0).
    void apply(RunConfig *config) const;
    // Shows config.targetAccuracy (0: none).
    void show(const RunConfig &config);
    // run/targetAccuracy: the percentage, 0 for none.
    void save(QSettings &settings) const;
    // A missing or bad saved value (not a number, out of range) keeps the current one.
    void restore(const QSettings &settings);

private:
    QDoubleSpinBox *m_target = nullptr;
};

} // namespace devicebench
