// SPDX-License-Identifier: MIT
#include "panels/run_library_panel.h"

#include "store/run_store.h"

#include "devicebench/run_record.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cstddef>
#include <exception>
#include <string>
#include <vector>

namespace devicebench {

namespace {

// A run id as a file name: anything but letters, digits, '.', '_' and '-' becomes '_'.
QString fileNameFor(const std::string &runId) {
    QString name;
    for (const QChar ch : QString::fromStdString(runId))
        name += (ch.isLetterOrNumber() && ch.unicode() < 128) || ch == QLatin1Char('.') ||
                        ch == QLatin1Char('_') || ch == QLatin1Char('-')
                    ? ch
                    : QLatin1Char('_');
    return (name.isEmpty() || name.startsWith(QLatin1Char('.')) ? QStringLiteral("run") + name
                                                                : name) +
           QStringLiteral(".json");
}

// The run id (it names the record file and the TensorBoard folder, one id per run), where the
// record came from and, when the run had one, its precision note ("bf16 is emulated ...").
QString runToolTip(const StoredRun &run) {
    QString tip =
        QStringLiteral("run id %1\n%2\n").arg(QString::fromStdString(run.record.runId), run.origin);
    if (!run.record.started.precisionNote.empty())
        tip += QString::fromStdString(run.record.started.precisionNote) + QStringLiteral("\n");
    return tip + QStringLiteral("Uncheck to hide the run in the charts");
}

} // namespace

RunLibraryPanel::RunLibraryPanel(RunStore &store, const QString &runsFolder, QWidget *parent,
                                 RunsFolderRole role)
    : QWidget(parent), m_store(store), m_runsFolder(runsFolder), m_role(role) {
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *box = new QGroupBox(QStringLiteral("Run library"), this);
    outer->addWidget(box);
    auto *layout = new QVBoxLayout(box);
    m_folderLabel = new QLabel(box);
    m_folderLabel->setObjectName(QStringLiteral("runsFolderLabel"));
    m_folderLabel->setWordWrap(true);
    m_folderLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_folderLabel->setForegroundRole(QPalette::PlaceholderText);
    if (m_runsFolder.isEmpty())
        m_folderLabel->setText(QStringLiteral("Runs are not kept (no runs folder)."));
    else if (m_role == RunsFolderRole::History)
        m_folderLabel->setText(QStringLiteral("Kept in ") + QDir::toNativeSeparators(m_runsFolder));
    else
        m_folderLabel->setText(QStringLiteral("This session's runs are written to ") +
                               QDir::toNativeSeparators(m_runsFolder) +
                               QStringLiteral(" (saved runs not loaded)."));
    layout->addWidget(m_folderLabel);
    m_list = new QListWidget(box);
    m_list->setObjectName(QStringLiteral("runList"));
    m_list->setMinimumHeight(90);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    layout->addWidget(m_list, 1);
    m_importButton = new QPushButton(QStringLiteral("Import runs…"), box);
    m_importButton->setObjectName(QStringLiteral("importButton"));
    m_importButton->setToolTip(QStringLiteral(
        "Add run records (JSON) made elsewhere, e.g. by devicebench-cli run --record on a "
        "cloud GPU box"));
    m_removeButton = new QPushButton(QStringLiteral("Remove run…"), box);
    m_removeButton->setObjectName(QStringLiteral("removeRunButton"));
    m_removeButton->setToolTip(QStringLiteral(
        "Remove the selected run from the view and, after confirmation, its record file"));
    auto *row = new QHBoxLayout;
    row->addWidget(m_importButton);
    row->addWidget(m_removeButton);
    layout->addLayout(row);

    connect(m_importButton, &QPushButton::clicked, this, &RunLibraryPanel::importInteractive);
    connect(m_removeButton, &QPushButton::clicked, this,
            &RunLibraryPanel::removeSelectedInteractive);
    connect(m_list, &QListWidget::currentRowChanged, this, [this] { updateRemoveButton(); });
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const int id = item->data(Qt::UserRole).toInt();
        const bool visible = item->checkState() == Qt::Checked;
        if (m_store.hasRun(id) && m_store.isRunHidden(id) == visible)
            Q_EMIT runVisibilityRequested(id, visible);
    });
    updateRemoveButton();
}

void RunLibraryPanel::syncRuns(int activeRunId) {
    m_activeRunId = activeRunId;
    const QVariant selected =
        m_list->currentItem() != nullptr ? m_list->currentItem()->data(Qt::UserRole) : QVariant();
    QStringList texts;
    for (const StoredRun &run : m_store.runs())
        texts.append(run.label + QStringLiteral(" · ") + runStateName(run.state));
    bool same = m_list->count() == texts.size();
    for (int i = 0; same && i < m_list->count(); ++i)
        same = m_list->item(i)->text() == texts[i] &&
               m_list->item(i)->data(Qt::UserRole).toInt() == m_store.run(i).id;
    if (same) {
        // Only the check boxes may differ (a run shown or hidden from the chart's legend).
        const QSignalBlocker block(m_list);
        for (int i = 0; i < m_list->count(); ++i) {
            const Qt::CheckState state =
                m_store.isRunHidden(m_store.run(i).id) ? Qt::Unchecked : Qt::Checked;
            if (m_list->item(i)->checkState() != state)
                m_list->item(i)->setCheckState(state);
        }
    }
    if (!same) {
        const QSignalBlocker block(m_list);
        m_list->clear();
        for (int i = 0; i < m_store.runCount(); ++i) {
            auto *item = new QListWidgetItem(texts[i], m_list);
            item->setData(Qt::UserRole, m_store.run(i).id);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(m_store.isRunHidden(m_store.run(i).id) ? Qt::Unchecked
                                                                       : Qt::Checked);
            item->setToolTip(runToolTip(m_store.run(i)));
            if (selected.isValid() && selected.toInt() == m_store.run(i).id)
                m_list->setCurrentItem(item);
        }
    }
    updateRemoveButton();
}

void RunLibraryPanel::updateRemoveButton() {
    const QListWidgetItem *item = m_list->currentItem();
    m_removeButton->setEnabled(
        item != nullptr &&
        (m_activeRunId == 0 || item->data(Qt::UserRole).toInt() != m_activeRunId));
}

QString RunLibraryPanel::recordFileOf(int runId) const {
    const StoredRun *run = m_store.findRun(runId);
    if (run == nullptr || m_runsFolder.isEmpty())
        return {};
    const QString folder = QFileInfo(m_runsFolder).absoluteFilePath();
    // A record read from the folder is that file; a live or imported run was saved under its id.
    const QFileInfo origin(run->origin);
    if (origin.exists() && origin.absolutePath() == folder)
        return origin.absoluteFilePath();
    const QString saved = QDir(folder).filePath(fileNameFor(run->record.runId));
    return QFileInfo::exists(saved) ? saved : QString();
}

void RunLibraryPanel::saveRun(int runId) {
    const StoredRun *run = m_store.findRun(runId);
    if (run == nullptr || m_runsFolder.isEmpty())
        return;
    const QString path = QDir(m_runsFolder).filePath(fileNameFor(run->record.runId));
    try {
        if (!QDir().mkpath(m_runsFolder))
            throw RecordError(QDir::toNativeSeparators(m_runsFolder).toStdString() +
                              ": cannot create the folder");
        writeRunRecord(path.toStdString(), run->record);
        m_saveError.clear(); // a later failure is reported again
    } catch (const std::exception &e) {
        reportSaveError(runId, QString::fromStdString(e.what()));
    }
}

void RunLibraryPanel::reportSaveError(int runId, const QString &message) {
    if (message != m_saveError) { // once per problem, not once per epoch
        m_saveError = message;
        Q_EMIT statusMessage(QStringLiteral("Run #%1 is not saved: %2").arg(runId).arg(message),
                             true);
    }
}

void RunLibraryPanel::loadSavedRuns() {
    if (m_runsFolder.isEmpty() || m_role != RunsFolderRole::History)
        return;
    const QDir dir(m_runsFolder);
    QStringList paths;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        paths.append(dir.filePath(name));
    if (paths.isEmpty())
        return;
    QStringList rejected;
    std::vector<RunRecord> records;
    QStringList origins;
    for (const QString &path : paths) {
        try {
            records.push_back(readRunRecord(path.toStdString()));
            origins.append(path);
        } catch (const std::exception &e) {
            rejected.append(QString::fromStdString(e.what()));
        }
    }
    // One derivation and one redraw for the whole folder, not one per record.
    const std::vector<int> indices = m_store.addRecords(records, origins);
    const auto loaded = static_cast<int>(indices.size());
    int interrupted = 0;
    for (const int index : indices)
        interrupted += m_store.run(index).state == RunState::Interrupted ? 1 : 0;
    QString text = QStringLiteral("Loaded %1 saved run(s) from %2.")
                       .arg(loaded)
                       .arg(QDir::toNativeSeparators(m_runsFolder));
    if (interrupted > 0)
        text += QStringLiteral(" %1 of them stopped when the program ended mid-run: shown as "
                               "interrupted, with the epochs they finished.")
                    .arg(interrupted);
    if (!rejected.isEmpty())
        text += QStringLiteral(" Could not read %1: %2")
                    .arg(rejected.size())
                    .arg(rejected.join(QStringLiteral("; ")));
    Q_EMIT statusMessage(text, !rejected.isEmpty());
}

ImportReport RunLibraryPanel::importRecords(const QStringList &paths, bool showDialog) {
    ImportReport report;
    std::vector<RunRecord> records;
    QStringList origins;
    for (const QString &path : paths) {
        try {
            records.push_back(readRunRecord(path.toStdString()));
            origins.append(path);
        } catch (const std::exception &e) {
            report.rejected.append(QString::fromStdString(e.what()));
        }
    }
    // One derivation and one redraw for all of them, not one per record.
    const int shownBefore = m_store.runCount();
    const std::vector<int> indices = m_store.addRecords(records, origins);
    // A run already shown (one run id: a file imported again, or a copy) is shown once.
    const int repeated = static_cast<int>(indices.size()) - (m_store.runCount() - shownBefore);
    for (std::size_t i = 0; i < indices.size(); ++i) {
        ++report.loaded;
        // Keep it with the dashboard's own runs, so it is there after a restart.
        const QString &path = origins[static_cast<qsizetype>(i)];
        if (!m_runsFolder.isEmpty() && m_role == RunsFolderRole::History &&
            QFileInfo(path).absolutePath() != QFileInfo(m_runsFolder).absoluteFilePath())
            saveRun(m_store.run(indices[i]).id);
    }
    QString text = QStringLiteral("Imported %1 run(s)").arg(report.loaded);
    if (repeated > 0)
        text += QStringLiteral(" (%1 already shown: the same run id, shown once)").arg(repeated);
    if (!report.rejected.isEmpty())
        text += QStringLiteral("; rejected %1 file(s): %2")
                    .arg(report.rejected.size())
                    .arg(report.rejected.join(QStringLiteral("; ")));
    Q_EMIT statusMessage(text, !report.rejected.isEmpty());
    if (showDialog && !report.rejected.isEmpty()) {
        auto *box = new QMessageBox(
            QMessageBox::Warning, QStringLiteral("Import runs"),
            QStringLiteral("%1 of %2 file(s) could not be imported; the others were loaded.")
                .arg(report.rejected.size())
                .arg(paths.size()),
            QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("importRejectedBox"));
        box->setInformativeText(report.rejected.join(QStringLiteral("\n\n")));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return report;
}

void RunLibraryPanel::importInteractive() {
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, QStringLiteral("Import run records"), QDir::homePath(),
                                      QStringLiteral("Run records (*.json);;All files (*)"));
    if (!paths.isEmpty())
        importRecords(paths);
}

bool RunLibraryPanel::removeRun(int runId, bool deleteRecordFile, QString *error) {
    const StoredRun *run = m_store.findRun(runId);
    if (run == nullptr) {
        if (error != nullptr)
            *error = QStringLiteral("run %1 is not in the view").arg(runId);
        return false;
    }
    const QString label = run->label;
    const QString file = deleteRecordFile ? recordFileOf(runId) : QString();
    m_store.removeRun(runId);
    QString text = QStringLiteral("Removed %1").arg(label);
    bool ok = true;
    if (!file.isEmpty()) {
        QFile record(file);
        ok = record.remove();
        text += ok ? QStringLiteral(" and its record file %1").arg(QDir::toNativeSeparators(file))
                   : QStringLiteral("; its record file %1 could not be deleted: %2")
                         .arg(QDir::toNativeSeparators(file), record.errorString());
        if (!ok && error != nullptr)
            *error = QStringLiteral("%1: %2").arg(file, record.errorString());
    }
    Q_EMIT statusMessage(text + QLatin1Char('.'), !ok);
    return ok;
}

void RunLibraryPanel::removeSelectedInteractive() {
    const QListWidgetItem *item = m_list->currentItem();
    if (item == nullptr)
        return;
    const int runId = item->data(Qt::UserRole).toInt();
    const StoredRun *run = m_store.findRun(runId);
    if (run == nullptr || runId == m_activeRunId)
        return;
    const QString file = recordFileOf(runId);
    auto *box = new QMessageBox(QMessageBox::Question, QStringLiteral("Remove run"),
                                QStringLiteral("Remove %1 from the view?").arg(run->label),
                                QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("removeRunBox"));
    box->setInformativeText(file.isEmpty()
                                ? QStringLiteral("It has no record file in the runs folder.")
                                : QStringLiteral("Its record file %1 is deleted too.")
                                      .arg(QDir::toNativeSeparators(file)));
    QPushButton *confirm = box->addButton(QStringLiteral("Remove"), QMessageBox::DestructiveRole);
    confirm->setObjectName(QStringLiteral("removeRunConfirmButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(confirm, &QPushButton::clicked, this, [this, runId] { removeRun(runId, true); });
    box->open();
}

} // namespace devicebench
