// SPDX-License-Identifier: MIT
#include "panels/model_settings.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSettings>
#include <QString>
#include <QVariant>

namespace devicebench {
namespace {

const QString kModel = QStringLiteral("run/model");
const QString kImageSize = QStringLiteral("run/imageSize");

// The combo's entry whose data is `value`, if there is one.
void choose(QComboBox *combo, const QVariant &value) {
    const int index = combo->findData(value);
    if (index >= 0)
        combo->setCurrentIndex(index);
}

} // namespace

void ModelSettings::addRows(QWidget *parent, QFormLayout *form) {
    m_model = new QComboBox(parent);
    m_model->setObjectName(QStringLiteral("modelCombo"));
    m_model->addItem(QStringLiteral("small-cnn (the article's)"), QStringLiteral("small-cnn"));
    m_model->addItem(QStringLiteral("resnet18 (ResNet-18, 11.2 M parameters)"),
                     QStringLiteral("resnet18"));
    m_model->addItem(QStringLiteral("vit-tiny (ViT-Tiny shape, 5.4 M parameters)"),
                     QStringLiteral("vit-tiny"));
    m_model->setToolTip(
        QStringLiteral("The network trained. small-cnn: the article's. resnet18: ResNet-18 in "
                       "its CIFAR form (3x3 stem, no max-pool). vit-tiny: a Vision Transformer "
                       "of ViT-Tiny's shape (patch 4, width 192, depth 12, 3 heads). Runs of "
                       "different models are flagged as not comparable."));
    m_imageSize = new QComboBox(parent);
    m_imageSize->setObjectName(QStringLiteral("imageSizeCombo"));
    for (const int pixels : kImageSizes) {
        const QString text = pixels == kDefaultImageSize
                                 ? QStringLiteral("%1 x %1 (CIFAR-10's own)").arg(pixels)
                                 : QStringLiteral("%1 x %1 (upsampled)").arg(pixels);
        m_imageSize->addItem(text, pixels);
    }
    m_imageSize->setToolTip(
        QStringLiteral("Pixels per image. 64 and 128: the data is upsampled once by bilinear "
                       "interpolation, before epoch 1 and outside the timed epochs."));
    form->addRow(QStringLiteral("Model"), m_model);
    form->addRow(QStringLiteral("Image size"), m_imageSize);
}

void ModelSettings::apply(RunConfig *config) const {
    config->model = m_model->currentData().toString().toStdString();
    config->imageSize = m_imageSize->currentData().toInt();
}

void ModelSettings::show(const RunConfig &config) {
    choose(m_model, QString::fromStdString(config.model));
    choose(m_imageSize, config.imageSize);
}

void ModelSettings::save(QSettings &settings) const {
    settings.setValue(kModel, m_model->currentData());
    settings.setValue(kImageSize, m_imageSize->currentData());
}

void ModelSettings::restore(const QSettings &settings) {
    if (settings.contains(kModel))
        choose(m_model, settings.value(kModel).toString());
    bool ok = false;
    const int pixels = settings.value(kImageSize).toInt(&ok);
    if (ok)
        choose(m_imageSize, pixels);
}

void ModelSettings::setEnabled(bool enabled) {
    m_model->setEnabled(enabled);
    m_imageSize->setEnabled(enabled);
}

} // namespace devicebench
