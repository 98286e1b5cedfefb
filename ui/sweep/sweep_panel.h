// SPDX-License-Identifier: MIT
// The dashboard's Sweep view: the grid form (sweep_form.h), the sweep folder, Run / Stop, the
// progress ("cell 3 of 27 — about 4 min left"), images/s against batch size (sweep_chart.h), the
// speed-up heat map against a chosen baseline device, or what bf16 / fp16 gains over fp32 when
// the sweep has those cells (sweep_heat_map.h), Export PNG / Export CSV
// and Open folder. Like the window, it starts no thread: it asks for a sweep with
// startSweepRequested and learns what happens through its slots; the composition root
// (app/dashboard/wiring.h) connects them to the SweepController.
#pragma once

#include "devicebench/devices.h"
#include "devicebench/run_types.h"
#include "devicebench/sweep.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSettings;
class QVBoxLayout;

namespace devicebench {

class SpeedUpHeatMap;
struct SpeedUpTable;
class SweepChart;
class SweepForm;

// "about 40 s", "about 4 min", "about 1 h 20 min" (rounded to whole seconds, minutes).
QString aboutDuration(double seconds);
// The progress line. While cell done + 1 runs: "cell 3 of 27 — about 4 min left" (without the
// time left while progress.secondsLeft is not finite); after the sweep's end ("ended"):
// "27 of 27 cells done (3 found finished, 1 failed)", the brackets only when there are any.
QString sweepProgressText(const SweepProgress &progress, bool ended, int failedCells = 0);

// Object names (tests): sweepForm, sweepFolderEdit, sweepBrowseButton, sweepRunButton,
// sweepStopButton, sweepProgressBar, sweepProgressLabel, sweepOpenFolderButton,
// sweepBaselineCombo, sweepMeasureCombo (the heat map's: speed-up, "bf16 over fp32", "fp16 over
// fp32"), sweepExportPngButton, sweepExportCsvButton, sweepChartView,
// sweepHeatMap, sweepNoteLabel, sweepMessageLabel.
class SweepPanel : public QWidget {
    Q_OBJECT

public:
    explicit SweepPanel(QWidget *parent = nullptr);

    // QStandardPaths::AppDataLocation + "/sweeps/sweep": the folder offered at first.
    static QString defaultSweepFolder();

    // Where a sweep's data, seed, learning rate and workload come from (the run settings, as
    // the window gives them; SweepSpec::base). Unset: RunConfig's defaults on synthetic data.
    void setBaseConfigProvider(std::function<RunConfig()> provider);
    // The devices of the last probe, offered in the grid form.
    void setDevices(const std::vector<DeviceInfo> &devices);
    // Non-empty: Run is disabled with this reason as its tooltip (a training run is going).
    void setBlockedReason(const QString &reason);

    // Reads the form, and emits startSweepRequested when it reads; true when the request was
    // sent. The sweep's id comes with onSweepAccepted, a refusal with onSweepRejected. Problems
    // of the form are shown under the buttons.
    bool startSweep();
    bool isRunning() const { return m_jobId != 0; }
    // What Stop does: emits stopSweepRequested while a sweep is going; nothing otherwise.
    void requestStop();

    // The folder's cell records (loadSweepFolder) into the view; the folder becomes the sweep
    // folder and the form shows its grid (sweepSpecOf), so that "Run sweep" resumes it. False when
    // a file was skipped or the folder does not exist; the messages are shown, put in *errors when
    // given, and the readable records shown all the same.
    bool openFolder(const QString &folder, QStringList *errors = nullptr);
    // The records the view draws (tests; a sweep's cells as they end).
    void setRecords(const std::vector<SweepCellRecord> &records);
    const std::vector<SweepCellRecord> &records() const { return m_records; }
    // The baseline device of the heat map (a label of the records' devices); false, changing
    // nothing, when no record has that device.
    bool setBaseline(const QString &label);
    QString baseline() const;

    // writeSweepPng / writeSweepCsv of the records against the baseline, without a dialog.
    bool exportPng(const QString &path, QString *error) const;
    bool exportCsv(const QString &path, QString *error) const;

    QString folder() const;
    void setFolder(const QString &folder);
    QString progressText() const;
    SweepForm *form() const { return m_form; }
    SweepChart *chart() const { return m_chart; }
    SpeedUpHeatMap *heatMap() const { return m_heatMap; }

    // The grid (sweep_form.h) and the folder, under sweep/*.
    void saveSettings(QSettings &settings) const;
    void restoreSettings(const QSettings &settings);

public Q_SLOTS:
    // From the sweep controller (app/controller/sweep_controller.h), in its order.
    void onSweepAccepted(int jobId, int total, const QString &folder);
    void onCellStarted(int jobId, const devicebench::SweepCell &cell,
                       const devicebench::SweepProgress &progress);
    void onCellEnded(int jobId, const devicebench::SweepCellRecord &record,
                     const devicebench::SweepProgress &progress, bool resumed);
    void onSweepEnded(int jobId, const devicebench::SweepOutcome &outcome, const QString &error);
    void onSweepRejected(const QString &reason);

Q_SIGNALS:
    void startSweepRequested(devicebench::SweepSpec spec, QString folder);
    void stopSweepRequested();
    void runningChanged(bool running);
    void statusMessage(QString text, bool error);

private:
    QWidget *buildControls(); // the form, then the groups below, top to bottom
    QWidget *buildFolderBox(QWidget *controls);
    QLayout *buildRunRow(QWidget *controls);
    void buildProgress(QWidget *controls, QVBoxLayout *layout); // bar, progress and message
    QWidget *buildResultsBox(QWidget *controls); // Open folder, Baseline, Export PNG / CSV
    void connectControls();
    QWidget *buildResults();
    void redraw();
    void syncMeasures();               // the measure combo's choices: the records' precisions
    SpeedUpTable heatMapTable() const; // the table of the chosen measure
    void showProgress(const SweepProgress &progress); // the bar and the counts
    void updateButtons();
    void showMessage(const QString &text, bool error);
    void exportPngInteractive();
    void exportCsvInteractive();

    std::function<RunConfig()> m_baseConfig;
    std::vector<SweepCellRecord> m_records;
    int m_jobId = 0;         // 0: no sweep going
    int m_skipped = 0;       // cells of the current sweep found finished in its folder
    QString m_blockedReason; // why Run is disabled; empty: it is not
    SweepForm *m_form = nullptr;
    QLineEdit *m_folderEdit = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    QProgressBar *m_progressBar = nullptr;
    QLabel *m_progressLabel = nullptr;
    QLabel *m_messageLabel = nullptr;
    QPushButton *m_openFolderButton = nullptr;
    QComboBox *m_baselineCombo = nullptr;
    QComboBox *m_measureCombo = nullptr; // data: "speedup", or the gain's precision ("bf16")
    QPushButton *m_exportPngButton = nullptr;
    QPushButton *m_exportCsvButton = nullptr;
    SweepChart *m_chart = nullptr;
    SpeedUpHeatMap *m_heatMap = nullptr;
    QLabel *m_noteLabel = nullptr;
};

} // namespace devicebench
