// SPDX-License-Identifier: MIT
// The run settings panel's arithmetic rows: a "Precision" combo (fp32, the article's and the
// default; bf16 mixed precision; fp16 mixed precision with loss scaling, CUDA only) and a
// "TF32 (CUDA)" combo (default, on, off), feeding RunConfig::precision and RunConfig::tf32, and
// their QSettings keys run/precision and run/tf32. Which precision a device may run is the
// engine's to say (validateRunConfig); the panel offers all three.
// Object names (tests): precisionCombo, tf32Combo.
#pragma once

#include "devicebench/run_types.h"

class QComboBox;
class QFormLayout;
class QSettings;
class QWidget;

namespace devicebench {

class PrecisionSettings {
public:
    // Makes the two combos as children of `parent` (fp32 and TF32 default chosen) and adds
    // them as rows "Precision" and "TF32 (CUDA)" to `form`.
    void addRows(QWidget *parent, QFormLayout *form);
    // Sets config->precision and config->tf32 from the combos.
    void apply(RunConfig *config) const;
    // Chooses config.precision and config.tf32.
    void show(const RunConfig &config);
    // run/precision ("fp32", "bf16", "fp16") and run/tf32 ("default", "on", "off").
    void save(QSettings &settings) const;
    // A missing or unknown saved value keeps the current choice.
    void restore(const QSettings &settings);

private:
    QComboBox *m_precision = nullptr;
    QComboBox *m_tf32 = nullptr;
};

} // namespace devicebench
