// SPDX-License-Identifier: MIT
#include "main_window.h"

#include "charts.h"
#include "comparison_export.h"
#include "desktop.h"
#include "fetch_dialog.h"
#include "epoch_table.h"
#include "run_controller.h"
#include "run_store.h"
#include "theme.h"

#include "devicebench/comparison.h"
#include "devicebench/data_location.h"
#include "devicebench/devices.h"
#include "devicebench/probe.h"
#include "devicebench/fingerprint.h"
#include "devicebench/run_record.h"
#include "devicebench/trainer.h"

#include <QChartView>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPair>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

namespace devicebench {

namespace {

// Coalescing windows. Idle (imports, warm-up control): at most 25 redraws a second, so the
// window answers at once. During a run: at most 5 a second. A live curve needs no more, and
// every redraw is main-thread work on the machine whose speed is being measured
// (docs/PERFORMANCE.md, "Dashboard overhead").
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

QSpinBox *makeSpin(QWidget *parent, const char *name, int min, int max, int value,
                   const QString &tip) {
    auto *spin = new QSpinBox(parent);
    spin->setObjectName(QString::fromUtf8(name));
    spin->setRange(min, max);
    spin->setValue(value);
    spin->setToolTip(tip);
    spin->setGroupSeparatorShown(true);
    return spin;
}

QString html(const std::string &text) { return QString::fromStdString(text).toHtmlEscaped(); }

QString orDash(const std::string &text) { return text.empty() ? QStringLiteral("–") : html(text); }

// This machine's fingerprint and the device list with each probe's result, as one HTML page.
QString diagnosticsHtml() {
    const Fingerprint f = collectFingerprint();
    QString page = QStringLiteral("<h3>This machine</h3><table cellspacing=\"0\" "
                                  "cellpadding=\"3\">");
    auto row = [&page](const QString &name, const QString &value) {
        page += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(name, value);
    };
    row(QStringLiteral("host"), orDash(f.hostName));
    row(QStringLiteral("OS"), orDash(f.os));
    row(QStringLiteral("CPU"), orDash(f.cpuModel));
    row(QStringLiteral("cores"),
        QStringLiteral("%1 physical, %2 logical").arg(f.physicalCores).arg(f.logicalCores));
    row(QStringLiteral("CPU quota (cgroup cpu.max)"),
        f.cpuQuota.empty()
            ? QStringLiteral("none found")
            : html(f.cpuQuota) +
                  (f.cpuQuotaCores > 0.0
                       ? QStringLiteral(" (%1 cores)").arg(f.cpuQuotaCores, 0, 'f', 2)
                       : QStringLiteral(" (unlimited)")));
    row(QStringLiteral("affinity"),
        QStringLiteral("%1 (%2 CPUs)").arg(orDash(f.affinity)).arg(f.affinityCount));
    row(QStringLiteral("OMP_NUM_THREADS"),
        f.ompNumThreads.empty() ? QStringLiteral("unset") : html(f.ompNumThreads));
    row(QStringLiteral("intra-op threads"), QString::number(f.intraOpThreads));
    row(QStringLiteral("BLAS"), orDash(f.blasLibrary));
    row(QStringLiteral("LibTorch"), orDash(f.libtorchVersion));
    row(QStringLiteral("CUDA built"), f.cudaBuilt ? QStringLiteral("yes") : QStringLiteral("no"));
    row(QStringLiteral("CUDA runtime"), orDash(f.cudaRuntimeVersion));
    row(QStringLiteral("cuDNN"), orDash(f.cudnnVersion));
    row(QStringLiteral("driver"), orDash(f.driverVersion));
    row(QStringLiteral("cuDNN benchmark"),
        f.cudnnBenchmark ? QStringLiteral("on") : QStringLiteral("off"));
    if (f.gpus.empty())
        row(QStringLiteral("GPUs"), QStringLiteral("none reported by a CUDA driver"));
    for (const GpuInfo &gpu : f.gpus)
        row(QStringLiteral("GPU %1").arg(gpu.index),
            QStringLiteral("%1, compute capability %2.%3, %4 GiB")
                .arg(html(gpu.name))
                .arg(gpu.computeMajor)
                .arg(gpu.computeMinor)
                .arg(static_cast<double>(gpu.memoryBytes) / (1024.0 * 1024.0 * 1024.0), 0, 'f', 1));
    row(QStringLiteral("DeviceBench"), orDash(f.appVersion));
    page += QStringLiteral("</table>");

    page +=
        QStringLiteral(
            "<h3>Devices</h3><p>Each device runs a real convolution forward and backward and is "
            "compared with the CPU (relative error under %1) before a run may use it.</p>"
            "<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\"><tr><th>device</th>"
            "<th>name</th><th>probe</th><th>time</th><th>relative error</th><th>reason</th></tr>")
            .arg(kProbeTolerance);
    const theme::Theme shade = theme::themeOf(QGuiApplication::palette()); // light/dark text
    for (const DeviceInfo &d : listDevices()) {
        const bool probed = !d.probe.device.empty();
        page +=
            QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td>"
                           "<td>%6</td></tr>")
                .arg(html(d.id), html(d.name),
                     d.usable ? QStringLiteral("<span style=\"color:%1\">usable</span>")
                                    .arg(theme::colourName(theme::Role::OkText, shade))
                              : QStringLiteral("<span style=\"color:%1\"><b>unusable</b></span>")
                                    .arg(theme::colourName(theme::Role::ErrorText, shade)),
                     probed ? QStringLiteral("%1 ms").arg(d.probe.seconds * 1000.0, 0, 'f', 1)
                            : QStringLiteral("not run"),
                     probed ? QString::number(d.probe.relativeError, 'g', 2) : QStringLiteral("–"),
                     d.usable ? QString() : html(d.reason));
    }
    page += QStringLiteral("</table>");
    return page;
}

int clampToInt(std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, 0, INT_MAX)); }

} // namespace

QString MainWindow::defaultRunsFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/runs");
}

MainWindow::MainWindow(RunController &controller, QWidget *parent, const QString &runsFolder)
    : QMainWindow(parent), m_controller(controller), m_store(new RunStore(this)),
      m_runsFolder(runsFolder) {
    setWindowTitle(QStringLiteral("DeviceBench"));
    m_cudaReason = QString::fromStdString(cudaUnavailableReason());
    if (m_cudaReason.isEmpty()) {
        // "CUDA is available" is not enough (MEASURING.md, lesson 3): offer the GPU only after
        // a real convolution forward and backward on it agreed with the CPU.
        const ProbeResult probe = probeDevice("cuda");
        if (!probe.usable) {
            m_cudaReason = QStringLiteral("The GPU failed its probe (a convolution forward and "
                                          "backward checked against the CPU): ") +
                           QString::fromStdString(probe.error);
        }
    }
    buildUi();
    buildActions();
    connectController();

    m_redrawTimer.setSingleShot(true);
    m_redrawTimer.setInterval(kRedrawIntervalMs);
    connect(&m_redrawTimer, &QTimer::timeout, this, &MainWindow::redrawNow);
    connect(m_store, &RunStore::changed, this, &MainWindow::scheduleRedraw);

    setStatus(QStringLiteral("Ready. Choose the settings, then run on the CPU or the GPU."), false);
    loadSavedRuns();
    redrawNow();
    resize(1500, 950);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildUi() {
    // ---- left: run settings ------------------------------------------------------------
    auto *settings = new QWidget;
    auto *settingsLayout = new QVBoxLayout(settings);

    auto *dataBox = new QGroupBox(QStringLiteral("Data"), settings);
    auto *dataLayout = new QVBoxLayout(dataBox);
    auto *dirRow = new QHBoxLayout;
    m_dataDirEdit = new QLineEdit(dataBox);
    m_dataDirEdit->setObjectName(QStringLiteral("dataDirEdit"));
    m_dataDirEdit->setPlaceholderText(QStringLiteral("cifar-10-batches-bin folder"));
    m_dataDirEdit->setToolTip(QString::fromStdString(dataDirHelp()));
    if (const auto dir = findDefaultDataDir())
        m_dataDirEdit->setText(QString::fromStdString(*dir));
    m_browseButton = new QPushButton(QStringLiteral("Browse…"), dataBox);
    m_browseButton->setObjectName(QStringLiteral("browseButton"));
    dirRow->addWidget(m_dataDirEdit, 1);
    dirRow->addWidget(m_browseButton);
    dataLayout->addLayout(dirRow);
    auto *fetchRow = new QHBoxLayout;
    auto *getDataButton = new QPushButton(QStringLiteral("Get CIFAR-10…"), dataBox);
    getDataButton->setObjectName(QStringLiteral("getDataButton"));
    getDataButton->setToolTip(QStringLiteral("Download the CIFAR-10 binary archive (170 MB), "
                                             "check it and unpack it"));
    auto *openArchiveButton = new QPushButton(QStringLiteral("Open archive…"), dataBox);
    openArchiveButton->setObjectName(QStringLiteral("openArchiveButton"));
    openArchiveButton->setToolTip(
        QStringLiteral("Unpack a cifar-10-binary.tar.gz already downloaded"));
    fetchRow->addWidget(getDataButton);
    fetchRow->addWidget(openArchiveButton);
    fetchRow->addStretch(1);
    dataLayout->addLayout(fetchRow);
    connect(getDataButton, &QPushButton::clicked, this, [this] { openFetchDialog(); });
    connect(openArchiveButton, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, QStringLiteral("CIFAR-10 binary archive"), QDir::homePath(),
            QStringLiteral("CIFAR-10 archive (*.tar.gz *.tgz);;All files (*)"));
        if (!file.isEmpty())
            openFetchDialog(file);
    });
    m_syntheticCheck = new QCheckBox(QStringLiteral("Synthetic data"), dataBox);
    m_syntheticCheck->setObjectName(QStringLiteral("syntheticCheck"));
    m_syntheticCheck->setToolTip(
        QStringLiteral("CIFAR-shaped generated data: times are real, accuracy is meaningless"));
    dataLayout->addWidget(m_syntheticCheck);
    auto *tensorBoardRow = new QHBoxLayout;
    m_tensorBoardEdit = new QLineEdit(dataBox);
    m_tensorBoardEdit->setObjectName(QStringLiteral("tensorBoardEdit"));
    m_tensorBoardEdit->setPlaceholderText(QStringLiteral("TensorBoard log folder (empty: none)"));
    m_tensorBoardEdit->setToolTip(
        QStringLiteral("Each run writes a TensorBoard event file in a folder of its own here, "
                       "flushed after every epoch. View with: tensorboard --logdir FOLDER"));
    auto *tensorBoardBrowse = new QPushButton(QStringLiteral("Browse…"), dataBox);
    tensorBoardBrowse->setObjectName(QStringLiteral("tensorBoardBrowseButton"));
    connect(tensorBoardBrowse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, QStringLiteral("TensorBoard log folder"),
            m_tensorBoardEdit->text().isEmpty() ? QDir::homePath() : m_tensorBoardEdit->text());
        if (!dir.isEmpty())
            m_tensorBoardEdit->setText(QDir::toNativeSeparators(dir));
    });
    tensorBoardRow->addWidget(m_tensorBoardEdit, 1);
    tensorBoardRow->addWidget(tensorBoardBrowse);
    dataLayout->addLayout(tensorBoardRow);
    settingsLayout->addWidget(dataBox);

    auto *trainBox = new QGroupBox(QStringLiteral("Training"), settings);
    auto *form = new QFormLayout(trainBox);
    m_epochsSpin = makeSpin(trainBox, "epochsSpin", 1, 1000, kDefaultEpochs,
                            QStringLiteral("Epochs to train (article: 10)"));
    m_batchSizeSpin = makeSpin(trainBox, "batchSizeSpin", 1, 65536, kDefaultBatchSize,
                               QStringLiteral("Images per training step (article: 64)"));
    m_learningRateSpin = new QDoubleSpinBox(trainBox);
    m_learningRateSpin->setObjectName(QStringLiteral("learningRateSpin"));
    m_learningRateSpin->setDecimals(4);
    m_learningRateSpin->setRange(0.0001, 10.0);
    m_learningRateSpin->setSingleStep(0.001);
    m_learningRateSpin->setValue(kDefaultLearningRate);
    m_learningRateSpin->setToolTip(QStringLiteral("SGD step size, no momentum (article: 0.01)"));
    m_warmupSpin = makeSpin(trainBox, "warmupSpin", 0, 999, kDefaultWarmupEpochs,
                            QStringLiteral("First epochs flagged warm-up and left out of the "
                                           "stable mean (article: 2)"));
    const int cores = availableCores();
    m_threadsSpin =
        makeSpin(trainBox, "threadsSpin", 1, std::max(256, cores), cores,
                 QStringLiteral("CPU intra-op threads (this process may use %1 cores)").arg(cores));
    m_seedSpin = makeSpin(trainBox, "seedSpin", 0, INT_MAX, static_cast<int>(kDefaultSeed),
                          QStringLiteral("Seed of the initial weights (same on every device)"));
    m_seedSpin->setGroupSeparatorShown(false);
    m_trainImagesSpin = makeSpin(trainBox, "trainImagesSpin", 0, 50000, 0,
                                 QStringLiteral("Use only the first N training images"));
    m_trainImagesSpin->setSpecialValueText(QStringLiteral("all (50,000)"));
    m_testImagesSpin = makeSpin(trainBox, "testImagesSpin", 0, 10000, 0,
                                QStringLiteral("Use only the first N test images"));
    m_testImagesSpin->setSpecialValueText(QStringLiteral("all (10,000)"));
    form->addRow(QStringLiteral("Epochs"), m_epochsSpin);
    form->addRow(QStringLiteral("Batch size"), m_batchSizeSpin);
    form->addRow(QStringLiteral("Learning rate"), m_learningRateSpin);
    form->addRow(QStringLiteral("Warm-up epochs"), m_warmupSpin);
    form->addRow(QStringLiteral("CPU threads"), m_threadsSpin);
    form->addRow(QStringLiteral("Seed"), m_seedSpin);
    form->addRow(QStringLiteral("Training images"), m_trainImagesSpin);
    form->addRow(QStringLiteral("Test images"), m_testImagesSpin);
    m_workloadCombo = new QComboBox(trainBox);
    m_workloadCombo->setObjectName(QStringLiteral("workloadCombo"));
    m_workloadCombo->addItem(QStringLiteral("faithful (the article's)"),
                             QString::fromUtf8(toString(Workload::Faithful)));
    m_workloadCombo->addItem(QStringLiteral("tuned (fastest measured)"),
                             QString::fromUtf8(toString(Workload::Tuned)));
    m_workloadCombo->setToolTip(
        QStringLiteral("faithful: the article's computation. tuned: the same training, same "
                       "results within float tolerance, computed the fastest way measured "
                       "(channels-last, no per-step allocation, ...). Runs of different "
                       "workloads are flagged as not comparable."));
    form->addRow(QStringLiteral("Workload"), m_workloadCombo);
    settingsLayout->addWidget(trainBox);

    m_runCpuButton = new QPushButton(QStringLiteral("Run on CPU"), settings);
    m_runCpuButton->setObjectName(QStringLiteral("runCpuButton"));
    m_runGpuButton = new QPushButton(QStringLiteral("Run on GPU"), settings);
    m_runGpuButton->setObjectName(QStringLiteral("runGpuButton"));
    m_runGpuButton->setToolTip(
        m_cudaReason.isEmpty() ? QStringLiteral("Train on the first CUDA device") : m_cudaReason);
    m_stopButton = new QPushButton(QStringLiteral("Stop"), settings);
    m_stopButton->setObjectName(QStringLiteral("stopButton"));
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_runCpuButton);
    runRow->addWidget(m_runGpuButton);
    settingsLayout->addLayout(runRow);
    settingsLayout->addWidget(m_stopButton);

    m_validationLabel = new QLabel(settings);
    m_validationLabel->setObjectName(QStringLiteral("validationLabel"));
    m_validationLabel->setWordWrap(true);
    m_validationLabel->setStyleSheet(QStringLiteral("color: %1;").arg(errorColour(palette())));
    m_validationLabel->hide();
    settingsLayout->addWidget(m_validationLabel);

    settingsLayout->addSpacing(12);
    m_exportPngButton = new QPushButton(QStringLiteral("Export PNG…"), settings);
    m_exportPngButton->setObjectName(QStringLiteral("exportPngButton"));
    m_exportCsvButton = new QPushButton(QStringLiteral("Export CSV…"), settings);
    m_exportCsvButton->setObjectName(QStringLiteral("exportCsvButton"));
    m_exportCsvButton->setToolTip(
        QStringLiteral("Writes FILE.csv (one row per epoch) and FILE-summary.csv beside it "
                       "(one row per run: statistics, speed-up, comparability, fingerprint)"));
    auto *exportRow = new QHBoxLayout;
    exportRow->addWidget(m_exportPngButton);
    exportRow->addWidget(m_exportCsvButton);

    auto *compareBox = new QGroupBox(QStringLiteral("Compare"), settings);
    auto *compareLayout = new QVBoxLayout(compareBox);
    m_importButton = new QPushButton(QStringLiteral("Import runs…"), compareBox);
    m_importButton->setObjectName(QStringLiteral("importButton"));
    m_importButton->setToolTip(QStringLiteral(
        "Add run records (JSON) made elsewhere, e.g. by devicebench-cli run --record on a "
        "cloud GPU box"));
    compareLayout->addWidget(m_importButton);
    auto *compareForm = new QFormLayout;
    m_compareWarmupSpin = makeSpin(compareBox, "compareWarmupSpin", -1, 999, -1,
                                   QStringLiteral("Warm-up epochs left out of every run's stable "
                                                  "mean; re-derives everything without "
                                                  "re-running"));
    m_compareWarmupSpin->setSpecialValueText(QStringLiteral("each run's own"));
    m_baselineCombo = new QComboBox(compareBox);
    m_baselineCombo->setObjectName(QStringLiteral("baselineCombo"));
    m_baselineCombo->setToolTip(
        QStringLiteral("Speed-ups are this run's stable mean over each run's; runs whose "
                       "workload differs from it are flagged not comparable"));
    m_baselineCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_baselineCombo->setMinimumContentsLength(14);
    m_baselineCombo->addItem(QStringLiteral("slowest run"), 0);
    compareForm->addRow(QStringLiteral("Warm-up epochs"), m_compareWarmupSpin);
    compareForm->addRow(QStringLiteral("Baseline"), m_baselineCombo);
    compareLayout->addLayout(compareForm);
    compareLayout->addLayout(exportRow);
    auto *exportNote = new QLabel(
        QStringLiteral("Export CSV writes FILE.csv (per epoch) and FILE-summary.csv (per run)."),
        compareBox);
    exportNote->setWordWrap(true);
    exportNote->setForegroundRole(QPalette::PlaceholderText); // muted on light and dark
    compareLayout->addWidget(exportNote);
    m_diagnosticsButton = new QPushButton(QStringLiteral("Diagnostics…"), compareBox);
    m_diagnosticsButton->setObjectName(QStringLiteral("diagnosticsButton"));
    m_diagnosticsButton->setToolTip(
        QStringLiteral("This machine's fingerprint and every device with its probe result"));
    compareLayout->addWidget(m_diagnosticsButton);
    settingsLayout->addWidget(compareBox);
    settingsLayout->addStretch(1);

    // Menus and keyboard shortcuts: buildActions() (main_window_desktop.cpp).

    auto *scroll = new QScrollArea;
    scroll->setWidget(settings);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(std::max(300, settings->sizeHint().width() + 24));

    // ---- centre: charts and table ------------------------------------------------------
    m_lossChart = new LossChart;
    m_lossView = new QChartView(m_lossChart); // the view owns the chart
    m_lossView->setObjectName(QStringLiteral("lossChartView"));
    m_lossView->setRenderHint(QPainter::Antialiasing);
    m_lossView->setMinimumHeight(280);

    m_speedChart = new SpeedChart;
    m_barView = new QChartView(m_speedChart);
    m_barView->setObjectName(QStringLiteral("barChartView"));
    m_barView->setRenderHint(QPainter::Antialiasing);
    m_barView->setMinimumSize(480, 260);

    m_tableModel = new EpochTableModel(*m_store, this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("epochTable"));
    m_table->setModel(m_tableModel);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false); // labels stay on one line
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);

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
    barLayout->addWidget(m_barView, 1);
    barLayout->addWidget(m_controlLabel);

    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(barPane);
    bottom->addWidget(m_table);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({680, 560});

    auto *centre = new QSplitter(Qt::Vertical);
    centre->addWidget(m_lossView);
    centre->addWidget(bottom);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 2);
    centre->setSizes({520, 380});

    auto *main = new QSplitter(Qt::Horizontal);
    main->addWidget(scroll);
    main->addWidget(centre);
    main->setStretchFactor(0, 0);
    main->setStretchFactor(1, 1);
    main->setCollapsible(0, false);
    setCentralWidget(main);

    m_statusLabel = new QLabel;
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long message (e.g. every rejected file of an import) must not widen the window.
    m_statusLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_statusLabel->setMinimumWidth(1);
    statusBar()->addWidget(m_statusLabel, 1);

    connect(m_browseButton, &QPushButton::clicked, this, &MainWindow::browseDataDir);
    connect(m_syntheticCheck, &QCheckBox::toggled, this, [this](bool synthetic) {
        m_dataDirEdit->setEnabled(!synthetic);
        m_browseButton->setEnabled(!synthetic);
    });
    connect(m_runCpuButton, &QPushButton::clicked, this, [this] { startRun("cpu"); });
    connect(m_runGpuButton, &QPushButton::clicked, this, [this] { startRun("cuda"); });
    connect(m_stopButton, &QPushButton::clicked, this, [this] {
        m_controller.stop();
        setStatus(QStringLiteral("Stopping run #%1…").arg(m_controller.currentRunId()), false);
    });
    connect(m_exportPngButton, &QPushButton::clicked, this, &MainWindow::exportPngInteractive);
    connect(m_exportCsvButton, &QPushButton::clicked, this, &MainWindow::exportCsvInteractive);
    connect(m_importButton, &QPushButton::clicked, this, &MainWindow::importInteractive);
    connect(m_diagnosticsButton, &QPushButton::clicked, this, &MainWindow::showDiagnostics);
    connect(m_compareWarmupSpin, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int value) { m_store->setWarmupEpochs(value); });
    connect(m_baselineCombo, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int index) {
                if (index >= 0)
                    m_store->setBaseline(m_baselineCombo->itemData(index).toInt());
            });
}

void MainWindow::connectController() {
    connect(&m_controller, &RunController::runStarted, this, &MainWindow::onRunStarted);
    connect(&m_controller, &RunController::stepLosses, this, &MainWindow::onStepLosses);
    connect(&m_controller, &RunController::epochFinished, this, &MainWindow::onEpochFinished);
    connect(&m_controller, &RunController::runEnded, this, &MainWindow::onRunEnded);
    connect(&m_controller, &RunController::runRejected, this, &MainWindow::onRunRejected);
    // Shown under the run buttons, where the end-of-run status does not overwrite it.
    connect(&m_controller, &RunController::tensorBoardFailed, this,
            [this](int runId, const QString &message) {
                m_validationLabel->setText(QStringLiteral("Run #%1: %2").arg(runId).arg(message));
                m_validationLabel->show();
            });
}

RunConfig MainWindow::runConfig(const std::string &device) const {
    RunConfig config;
    config.device = device;
    config.epochs = m_epochsSpin->value();
    config.batchSize = m_batchSizeSpin->value();
    config.learningRate = m_learningRateSpin->value();
    config.warmupEpochs = m_warmupSpin->value();
    config.threads = m_threadsSpin->value();
    config.seed = static_cast<std::uint64_t>(m_seedSpin->value());
    config.dataDir = m_dataDirEdit->text().trimmed().toStdString();
    config.synthetic = m_syntheticCheck->isChecked();
    config.trainImages = m_trainImagesSpin->value();
    config.testImages = m_testImagesSpin->value();
    parseWorkload(m_workloadCombo->currentData().toString().toStdString(), &config.workload);
    return config;
}

void MainWindow::setRunConfig(const RunConfig &config) {
    m_epochsSpin->setValue(config.epochs);
    m_batchSizeSpin->setValue(config.batchSize);
    m_learningRateSpin->setValue(config.learningRate);
    m_warmupSpin->setValue(config.warmupEpochs);
    m_threadsSpin->setValue(config.threads > 0 ? config.threads : availableCores());
    m_seedSpin->setValue(static_cast<int>(std::min<std::uint64_t>(config.seed, INT_MAX)));
    m_dataDirEdit->setText(QString::fromStdString(config.dataDir));
    m_syntheticCheck->setChecked(config.synthetic);
    m_trainImagesSpin->setValue(clampToInt(config.trainImages));
    m_workloadCombo->setCurrentIndex(
        m_workloadCombo->findData(QString::fromUtf8(toString(config.workload))));
    m_testImagesSpin->setValue(clampToInt(config.testImages));
}

int MainWindow::startRun(const std::string &device) {
    if (m_controller.isRunning()) {
        onRunRejected(QStringLiteral("Run #%1 is still going.").arg(m_controller.currentRunId()));
        return 0;
    }
    const RunConfig config = runConfig(device);
    QStringList problems;
    for (const std::string &message : validateRunConfig(config))
        problems.append(QString::fromStdString(message));
    if (!config.synthetic && config.dataDir.empty())
        problems.append(QStringLiteral("data folder is empty: choose the cifar-10-batches-bin "
                                       "folder or tick \"Synthetic data\""));
    const QString tensorBoardDir = m_tensorBoardEdit->text().trimmed();
    if (!tensorBoardDir.isEmpty() && !QDir().mkpath(tensorBoardDir))
        problems.append(QStringLiteral("TensorBoard log folder %1 cannot be created")
                            .arg(tensorBoardDir));
    if (!problems.isEmpty()) {
        m_validationLabel->setText(problems.join(QLatin1Char('\n')));
        m_validationLabel->show();
        setStatus(QStringLiteral("Not started: %1").arg(problems.join(QStringLiteral("; "))), true);
        return 0;
    }
    m_validationLabel->hide();
    m_controller.setTensorBoardLogDir(tensorBoardDir);
    const int runId = m_controller.startRun(config);
    if (runId == 0)
        return 0;
    m_activeRunId = runId;
    m_activeDevice = QString::fromStdString(device);
    m_activeEpochs = config.epochs;
    m_stepsPerEpoch = 0;
    m_lastEpoch = 0;
    m_lastStep = 0;
    m_finishedEpochs = 0;
    setStatus(QStringLiteral("Run #%1 on %2: loading data and building the model…")
                  .arg(runId)
                  .arg(m_activeDevice),
              false);
    updateButtons();
    return runId;
}

void MainWindow::onRunStarted(int runId, const RunConfig &config, const RunStarted &info) {
    m_store->addRun(runId, config, info);
    saveRun(runId);
    if (runId == m_activeRunId) {
        m_activeDevice = QString::fromStdString(info.device);
        m_stepsPerEpoch = info.stepsPerEpoch;
        m_runClock.start();
    }
}

void MainWindow::onStepLosses(int runId, const std::vector<StepLoss> &losses) {
    m_store->appendStepLosses(runId, losses);
    if (runId == m_activeRunId && !losses.empty()) {
        m_lastEpoch = losses.back().epoch;
        m_lastStep = losses.back().step;
    }
}

void MainWindow::onEpochFinished(int runId, const EpochResult &epoch) {
    m_store->addEpoch(runId, epoch);
    saveRun(runId);
    if (runId == m_activeRunId)
        m_finishedEpochs = std::max(m_finishedEpochs, epoch.epoch);
}

void MainWindow::onRunEnded(int runId, const RunOutcome &outcome) {
    if (m_store->endRun(runId, outcome)) // false for a run that failed before it started
        saveRun(runId);
    if (runId == m_activeRunId)
        m_activeRunId = 0;
    redrawNow();

    const QString reason = QString::fromStdString(outcome.reason);
    switch (outcome.status) {
    case RunStatus::Finished: {
        const StoredRun *run = m_store->findRun(runId);
        if (run != nullptr && run->summary.hasStable) {
            setStatus(
                QStringLiteral("Run #%1 finished: stable mean %2 s/epoch")
                    .arg(runId)
                    .arg(run->summary.stableMean, 0, 'f', run->summary.stableMean < 10 ? 2 : 1),
                false);
        } else {
            setStatus(QStringLiteral("Run #%1 finished (no epochs after warm-up: no stable mean)")
                          .arg(runId),
                      false);
        }
        break;
    }
    case RunStatus::Cancelled:
        setStatus(QStringLiteral("Run #%1 cancelled%2")
                      .arg(runId)
                      .arg(reason.isEmpty() ? QString() : QStringLiteral(": ") + reason),
                  false);
        break;
    case RunStatus::Diverged:
    case RunStatus::Failed: {
        const QString what = outcome.status == RunStatus::Diverged ? QStringLiteral("diverged")
                                                                   : QStringLiteral("failed");
        setStatus(QStringLiteral("Run #%1 %2: %3").arg(runId).arg(what, reason), true);
        if (!m_closeRequested) {
            // Non-blocking, so that the event loop (and any test driving it) keeps running.
            auto *box = new QMessageBox(QMessageBox::Warning, QStringLiteral("DeviceBench"),
                                        QStringLiteral("Run #%1 %2.").arg(runId).arg(what),
                                        QMessageBox::Ok, this);
            box->setObjectName(QStringLiteral("runFailedBox"));
            box->setInformativeText(reason);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        break;
    }
    }
    // Progress lines replaced the save error during the run: the end says it again.
    if (!m_saveError.isEmpty() && m_store->findRun(runId) != nullptr)
        setStatus(m_statusLabel->text() + QStringLiteral(" · not saved: ") + m_saveError, true);
    updateButtons();
    if (m_closeRequested)
        QTimer::singleShot(0, this, &QWidget::close);
}

void MainWindow::onRunRejected(const QString &reason) {
    setStatus(QStringLiteral("Not started: %1").arg(reason), true);
}

void MainWindow::scheduleRedraw() {
    // Throttle, not debounce: a steady stream of changes still redraws every interval.
    if (!m_redrawTimer.isActive())
        m_redrawTimer.start(m_controller.isRunning() ? kRunningRedrawIntervalMs
                                                     : kRedrawIntervalMs);
}

void MainWindow::redrawNow() {
    m_redrawTimer.stop();
    m_lossChart->sync(*m_store);
    m_speedChart->sync(*m_store);
    const int rowsBefore = m_tableModel->rowCount();
    m_tableModel->refresh();
    if (m_tableModel->rowCount() != rowsBefore)
        m_table->resizeColumnsToContents(); // new labels (e.g. imported runs) are seen whole
    if (m_table->model()->rowCount() > 0 && m_controller.isRunning())
        m_table->scrollToBottom();
    updateBaselineCombo();
    updateControlText();
    updateProgressText();
    updateButtons();
}

void MainWindow::updateProgressText() {
    if (m_activeRunId == 0 || m_stepsPerEpoch <= 0 || m_closeRequested)
        return;
    QString text = QStringLiteral("Run #%1 on %2").arg(m_activeRunId).arg(m_activeDevice);
    const int epoch =
        std::max(1, std::max(m_lastEpoch, std::min(m_finishedEpochs + 1, m_activeEpochs)));
    const std::int64_t stepInEpoch =
        m_lastEpoch == epoch ? m_lastStep - (epoch - 1) * m_stepsPerEpoch : 0;
    text += QStringLiteral(" · epoch %1/%2 · step %3/%4")
                .arg(epoch)
                .arg(m_activeEpochs)
                .arg(stepInEpoch)
                .arg(m_stepsPerEpoch);
    const double total = static_cast<double>(m_activeEpochs) * static_cast<double>(m_stepsPerEpoch);
    const double done =
        std::max(static_cast<double>(m_finishedEpochs) * static_cast<double>(m_stepsPerEpoch),
                 static_cast<double>(m_lastStep));
    if (done > 0.0 && total > 0.0 && m_runClock.isValid()) {
        const double elapsed = static_cast<double>(m_runClock.elapsed()) / 1000.0;
        const double left = elapsed * (total - done) / done;
        text += QStringLiteral(" · about %1 left").arg(formatDuration(left));
    }
    setStatus(text, false);
}

void MainWindow::updateButtons() {
    const bool running = m_controller.isRunning();
    m_runCpuButton->setEnabled(!running);
    m_runGpuButton->setEnabled(!running && m_cudaReason.isEmpty());
    m_stopButton->setEnabled(running);
    const bool haveResults = !epochRows(*m_store).empty();
    m_exportPngButton->setEnabled(!running && haveResults);
    m_exportCsvButton->setEnabled(!running && haveResults);
    syncActions();
}

void MainWindow::setStatus(const QString &text, bool error) {
    m_statusLabel->setText(text);
    m_statusLabel->setStyleSheet(
        error ? QStringLiteral("color: %1;").arg(errorColour(palette())) : QString());
}

FetchDialog *MainWindow::openFetchDialog(const QString &archivePath) {
    auto *dialog = findChild<FetchDialog *>();
    if (!dialog) {
        dialog = new FetchDialog(this);
        connect(dialog, &FetchDialog::dataReady, this, [this](const QString &dir) {
            m_syntheticCheck->setChecked(false);
            m_dataDirEdit->setText(QDir::toNativeSeparators(dir));
            setStatus(QStringLiteral("CIFAR-10 is ready in ") + dir, false);
        });
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    if (!archivePath.isEmpty())
        dialog->startFromArchive(archivePath);
    return dialog;
}

void MainWindow::browseDataDir() {
    const QString dir = QFileDialog::getExistingDirectory(
        this, QStringLiteral("CIFAR-10 binary folder (cifar-10-batches-bin)"),
        m_dataDirEdit->text().isEmpty() ? QDir::homePath() : m_dataDirEdit->text());
    if (!dir.isEmpty())
        m_dataDirEdit->setText(QDir::toNativeSeparators(dir));
}

bool MainWindow::exportPng(const QString &path, QString *error) const {
    return exportComparisonPng(*m_store, path, error);
}

bool MainWindow::exportCsv(const QString &path, QString *error) const {
    return exportComparisonCsv(*m_store, path, error);
}

namespace {

// A run id as a file name: anything but letters, digits, '.', '_' and '-' becomes '_'.
QString fileNameFor(const std::string &runId) {
    QString name;
    for (const QChar ch : QString::fromStdString(runId))
        name += (ch.isLetterOrNumber() && ch.unicode() < 128) || ch == QLatin1Char('.') ||
                        ch == QLatin1Char('_') || ch == QLatin1Char('-')
                    ? ch
                    : QLatin1Char('_');
    return (name.isEmpty() || name.startsWith(QLatin1Char('.')) ? QStringLiteral("run") + name
                                                                : name) +
           QStringLiteral(".json");
}

} // namespace

void MainWindow::saveRun(int runId) {
    const StoredRun *run = m_store->findRun(runId);
    if (run == nullptr || m_runsFolder.isEmpty())
        return;
    const QString path = QDir(m_runsFolder).filePath(fileNameFor(run->record.runId));
    try {
        if (!QDir().mkpath(m_runsFolder))
            throw RecordError(QDir::toNativeSeparators(m_runsFolder).toStdString() +
                              ": cannot create the folder");
        writeRunRecord(path.toStdString(), run->record);
        m_saveError.clear(); // a later failure is reported again
    } catch (const std::exception &e) {
        const QString message = QString::fromStdString(e.what());
        if (message != m_saveError) { // once per problem, not once per epoch
            m_saveError = message;
            setStatus(QStringLiteral("Run #%1 is not saved: %2").arg(runId).arg(message), true);
        }
    }
}

void MainWindow::loadSavedRuns() {
    if (m_runsFolder.isEmpty())
        return;
    const QDir dir(m_runsFolder);
    QStringList paths;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        paths.append(dir.filePath(name));
    if (paths.isEmpty())
        return;
    int loaded = 0;
    int interrupted = 0;
    QStringList rejected;
    for (const QString &path : paths) {
        try {
            const int index = m_store->addRecord(readRunRecord(path.toStdString()), path);
            ++loaded;
            if (m_store->run(index).state == RunState::Interrupted)
                ++interrupted;
        } catch (const std::exception &e) {
            rejected.append(QString::fromStdString(e.what()));
        }
    }
    QString text = QStringLiteral("Loaded %1 saved run(s) from %2.")
                       .arg(loaded)
                       .arg(QDir::toNativeSeparators(m_runsFolder));
    if (interrupted > 0)
        text += QStringLiteral(" %1 of them stopped when the program ended mid-run: shown as "
                               "interrupted, with the epochs they finished.")
                    .arg(interrupted);
    if (!rejected.isEmpty())
        text += QStringLiteral(" Could not read %1: %2")
                    .arg(rejected.size())
                    .arg(rejected.join(QStringLiteral("; ")));
    setStatus(text, !rejected.isEmpty());
}

MainWindow::ImportReport MainWindow::importRecords(const QStringList &paths, bool showDialog) {
    ImportReport report;
    for (const QString &path : paths) {
        RunRecord record;
        try {
            record = readRunRecord(path.toStdString());
        } catch (const std::exception &e) {
            report.rejected.append(QString::fromStdString(e.what()));
            continue;
        }
        const int index = m_store->addRecord(record, path);
        ++report.loaded;
        // Keep it with the dashboard's own runs, so it is there after a restart.
        if (!m_runsFolder.isEmpty() &&
            QFileInfo(path).absolutePath() != QFileInfo(m_runsFolder).absoluteFilePath())
            saveRun(m_store->run(index).id);
    }
    redrawNow();
    QString text = QStringLiteral("Imported %1 run(s)").arg(report.loaded);
    if (!report.rejected.isEmpty())
        text += QStringLiteral("; rejected %1 file(s): %2")
                    .arg(report.rejected.size())
                    .arg(report.rejected.join(QStringLiteral("; ")));
    setStatus(text, !report.rejected.isEmpty());
    m_statusLabel->setToolTip(text);
    if (showDialog && !report.rejected.isEmpty()) {
        auto *box = new QMessageBox(
            QMessageBox::Warning, QStringLiteral("Import runs"),
            QStringLiteral("%1 of %2 file(s) could not be imported; the others were loaded.")
                .arg(report.rejected.size())
                .arg(paths.size()),
            QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("importRejectedBox"));
        box->setInformativeText(report.rejected.join(QStringLiteral("\n\n")));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return report;
}

void MainWindow::importInteractive() {
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, QStringLiteral("Import run records"), QDir::homePath(),
                                      QStringLiteral("Run records (*.json);;All files (*)"));
    if (!paths.isEmpty())
        importRecords(paths);
}

void MainWindow::updateBaselineCombo() {
    // Rebuild only when the runs or their labels changed; keep the chosen baseline.
    QList<QPair<int, QString>> items;
    for (const StoredRun &run : m_store->runs())
        items.append({run.id, run.label});
    bool same = m_baselineCombo->count() == items.size() + 1;
    for (qsizetype i = 0; same && i < items.size(); ++i) {
        const int comboIndex = static_cast<int>(i) + 1;
        same = m_baselineCombo->itemData(comboIndex).toInt() == items[i].first &&
               m_baselineCombo->itemText(comboIndex) == items[i].second;
    }
    if (same)
        return;
    const QSignalBlocker blocker(m_baselineCombo);
    m_baselineCombo->clear();
    m_baselineCombo->addItem(QStringLiteral("slowest run"), 0);
    for (const auto &item : items)
        m_baselineCombo->addItem(item.second, item.first);
    const int chosen = m_baselineCombo->findData(m_store->baselineSetting());
    m_baselineCombo->setCurrentIndex(chosen >= 0 ? chosen : 0);
}

void MainWindow::updateControlText() {
    QStringList lines;
    for (const ControlPair &pair : m_store->controlPairs()) {
        const QString a = QStringLiteral("#%1").arg(m_store->run(pair.indexA).number);
        const QString b = QStringLiteral("#%1").arg(m_store->run(pair.indexB).number);
        if (!std::isfinite(pair.maxTestLossDiff))
            continue;
        QString line = QStringLiteral("%1 vs %2: max test-loss difference %3")
                           .arg(a, b, QString::number(pair.maxTestLossDiff, 'g', 3));
        if (pair.warning)
            line = QStringLiteral("<span style=\"color:%1\"><b>WARNING</b> ")
                       .arg(errorColour(palette())) + line +
                   QStringLiteral(" (above %1: the runs did not compute the same thing)</span>")
                       .arg(kTestLossWarning);
        lines.append(line);
    }
    m_controlLabel->setText(lines.isEmpty()
                                ? QString()
                                : QStringLiteral("<b>Control</b> (comparable runs, same seed): ") +
                                      lines.join(QStringLiteral(" · ")));
    m_controlLabel->setVisible(!lines.isEmpty());
}

void MainWindow::showDiagnostics() {
    if (m_diagnosticsDialog == nullptr) {
        m_diagnosticsDialog = new QDialog(this);
        m_diagnosticsDialog->setObjectName(QStringLiteral("diagnosticsDialog"));
        m_diagnosticsDialog->setWindowTitle(QStringLiteral("DeviceBench diagnostics"));
        auto *layout = new QVBoxLayout(m_diagnosticsDialog);
        auto *text = new QTextBrowser(m_diagnosticsDialog);
        text->setObjectName(QStringLiteral("diagnosticsText"));
        layout->addWidget(text);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_diagnosticsDialog);
        connect(buttons, &QDialogButtonBox::rejected, m_diagnosticsDialog, &QDialog::close);
        layout->addWidget(buttons);
        m_diagnosticsDialog->resize(820, 640);
    }
    auto *text = m_diagnosticsDialog->findChild<QTextBrowser *>(QStringLiteral("diagnosticsText"));
    text->setHtml(diagnosticsHtml());
    m_diagnosticsDialog->show();
    m_diagnosticsDialog->raise();
}

void MainWindow::exportPngInteractive() {
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Export comparison as PNG"),
        QDir::home().filePath(QStringLiteral("devicebench-comparison.png")),
        QStringLiteral("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportPng(path, &error))
        setStatus(QStringLiteral("Saved %1").arg(QDir::toNativeSeparators(path)), false);
    else
        QMessageBox::warning(this, QStringLiteral("Export PNG"), error);
}

void MainWindow::exportCsvInteractive() {
    const QString path = QFileDialog::getSaveFileName(
        this,
        QStringLiteral("Export CSV: FILE.csv per epoch, and FILE-summary.csv per run beside it"),
        QDir::home().filePath(QStringLiteral("devicebench-epochs.csv")),
        QStringLiteral("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportCsv(path, &error))
        setStatus(QStringLiteral("Saved %1 and %2")
                      .arg(QDir::toNativeSeparators(path),
                           QDir::toNativeSeparators(summaryCsvPath(path))),
                  false);
    else
        QMessageBox::warning(this, QStringLiteral("Export CSV"), error);
}

void MainWindow::closeEvent(QCloseEvent *event) {
    if (m_controller.isRunning()) {
        // Stop, and close once the run has ended (within one training step): the event loop
        // keeps running meanwhile, so the window stays responsive and runEnded is delivered.
        m_closeRequested = true;
        m_controller.stop();
        setStatus(
            QStringLiteral("Stopping run #%1 before closing…").arg(m_controller.currentRunId()),
            false);
        event->ignore();
        return;
    }
    event->accept();
}

} // namespace devicebench
