// SPDX-License-Identifier: MIT
// The dashboard window: run settings on the left, the loss chart, the stable-mean bar chart and
// the epoch table in the centre, progress and outcomes in the status bar.
#pragma once

#include "devicebench/run_types.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QString>
#include <QTimer>

#include <string>
#include <vector>

class QCheckBox;
class QChartView;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace devicebench {

class EpochTableModel;
class LossChart;
class RunController;
class RunStore;
class SpeedChart;

// Object names of the widgets tests look up with findChild<>():
//   dataDirEdit, browseButton, syntheticCheck, epochsSpin, batchSizeSpin, learningRateSpin,
//   warmupSpin, threadsSpin, seedSpin, trainImagesSpin, testImagesSpin, runCpuButton,
//   runGpuButton, stopButton, exportPngButton, exportCsvButton, validationLabel,
//   lossChartView, barChartView, epochTable, statusLabel.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `controller` must outlive the window. The window fills its own RunStore from the
    // controller's signals.
    explicit MainWindow(RunController &controller, QWidget *parent = nullptr);
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
    bool exportCsv(const QString &path, QString *error) const;

    const RunStore &store() const { return *m_store; }
    LossChart *lossChart() const { return m_lossChart; }
    SpeedChart *speedChart() const { return m_speedChart; }

    // Redraws charts, table and status now instead of at the next timer tick (tests).
    void redrawNow();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildUi();
    void connectController();
    void scheduleRedraw();
    void updateButtons();
    void updateProgressText();
    void setStatus(const QString &text, bool error);
    void browseDataDir();
    void exportPngInteractive();
    void exportCsvInteractive();

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
    QTimer m_redrawTimer; // single-shot, coalesces store changes (<= 25 redraws/s)
    QString m_cudaReason; // empty when a GPU is usable

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
};

} // namespace devicebench
