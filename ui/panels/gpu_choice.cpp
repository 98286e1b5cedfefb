// SPDX-License-Identifier: MIT
#include "panels/gpu_choice.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSettings>
#include <QVariant>

#include <utility>

namespace devicebench {
namespace {

const QString kGpu = QStringLiteral("run/gpu");

} // namespace

void GpuChoice::addRow(QWidget *parent, QFormLayout *form, std::function<void()> chosen) {
    m_form = form;
    m_combo = new QComboBox(parent);
    m_combo->setObjectName(QStringLiteral("gpuCombo"));
    m_combo->setToolTip(QStringLiteral("The GPU that \"Run on GPU\" and a run set's cuda train "
                                       "on: those that passed the device probe"));
    form->addRow(QStringLiteral("GPU"), m_combo);
    form->setRowVisible(m_combo, false);
    QObject::connect(m_combo, &QComboBox::activated, m_combo, [this, chosen = std::move(chosen)] {
        m_wanted = m_combo->currentData().toString();
        chosen();
    });
}

void GpuChoice::setGpus(const std::vector<DeviceInfo> &devices) {
    const QString wanted = m_wanted.isEmpty() ? m_combo->currentData().toString() : m_wanted;
    m_combo->clear();
    for (const DeviceInfo &d : devices) {
        if (d.usable && d.id.rfind("cuda", 0) == 0)
            m_combo->addItem(QString::fromStdString(d.id + ": " + d.name),
                             QString::fromStdString(d.id));
    }
    const int index = m_combo->findData(wanted);
    if (index >= 0)
        m_combo->setCurrentIndex(index);
    m_combo->setEnabled(m_combo->count() > 1);
    m_form->setRowVisible(m_combo, m_combo->count() > 0);
}

std::string GpuChoice::device() const {
    return m_combo->count() > 0 ? m_combo->currentData().toString().toStdString()
                                : std::string("cuda");
}

QString GpuChoice::name() const {
    if (m_combo->count() == 0)
        return {};
    const QString text = m_combo->currentText();
    return text.mid(text.indexOf(QStringLiteral(": ")) + 2);
}

void GpuChoice::save(QSettings &settings) const {
    const QString id = m_combo->count() > 0 ? m_combo->currentData().toString() : m_wanted;
    if (!id.isEmpty())
        settings.setValue(kGpu, id);
}

void GpuChoice::restore(const QSettings &settings) {
    m_wanted = settings.value(kGpu).toString();
    const int index = m_combo->findData(m_wanted);
    if (index >= 0)
        m_combo->setCurrentIndex(index);
}

} // namespace devicebench
