// SPDX-License-Identifier: MIT
#include "panels/precision_settings.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSettings>
#include <QString>
#include <QVariant>

#include <string>

namespace devicebench {
namespace {

const QString kPrecision = QStringLiteral("run/precision");
const QString kTf32 = QStringLiteral("run/tf32");

// The combo's entry whose data is `value`, if there is one.
void choose(QComboBox *combo, const QString &value) {
    const int index = combo->findData(value);
    if (index >= 0)
        combo->setCurrentIndex(index);
}

void addPrecision(QComboBox *combo, Precision precision, const QString &text, const QString &tip) {
    combo->addItem(text, QString::fromUtf8(shortName(precision)));
    combo->setItemData(combo->count() - 1, tip, Qt::ToolTipRole);
}

void addTf32(QComboBox *combo, Tf32 tf32, const QString &tip) {
    combo->addItem(QString::fromUtf8(toString(tf32)), QString::fromUtf8(toString(tf32)));
    combo->setItemData(combo->count() - 1, tip, Qt::ToolTipRole);
}

} // namespace

void PrecisionSettings::addRows(QWidget *parent, QFormLayout *form) {
    m_precision = new QComboBox(parent);
    m_precision->setObjectName(QStringLiteral("precisionCombo"));
    addPrecision(m_precision, Precision::Float32, QStringLiteral("fp32 (the article's)"),
                 QStringLiteral("Everything in float32, as the article trains"));
    addPrecision(m_precision, Precision::BFloat16, QStringLiteral("bf16 mixed precision"),
                 QStringLiteral("Products and convolutions in bfloat16 under autocast; weights, "
                                "gradients and the loss stay float32"));
    addPrecision(m_precision, Precision::Float16,
                 QStringLiteral("fp16 mixed precision + loss scaling, CUDA only"),
                 QStringLiteral("Products and convolutions in float16 under autocast, the loss "
                                "scaled so that small gradients survive; CUDA only"));
    m_precision->setToolTip(
        QStringLiteral("The arithmetic of the run. fp32: the article's. bf16 and fp16: "
                       "automatic mixed precision (fp16 on CUDA only, with loss scaling). Runs "
                       "of different precisions are flagged as not comparable."));
    m_tf32 = new QComboBox(parent);
    m_tf32->setObjectName(QStringLiteral("tf32Combo"));
    addTf32(m_tf32, Tf32::Default, QStringLiteral("LibTorch's own setting, left as it is"));
    addTf32(m_tf32, Tf32::On,
            QStringLiteral("float32 products and convolutions in TF32 (10-bit mantissa) on "
                           "CUDA devices of compute capability 8.0 and later"));
    addTf32(m_tf32, Tf32::Off, QStringLiteral("float32 products and convolutions in full float32"));
    m_tf32->setToolTip(QStringLiteral(
        "TensorFloat-32 for float32 matrix products and convolutions on CUDA (compute "
        "capability 8.0 and later); no effect on the CPU"));
    form->addRow(QStringLiteral("Precision"), m_precision);
    form->addRow(QStringLiteral("TF32 (CUDA)"), m_tf32);
}

void PrecisionSettings::apply(RunConfig *config) const {
    parsePrecision(m_precision->currentData().toString().toStdString(), &config->precision);
    parseTf32(m_tf32->currentData().toString().toStdString(), &config->tf32);
}

void PrecisionSettings::show(const RunConfig &config) {
    choose(m_precision, QString::fromUtf8(shortName(config.precision)));
    choose(m_tf32, QString::fromUtf8(toString(config.tf32)));
}

void PrecisionSettings::save(QSettings &settings) const {
    settings.setValue(kPrecision, m_precision->currentData());
    settings.setValue(kTf32, m_tf32->currentData());
}

void PrecisionSettings::restore(const QSettings &settings) {
    // A saved precision in either spelling ("bf16" or the record's "bfloat16").
    Precision precision = Precision::Float32;
    if (parsePrecision(settings.value(kPrecision).toString().toStdString(), &precision))
        choose(m_precision, QString::fromUtf8(shortName(precision)));
    Tf32 tf32 = Tf32::Default;
    if (parseTf32(settings.value(kTf32).toString().toStdString(), &tf32))
        choose(m_tf32, QString::fromUtf8(toString(tf32)));
}

} // namespace devicebench
