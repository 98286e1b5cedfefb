// SPDX-License-Identifier: MIT
#include "panels/workload_settings.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSettings>
#include <QString>
#include <QVariant>

#include <string>

namespace devicebench {
namespace {

const QString kWorkload = QStringLiteral("run/workload");
const QString kPython = QStringLiteral("run/python");

void addWorkload(QComboBox *combo, Workload workload, const QString &text) {
    combo->addItem(text, QString::fromUtf8(toString(workload)));
}

} // namespace

void WorkloadSettings::addRows(QWidget *parent, QFormLayout *form) {
    m_workload = new QComboBox(parent);
    m_workload->setObjectName(QStringLiteral("workloadCombo"));
    addWorkload(m_workload, Workload::Faithful, QStringLiteral("faithful (the article's)"));
    addWorkload(m_workload, Workload::Tuned, QStringLiteral("tuned (fastest measured)"));
    addWorkload(m_workload, Workload::ArticleScript,
                QStringLiteral("the article's script (Python)"));
    m_workload->setToolTip(
        QStringLiteral("faithful: the article's computation. tuned: the same training, same "
                       "results within float tolerance, computed the fastest way measured "
                       "(channels-last, no per-step allocation, ...). the article's script: "
                       "the published Python program itself, in PyTorch (small-cnn, fp32), "
                       "like for like with the published rows. Runs of different workloads "
                       "are flagged as not comparable."));
    m_python = new QLineEdit(parent);
    m_python->setObjectName(QStringLiteral("pythonEdit"));
    m_python->setPlaceholderText(QStringLiteral("python3"));
    m_python->setToolTip(
        QStringLiteral("The Python that runs the article's script (a path, or a name looked "
                       "up in PATH; empty: python3). It needs torch and torchvision; the run "
                       "is refused with the reason when they are missing."));
    form->addRow(QStringLiteral("Workload"), m_workload);
    form->addRow(QStringLiteral("Python"), m_python);
    m_form = form;
    QObject::connect(m_workload, qOverload<int>(&QComboBox::currentIndexChanged), m_python,
                     [this] { syncPython(); });
    syncPython();
}

Workload WorkloadSettings::workload() const {
    Workload workload = Workload::Faithful;
    parseWorkload(m_workload->currentData().toString().toStdString(), &workload);
    return workload;
}

// The Python row shows only for the script, so that the settings stay short otherwise.
void WorkloadSettings::syncPython() {
    const bool script = workload() == Workload::ArticleScript;
    m_python->setEnabled(script);
    m_form->setRowVisible(m_python, script);
}

QString WorkloadSettings::python() const { return m_python->text().trimmed(); }

void WorkloadSettings::apply(RunConfig *config) const {
    config->workload = workload();
    config->python =
        config->workload == Workload::ArticleScript ? python().toStdString() : std::string();
}

void WorkloadSettings::show(const RunConfig &config) {
    const int index = m_workload->findData(QString::fromUtf8(toString(config.workload)));
    if (index >= 0)
        m_workload->setCurrentIndex(index);
    if (!config.python.empty() || config.workload == Workload::ArticleScript)
        m_python->setText(QString::fromStdString(config.python));
}

void WorkloadSettings::save(QSettings &settings) const {
    settings.setValue(kWorkload, m_workload->currentData());
    settings.setValue(kPython, python());
}

void WorkloadSettings::restore(const QSettings &settings) {
    const int index = m_workload->findData(settings.value(kWorkload).toString());
    if (index >= 0)
        m_workload->setCurrentIndex(index);
    if (settings.contains(kPython))
        m_python->setText(settings.value(kPython).toString());
}

} // namespace devicebench
