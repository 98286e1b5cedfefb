// SPDX-License-Identifier: MIT
// SweepPanel (sweep_panel.h): its widgets, Run / Stop and the sweep's progress. The records,
// the baseline, the exports and the settings are in sweep_panel_results.cpp.
#include "sweep/sweep_panel.h"

#include "charts/sweep_chart.h"
#include "charts/sweep_heat_map.h"
#include "sweep/sweep_form.h"
#include "theme/appearance.h"

#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace devicebench {

namespace {

QPushButton *makeButton(QWidget *parent, const QString &text, const char *name,
                        const QString &tip) {
    auto *button = new QPushButton(text, parent);
    button->setObjectName(QString::fromUtf8(name));
    button->setToolTip(tip);
    return button;
}

} // namespace

QString aboutDuration(double seconds) {
    const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    if (total < 60)
        return QStringLiteral("about %1 s").arg(total);
    const long long minutes = (total + 30) / 60;
    if (minutes < 60)
        return QStringLiteral("about %1 min").arg(minutes);
    return QStringLiteral("about %1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

QString sweepProgressText(const SweepProgress &progress, bool ended, int failedCells) {
    if (ended) {
        QStringList extras;
        if (progress.skipped > 0)
            extras.append(QStringLiteral("%1 found finished").arg(progress.skipped));
        if (failedCells > 0)
            extras.append(QStringLiteral("%1 failed").arg(failedCells));
        QString text = QStringLiteral("%1 of %2 cells done").arg(progress.done).arg(progress.total);
        if (!extras.isEmpty())
            text += QStringLiteral(" (") + extras.join(QStringLiteral(", ")) + QLatin1Char(')');
        return text;
    }
    QString text = QStringLiteral("cell %1 of %2")
                       .arg(std::min(progress.done + 1, std::max(progress.total, 1)))
                       .arg(progress.total);
    if (std::isfinite(progress.secondsLeft))
        text +=
            QStringLiteral(" — ") + aboutDuration(progress.secondsLeft) + QStringLiteral(" left");
    return text;
}

QString SweepPanel::defaultSweepFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/sweeps/sweep");
}

SweepPanel::SweepPanel(QWidget *parent) : QWidget(parent) {
    auto *scroll = new QScrollArea;
    scroll->setWidget(buildControls());
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(std::max(340, scroll->widget()->sizeHint().width() + 24));
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scroll);
    split->addWidget(buildResults());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setCollapsible(0, false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    updateButtons();
}

QWidget *SweepPanel::buildControls() {
    auto *controls = new QWidget;
    auto *layout = new QVBoxLayout(controls);
    m_form = new SweepForm(controls);
    m_form->setObjectName(QStringLiteral("sweepForm"));
    layout->addWidget(m_form);
    layout->addWidget(buildFolderBox(controls));
    layout->addLayout(buildRunRow(controls));
    buildProgress(controls, layout);
    layout->addWidget(buildResultsBox(controls));
    layout->addStretch(1);
    connectControls();
    return controls;
}

QWidget *SweepPanel::buildFolderBox(QWidget *controls) {
    auto *folderBox = new QGroupBox(QStringLiteral("Sweep folder"), controls);
    auto *folderLayout = new QVBoxLayout(folderBox);
    auto *folderRow = new QHBoxLayout;
    m_folderEdit = new QLineEdit(defaultSweepFolder(), folderBox);
    m_folderEdit->setObjectName(QStringLiteral("sweepFolderEdit"));
    m_folderEdit->setToolTip(
        QStringLiteral("One record per cell is written here as it ends. Run again into the same "
                       "folder and the finished cells are not redone (resume after a stop)."));
    auto *browse = makeButton(folderBox, QStringLiteral("Browse…"), "sweepBrowseButton",
                              QStringLiteral("Choose the sweep folder"));
    folderRow->addWidget(m_folderEdit, 1);
    folderRow->addWidget(browse);
    folderLayout->addLayout(folderRow);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, QStringLiteral("Sweep folder"), folder());
        if (!dir.isEmpty())
            setFolder(dir);
    });
    return folderBox;
}

QLayout *SweepPanel::buildRunRow(QWidget *controls) {
    m_runButton = makeButton(controls, QStringLiteral("Run sweep"), "sweepRunButton",
                             QStringLiteral("Run every cell of the grid not yet finished in the "
                                            "folder, one after another"));
    m_stopButton = makeButton(controls, QStringLiteral("Stop"), "sweepStopButton",
                              QStringLiteral("End the running cell within a step (it is run "
                                             "again next time); the finished cells are kept"));
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_runButton, 1);
    runRow->addWidget(m_stopButton);
    return runRow;
}

void SweepPanel::buildProgress(QWidget *controls, QVBoxLayout *layout) {
    m_progressBar = new QProgressBar(controls);
    m_progressBar->setObjectName(QStringLiteral("sweepProgressBar"));
    m_progressBar->setRange(0, 1);
    m_progressBar->setValue(0);
    m_progressBar->setTextVisible(false); // until a sweep starts: no "0 of 1"
    m_progressBar->setFormat(QStringLiteral("%v of %m cells"));
    layout->addWidget(m_progressBar);
    m_progressLabel = new QLabel(controls);
    m_progressLabel->setObjectName(QStringLiteral("sweepProgressLabel"));
    m_progressLabel->setWordWrap(true);
    layout->addWidget(m_progressLabel);
    m_messageLabel = new QLabel(controls);
    m_messageLabel->setObjectName(QStringLiteral("sweepMessageLabel"));
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_messageLabel->hide();
    layout->addWidget(m_messageLabel);
}

QWidget *SweepPanel::buildResultsBox(QWidget *controls) {
    auto *results = new QGroupBox(QStringLiteral("Results"), controls);
    auto *resultsLayout = new QVBoxLayout(results);
    m_openFolderButton =
        makeButton(results, QStringLiteral("Open folder…"), "sweepOpenFolderButton",
                   QStringLiteral("Show the cell records of a sweep folder (this machine's or "
                                  "another's)"));
    resultsLayout->addWidget(m_openFolderButton);
    auto *baselineRow = new QHBoxLayout;
    auto *baselineLabel = new QLabel(QStringLiteral("Baseline"), results);
    m_baselineCombo = new QComboBox(results);
    m_baselineCombo->setObjectName(QStringLiteral("sweepBaselineCombo"));
    m_baselineCombo->setToolTip(QStringLiteral(
        "The heat map's speed-ups are each device's images/s over this device's, cell by cell"));
    baselineLabel->setBuddy(m_baselineCombo);
    baselineRow->addWidget(baselineLabel);
    baselineRow->addWidget(m_baselineCombo, 1);
    resultsLayout->addLayout(baselineRow);
    auto *measureRow = new QHBoxLayout;
    auto *measureLabel = new QLabel(QStringLiteral("Heat map"), results);
    m_measureCombo = new QComboBox(results);
    m_measureCombo->setObjectName(QStringLiteral("sweepMeasureCombo"));
    m_measureCombo->setToolTip(
        QStringLiteral("Speed-up: each device against the baseline, precision by precision. "
                       "bf16 (fp16) over fp32: each cell's images/s over its fp32 cell's"));
    m_measureCombo->addItem(QStringLiteral("Speed-up against the baseline"),
                            QStringLiteral("speedup"));
    measureLabel->setBuddy(m_measureCombo);
    measureRow->addWidget(measureLabel);
    measureRow->addWidget(m_measureCombo, 1);
    resultsLayout->addLayout(measureRow);
    m_exportPngButton = makeButton(results, QStringLiteral("Export PNG…"), "sweepExportPngButton",
                                   QStringLiteral("The chart and the heat map in one picture"));
    m_exportCsvButton =
        makeButton(results, QStringLiteral("Export CSV…"), "sweepExportCsvButton",
                   QStringLiteral("One row per cell: images/s and its interval, GFLOP/s, phase "
                                  "fractions and the speed-up against the baseline"));
    auto *exportRow = new QHBoxLayout;
    exportRow->addWidget(m_exportPngButton);
    exportRow->addWidget(m_exportCsvButton);
    resultsLayout->addLayout(exportRow);
    return results;
}

void SweepPanel::connectControls() {
    connect(m_runButton, &QPushButton::clicked, this, [this] { startSweep(); });
    connect(m_stopButton, &QPushButton::clicked, this, &SweepPanel::requestStop);
    connect(m_openFolderButton, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, QStringLiteral("Open a sweep folder"), folder());
        if (!dir.isEmpty())
            openFolder(dir);
    });
    connect(m_baselineCombo, &QComboBox::currentIndexChanged, this,
            [this] { m_heatMap->setTable(heatMapTable()); });
    connect(m_measureCombo, &QComboBox::currentIndexChanged, this, [this] {
        m_baselineCombo->setEnabled(m_measureCombo->currentIndex() == 0);
        m_heatMap->setTable(heatMapTable());
    });
    connect(m_exportPngButton, &QPushButton::clicked, this, &SweepPanel::exportPngInteractive);
    connect(m_exportCsvButton, &QPushButton::clicked, this, &SweepPanel::exportCsvInteractive);
}

QWidget *SweepPanel::buildResults() {
    m_chart = new SweepChart;
    auto *view = new QChartView(m_chart); // the view owns the chart
    view->setObjectName(QStringLiteral("sweepChartView"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(300);
    applyChartTheme(m_chart, isDarkPalette(palette()));
    m_noteLabel = new QLabel;
    m_noteLabel->setObjectName(QStringLiteral("sweepNoteLabel"));
    m_noteLabel->setWordWrap(true);
    m_noteLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_noteLabel->hide();
    auto *chartPane = new QWidget;
    auto *chartLayout = new QVBoxLayout(chartPane);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(view, 1);
    chartLayout->addWidget(m_noteLabel);

    m_heatMap = new SpeedUpHeatMap;
    auto *heatScroll = new QScrollArea;
    heatScroll->setWidget(m_heatMap);
    heatScroll->setWidgetResizable(true);
    heatScroll->setMinimumHeight(140);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(chartPane);
    split->addWidget(heatScroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setCollapsible(0, false);
    return split;
}

void SweepPanel::setBaseConfigProvider(std::function<RunConfig()> provider) {
    m_baseConfig = std::move(provider);
}

void SweepPanel::setDevices(const std::vector<DeviceInfo> &devices) { m_form->setDevices(devices); }

void SweepPanel::setBlockedReason(const QString &reason) {
    m_blockedReason = reason;
    updateButtons();
}

void SweepPanel::requestStop() {
    if (!isRunning())
        return;
    m_progressLabel->setText(progressText() + QStringLiteral("\nStopping after this cell's "
                                                             "current step…"));
    Q_EMIT stopSweepRequested();
}

bool SweepPanel::startSweep() {
    if (isRunning())
        return false;
    SweepSpec spec;
    if (m_baseConfig) {
        spec.base = m_baseConfig();
    } else {
        spec.base.synthetic = true;
    }
    QStringList problems;
    if (!m_blockedReason.isEmpty())
        problems.append(m_blockedReason);
    if (!spec.base.synthetic && spec.base.dataDir.empty())
        problems.append(QStringLiteral("data folder is empty: choose the cifar-10-batches-bin "
                                       "folder in the Runs view, or tick \"Synthetic data\""));
    m_form->readSpec(&spec, &problems); // validateSweepSpec only when nothing else is wrong
    if (folder().isEmpty())
        problems.append(QStringLiteral("sweep folder is empty: choose where the records go"));
    if (!problems.isEmpty()) {
        showMessage(QStringLiteral("Not started: ") + problems.join(QStringLiteral("; ")), true);
        return false;
    }
    // The cells time steps, not accuracy: a target in the run settings is for runs.
    showMessage(spec.base.targetAccuracy
                    ? QStringLiteral("The run settings' target accuracy is for runs: each cell "
                                     "times steps. Cells run to a target: devicebench-cli sweep "
                                     "--target-accuracy (docs/CLI.md).")
                    : QString(),
                false);
    Q_EMIT startSweepRequested(spec, folder()); // onSweepAccepted or onSweepRejected follows
    return true;
}

void SweepPanel::onSweepAccepted(int jobId, int total, const QString &sweepFolder) {
    m_jobId = jobId;
    m_skipped = 0;
    setFolder(sweepFolder);
    setRecords({});
    m_progressBar->setRange(0, std::max(total, 1));
    m_progressBar->setValue(0);
    m_progressBar->setTextVisible(true);
    SweepProgress progress;
    progress.total = total;
    progress.secondsLeft = std::nan("");
    m_progressLabel->setText(sweepProgressText(progress, false));
    Q_EMIT runningChanged(true);
    Q_EMIT statusMessage(QStringLiteral("Sweep of %1 cells into %2").arg(total).arg(sweepFolder),
                         false);
    updateButtons();
}

void SweepPanel::onCellStarted(int jobId, const SweepCell &cell, const SweepProgress &progress) {
    if (jobId != m_jobId)
        return;
    showProgress(progress);
    m_progressLabel->setText(sweepProgressText(progress, false) + QStringLiteral("\n") +
                             sweepCellText(cell));
}

void SweepPanel::onCellEnded(int jobId, const SweepCellRecord &record,
                             const SweepProgress &progress, bool /*resumed*/) {
    if (jobId != m_jobId)
        return;
    std::vector<SweepCellRecord> records = m_records;
    const auto same = std::find_if(records.begin(), records.end(), [&](const SweepCellRecord &r) {
        return r.cell.key() == record.cell.key();
    });
    if (same != records.end())
        *same = record;
    else
        records.push_back(record);
    setRecords(records);
    showProgress(progress);
    if (progress.done < progress.total)
        m_progressLabel->setText(sweepProgressText(progress, false));
}

void SweepPanel::showProgress(const SweepProgress &progress) {
    m_skipped = progress.skipped;
    if (progress.total > 0 && progress.total != m_progressBar->maximum())
        m_progressBar->setRange(0, progress.total); // the engine's count is the one
    m_progressBar->setValue(progress.done);
}

void SweepPanel::onSweepEnded(int jobId, const SweepOutcome &outcome, const QString &error) {
    if (jobId != m_jobId)
        return;
    m_jobId = 0;
    if (!outcome.records.empty())
        setRecords(outcome.records); // every ended cell, in grid order
    SweepProgress progress;
    progress.done = static_cast<int>(outcome.records.size());
    progress.total = m_progressBar->maximum();
    progress.skipped = m_skipped;
    QString text = sweepProgressText(progress, true, outcome.failedCells);
    if (outcome.status == RunStatus::Cancelled)
        text = QStringLiteral("Stopped: ") + text;
    m_progressLabel->setText(text);
    if (!error.isEmpty())
        showMessage(error, true);
    Q_EMIT statusMessage(QStringLiteral("Sweep ended: ") + text, !error.isEmpty());
    Q_EMIT runningChanged(false);
    updateButtons();
}

void SweepPanel::onSweepRejected(const QString &reason) {
    showMessage(QStringLiteral("Not started: ") + reason, true);
}

void SweepPanel::updateButtons() {
    const bool running = isRunning();
    m_runButton->setEnabled(!running && m_blockedReason.isEmpty());
    m_runButton->setToolTip(m_blockedReason.isEmpty()
                                ? QStringLiteral("Run every cell of the grid not yet finished in "
                                                 "the folder, one after another")
                                : m_blockedReason);
    m_stopButton->setEnabled(running);
    m_form->setEnabled(!running);
    m_folderEdit->setEnabled(!running);
    m_openFolderButton->setEnabled(!running);
    m_exportPngButton->setEnabled(!m_records.empty());
    m_exportCsvButton->setEnabled(!m_records.empty());
}

void SweepPanel::showMessage(const QString &text, bool error) {
    m_messageLabel->setText(text);
    m_messageLabel->setStyleSheet(error ? QStringLiteral("color: %1;").arg(errorColour(palette()))
                                        : QString());
    m_messageLabel->setVisible(!text.isEmpty());
}

QString SweepPanel::progressText() const {
    return m_progressLabel->text().section(QLatin1Char('\n'), 0, 0);
}

} // namespace devicebench
