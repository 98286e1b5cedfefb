// SPDX-License-Identifier: MIT
// The live charts panel: three tabs on top, "Loss" (the loss chart, training loss per step and
// test loss per epoch, and, while any run is phase-timed, where the time goes, phase_chart.h,
// beside it), "System" (what the machine did, system_chart.h, one quantity at a time) and
// "Accuracy" (test accuracy against wall-clock seconds, accuracy_chart.h); the
// stable-mean bar chart with the control-pair line under them, and the epoch table, in
// splitters. It draws what the RunStore holds when sync() is called (the window coalesces those
// calls); the System and Accuracy charts only while their tab is shown, and when brought up.
#pragma once

#include "charts/charts.h"       // ChartOptions
#include "charts/system_chart.h" // SystemQuantity

#include <QWidget>

class QAction;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSettings;
class QSlider;
class QTabWidget;
class QTableView;

namespace devicebench {

class AccuracyChart;
class EpochTableModel;
class LossChart;
class PhaseChart;
class RunStore;
class SpeedChart;
class SystemChart;

// Object names (tests): chartTabs (Loss, System, Accuracy), lossChartView, barChartView,
// phaseChartView (PhaseChart, phase_chart.h: beside the loss chart, shown while any run is
// phase-timed), barChartScroll (the scroll area around barChartView), controlLabel, epochTable, and
// the loss chart's controls above it: smoothingSlider (0..99, the weight in hundredths),
// smoothingValue, xAxisCombo (steps, epochs, time; item data: xAxisModeName), logScaleCheck,
// resetViewButton; the System tab's systemChartView and its controls: systemQuantityCombo (item
// data: systemQuantityName), systemResetViewButton; the Accuracy tab's accuracyChartView; over the
// bar chart barMeasureCombo (seconds, joules, money per epoch; item data: barMeasureName) and
// runsOneByOneCheck (repeated runs one by one instead of one bar and one band per group; the same
// as runsOneByOneAction, which the window's View menu holds).
class ChartsPanel : public QWidget {
    Q_OBJECT

public:
    // `store` must outlive the panel.
    explicit ChartsPanel(const RunStore &store, QWidget *parent = nullptr);

    // Redraws charts, control line and table from the store; while `running`, the table
    // follows its last row.
    void sync(bool running);

    LossChart *lossChart() const { return m_lossChart; }
    SpeedChart *speedChart() const { return m_speedChart; }
    PhaseChart *phaseChart() const { return m_phaseChart; }
    SystemChart *systemChart() const { return m_systemChart; }
    AccuracyChart *accuracyChart() const { return m_accuracyChart; }
    // Brings up the System tab, or the Accuracy tab (drawn at once).
    void showSystemView();
    void showAccuracyView();

    // The charts' options as the controls show them (the loss chart's, and the bar chart's
    // measure); setChartOptions sets the controls (and so the charts, redrawn at once).
    ChartOptions chartOptions() const;
    void setChartOptions(const ChartOptions &options);

    // "Runs one by one" as a checkable action, in step with the check box (the View menu).
    QAction *runsOneByOneAction() const { return m_runsOneByOneAction; }

    // The controls' values under "charts/" (smoothing, xAxis, logScale, systemQuantity,
    // barMeasure, runsOneByOne);
    // restoreSettings keeps a control's value when its key is missing or bad.
    void saveSettings(QSettings &settings) const;
    void restoreSettings(const QSettings &settings);

Q_SIGNALS:
    // The user changed a control (smoothing, x axis, log scale, the bars' measure).
    void chartOptionsChanged(const devicebench::ChartOptions &options);
    // A legend entry of the loss chart was clicked: the run should be shown (true) or hidden.
    void runVisibilityRequested(int runId, bool visible);

private:
    // The bar chart's least size; it grows taller (and its pane scrolls) to give every row a
    // line of text (SpeedChart::neededHeight).
    static constexpr int kBarViewMinWidth = 480;
    static constexpr int kBarViewMinHeight = 180;
    void fitBarView();
    void updateControlText();
    QWidget *buildBottom();   // the speed chart and its control note beside the epoch table
    void buildEpochTable();   // m_tableModel and m_table
    QWidget *buildLossPane(); // the tabs: the loss chart (its controls, the phase chart), System
    QWidget *buildControls();
    QWidget *buildSystemPane();     // the quantity selector over the System chart
    QWidget *buildMeasureControl(); // the bar chart's measure
    bool systemShown() const;
    bool accuracyShown() const;
    void applyControls(); // controls -> chart, then redraw

    const RunStore &m_store;
    LossChart *m_lossChart = nullptr;
    SpeedChart *m_speedChart = nullptr;
    PhaseChart *m_phaseChart = nullptr; // shown while any run is phase-timed
    QChartView *m_phaseView = nullptr;
    QChartView *m_lossView = nullptr;
    QChartView *m_barView = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    SystemChart *m_systemChart = nullptr;
    AccuracyChart *m_accuracyChart = nullptr;
    QComboBox *m_systemQuantityCombo = nullptr;
    EpochTableModel *m_tableModel = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_controlLabel = nullptr;
    QSlider *m_smoothingSlider = nullptr;
    QLabel *m_smoothingValue = nullptr;
    QComboBox *m_xAxisCombo = nullptr;
    QCheckBox *m_logScaleCheck = nullptr;
    QPushButton *m_resetViewButton = nullptr;
    QComboBox *m_barMeasureCombo = nullptr;
    QCheckBox *m_runsOneByOneCheck = nullptr;
    QAction *m_runsOneByOneAction = nullptr;
    bool m_settingControls = false;
};

} // namespace devicebench
