// SPDX-License-Identifier: MIT
#include "panels/charts_panel.h"

#include "export/comparison_export.h"

#include "charts/accuracy_chart.h"
#include "charts/charts.h"
#include "charts/phase_chart.h"
#include "charts/system_chart.h"
#include "charts/zoom_chart_view.h"
#include "panels/epoch_table.h"
#include "store/run_store.h"
#include "theme/appearance.h"

#include "devicebench/comparison.h"

#include <QAction>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace devicebench {

ChartsPanel::ChartsPanel(const RunStore &store, QWidget *parent) : QWidget(parent), m_store(store) {
    m_lossChart = new LossChart;
    m_lossView = new ZoomChartView(m_lossChart); // the view owns the chart
    m_lossView->setObjectName(QStringLiteral("lossChartView"));
    m_lossView->setRenderHint(QPainter::Antialiasing);
    m_lossView->setMinimumHeight(220); // with the tabs' bar and the controls over it
    QWidget *bottom = buildBottom();
    QWidget *lossPane = buildLossPane();

    auto *centre = new QSplitter(Qt::Vertical, this);
    centre->addWidget(lossPane);
    centre->addWidget(bottom);
    // Half and half: on a laptop's screen the bars, their labels and footer keep room too.
    centre->setStretchFactor(0, 1);
    centre->setStretchFactor(1, 1);
    centre->setSizes({480, 420});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(centre);

    // Charts readable on the palette in use (--theme dark, or a dark desktop palette).
    const bool dark = isDarkPalette(palette());
    applyChartTheme(m_lossChart, dark);
    applyChartTheme(m_speedChart, dark);
    applyChartTheme(m_phaseChart, dark);
    applyChartTheme(m_systemChart, dark);
    applyChartTheme(m_accuracyChart, dark);
}

QWidget *ChartsPanel::buildBottom() {
    m_speedChart = new SpeedChart;
    m_barView = new QChartView(m_speedChart);
    m_barView->setObjectName(QStringLiteral("barChartView"));
    m_barView->setRenderHint(QPainter::Antialiasing);
    // Taller than its pane when its rows need it (fitBarView): it scrolls, every row labelled.
    auto *barScroll = new QScrollArea;
    barScroll->setObjectName(QStringLiteral("barChartScroll"));
    barScroll->setFrameShape(QFrame::NoFrame);
    barScroll->setWidgetResizable(true);
    barScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    barScroll->setMinimumSize(kBarViewMinWidth, kBarViewMinHeight);
    barScroll->setWidget(m_barView);
    connect(m_speedChart, &QChart::plotAreaChanged, this, &ChartsPanel::fitBarView);
    buildEpochTable();
    m_controlLabel = new QLabel;
    m_controlLabel->setObjectName(QStringLiteral("controlLabel"));
    m_controlLabel->setWordWrap(true);
    m_controlLabel->setTextFormat(Qt::RichText);
    m_controlLabel->setToolTip(QStringLiteral(
        "Runs with the same config and seed start from identical weights and data order: "
        "their test losses should differ only by float rounding"));
    auto *barPane = new QWidget;
    auto *barLayout = new QVBoxLayout(barPane);
    barLayout->setContentsMargins(0, 0, 0, 0);
    barLayout->setSpacing(2);
    barLayout->addWidget(buildMeasureControl());
    barLayout->addWidget(barScroll, 1);
    barLayout->addWidget(m_controlLabel);
    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(barPane);
    bottom->addWidget(m_table);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({680, 560});
    return bottom;
}

QWidget *ChartsPanel::buildMeasureControl() {
    m_barMeasureCombo = new QComboBox;
    m_barMeasureCombo->setObjectName(QStringLiteral("barMeasureCombo"));
    for (BarMeasure measure : {BarMeasure::Seconds, BarMeasure::Joules, BarMeasure::Money})
        m_barMeasureCombo->addItem(barMeasureText(measure), barMeasureName(measure));
    m_barMeasureCombo->setToolTip(QStringLiteral(
        "What the bars show per stable epoch: seconds (with the speed-ups), the energy measured "
        "during the run, or its cost at the prices of Settings > Prices. Runs without it get no "
        "bar; the chart's footer says why."));
    auto *label = new QLabel(QStringLiteral("Bars"));
    label->setBuddy(m_barMeasureCombo);
    m_runsOneByOneCheck = new QCheckBox(QStringLiteral("Runs one by one"));
    m_runsOneByOneCheck->setObjectName(QStringLiteral("runsOneByOneCheck"));
    m_runsOneByOneCheck->setToolTip(QStringLiteral(
        "Repeated runs of one configuration on one machine are one bar (the mean of their "
        "stable means, the interval over the runs, the fastest and slowest run) and one mean "
        "loss curve with a min-max band. Checked: every run on its own."));
    m_runsOneByOneAction = new QAction(QStringLiteral("Runs &one by one"), this);
    m_runsOneByOneAction->setObjectName(QStringLiteral("runsOneByOneAction"));
    m_runsOneByOneAction->setCheckable(true);
    connect(m_runsOneByOneAction, &QAction::toggled, m_runsOneByOneCheck, &QCheckBox::setChecked);
    connect(m_runsOneByOneCheck, &QCheckBox::toggled, this, [this](bool on) {
        m_runsOneByOneAction->setChecked(on);
        applyControls();
    });
    auto *bar = new QWidget;
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 0, 4, 0);
    row->addWidget(label);
    row->addWidget(m_barMeasureCombo);
    row->addWidget(m_runsOneByOneCheck);
    row->addStretch(1);
    connect(m_barMeasureCombo, &QComboBox::currentIndexChanged, this, [this] { applyControls(); });
    return bar;
}

void ChartsPanel::buildEpochTable() {
    m_tableModel = new EpochTableModel(m_store, this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("epochTable"));
    m_table->setModel(m_tableModel);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false); // labels stay on one line
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
}

QWidget *ChartsPanel::buildLossPane() {
    // Where the time goes: beside the loss chart, shown while any run is phase-timed (in the
    // loss pane's layout, not a splitter of its own: the window saves its splitters by
    // position).
    m_phaseChart = new PhaseChart;
    m_phaseView = new QChartView(m_phaseChart);
    m_phaseView->setObjectName(QStringLiteral("phaseChartView"));
    m_phaseView->setRenderHint(QPainter::Antialiasing);
    m_phaseView->setMinimumWidth(340);
    m_phaseView->hide();
    auto *lossRow = new QHBoxLayout;
    lossRow->setContentsMargins(0, 0, 0, 0);
    lossRow->addWidget(m_lossView, 9); // at 1560 px wide: the loss chart's title still fits
    lossRow->addWidget(m_phaseView, 4);

    auto *lossPane = new QWidget;
    auto *lossLayout = new QVBoxLayout(lossPane);
    lossLayout->setContentsMargins(0, 0, 0, 0);
    lossLayout->setSpacing(2);
    lossLayout->addWidget(buildControls());
    lossLayout->addLayout(lossRow, 1);
    connect(m_lossChart, &LossChart::runVisibilityToggled, this, [this](int runId) {
        Q_EMIT runVisibilityRequested(runId, m_store.isRunHidden(runId));
    });

    // The System view in a tab beside the loss chart: at the window's first size (960 px
    // high) a third chart in the row would leave each too narrow, and stacked under it too low.
    m_chartTabs = new QTabWidget;
    m_chartTabs->setObjectName(QStringLiteral("chartTabs"));
    m_chartTabs->setDocumentMode(true);
    m_chartTabs->addTab(lossPane, QStringLiteral("Loss"));
    m_chartTabs->addTab(buildSystemPane(), QStringLiteral("System"));
    m_accuracyChart = new AccuracyChart;
    auto *accuracyView = new QChartView(m_accuracyChart); // the view owns the chart
    accuracyView->setObjectName(QStringLiteral("accuracyChartView"));
    accuracyView->setRenderHint(QPainter::Antialiasing);
    m_chartTabs->addTab(accuracyView, QStringLiteral("Accuracy"));
    m_chartTabs->setTabToolTip(0, QStringLiteral("Training loss per step, test loss per epoch"));
    m_chartTabs->setTabToolTip(1, QStringLiteral("What the machine did during the runs: CPU, "
                                                 "memory, GPU utilisation, memory and power"));
    m_chartTabs->setTabToolTip(2, QStringLiteral("Test accuracy against wall-clock seconds, "
                                                 "each run's target and where it reached it"));
    connect(m_chartTabs, &QTabWidget::currentChanged, this, [this] {
        if (systemShown())
            m_systemChart->sync(m_store);
        if (accuracyShown())
            m_accuracyChart->sync(m_store);
    });
    return m_chartTabs;
}

QWidget *ChartsPanel::buildSystemPane() {
    m_systemChart = new SystemChart;
    auto *view = new ZoomChartView(m_systemChart); // the view owns the chart
    view->setObjectName(QStringLiteral("systemChartView"));
    view->setRenderHint(QPainter::Antialiasing);
    m_systemQuantityCombo = new QComboBox;
    m_systemQuantityCombo->setObjectName(QStringLiteral("systemQuantityCombo"));
    for (const SystemQuantity q :
         {SystemQuantity::Cpu, SystemQuantity::Memory, SystemQuantity::GpuUtilization,
          SystemQuantity::GpuMemory, SystemQuantity::GpuPower})
        m_systemQuantityCombo->addItem(systemQuantityTitle(q), systemQuantityName(q));
    m_systemQuantityCombo->setToolTip(
        QStringLiteral("What to draw against the run's clock (the loss chart's time axis). "
                       "CPU: cores the run's processes kept busy (solid) and the whole "
                       "machine (dashed)"));
    auto *quantityLabel = new QLabel(QStringLiteral("Quantity"));
    quantityLabel->setBuddy(m_systemQuantityCombo);
    auto *reset = new QPushButton(QStringLiteral("Reset view"));
    reset->setObjectName(QStringLiteral("systemResetViewButton"));
    reset->setToolTip(m_resetViewButton->toolTip());
    auto *row = new QHBoxLayout;
    row->setContentsMargins(4, 0, 4, 0);
    row->addWidget(quantityLabel);
    row->addWidget(m_systemQuantityCombo);
    row->addStretch(1);
    row->addWidget(reset);

    auto *pane = new QWidget;
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(row);
    layout->addWidget(view, 1);
    connect(m_systemQuantityCombo, &QComboBox::currentIndexChanged, this, [this] {
        SystemQuantity quantity = SystemQuantity::Cpu;
        parseSystemQuantity(m_systemQuantityCombo->currentData().toString(), &quantity);
        m_systemChart->setQuantity(quantity);
        m_systemChart->sync(m_store);
    });
    connect(reset, &QPushButton::clicked, this, [this] { m_systemChart->resetView(); });
    connect(m_systemChart, &SystemChart::runVisibilityToggled, this, [this](int runId) {
        Q_EMIT runVisibilityRequested(runId, m_store.isRunHidden(runId));
    });
    return pane;
}

bool ChartsPanel::systemShown() const { return m_chartTabs->currentIndex() == 1; }

void ChartsPanel::showSystemView() { m_chartTabs->setCurrentIndex(1); }

bool ChartsPanel::accuracyShown() const { return m_chartTabs->currentIndex() == 2; }

void ChartsPanel::showAccuracyView() { m_chartTabs->setCurrentIndex(2); }

QWidget *ChartsPanel::buildControls() {
    auto *bar = new QWidget;
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 0, 4, 0);
    auto *smoothingLabel = new QLabel(QStringLiteral("Smoothing"));
    m_smoothingSlider = new QSlider(Qt::Horizontal);
    m_smoothingSlider->setObjectName(QStringLiteral("smoothingSlider"));
    m_smoothingSlider->setRange(0, static_cast<int>(std::lround(kMaxSmoothing * 100.0)));
    m_smoothingSlider->setValue(static_cast<int>(std::lround(kDefaultSmoothing * 100.0)));
    m_smoothingSlider->setMinimumWidth(100); // the row fits the tabs at the window's least width
    m_smoothingSlider->setToolTip(
        QStringLiteral("Debiased exponential moving average of the training loss, as in "
                       "TensorBoard (0: raw). Only the drawing changes: every step stays in the "
                       "records and the CSV."));
    smoothingLabel->setBuddy(m_smoothingSlider);
    m_smoothingValue = new QLabel;
    m_smoothingValue->setObjectName(QStringLiteral("smoothingValue"));
    m_smoothingValue->setMinimumWidth(
        m_smoothingValue->fontMetrics().horizontalAdvance(QStringLiteral("0.00")) + 4);
    m_xAxisCombo = new QComboBox;
    m_xAxisCombo->setObjectName(QStringLiteral("xAxisCombo"));
    m_xAxisCombo->addItem(QStringLiteral("Steps"), xAxisModeName(XAxisMode::Steps));
    m_xAxisCombo->addItem(QStringLiteral("Epochs"), xAxisModeName(XAxisMode::Epochs));
    m_xAxisCombo->addItem(QStringLiteral("Wall-clock time"), xAxisModeName(XAxisMode::Seconds));
    m_xAxisCombo->setCurrentIndex(1);
    m_xAxisCombo->setToolTip(QStringLiteral(
        "x axis: training steps, epochs, or wall-clock seconds (a faster device ends earlier)"));
    auto *xLabel = new QLabel(QStringLiteral("x axis"));
    xLabel->setBuddy(m_xAxisCombo);
    m_logScaleCheck = new QCheckBox(QStringLiteral("Log scale"));
    m_logScaleCheck->setObjectName(QStringLiteral("logScaleCheck"));
    m_logScaleCheck->setToolTip(QStringLiteral("Loss axis in powers of ten"));
    m_resetViewButton = new QPushButton(QStringLiteral("Reset view"));
    m_resetViewButton->setObjectName(QStringLiteral("resetViewButton"));
    m_resetViewButton->setToolTip(QStringLiteral(
        "Show every run whole. Zoom: wheel or drag a rectangle; pan: shift+wheel or middle "
        "drag; double click resets too. Click a legend entry to hide or show its run."));
    row->addWidget(smoothingLabel);
    row->addWidget(m_smoothingSlider, 1);
    row->addWidget(m_smoothingValue);
    row->addSpacing(12);
    row->addWidget(xLabel);
    row->addWidget(m_xAxisCombo);
    row->addSpacing(12);
    row->addWidget(m_logScaleCheck);
    row->addStretch(1);
    row->addWidget(m_resetViewButton);
    connect(m_smoothingSlider, &QSlider::valueChanged, this, [this] { applyControls(); });
    connect(m_xAxisCombo, &QComboBox::currentIndexChanged, this, [this] { applyControls(); });
    connect(m_logScaleCheck, &QCheckBox::toggled, this, [this] { applyControls(); });
    connect(m_resetViewButton, &QPushButton::clicked, this, [this] { m_lossChart->resetView(); });
    m_smoothingValue->setText(QString::number(kDefaultSmoothing, 'f', 2));
    m_lossChart->setOptions(chartOptions());
    return bar;
}

ChartOptions ChartsPanel::chartOptions() const {
    ChartOptions options;
    options.smoothing = m_smoothingSlider->value() / 100.0;
    parseXAxisMode(m_xAxisCombo->currentData().toString(), &options.xAxis);
    options.logScale = m_logScaleCheck->isChecked();
    parseBarMeasure(m_barMeasureCombo->currentData().toString(), &options.barMeasure);
    options.runsOneByOne = m_runsOneByOneCheck->isChecked();
    return options;
}

void ChartsPanel::setChartOptions(const ChartOptions &options) {
    m_settingControls = true;
    m_smoothingSlider->setValue(static_cast<int>(std::lround(options.smoothing * 100.0)));
    m_xAxisCombo->setCurrentIndex(
        std::max(0, m_xAxisCombo->findData(xAxisModeName(options.xAxis))));
    m_logScaleCheck->setChecked(options.logScale);
    m_barMeasureCombo->setCurrentIndex(
        std::max(0, m_barMeasureCombo->findData(barMeasureName(options.barMeasure))));
    m_runsOneByOneCheck->setChecked(options.runsOneByOne);
    m_settingControls = false;
    applyControls();
}

void ChartsPanel::applyControls() {
    if (m_settingControls)
        return;
    const ChartOptions options = chartOptions();
    m_smoothingValue->setText(QString::number(options.smoothing, 'f', 2));
    m_lossChart->setOptions(options);
    m_lossChart->sync(m_store);
    m_speedChart->setMeasure(options.barMeasure);
    m_speedChart->setRunsOneByOne(options.runsOneByOne);
    m_speedChart->sync(m_store);
    Q_EMIT chartOptionsChanged(options);
}

void ChartsPanel::saveSettings(QSettings &settings) const {
    const ChartOptions options = chartOptions();
    settings.setValue(QStringLiteral("charts/smoothing"), options.smoothing);
    settings.setValue(QStringLiteral("charts/xAxis"), xAxisModeName(options.xAxis));
    settings.setValue(QStringLiteral("charts/logScale"), options.logScale);
    settings.setValue(QStringLiteral("charts/systemQuantity"),
                      systemQuantityName(m_systemChart->quantity()));
    settings.setValue(QStringLiteral("charts/barMeasure"), barMeasureName(options.barMeasure));
    settings.setValue(QStringLiteral("charts/runsOneByOne"), options.runsOneByOne);
}

void ChartsPanel::restoreSettings(const QSettings &settings) {
    ChartOptions options = chartOptions();
    bool ok = false;
    const double smoothing = settings.value(QStringLiteral("charts/smoothing")).toDouble(&ok);
    if (ok && smoothing >= 0.0 && smoothing <= kMaxSmoothing)
        options.smoothing = smoothing;
    parseXAxisMode(settings.value(QStringLiteral("charts/xAxis")).toString(), &options.xAxis);
    const QVariant log = settings.value(QStringLiteral("charts/logScale"));
    if (log.isValid())
        options.logScale = log.toBool();
    parseBarMeasure(settings.value(QStringLiteral("charts/barMeasure")).toString(),
                    &options.barMeasure);
    const QVariant oneByOne = settings.value(QStringLiteral("charts/runsOneByOne"));
    if (oneByOne.isValid())
        options.runsOneByOne = oneByOne.toBool();
    setChartOptions(options);
    const int quantity =
        m_systemQuantityCombo->findData(settings.value(QStringLiteral("charts/systemQuantity")));
    if (quantity >= 0)
        m_systemQuantityCombo->setCurrentIndex(quantity);
}

void ChartsPanel::sync(bool running) {
    m_lossChart->sync(m_store);
    m_speedChart->sync(m_store);
    m_phaseChart->sync(m_store);
    m_phaseView->setVisible(PhaseChart::anyPhaseTimed(m_store));
    if (systemShown())
        m_systemChart->sync(m_store);
    if (accuracyShown())
        m_accuracyChart->sync(m_store);
    const int rowsBefore = m_tableModel->rowCount();
    m_tableModel->refresh();
    if (m_tableModel->rowCount() != rowsBefore)
        m_table->resizeColumnsToContents(); // new labels (e.g. imported runs) are seen whole
    if (m_table->model()->rowCount() > 0 && running)
        m_table->scrollToBottom();
    updateControlText();
    fitBarView();
}

void ChartsPanel::fitBarView() {
    const int height = std::max(kBarViewMinHeight, m_speedChart->neededHeight());
    if (m_barView->minimumHeight() != height)
        m_barView->setMinimumHeight(height);
}

void ChartsPanel::updateControlText() {
    // Summarised (RunStore::controlSummary): the largest difference and its pair, and the pairs
    // above the warning; never every pair (200 runs make 19,900).
    const ControlSummary control = m_store.controlSummary();
    if (control.largest.indexA < 0) {
        m_controlLabel->clear();
        m_controlLabel->setVisible(false);
        return;
    }
    QStringList parts;
    parts.append(QStringLiteral("largest %1").arg(controlPairText(m_store, control.largest)));
    const auto warnings = static_cast<qsizetype>(control.warnings.size());
    for (qsizetype i = 0; i < std::min(warnings, kControlWarningsListed); ++i)
        parts.append(
            QStringLiteral("<span style=\"color:%1\"><b>WARNING</b> %2</span>")
                .arg(errorColour(palette()),
                     controlPairText(m_store, control.warnings[static_cast<std::size_t>(i)])));
    if (warnings > kControlWarningsListed)
        parts.append(QStringLiteral("<span style=\"color:%1\">and %2 more pairs above %3</span>")
                         .arg(errorColour(palette()))
                         .arg(warnings - kControlWarningsListed)
                         .arg(kTestLossWarning));
    const QString tail =
        warnings > 0 ? QStringLiteral(" (above %1: the runs did not compute the same thing)")
                           .arg(kTestLossWarning)
                     : QStringLiteral(" · no pair above %1").arg(kTestLossWarning);
    m_controlLabel->setText(
        QStringLiteral("<b>Control</b> (comparable runs, same seed; %1 pair%2): max test-loss "
                       "difference, ")
            .arg(control.comparablePairs)
            .arg(control.comparablePairs == 1 ? QString() : QStringLiteral("s")) +
        parts.join(QStringLiteral(" · ")) + tail);
    m_controlLabel->setVisible(true);
}

} // namespace devicebench
