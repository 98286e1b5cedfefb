// SPDX-License-Identifier: MIT
// The run settings panel's model rows: a "Model" combo (small-cnn, resnet18, vit-tiny; run_types.h
// kModelNames) and an "Image size" combo (32, 64, 128 pixels per side; kImageSizes), feeding
// RunConfig::model and RunConfig::imageSize, and their QSettings keys run/model and run/imageSize.
// Object names (tests): modelCombo, imageSizeCombo.
#pragma once

#include "devicebench/run_types.h"

class QComboBox;
class QFormLayout;
class QSettings;
class QWidget;

namespace devicebench {

class ModelSettings {
public:
    // Makes the two combos as children of `parent` (the article's small-cnn at 32 chosen) and
    // adds them as rows "Model" and "Image size" to `form`.
    void addRows(QWidget *parent, QFormLayout *form);
    // Sets config->model and config->imageSize from the combos.
    void apply(RunConfig *config) const;
    // Chooses config.model and config.imageSize; a value the combos do not offer keeps the
    // current choice.
    void show(const RunConfig &config);
    // run/model (text) and run/imageSize (pixels).
    void save(QSettings &settings) const;
    // A missing or unknown saved value keeps the current choice.
    void restore(const QSettings &settings);
    // Both combos enabled or greyed out (a recipe trains its own network).
    void setEnabled(bool enabled);

private:
    QComboBox *m_model = nullptr;
    QComboBox *m_imageSize = nullptr;
};

} // namespace devicebench
