// SPDX-License-Identifier: MIT
// The run settings panel: the action bar ("Run on CPU" / "Run on GPU" / "Stop", "Run set",
// "Reproduce the article", "Diagnostics…" and the validation messages under them), the data
// folder (browse, "Get CIFAR-10…", "Open archive…", synthetic data, TensorBoard folder), the
// training settings and the run set's list ("cpu:1, cpu:2, cuda", "Interleave epochs"). It only
// shows and edits settings: it asks for runs with signals, and the window (main_window.h) says
// whether a run is going and whether the GPU is usable.
#pragma once

#include "devicebench/devices.h"
#include "devicebench/run_types.h"
#include "panels/gpu_choice.h"
#include "panels/model_settings.h"
#include "panels/precision_settings.h"
#include "panels/target_setting.h"
#include "panels/workload_settings.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QSettings;
class QSpinBox;

namespace devicebench {

// One run of a run set, as the "Run set" row and the dashboard's --run option write it.
struct RunSetItem {
    std::string device; // "cpu" or "cuda"
    int threads = 0;    // 0: the panel's CPU threads
};

// "cpu", "cpu:N" (N >= 1 threads), "cuda" or "gpu" (surrounding spaces ignored) -> *item;
// false on anything else (*item is then unspecified).
bool parseRunSetItem(const QString &text, RunSetItem *item);
// A comma-separated list of items ("cpu:1, cpu:2, cuda") -> *items; false with *error saying
// which item is bad ("run set: 'gpu:2' is not cpu, cpu:THREADS or cuda") or that none is given.
bool parseRunSet(const QString &text, std::vector<RunSetItem> *items, QString *error);

// Object names (tests): dataDirEdit, browseButton, getDataButton, openArchiveButton,
// syntheticCheck, tensorBoardEdit, tensorBoardBrowseButton, epochsSpin, batchSizeSpin,
// learningRateSpin, warmupSpin, threadsSpin, seedSpin, trainImagesSpin, testImagesSpin,
// gpuCombo (gpu_choice.h), workloadCombo, pythonEdit (workload_settings.h), modelCombo,
// imageSizeCombo (model_settings.h), precisionCombo, tf32Combo (precision_settings.h),
// targetAccuracySpin (target_setting.h), phasesCheck (RunConfig::phases), runCpuButton,
// runGpuButton, stopButton, diagnosticsButton, runSetEdit, interleaveCheck, runSetButton,
// reproduceButton, validationLabel; runActionBar (the buttons and validationLabel).
class RunSettingsPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunSettingsPanel(QWidget *parent = nullptr);

    // The settings as the widgets show them, for a run on `device` ("cpu" or "cuda").
    RunConfig runConfig(const std::string &device) const;
    // Puts `config`'s values into the widgets (device is ignored: it is chosen by the button).
    void setRunConfig(const RunConfig &config);
    // The TensorBoard log folder as typed, trimmed; empty: none.
    QString tensorBoardDir() const;
    // A folder that holds a usable CIFAR-10: shown, and "Synthetic data" unticked.
    void useDataDir(const QString &dir);

    // The action bar, taken out of the panel for the window to place where it never scrolls
    // away (above the scrolled settings); the caller owns it. Until then it tops the panel.
    QWidget *takeActionBar();

    // Shows the messages under the run buttons; an empty list hides them.
    void showProblems(const QStringList &problems);

    // Buttons follow the run state: Run on CPU, Run set and Reproduce the article when idle, Run on
    // GPU when idle and `gpuReason` is empty (the reason is its tooltip otherwise), Stop while
    // running.
    void setRunState(bool running, const QString &gpuReason);
    // The probe's result: the GPU row lists the usable GPUs, and "Run on GPU" names the chosen
    // one ("Run on NVIDIA H200"; its tooltip "Train on cuda:0, NVIDIA H200").
    void setGpus(const std::vector<DeviceInfo> &devices);
    // The chosen GPU's product name ("" before the probe found one).
    QString gpuName() const { return m_gpu.name(); }
    // The GPU button's shortcut, shown in its tooltip while it is usable ("Ctrl+G").
    void setGpuShortcut(const QString &keys);

    // The run set as typed, and whether "Interleave epochs" is ticked (default: ticked).
    QString runSetText() const;
    bool interleave() const;
    // The Python field as typed, trimmed ("" = python3), whatever the workload: the article's
    // script runs of "Reproduce the article" use it.
    QString python() const;

    // The run settings under the QSettings keys run/* (see main_window.h, saveSettings), the
    // run set's under run/runSet and run/interleave.
    void saveSettings(QSettings &settings) const;
    // A missing or bad value (not a number, out of range, an unknown workload or precision)
    // keeps the widget's value.
    void restoreSettings(const QSettings &settings);

    QPushButton *runCpuButton() const { return m_runCpuButton; }
    QPushButton *runGpuButton() const { return m_runGpuButton; }
    QPushButton *stopButton() const { return m_stopButton; }
    QPushButton *diagnosticsButton() const { return m_diagnosticsButton; }
    QPushButton *runSetButton() const { return m_runSetButton; }
    QPushButton *reproduceButton() const { return m_reproduceButton; }

Q_SIGNALS:
    void runRequested(QString device); // "cpu" or the chosen GPU ("cuda:0"; "cuda" before a probe)
    // "Run set" with a list that parses (a bad one shows its message and emits nothing).
    void runSetRequested(std::vector<devicebench::RunSetItem> items, bool interleave);
    void stopRequested();
    // "Reproduce the article" (the window builds the runs: main_window.h, reproduceArticle).
    void reproduceRequested();
    void diagnosticsRequested();
    void getDataRequested();                 // "Get CIFAR-10…"
    void archiveChosen(QString archivePath); // "Open archive…", after choosing a file

private:
    QWidget *buildActionBar(); // the run buttons, in rows, and the validation label under them
    QWidget *buildDataBox();   // the rows below, Synthetic data between fetch and TensorBoard
    QLayout *buildDataDirRow(QWidget *box);                   // the data folder and Browse…
    QLayout *buildFetchRow(QWidget *box);                     // Get CIFAR-10…, Open archive…
    QLayout *buildTensorBoardRow(QWidget *box);               // the log folder and Browse…
    void chooseFolder(QLineEdit *edit, const QString &title); // a folder dialog into `edit`
    QWidget *buildTrainingBox();
    QLayout *buildRunSetRows();          // the list and "Interleave epochs"
    void requestRunSet();                // parses the list: runSetRequested or its message
    QPushButton *buildReproduceButton(); // "Reproduce the article", beside Run set

    QLineEdit *m_dataDirEdit = nullptr;
    QPushButton *m_browseButton = nullptr;
    QCheckBox *m_syntheticCheck = nullptr;
    QLineEdit *m_tensorBoardEdit = nullptr;
    QSpinBox *m_epochsSpin = nullptr;
    QSpinBox *m_batchSizeSpin = nullptr;
    QDoubleSpinBox *m_learningRateSpin = nullptr;
    QSpinBox *m_warmupSpin = nullptr;
    QSpinBox *m_threadsSpin = nullptr;
    QSpinBox *m_seedSpin = nullptr;
    QSpinBox *m_trainImagesSpin = nullptr;
    QSpinBox *m_testImagesSpin = nullptr;
    WorkloadSettings m_workload;        // the Workload and Python rows
    ModelSettings m_model;              // the Model and Image size rows
    PrecisionSettings m_precision;      // the Precision and TF32 rows
    TargetSetting m_target;             // the Target accuracy row
    GpuChoice m_gpu;                    // the GPU row
    QCheckBox *m_phasesCheck = nullptr; // "Time each phase (slower)"
    QPushButton *m_runCpuButton = nullptr;
    QPushButton *m_runGpuButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    QPushButton *m_diagnosticsButton = nullptr;
    QLineEdit *m_runSetEdit = nullptr;
    QCheckBox *m_interleaveCheck = nullptr;
    QPushButton *m_runSetButton = nullptr;
    QPushButton *m_reproduceButton = nullptr;
    QLabel *m_validationLabel = nullptr;
    QWidget *m_actionBar = nullptr;
    QString m_gpuShortcut;  // the GPU button's shortcut, for its tooltip
    QString gpuTip() const; // the GPU button's tooltip when usable: the chosen GPU, the shortcut
    void showChosenGpu();   // the GPU button's text and tooltip after a choice
    // A recipe chosen: its preset (batch size, target, the CPU's precision) shown and the rows it
    // sets itself greyed out; nullptr (another workload): those rows back.
    void showRecipe(const WorkloadRow *recipe);
};

// A spin box with an object name, range, value, tooltip and group separators.
QSpinBox *makeSpin(QWidget *parent, const char *name, int min, int max, int value,
                   const QString &tip);
// A push button with an object name and, when `tip` is not empty, a tooltip.
QPushButton *makeSettingsButton(QWidget *parent, const QString &text, const char *name,
                                const QString &tip = QString());

} // namespace devicebench
