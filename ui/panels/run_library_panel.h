// SPDX-License-Identifier: MIT
// The run library panel: the runs folder where run records (run_record.h) are kept, the list
// of runs the window shows, "Import runs…" and "Remove run…". It reads and writes the record
// files; what a run holds lives in the RunStore (run_store.h).
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace devicebench {

class RunStore;

// What the runs folder is to a window (app/dashboard/main.cpp chooses):
//  - History: the user's saved runs. Every record in it is shown when the window opens, and
//    imported records are copied into it, so that they are there after a restart (the
//    interactive dashboard).
//  - SessionRecords: only where this session's own runs write their records. Nothing is read
//    from it and imports are not copied into it, so that a scripted session (devicebench ...
//    --quit) shows and exports exactly the runs it was given.
enum class RunsFolderRole { History, SessionRecords };

// What importRecords() did: the number of records loaded, and every rejected file as
// "<file>: <problem>".
struct ImportReport {
    int loaded = 0;
    QStringList rejected;
};

// Object names (tests): runsFolderLabel, runList (one item per run, in store order, its
// Qt::UserRole the run id, checked while the run is shown in the charts: unchecking it emits
// runVisibilityRequested), importButton, removeRunButton; the confirmation dialog
// removeRunBox (non-blocking; its "Remove" button is removeRunConfirmButton) and the import
// report importRejectedBox.
//
// Files: each live run is kept as <runId>.json in the runs folder (characters other than
// letters, digits, '.', '_' and '-' become '_'). When the folder is the History, imported
// records are copied there and every record of the folder is shown again when the window opens
// (a record left "running" by a process that died shows as interrupted, with its finished
// epochs).
class RunLibraryPanel : public QWidget {
    Q_OBJECT

public:
    // `store` must outlive the panel. `runsFolder` empty: no records are kept.
    RunLibraryPanel(RunStore &store, const QString &runsFolder, QWidget *parent = nullptr,
                    RunsFolderRole role = RunsFolderRole::History);

    const QString &runsFolder() const { return m_runsFolder; }
    RunsFolderRole runsFolderRole() const { return m_role; }

    // History: adds every *.json record of the runs folder to the store; says what it did (and
    // every file it could not read) with statusMessage. SessionRecords: does nothing.
    void loadSavedRuns();
    // Writes run `runId`'s record to the runs folder (atomic, see run_record.h). A failure is
    // kept in saveError() and said once per problem with statusMessage; a success clears it.
    void saveRun(int runId);
    const QString &saveError() const { return m_saveError; }
    // A record the run's own recorder could not write (RecordedRun::recordError): kept in
    // saveError() and said once per problem, like a failed saveRun.
    void reportSaveError(int runId, const QString &message);
    // A record written by the run's own recorder: clears saveError().
    void clearSaveError() { m_saveError.clear(); }

    // Reads each file as a run record and adds the good ones (copying them into the runs
    // folder when it is the History); with `showDialog` every rejected file is listed in one
    // non-blocking dialog.
    ImportReport importRecords(const QStringList &paths, bool showDialog = true);
    void importInteractive(); // "Import runs…": a file dialog, then importRecords()

    // Removes run `runId` from the store and, with `deleteRecordFile`, its record file in the
    // runs folder (never a file elsewhere). False with *error set when the file cannot be
    // removed (the run is then still removed from the view) or the run is unknown.
    bool removeRun(int runId, bool deleteRecordFile, QString *error = nullptr);
    // "Remove run…": asks for confirmation (removeRunBox), then removes the selected run and
    // its record file. Does nothing when no run is selected or the selected run is going.
    void removeSelectedInteractive();

    // Refreshes the list from the store. `activeRunId` (0: none) is the run going now: it
    // cannot be removed.
    void syncRuns(int activeRunId);

    QPushButton *importButton() const { return m_importButton; }

Q_SIGNALS:
    void statusMessage(QString text, bool error);
    // The user checked (visible) or unchecked a run's box in the list.
    void runVisibilityRequested(int runId, bool visible);

private:
    // The record file of run `runId` inside the runs folder; empty when it has none there.
    QString recordFileOf(int runId) const;
    void updateRemoveButton();

    RunStore &m_store;
    QString m_runsFolder;
    RunsFolderRole m_role = RunsFolderRole::History;
    QString m_saveError;
    int m_activeRunId = 0;
    QLabel *m_folderLabel = nullptr;
    QListWidget *m_list = nullptr;
    QPushButton *m_importButton = nullptr;
    QPushButton *m_removeButton = nullptr;
};

} // namespace devicebench
