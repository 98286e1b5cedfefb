// SPDX-License-Identifier: MIT
#include "panels/target_setting.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSettings>
#include <QString>
#include <QVariant>

#include <cmath>

namespace devicebench {
namespace {

const QString kTargetAccuracy = QStringLiteral("run/targetAccuracy");

} // namespace

void TargetSetting::addRow(QWidget *parent, QFormLayout *form) {
    m_target = new QDoubleSpinBox(parent);
    m_target->setObjectName(QStringLiteral("targetAccuracySpin"));
    m_target->setRange(0.0, 100.0);
    m_target->setDecimals(2);
    m_target->setSingleStep(1.0);
    m_target->setSuffix(QStringLiteral(" %"));
    m_target->setSpecialValueText(QStringLiteral("none"));
    m_target->setToolTip(QStringLiteral(
        "Time to accuracy: stop after the first epoch whose test accuracy reaches this "
        "percentage, and compare runs by how soon they got there (the epochs are then the "
        "budget). none: every epoch runs."));
    form->addRow(QStringLiteral("Target accuracy"), m_target);
}

void TargetSetting::apply(RunConfig *config) const {
    config->targetAccuracy.reset();
    if (m_target->value() > 0.0)
        config->targetAccuracy = m_target->value();
}

void TargetSetting::show(const RunConfig &config) {
    m_target->setValue(config.targetAccuracy.value_or(0.0));
}

void TargetSetting::save(QSettings &settings) const {
    settings.setValue(kTargetAccuracy, m_target->value());
}

void TargetSetting::restore(const QSettings &settings) {
    bool ok = false;
    const double value = settings.value(kTargetAccuracy).toDouble(&ok);
    if (ok && std::isfinite(value) && value >= m_target->minimum() && value <= m_target->maximum())
        m_target->setValue(value);
}

} // namespace devicebench
