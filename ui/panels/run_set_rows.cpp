// SPDX-License-Identifier: MIT
// The run set rows of the run settings panel (run_settings_panel.h): the list ("cpu:1, cpu:2,
// cuda"), "Interleave epochs", "Run set", and "Reproduce the article" under them.
#include "panels/run_settings_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <vector>

namespace devicebench {

bool parseRunSetItem(const QString &text, RunSetItem *item) {
    const QStringList parts = text.trimmed().split(QLatin1Char(':'));
    const QString device = parts.value(0);
    if (device == QLatin1String("cpu")) {
        item->device = "cpu";
        item->threads = 0;
        if (parts.size() == 2) {
            bool ok = false;
            item->threads = parts[1].toInt(&ok);
            return ok && item->threads >= 1;
        }
        return parts.size() == 1;
    }
    if ((device == QLatin1String("cuda") || device == QLatin1String("gpu")) && parts.size() == 1) {
        item->device = "cuda";
        item->threads = 0;
        return true;
    }
    return false;
}

bool parseRunSet(const QString &text, std::vector<RunSetItem> *items, QString *error) {
    items->clear();
    if (text.trimmed().isEmpty()) {
        *error = QStringLiteral("run set: list the runs, e.g. cpu:1, cpu:2, cuda");
        return false;
    }
    for (const QString &part : text.split(QLatin1Char(','))) {
        RunSetItem item;
        if (!parseRunSetItem(part, &item)) {
            *error =
                QStringLiteral("run set: '%1' is not cpu, cpu:THREADS or cuda").arg(part.trimmed());
            return false;
        }
        items->push_back(item);
    }
    return true;
}

QLayout *RunSettingsPanel::buildRunSetRows() {
    auto *rows = new QVBoxLayout;
    auto *listRow = new QHBoxLayout;
    m_runSetEdit = new QLineEdit(this);
    m_runSetEdit->setObjectName(QStringLiteral("runSetEdit"));
    m_runSetEdit->setPlaceholderText(QStringLiteral("cpu:1, cpu:2, cuda"));
    m_runSetEdit->setToolTip(
        QStringLiteral("Several runs with these settings, each on cpu, cpu:THREADS or cuda, "
                       "separated by commas"));
    m_interleaveCheck = new QCheckBox(QStringLiteral("Interleave epochs"), this);
    m_interleaveCheck->setObjectName(QStringLiteral("interleaveCheck"));
    // On by default: each run trains in a process of its own, so interleaving costs the runs
    // nothing and a drifting machine slows all of them alike (docs/MEASURING.md, "Interleaved
    // runs").
    m_interleaveCheck->setChecked(true);
    m_interleaveCheck->setToolTip(
        QStringLiteral("Run the set's epochs in alternation (run 1 epoch 1, run 2 epoch 1, ...), "
                       "each run in a process of its own, so that a change of the machine's "
                       "speed touches every run alike; unticked: one run after another"));
    // The list and its interleaving; its button sits with the other run buttons
    // (buildActionBar), pinned above the scrolled settings.
    listRow->addWidget(new QLabel(QStringLiteral("Run set"), this));
    listRow->addWidget(m_runSetEdit, 1);
    listRow->addWidget(m_interleaveCheck);
    rows->addLayout(listRow);
    connect(m_runSetEdit, &QLineEdit::returnPressed, this, [this] {
        if (m_runSetButton->isEnabled())
            requestRunSet();
    });
    return rows;
}

void RunSettingsPanel::requestRunSet() {
    std::vector<RunSetItem> items;
    QString error;
    if (!parseRunSet(m_runSetEdit->text(), &items, &error)) {
        showProblems({error});
        return;
    }
    for (RunSetItem &item : items)
        if (item.device == "cuda")
            item.device = m_gpu.device(); // the GPU row's choice
    Q_EMIT runSetRequested(items, m_interleaveCheck->isChecked());
}

// Beside Run set, pinned with the run buttons: a run set of the article's runs (main_window.h,
// reproduceArticle).
QPushButton *RunSettingsPanel::buildReproduceButton() {
    m_reproduceButton = makeSettingsButton(
        this, QStringLiteral("Reproduce the article"), "reproduceButton",
        QStringLiteral("One interleaved run set at the article's published settings (10 "
                       "epochs, 2 warm-up, batch 64, all images): on the CPU and on each GPU "
                       "that passed the probe, the article's script and then DeviceBench's "
                       "faithful workload. Uses this panel's data folder, Python, seed and CPU "
                       "threads, and shows the published results beside the runs."));
    connect(m_reproduceButton, &QPushButton::clicked, this, &RunSettingsPanel::reproduceRequested);
    return m_reproduceButton;
}

QString RunSettingsPanel::python() const { return m_workload.python(); }

QString RunSettingsPanel::runSetText() const { return m_runSetEdit->text().trimmed(); }
bool RunSettingsPanel::interleave() const { return m_interleaveCheck->isChecked(); }

} // namespace devicebench
