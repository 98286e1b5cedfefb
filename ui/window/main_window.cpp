// SPDX-License-Identifier: MIT
#include "window/main_window.h"

#include "export/comparison_export.h"
#include "panels/charts_panel.h"
#include "panels/compare_panel.h"
#include "panels/epoch_table.h"
#include "panels/run_settings_panel.h"
#include "panels/scaling_panel.h"
#include "store/run_store.h"
#include "theme/appearance.h"
#include "theme/theme.h"

#include "devicebench/time_to_target.h"

#include <QCloseEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace devicebench {

namespace {

// The first split of the window, pixels: the settings' column (its boxes' texts whole) and the
// charts; on a smaller window the settings shrink to their least width first.
constexpr int kDefaultSettingsWidth = 440;
constexpr int kDefaultChartsWidth = 1100;

// Coalescing windows. Idle (imports, warm-up control): at most 25 redraws a second, so the
// window answers at once. During a run: at most 5 a second. A live curve needs no more, and
// every redraw is main-thread work on the machine whose speed is being measured
// (docs/PERFORMANCE.md, "Does the dashboard slow what it measures?").
constexpr int kRedrawIntervalMs = 40;
constexpr int kRunningRedrawIntervalMs = 200;

QString formatDuration(double seconds) {
    const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    const long long h = total / 3600;
    const long long m = (total % 3600) / 60;
    const long long s = total % 60;
    if (h > 0)
        return QStringLiteral("%1 h %2 min").arg(h).arg(m);
    if (m > 0)
        return QStringLiteral("%1 min %2 s").arg(m).arg(s);
    return QStringLiteral("%1 s").arg(s);
}

} // namespace

QString MainWindow::defaultRunsFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/runs");
}

MainWindow::MainWindow(QWidget *parent, const QString &runsFolder, RunsFolderRole role)
    : QMainWindow(parent), m_store(new RunStore(this)),
      m_gpuReason(QStringLiteral("Checking the GPU (the device probe is running)…")) {
    setWindowTitle(QStringLiteral("DeviceBench"));

    // ---- left: run buttons, settings, compare/export, run library; centre: the charts ----
    auto *main = new QSplitter(Qt::Horizontal, this);
    int leftWidth = 0;
    main->addWidget(buildLeftPane(runsFolder, role, &leftWidth));
    m_charts = new ChartsPanel(*m_store);
    main->addWidget(m_charts);
    main->setStretchFactor(0, 0);
    main->setStretchFactor(1, 1);
    main->setCollapsible(0, false);
    main->setSizes({std::max(leftWidth, kDefaultSettingsWidth), kDefaultChartsWidth});
    buildTabs(main);

    m_statusLabel = new QLabel;
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long message (e.g. every rejected file of an import) must not widen the window.
    m_statusLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_statusLabel->setMinimumWidth(1);
    statusBar()->addWidget(m_statusLabel, 1);

    connect(m_settings, &RunSettingsPanel::runRequested, this,
            [this](const QString &device) { startRun(device.toStdString()); });
    connect(m_settings, &RunSettingsPanel::runSetRequested, this, &MainWindow::startRunSet);
    connect(m_settings, &RunSettingsPanel::reproduceRequested, this,
            [this] { reproduceArticle(); });
    connect(m_settings, &RunSettingsPanel::stopRequested, this, [this] {
        if (!isRunning())
            return;
        setStatus(QStringLiteral("Stopping %1…").arg(runningWhat()), false);
        Q_EMIT stopRequested();
    });
    connect(m_settings, &RunSettingsPanel::diagnosticsRequested, this,
            &MainWindow::showDiagnostics);
    connect(m_settings, &RunSettingsPanel::getDataRequested, this, [this] { openFetchDialog(); });
    connect(m_settings, &RunSettingsPanel::archiveChosen, this,
            [this](const QString &file) { openFetchDialog(file); });
    connect(m_compare, &ComparePanel::statusMessage, this, &MainWindow::setStatus);
    m_compare->loadPublished(); // the article's table beside the runs
    connect(m_library, &RunLibraryPanel::statusMessage, this, &MainWindow::setStatus);

    buildActions();
    // The application icon from the resources (resources/icons/), also where no
    // QApplication::setWindowIcon was called (tests, embedding).
    setWindowIcon(theme::applicationIcon());
    connectCharts();

    m_redrawTimer.setSingleShot(true);
    m_redrawTimer.setInterval(kRedrawIntervalMs);
    connect(&m_redrawTimer, &QTimer::timeout, this, &MainWindow::redrawNow);
    connect(m_store, &RunStore::changed, this, &MainWindow::scheduleRedraw);

    setStatus(QStringLiteral("Ready. Choose the settings, then run on the CPU or the GPU."), false);
    m_library->loadSavedRuns();
    redrawNow();
    setMinimumSize(kMinimumWidth, kMinimumHeight);
    resize(1500, 950);
}

QWidget *MainWindow::buildLeftPane(const QString &runsFolder, RunsFolderRole role, int *width) {
    // The library sits under the scrolled settings in a splitter of its own, so that its list
    // and buttons stay in view on a short screen.
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    m_settings = new RunSettingsPanel(left);
    m_compare = new ComparePanel(*m_store, left);
    leftLayout->addWidget(m_settings);
    leftLayout->addWidget(m_compare);
    leftLayout->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setWidget(left);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As narrow as the settings can be (their boxes shrink), not as wide as they like to be:
    // the splitter gives them that width where the window has it.
    scroll->setMinimumWidth(std::max(300, left->minimumSizeHint().width() + 24));
    *width = left->sizeHint().width() + 24;
    m_library = new RunLibraryPanel(*m_store, runsFolder, nullptr, role);
    auto *leftColumn = new QSplitter(Qt::Vertical);
    leftColumn->addWidget(scroll);
    leftColumn->addWidget(m_library);
    leftColumn->setStretchFactor(0, 3);
    leftColumn->setStretchFactor(1, 1);
    leftColumn->setCollapsible(0, false);
    leftColumn->setCollapsible(1, false);
    // The run buttons above it all, pinned: the settings scroll beneath them.
    auto *pane = new QWidget;
    auto *paneLayout = new QVBoxLayout(pane);
    paneLayout->setContentsMargins(0, 0, 0, 0);
    paneLayout->addWidget(m_settings->takeActionBar());
    paneLayout->addWidget(leftColumn, 1);
    return pane;
}

MainWindow::~MainWindow() = default;

const QString &MainWindow::runsFolder() const { return m_library->runsFolder(); }
LossChart *MainWindow::lossChart() const { return m_charts->lossChart(); }
SpeedChart *MainWindow::speedChart() const { return m_charts->speedChart(); }

RunConfig MainWindow::runConfig(const std::string &device) const {
    return m_settings->runConfig(device);
}

void MainWindow::setRunConfig(const RunConfig &config) { m_settings->setRunConfig(config); }

bool MainWindow::isRunning() const { return m_store->isRunGoing(); }

int MainWindow::activeJobId() const { return m_store->followedRun(); }

RunRequest MainWindow::runRequest(const std::string &device) const {
    RunRequest request;
    request.config = runConfig(device);
    request.recordsFolder = runsFolder().toStdString();
    request.tensorBoardFolder = m_settings->tensorBoardDir().toStdString();
    return request;
}

void MainWindow::startRun(const std::string &device) {
    Q_EMIT startRunRequested(runRequest(device));
}

void MainWindow::startRunSet(const std::vector<RunSetItem> &items, bool interleave) {
    std::vector<RunRequest> requests;
    for (const RunSetItem &item : items) {
        requests.push_back(runRequest(item.device));
        if (item.threads > 0)
            requests.back().config.threads = item.threads;
    }
    Q_EMIT startRunSetRequested(requests, interleave);
}

void MainWindow::onRunSetAccepted(int firstJobId, int runs, bool interleaved) {
    m_store->acceptRunSet(firstJobId, runs, interleaved);
    if (m_reproductionSent)
        m_store->setBaseline(firstJobId); // the script run, as `reproduce` makes it
    m_reproductionSent = false;
}

void MainWindow::onRunAccepted(int jobId, const RunRequest &request) {
    const bool first = !isRunning();
    m_store->acceptRun(jobId);
    if (!first)
        return;                   // a later run of the set: the status bar follows the first
    m_settings->showProblems({}); // those of an earlier refused request
    const QString set = runSetText();
    setStatus(QStringLiteral("%1Run #%2 on %3: loading data and building the model…")
                  .arg(set.isEmpty() ? QString() : set + QStringLiteral(" · "))
                  .arg(jobId)
                  .arg(QString::fromStdString(request.config.device)),
              false);
    updateButtons();
}

QString MainWindow::runSetText() const {
    const RunStore::LiveSet &set = m_store->liveSet();
    if (set.runs <= 1)
        return {};
    return QStringLiteral("Run set: %1 runs %2")
        .arg(set.runs)
        .arg(set.interleaved ? QStringLiteral("interleaved") : QStringLiteral("one after another"));
}

QString MainWindow::runningWhat() const {
    return m_store->liveSet().runs > 1 ? QStringLiteral("the run set")
                                       : QStringLiteral("run #%1").arg(activeJobId());
}

void MainWindow::onRecordStarted(int jobId, const RunRecord &record) {
    if (RecordObserver *run = m_store->liveRun(jobId))
        run->onRecordStarted(record);
    m_library->clearSaveError(); // a failure of this run's writes is said again
}

void MainWindow::onRunStarted(int jobId, const RunConfig & /*config*/, const RunStarted &info) {
    if (!info.precisionNote.empty() && m_store->liveRun(jobId) != nullptr)
        setStatus(QStringLiteral("Run #%1 on %2: %3")
                      .arg(jobId)
                      .arg(QString::fromStdString(info.device),
                           QString::fromStdString(info.precisionNote)),
                  false);
}

void MainWindow::onSystemSamples(int jobId, const std::vector<SystemSample> &samples) {
    if (RecordObserver *run = m_store->liveRun(jobId))
        run->onSystemSamples(samples);
}

void MainWindow::onStepLosses(int jobId, const std::vector<StepLoss> &losses) {
    if (RecordObserver *run = m_store->liveRun(jobId))
        run->onStepLosses(losses);
}

void MainWindow::onEpochFinished(int jobId, const EpochResult &epoch) {
    if (RecordObserver *run = m_store->liveRun(jobId))
        run->onEpochFinished(epoch);
}

void MainWindow::onRunEnded(int jobId, const RecordedRun &run) {
    const bool shown = m_store->finishRun(jobId, run); // false: it ended before it started
    if (!run.recordError.empty())
        m_library->reportSaveError(jobId, QString::fromStdString(run.recordError));
    if (!run.eventError.empty()) // under the run buttons, where the end's status stays
        m_settings->showProblems(
            {QStringLiteral("Run #%1: %2").arg(jobId).arg(QString::fromStdString(run.eventError))});
    redrawNow();
    showRunEnd(jobId, run.outcome);
    // Progress lines replaced the save error during the run: the end says it again.
    if (!m_library->saveError().isEmpty() && shown)
        setStatus(m_statusLabel->text() + QStringLiteral(" · not saved: ") + m_library->saveError(),
                  true);
    updateButtons();
    if (m_closeRequested)
        QTimer::singleShot(0, this, &QWidget::close);
}

void MainWindow::showRunEnd(int jobId, const RunOutcome &outcome) {
    const QString reason = QString::fromStdString(outcome.reason);
    switch (outcome.status) {
    case RunStatus::Finished: {
        const StoredRun *run = m_store->findRun(jobId);
        const TargetResult target =
            run == nullptr ? TargetResult{}
                           : timeToTarget(run->record.epochs, run->record.config.targetAccuracy);
        if (target.set) // a run to a target: how soon, or that it did not get there
            setStatus(QStringLiteral("Run #%1 finished: %2")
                          .arg(jobId)
                          .arg(QString::fromStdString(describeTarget(target))),
                      false);
        else if (run != nullptr && run->summary.hasStable)
            setStatus(
                QStringLiteral("Run #%1 finished: stable mean %2 s/epoch")
                    .arg(jobId)
                    .arg(run->summary.stableMean, 0, 'f', run->summary.stableMean < 10 ? 2 : 1),
                false);
        else
            setStatus(QStringLiteral("Run #%1 finished (no epochs after warm-up: no stable mean)")
                          .arg(jobId),
                      false);
        return;
    }
    case RunStatus::Cancelled:
        setStatus(QStringLiteral("Run #%1 cancelled%2")
                      .arg(jobId)
                      .arg(reason.isEmpty() ? QString() : QStringLiteral(": ") + reason),
                  false);
        return;
    case RunStatus::Diverged:
    case RunStatus::Failed: {
        const QString what = outcome.status == RunStatus::Diverged ? QStringLiteral("diverged")
                                                                   : QStringLiteral("failed");
        setStatus(QStringLiteral("Run #%1 %2: %3").arg(jobId).arg(what, reason), true);
        if (!m_closeRequested) {
            // Non-blocking, so that the event loop (and any test driving it) keeps running.
            auto *box = new QMessageBox(QMessageBox::Warning, QStringLiteral("DeviceBench"),
                                        QStringLiteral("Run #%1 %2.").arg(jobId).arg(what),
                                        QMessageBox::Ok, this);
            box->setObjectName(QStringLiteral("runFailedBox"));
            box->setInformativeText(reason);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        return;
    }
    }
}

void MainWindow::onRunRejected(const QStringList &reasons) {
    m_reproductionSent = false; // a refused reproduction sets no baseline later
    refuse(reasons);
}

void MainWindow::scheduleRedraw() {
    // Throttle, not debounce: a steady stream of changes still redraws every interval.
    if (!m_redrawTimer.isActive())
        m_redrawTimer.start(isRunning() ? kRunningRedrawIntervalMs : kRedrawIntervalMs);
}

void MainWindow::redrawNow() {
    m_redrawTimer.stop();
    m_charts->sync(isRunning());
    m_compare->syncRuns();
    m_library->syncRuns(activeJobId());
    m_scaling->sync();
    updateProgressText();
    updateButtons();
}

// The status bar while runs go: the followed run's progress, from its live record (epochs,
// steps and their times on the recorder's clock), and the time left at its pace so far.
void MainWindow::updateProgressText() {
    const StoredRun *run = m_store->findRun(activeJobId());
    if (run == nullptr || run->state != RunState::Running || m_closeRequested)
        return;
    const RunRecord &r = run->record;
    const std::int64_t stepsPerEpoch = r.started.stepsPerEpoch;
    if (stepsPerEpoch <= 0)
        return;
    const int epochs = r.config.epochs;
    const int finished = static_cast<int>(r.epochs.size());
    const int lastEpoch = r.steps.empty() ? 0 : r.steps.back().epoch;
    const std::int64_t lastStep = r.steps.empty() ? 0 : r.steps.back().step;
    const QString set = runSetText();
    QString text =
        (set.isEmpty() ? QString() : set + QStringLiteral(" · ")) +
        QStringLiteral("Run #%1 on %2").arg(run->id).arg(QString::fromStdString(r.started.device));
    const int epoch = std::max(1, std::max(lastEpoch, std::min(finished + 1, epochs)));
    const std::int64_t stepInEpoch =
        lastEpoch == epoch ? lastStep - (epoch - 1) * stepsPerEpoch : 0;
    text += QStringLiteral(" · epoch %1/%2 · step %3/%4")
                .arg(epoch)
                .arg(epochs)
                .arg(stepInEpoch)
                .arg(stepsPerEpoch);
    const double total = static_cast<double>(epochs) * static_cast<double>(stepsPerEpoch);
    const double done = std::max(static_cast<double>(finished) * static_cast<double>(stepsPerEpoch),
                                 static_cast<double>(lastStep));
    const double elapsed = r.steps.empty() ? 0.0 : r.steps.back().seconds;
    if (done > 0.0 && total > 0.0 && elapsed > 0.0) {
        // Of an interleaved run: its clock also counts the other runs' turns, so this is
        // roughly the set's time left.
        const double left = elapsed * (total - done) / done;
        text += QStringLiteral(" · about %1 left").arg(formatDuration(left));
    }
    if (!r.started.precisionNote.empty())
        text += QStringLiteral(" · ") + QString::fromStdString(r.started.precisionNote);
    setStatus(text, false);
}

void MainWindow::updateButtons() {
    m_settings->setRunState(isRunning(), m_gpuReason);
    m_compare->setExportEnabled(!isRunning() && !epochRows(*m_store).empty());
    syncSweepButtons();
    syncActions();
}

void MainWindow::setStatus(const QString &text, bool error) {
    m_statusLabel->setText(text);
    m_statusLabel->setToolTip(text);
    m_statusLabel->setStyleSheet(error ? QStringLiteral("color: %1;").arg(errorColour(palette()))
                                       : QString());
}

void MainWindow::closeEvent(QCloseEvent *event) {
    if (isRunning()) {
        // Stop, and close once the run has ended (within one training step): the event loop
        // keeps running meanwhile, so the window stays responsive and onRunEnded is delivered.
        m_closeRequested = true;
        setStatus(QStringLiteral("Stopping %1 before closing…").arg(runningWhat()), false);
        Q_EMIT stopRequested();
        event->ignore();
        return;
    }
    if (stopSweepBeforeClose()) {
        event->ignore();
        return;
    }
    event->accept();
}

} // namespace devicebench
