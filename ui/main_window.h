// SPDX-License-Identifier: MIT
// The dashboard window: run settings on the left, the loss chart, the stable-mean bar chart and
// the epoch table in the centre, progress and outcomes in the status bar.
#pragma once

#include "devicebench/run_types.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <string>
#include <vector>

class QAction;
class QCheckBox;
class QChartView;
class QComboBox;
class QDialog;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSettings;
class QSpinBox;
class QTableView;

namespace devicebench {

class EpochTableModel;
class FetchDialog;
class LossChart;
class RunController;
class RunStore;
class SpeedChart;

// Object names of the widgets tests look up with findChild<>():
//   dataDirEdit, browseButton, syntheticCheck, epochsSpin, batchSizeSpin, learningRateSpin,
//   warmupSpin, threadsSpin, seedSpin, trainImagesSpin, testImagesSpin, runCpuButton,
//   runGpuButton, stopButton, exportPngButton, exportCsvButton, validationLabel,
//   lossChartView, barChartView, epochTable, statusLabel, importButton, diagnosticsButton,
//   compareWarmupSpin, baselineCombo, controlLabel; dialogs: importRejectedBox,
//   diagnosticsDialog (with diagnosticsText). Actions (menus, with keyboard shortcuts):
//   runCpuAction (Ctrl+R), runGpuAction (Ctrl+G), stopAction (Ctrl+.), exportPngAction
//   (Ctrl+E), exportCsvAction (Ctrl+Shift+E), importAction (Ctrl+O), quitAction (Ctrl+Q),
//   diagnosticsAction; each clicks its button, so it is disabled when the button is.
//
// Runs are kept as run records (run_record.h) in a folder, by default
// QStandardPaths::AppDataLocation + "/runs": each live run is written there as <runId>.json
// when it starts, after every epoch and when it ends; imported records are copied there; and
// the window shows every record of the folder again when it opens (a record left "running" by
// a process that died shows as interrupted, with its finished epochs).
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `controller` must outlive the window. The window fills its own RunStore from the
    // controller's signals.
    // `runsFolder`: where run records are kept and reloaded from; empty: none kept.
    explicit MainWindow(RunController &controller, QWidget *parent = nullptr,
                        const QString &runsFolder = defaultRunsFolder());
    ~MainWindow() override;

    // The settings as the widgets show them, for a run on `device` ("cpu" or "cuda").
    RunConfig runConfig(const std::string &device) const;
    // Puts `config`'s values into the widgets (device is ignored: it is chosen by the button).
    void setRunConfig(const RunConfig &config);

    // Validates the widgets' settings (validateRunConfig) and starts a run on `device`.
    // Returns the run id, or 0 when the settings are invalid (the messages are shown in the
    // validation label) or a run is going.
    int startRun(const std::string &device);

    // Export without a file dialog; false with *error set on failure (see comparison_export.h).
    bool exportPng(const QString &path, QString *error) const;
    // Writes `path` (per epoch) and summaryCsvPath(path) (per run) beside it.
    bool exportCsv(const QString &path, QString *error) const;

    // QStandardPaths::AppDataLocation + "/runs".
    static QString defaultRunsFolder();
    const QString &runsFolder() const { return m_runsFolder; }

    // Reads each file as a run record and adds the good ones (copying them into the runs
    // folder); every rejected file is listed with its reason ("<file>: <problem>"), and with
    // `showDialog` all of them in one non-blocking dialog (importRejectedBox).
    struct ImportReport {
        int loaded = 0;
        QStringList rejected;
    };
    ImportReport importRecords(const QStringList &paths, bool showDialog = true);

    // Opens the diagnostics dialog: this machine's fingerprint and every device with its
    // probe result, time and reason.
    void showDiagnostics();

    // "Get CIFAR-10…" (getDataButton) and "Open archive…" (openArchiveButton): shows the
    // fetch dialog (fetch_dialog.h, one per window), and with `archivePath` starts unpacking
    // that archive. When the dialog has a usable folder, the data folder is set to it and
    // "Synthetic data" is unchecked.
    FetchDialog *openFetchDialog(const QString &archivePath = QString());

    const RunStore &store() const { return *m_store; }
    LossChart *lossChart() const { return m_lossChart; }
    SpeedChart *speedChart() const { return m_speedChart; }

    // Redraws charts, table and status now instead of at the next timer tick (tests).
    void redrawNow();

    // The last session's settings (main_window_desktop.cpp): every run setting, the Compare
    // box's warm-up, the window geometry and state and the splitter positions. The window
    // itself never touches QSettings; the dashboard's main() passes the user's.
    void saveSettings(QSettings &settings) const;
    // Restores what saveSettings wrote. A missing or bad value (not a number, out of its
    // widget's range, an unknown workload) keeps the widget's value; without a usable saved
    // geometry the window gets its default size (1560x960), shrunk to fit the screen.
    void restoreSettings(const QSettings &settings);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildUi();
    void buildActions(); // menus, shortcuts and chart theme (main_window_desktop.cpp)
    void syncActions();  // actions enabled as their buttons
    void connectController();
    void scheduleRedraw();
    void updateButtons();
    void updateProgressText();
    void setStatus(const QString &text, bool error);
    void browseDataDir();
    void exportPngInteractive();
    void exportCsvInteractive();
    void importInteractive();
    void loadSavedRuns();
    void saveRun(int runId);
    void updateBaselineCombo();
    void updateControlText();

    void onRunStarted(int runId, const RunConfig &config, const RunStarted &info);
    void onStepLosses(int runId, const std::vector<StepLoss> &losses);
    void onEpochFinished(int runId, const EpochResult &epoch);
    void onRunEnded(int runId, const RunOutcome &outcome);
    void onRunRejected(const QString &reason);

    RunController &m_controller;
    RunStore *m_store;
    EpochTableModel *m_tableModel = nullptr;
    LossChart *m_lossChart = nullptr;
    SpeedChart *m_speedChart = nullptr;
    QTimer m_redrawTimer; // single-shot, coalesces store changes (<= 25 redraws/s, 5 during a run)
    QString m_cudaReason; // empty when a GPU is usable
    QString m_runsFolder; // run records; empty: not kept
    QString m_saveError;  // failure of the last record write; "" after a success (shown when
                          // it happens and again when the run ends)

    // Progress of the current run (status bar).
    int m_activeRunId = 0;
    QString m_activeDevice;
    int m_activeEpochs = 0;
    std::int64_t m_stepsPerEpoch = 0;
    int m_lastEpoch = 0;
    std::int64_t m_lastStep = 0;
    int m_finishedEpochs = 0;
    QElapsedTimer m_runClock;      // since runStarted (data loaded, model built)
    bool m_closeRequested = false; // close once the stopped run has ended

    QLineEdit *m_dataDirEdit = nullptr;
    QPushButton *m_browseButton = nullptr;
    QCheckBox *m_syntheticCheck = nullptr;
    QLineEdit *m_tensorBoardEdit = nullptr; // TensorBoard log folder; empty = none
    QSpinBox *m_epochsSpin = nullptr;
    QSpinBox *m_batchSizeSpin = nullptr;
    QDoubleSpinBox *m_learningRateSpin = nullptr;
    QSpinBox *m_warmupSpin = nullptr;
    QSpinBox *m_threadsSpin = nullptr;
    QSpinBox *m_seedSpin = nullptr;
    QSpinBox *m_trainImagesSpin = nullptr;
    QSpinBox *m_testImagesSpin = nullptr;
    QPushButton *m_runCpuButton = nullptr;
    QPushButton *m_runGpuButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    QPushButton *m_exportPngButton = nullptr;
    QPushButton *m_exportCsvButton = nullptr;
    QLabel *m_validationLabel = nullptr;
    QLabel *m_statusLabel = nullptr;
    QChartView *m_lossView = nullptr;
    QChartView *m_barView = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_importButton = nullptr;
    QPushButton *m_diagnosticsButton = nullptr;
    QSpinBox *m_compareWarmupSpin = nullptr;
    QComboBox *m_baselineCombo = nullptr;
    QComboBox *m_workloadCombo = nullptr;
    QLabel *m_controlLabel = nullptr;
    QDialog *m_diagnosticsDialog = nullptr;
    QAction *m_runCpuAction = nullptr;
    QAction *m_runGpuAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_exportPngAction = nullptr;
    QAction *m_exportCsvAction = nullptr;
};

} // namespace devicebench
