// SPDX-License-Identifier: MIT
// The dashboard window, made of panels: run settings (run_settings_panel.h), compare and
// export (compare_panel.h) and the run library (run_library_panel.h) on the left, the live
// charts and the epoch table (charts_panel.h) in the centre, progress and outcomes in the
// status bar, and the diagnostics dialog (diagnostics_dialog.h).
//
// The window starts no thread and waits on nothing: it asks for runs, stops and device probes
// with signals, and is told what happens through its slots. The dashboard's composition root
// (app/dashboard/wiring.h) connects them to the controllers (app/controller/).
#pragma once

#include "devicebench/cost.h"
#include "devicebench/devices.h"
#include "devicebench/fingerprint.h"
#include "devicebench/run_record.h"
#include "devicebench/run_types.h"
#include "panels/run_library_panel.h"  // ImportReport
#include "panels/run_settings_panel.h" // RunSetItem

#include <QMainWindow>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QLabel;
class QPushButton;
class QSettings;
class QTabWidget;

namespace devicebench {

class ChartsPanel;
class ComparePanel;
class DiagnosticsDialog;
class FetchDialog;
class LossChart;
class PricesDialog;
class RunSettingsPanel;
class RunStore;
class ScalingPanel;
class SpeedChart;
class SweepPanel;
struct PublishedSet;

// Settings of "Reproduce the article" that replace the published ones, for quick checks (the
// dashboard's --epochs, --warmup-epochs, --train-images, --test-images): the runs are then not
// like for like with the published rows, and the comparability notes say so.
struct ReproductionOverrides {
    std::optional<int> epochs;
    std::optional<int> warmupEpochs; // unset with `epochs`: the published 2, but not all epochs
    std::optional<int> trainImages;
    std::optional<int> testImages;
};

// The devices "Reproduce the article" runs on: "cpu", then each CUDA device of `devices` that
// passed the probe ("cuda:0", ...).
std::vector<std::string> reproductionDevices(const std::vector<DeviceInfo> &devices);

// The requests of "Reproduce the article": reproductionRuns(set, base.config, devices)
// (engine reproduction.h: on each device the article's script, then the faithful workload, at
// the published settings, with base's data folder, Python, seed and threads), each with base's
// records and TensorBoard folders, and `overrides` on top.
std::vector<RunRequest> reproductionRequests(const PublishedSet &set, const RunRequest &base,
                                             const std::vector<std::string> &devices,
                                             const ReproductionOverrides &overrides = {});

// Object names of the widgets tests look up with findChild<>(): those of the panels (see
// their headers) and statusLabel. Actions (menus, with keyboard shortcuts): runCpuAction
// (Ctrl+R), runGpuAction (Ctrl+G), stopAction (Ctrl+.), runSetAction (Ctrl+Shift+R),
// reproduceAction, exportPngAction (Ctrl+E),
// exportCsvAction (Ctrl+Shift+E), exportHtmlAction, importAction (Ctrl+O), quitAction (Ctrl+Q),
// diagnosticsAction; each clicks its button, so it is disabled when the button is. And
// pricesAction (Settings > Prices…: openPricesDialog).
//
// Runs are kept as run records in the runs folder (run_library_panel.h), by default
// QStandardPaths::AppDataLocation + "/runs".
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // The window's smallest size (logical pixels): every control in view and nothing drawn
    // over anything there (tests/ui/window_layout_test.cpp), as at any larger size.
    static constexpr int kMinimumWidth = 1024;
    static constexpr int kMinimumHeight = 640;

    // `runsFolder`: where run records are kept; empty: none kept. `role`: whether it is the
    // saved history (reloaded, imports copied in) or only where this session's runs write
    // their records (run_library_panel.h, RunsFolderRole).
    explicit MainWindow(QWidget *parent = nullptr, const QString &runsFolder = defaultRunsFolder(),
                        RunsFolderRole role = RunsFolderRole::History);
    ~MainWindow() override;

    // The settings as the widgets show them, for a run on `device` ("cpu" or "cuda").
    RunConfig runConfig(const std::string &device) const;
    // Puts `config`'s values into the widgets (device is ignored: it is chosen by the button).
    void setRunConfig(const RunConfig &config);

    // Emits startRunRequested with the widgets' settings for `device`, the runs folder and the
    // TensorBoard folder. The window checks nothing itself: the controller answers with
    // onRunAccepted (the run's id) or onRunRejected (its words: a run is going, or the engine's
    // messages for settings that must not run), at once with the dashboard's direct connections.
    void startRun(const std::string &device);
    // Emits startRunSetRequested with one request per item (the widgets' settings on the
    // item's device, its threads when it names them, the runs and TensorBoard folders) and
    // `interleave`; answered as startRun is.
    void startRunSet(const std::vector<RunSetItem> &items, bool interleave);
    // "Reproduce the article" (reproduceButton): with the store's article set (articleSet of
    // its published sets) emits startRunSetRequested(reproductionRequests(..., the panel's
    // settings with its Python, reproductionDevices(the last probe's), overrides), true) and
    // ticks "Published results"; true ("request sent"). While the first device probe runs (and
    // no run goes) it waits for its result and then sends the set. Without the article set,
    // emits runRefused with the message (shown under the run buttons) and returns false.
    bool reproduceArticle(const ReproductionOverrides &overrides = {});

    // True from onRunAccepted until the onRunEnded of the last run going (of a run set: every
    // run of it): the store's answer (RunStore::isRunGoing).
    bool isRunning() const;
    // The id of the run going that the status bar follows (of a run set: the one that reported
    // last; RunStore::followedRun); 0 when none.
    int activeJobId() const;

    // Export without a file dialog; false with *error set on failure (see comparison_export.h).
    bool exportPng(const QString &path, QString *error) const;
    // Writes `path` (per epoch), and the per-run and per-group CSVs beside it (savedCsvFiles).
    bool exportCsv(const QString &path, QString *error) const;
    // The HTML report (exportComparisonHtml, comparison_export.h) of every run in view.
    bool exportHtml(const QString &path, QString *error) const;

    // QStandardPaths::AppDataLocation + "/runs".
    static QString defaultRunsFolder();
    const QString &runsFolder() const;

    // Run records made elsewhere; see RunLibraryPanel::importRecords.
    ImportReport importRecords(const QStringList &paths, bool showDialog = true);
    // See RunLibraryPanel::removeRun: the run leaves the view, and with `deleteRecordFile`
    // its record file in the runs folder is deleted.
    bool removeRun(int id, bool deleteRecordFile, QString *error = nullptr);

    // Opens the diagnostics dialog with the last probe's result ("probing…" while one runs).
    void showDiagnostics();
    // Marks a probe as going (GPU button "checking", dialog "probing…") and emits
    // probeRequested. The composition root calls it once at start.
    void requestProbe();
    // The GPU button's state: empty when the last probe found a usable CUDA device, else why
    // not (also "checking" while the first probe runs).
    const QString &gpuReason() const { return m_gpuReason; }

    // "Get CIFAR-10…" (getDataButton) and "Open archive…" (openArchiveButton): shows the
    // fetch dialog (fetch_dialog.h, one per window, announced once with fetchDialogCreated
    // so the composition root can wire it), and with `archivePath` starts unpacking that
    // archive. When the dialog has a usable folder, the data folder is set to it and
    // "Synthetic data" is unchecked.
    FetchDialog *openFetchDialog(const QString &archivePath = QString());

    const RunStore &store() const { return *m_store; }
    LossChart *lossChart() const;
    SpeedChart *speedChart() const;
    ChartsPanel *chartsPanel() const { return m_charts; }
    // The Sweep view (sweep_panel.h), the window's second tab; showSweepView() brings it up.
    SweepPanel *sweepPanel() const { return m_sweep; }
    void showSweepView();
    // The Scaling view (scaling_panel.h), the third tab: how the data-parallel jobs in view
    // scale with their world size; redrawn with the other views. showScalingView() brings it up.
    ScalingPanel *scalingPanel() const { return m_scaling; }
    void showScalingView();
    // Shows or hides the store's run `id` in the charts (as its legend entry or its check box
    // in the run list does); remembered by its record's runId in the saved settings. Redraws
    // at once.
    void setRunVisible(int id, bool visible);

    // Redraws charts, table and status now instead of at the next timer tick (tests).
    void redrawNow();

    // The shipped price table (share/devicebench/prices/prices.json, read by the composition
    // root): the store's table until restoreSettings puts the user's, and what "Restore
    // defaults" of the Prices dialog puts back; `note`: "" or why there is none (the dialog
    // shows it). main_window_prices.cpp.
    void setShippedPrices(const PriceTable &table, const QString &note);
    // A problem found while the window opens (its settings file, ...), in the status bar as an
    // error until the next status.
    void showStartupProblem(const QString &text) { setStatus(text, true); }
    // Settings > Prices… (prices_dialog.h), window-modal; on OK the store's cost settings
    // become the dialog's and every view is redrawn. Returns the open dialog.
    PricesDialog *openPricesDialog();

    // The last session's settings (main_window_desktop.cpp): every run setting, the Compare
    // box's warm-up, the chart controls (smoothing, x axis, log scale, the bars' measure), the
    // prices (savePriceSettings) and the hidden runs, the window geometry and state and the
    // splitter positions. The window
    // itself never touches QSettings; the dashboard's main() passes the user's.
    void saveSettings(QSettings &settings) const;
    // Restores what saveSettings wrote. A missing or bad value keeps the widget's value;
    // without a usable saved geometry the window gets its default size (1560x960), shrunk to
    // fit the screen.
    void restoreSettings(const QSettings &settings);

public Q_SLOTS:
    // From the run controller (app/controller/run_controller.h), in its order; `jobId` is the
    // controller's job id (1, 2, ...), the key of the live run in the store.
    void onRunAccepted(int jobId, const devicebench::RunRequest &request);
    // A run set was accepted (before its runs' onRunAccepted): the status bar names it while
    // it goes ("Run set: 3 runs interleaved · #2 on cpu · epoch 3/10 ...").
    void onRunSetAccepted(int firstJobId, int runs, bool interleaved);
    // The run's record as its recorder (on the worker) holds it at the start (before
    // onRunStarted); the recorder also writes it to the runs folder, so the window writes no
    // record of a live run. The run's events go to its live run in the store.
    void onRecordStarted(int jobId, const devicebench::RunRecord &record);
    // The status bar then says the run's precision note (RunStarted::precisionNote) when it
    // has one, at the start and with each progress line.
    void onRunStarted(int jobId, const devicebench::RunConfig &config,
                      const devicebench::RunStarted &info);
    void onStepLosses(int jobId, const std::vector<devicebench::StepLoss> &losses);
    // The machine's readings during the run, for the System view.
    void onSystemSamples(int jobId, const std::vector<devicebench::SystemSample> &samples);
    void onEpochFinished(int jobId, const devicebench::EpochResult &epoch);
    // The run's one end: its record as written goes to the store (RunStore::finishRun); a
    // record or TensorBoard write that failed is said; the status bar says how it ended.
    void onRunEnded(int jobId, const devicebench::RecordedRun &run);
    // The request was refused: the reasons go under the run buttons and into the status bar,
    // and runRefused passes them on.
    void onRunRejected(const QStringList &reasons);
    // From the device probe (app/controller/probe_controller.h).
    void onDevicesProbed(const std::vector<devicebench::DeviceInfo> &devices,
                         const devicebench::Fingerprint &fingerprint);
    void onProbeFailed(const QString &reason);

Q_SIGNALS:
    // "Run on CPU" / "Run on GPU": the whole request (settings, runs folder as recordsFolder,
    // TensorBoard folder, empty for none), unchecked.
    void startRunRequested(devicebench::RunRequest request);
    // "Run set" (or a scripted --interleave): the requests in order, and whether their epochs
    // are to alternate.
    void startRunSetRequested(std::vector<devicebench::RunRequest> requests, bool interleave);
    // A run asked for did not start (the controller refused it: a run is going, or the
    // engine's messages for bad settings); `reasons` are the messages shown.
    void runRefused(QStringList reasons);
    // "Stop", or closing the window during a run.
    void stopRequested();
    // requestProbe(), or "Probe again" in the diagnostics dialog.
    void probeRequested();
    // The fetch dialog was made (once per window); it asks for fetches with its own signals.
    void fetchDialogCreated(devicebench::FetchDialog *dialog);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    // The left column: the run buttons pinned over the scrolled settings and Compare box, the
    // run library under them; *width: the width the settings like to have.
    QWidget *buildLeftPane(const QString &runsFolder, RunsFolderRole role, int *width);
    void buildActions(); // menus, shortcuts (main_window_desktop.cpp)
    // The tabs "Runs" (`runsView`), "Sweep" and "Scaling" as the central widget, and the Sweep
    // view's connections (main_window_sweep.cpp).
    void buildTabs(QWidget *runsView);
    // A run and a sweep never run at once: each one's start is disabled while the other goes.
    void syncSweepButtons();
    // Closing during a sweep: stops it and closes once it has ended; true when one was going.
    bool stopSweepBeforeClose();
    void connectCharts(); // chart controls and shown/hidden runs (main_window_desktop.cpp)
    void syncActions();   // actions enabled as their buttons
    void scheduleRedraw();
    void updateButtons();
    void updateProgressText();
    void setStatus(const QString &text, bool error);
    void showRunEnd(int jobId, const RunOutcome &outcome);
    RunRequest runRequest(const std::string &device) const; // the widgets' settings and folders
    QString runSetText() const;  // "Run set: 3 runs interleaved" while one goes; else empty
    QString runningWhat() const; // "run #2" or "the run set", for the stop messages
    void refuse(const QStringList &reasons); // shown and status, then runRefused
    // The set of "Reproduce the article" on the probed devices (main_window_reproduce.cpp).
    void sendReproduction(const PublishedSet &set, const ReproductionOverrides &overrides);
    void sendPendingReproduction(); // once the probe has answered
    // The prices in the saved settings (main_window_prices.cpp).
    void savePrices(QSettings &settings) const;
    void restorePrices(const QSettings &settings);

    RunStore *m_store;
    RunSettingsPanel *m_settings = nullptr;
    ComparePanel *m_compare = nullptr;
    RunLibraryPanel *m_library = nullptr;
    ChartsPanel *m_charts = nullptr;
    SweepPanel *m_sweep = nullptr;
    ScalingPanel *m_scaling = nullptr;
    QTabWidget *m_tabs = nullptr;
    DiagnosticsDialog *m_diagnostics = nullptr;
    QTimer m_redrawTimer; // single-shot, coalesces store changes (<= 25 redraws/s, 5 during a run)
    QString m_gpuReason;  // empty when a GPU is usable
    bool m_probing = false;
    std::vector<DeviceInfo> m_devices; // the last probe's result
    Fingerprint m_fingerprint;
    bool m_haveSurvey = false;
    // "Reproduce the article" asked for before the first probe answered.
    std::optional<ReproductionOverrides> m_pendingReproduction;
    // The next run set accepted is the reproduction's (until it is accepted or refused): its
    // first run, the first device's script run, becomes the baseline, so that the published
    // rows compare like for like with it.
    bool m_reproductionSent = false;
    PriceTable m_shippedPrices; // setShippedPrices
    QString m_shippedPricesNote;

    bool m_closeRequested = false; // close once the stopped run has ended

    QLabel *m_statusLabel = nullptr;
    QAction *m_runCpuAction = nullptr;
    QAction *m_runGpuAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_runSetAction = nullptr;    // Run menu: the settings' "Run set"
    QAction *m_reproduceAction = nullptr; // Run menu: the settings' "Reproduce the article"
    QAction *m_exportPngAction = nullptr;
    QAction *m_exportCsvAction = nullptr;
    QAction *m_exportHtmlAction = nullptr;
};

} // namespace devicebench
