// SPDX-License-Identifier: MIT
#include "panels/workload_settings.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <string>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

const QString kWorkload = QStringLiteral("run/workload");
const QString kPython = QStringLiteral("run/python");
const QString kScript = QStringLiteral("run/script");
const QString kScriptArgs = QStringLiteral("run/scriptArgs");

bool isScript(Workload w) { return workloadRow(w).pythonChild(); }
bool isYours(Workload w) { return workloadRow(w).userScript(); }

// The arguments as one line a shell would split alike (quoted where needed).
QString joinArguments(const std::vector<std::string> &args) {
    QStringList quoted;
    for (const std::string &a : args) {
        QString arg = QString::fromStdString(a);
        if (arg.isEmpty() || arg.contains(QLatin1Char(' ')) || arg.contains(QLatin1Char('"')))
            arg = QLatin1Char('"') + arg.replace(QLatin1Char('"'), QStringLiteral("\"\"\"")) +
                  QLatin1Char('"');
        quoted << arg;
    }
    return quoted.join(QLatin1Char(' '));
}

// A choice per row of the workload table, and a tooltip that says what each one trains.
void addWorkloads(QComboBox *combo) {
    QStringList help;
    for (const WorkloadRow &row : kWorkloads) {
        combo->addItem(QString::fromUtf8(row.label), QString::fromUtf8(row.name));
        help << QString::fromUtf8(row.label) + QStringLiteral(": ") + QString::fromUtf8(row.help) +
                    QLatin1Char('.');
    }
    help << QStringLiteral("Runs of different workloads are flagged as not comparable.");
    combo->setToolTip(help.join(QLatin1Char(' ')));
}

} // namespace

void WorkloadSettings::addRows(QWidget *parent, QFormLayout *form) {
    m_workload = new QComboBox(parent);
    m_workload->setObjectName(QStringLiteral("workloadCombo"));
    addWorkloads(m_workload);
    m_python = new QLineEdit(parent);
    m_python->setObjectName(QStringLiteral("pythonEdit"));
    m_python->setPlaceholderText(QStringLiteral("python3"));
    m_python->setToolTip(
        QStringLiteral("The Python that runs the script (a path, or a name looked up in PATH; "
                       "empty: python3). It needs torch (the article's script torchvision "
                       "too); the run is refused with the reason when they are missing."));
    form->addRow(QStringLiteral("Workload"), m_workload);
    form->addRow(QStringLiteral("Python"), m_python);
    addScriptRows(parent, form);
    m_form = form;
    QObject::connect(m_workload, qOverload<int>(&QComboBox::currentIndexChanged), m_python, [this] {
        syncPython();
        if (m_recipeChosen) {
            const WorkloadRow &row = workloadRow(workload());
            m_recipeChosen(row.recipe() ? &row : nullptr);
        }
    });
    syncPython();
}

void WorkloadSettings::addScriptRows(QWidget *parent, QFormLayout *form) {
    m_scriptRow = new QWidget(parent);
    auto *row = new QHBoxLayout(m_scriptRow);
    row->setContentsMargins(0, 0, 0, 0);
    m_script = new QLineEdit(m_scriptRow);
    m_script->setObjectName(QStringLiteral("scriptEdit"));
    m_script->setPlaceholderText(QStringLiteral("train.py"));
    m_script->setToolTip(QStringLiteral("Your training script: a Python file that times its "
                                        "epochs with DeviceBench's module (import devicebench; "
                                        "docs/YOUR-SCRIPT.md)."));
    auto *choose = new QPushButton(QStringLiteral("Choose…"), m_scriptRow);
    choose->setObjectName(QStringLiteral("scriptChooseButton"));
    row->addWidget(m_script, 1);
    row->addWidget(choose);
    QObject::connect(choose, &QPushButton::clicked, m_script, [this] {
        const QString file = QFileDialog::getOpenFileName(
            m_scriptRow, QStringLiteral("Your training script"), m_script->text(),
            QStringLiteral("Python scripts (*.py);;All files (*)"));
        if (!file.isEmpty())
            m_script->setText(file);
    });
    m_scriptArgs = new QLineEdit(parent);
    m_scriptArgs->setObjectName(QStringLiteral("scriptArgsEdit"));
    m_scriptArgs->setPlaceholderText(QStringLiteral("--data-dir /data/cifar --batch-size 128"));
    m_scriptArgs->setToolTip(QStringLiteral("The script's arguments (its sys.argv[1:]), split "
                                            "as a shell would. Runs are comparable only with "
                                            "the same script file and arguments."));
    form->addRow(QStringLiteral("Script"), m_scriptRow);
    form->addRow(QStringLiteral("Arguments"), m_scriptArgs);
}

Workload WorkloadSettings::workload() const {
    Workload workload = Workload::Faithful;
    parseWorkload(m_workload->currentData().toString().toStdString(), &workload);
    return workload;
}

// The Python row shows only for a script, the script's rows only for yours, so that the
// settings stay short otherwise.
void WorkloadSettings::syncPython() {
    const bool script = isScript(workload());
    const bool yours = isYours(workload());
    m_python->setEnabled(script);
    m_form->setRowVisible(m_python, script);
    m_form->setRowVisible(m_scriptRow, yours);
    m_form->setRowVisible(m_scriptArgs, yours);
}

QString WorkloadSettings::python() const { return m_python->text().trimmed(); }

void WorkloadSettings::setRecipeChosen(std::function<void(const WorkloadRow *)> chosen) {
    m_recipeChosen = std::move(chosen);
}

void WorkloadSettings::apply(RunConfig *config) const {
    config->workload = workload();
    if (const WorkloadRow &row = workloadRow(config->workload); row.recipe()) {
        config->model = row.recipeModel;
        config->imageSize = kDefaultImageSize;
    }
    config->python = isScript(config->workload) ? python().toStdString() : std::string();
    config->script.clear();
    config->scriptArgs.clear();
    if (!isYours(config->workload))
        return;
    config->script = m_script->text().trimmed().toStdString();
    for (const QString &arg : QProcess::splitCommand(m_scriptArgs->text()))
        config->scriptArgs.push_back(arg.toStdString());
}

void WorkloadSettings::show(const RunConfig &config) {
    const int index = m_workload->findData(QString::fromUtf8(toString(config.workload)));
    if (index >= 0)
        m_workload->setCurrentIndex(index);
    if (!config.python.empty() || isScript(config.workload))
        m_python->setText(QString::fromStdString(config.python));
    if (isYours(config.workload)) {
        m_script->setText(QString::fromStdString(config.script));
        m_scriptArgs->setText(joinArguments(config.scriptArgs));
    }
}

void WorkloadSettings::save(QSettings &settings) const {
    settings.setValue(kWorkload, m_workload->currentData());
    settings.setValue(kPython, python());
    settings.setValue(kScript, m_script->text().trimmed());
    settings.setValue(kScriptArgs, m_scriptArgs->text());
}

void WorkloadSettings::restore(const QSettings &settings) {
    const int index = m_workload->findData(settings.value(kWorkload).toString());
    if (index >= 0)
        m_workload->setCurrentIndex(index);
    if (settings.contains(kPython))
        m_python->setText(settings.value(kPython).toString());
    if (settings.contains(kScript))
        m_script->setText(settings.value(kScript).toString());
    if (settings.contains(kScriptArgs))
        m_scriptArgs->setText(settings.value(kScriptArgs).toString());
}

} // namespace devicebench
