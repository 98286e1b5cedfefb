// SPDX-License-Identifier: MIT
#include "panels/run_settings_panel.h"

#include "theme/appearance.h"

#include "devicebench/data_location.h"
#include "devicebench/devices.h"
#include "devicebench/precision_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

namespace devicebench {

namespace {

// QSettings keys of the run settings (the window adds compare/* and window/*).
const QString kDataDir = QStringLiteral("run/dataDir");
const QString kSynthetic = QStringLiteral("run/synthetic");
const QString kEpochs = QStringLiteral("run/epochs");
const QString kBatchSize = QStringLiteral("run/batchSize");
const QString kLearningRate = QStringLiteral("run/learningRate");
const QString kWarmupEpochs = QStringLiteral("run/warmupEpochs");
const QString kThreads = QStringLiteral("run/threads");
const QString kSeed = QStringLiteral("run/seed");
const QString kTrainImages = QStringLiteral("run/trainImages");
const QString kTestImages = QStringLiteral("run/testImages");
const QString kTensorBoardDir = QStringLiteral("run/tensorBoardDir");
const QString kPhases = QStringLiteral("run/phases");
const QString kRunSet = QStringLiteral("run/runSet");
const QString kInterleave = QStringLiteral("run/interleave");

constexpr int kComboChars = 18; // the least width of the settings' boxes, in characters

int clampToInt(std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, 0, INT_MAX)); }

// A saved whole number inside the spin box's range; anything else keeps the current value.
void restoreSpin(const QSettings &settings, const QString &key, QSpinBox *spin) {
    bool ok = false;
    const int value = settings.value(key).toInt(&ok);
    if (settings.contains(key) && ok && value >= spin->minimum() && value <= spin->maximum())
        spin->setValue(value);
}

} // namespace

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

QPushButton *makeSettingsButton(QWidget *parent, const QString &text, const char *name,
                                const QString &tip) {
    auto *button = new QPushButton(text, parent);
    button->setObjectName(QString::fromUtf8(name));
    if (!tip.isEmpty())
        button->setToolTip(tip);
    return button;
}

RunSettingsPanel::RunSettingsPanel(QWidget *parent) : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildActionBar()); // until the window pins it (takeActionBar)
    layout->addWidget(buildDataBox());
    layout->addWidget(buildTrainingBox());
    layout->addLayout(buildRunSetRows());
    // A long choice ("fp16 mixed precision (CUDA only)") must not widen the column on a small
    // screen: each box shrinks to kComboChars characters; its list shows the choices whole.
    for (QComboBox *combo : findChildren<QComboBox *>()) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(kComboChars);
    }

    connect(m_runCpuButton, &QPushButton::clicked, this,
            [this] { Q_EMIT runRequested(QStringLiteral("cpu")); });
    connect(m_runGpuButton, &QPushButton::clicked, this,
            [this] { Q_EMIT runRequested(QString::fromStdString(m_gpu.device())); });
    connect(m_stopButton, &QPushButton::clicked, this, &RunSettingsPanel::stopRequested);
    connect(m_diagnosticsButton, &QPushButton::clicked, this,
            &RunSettingsPanel::diagnosticsRequested);
    setRunState(false, QStringLiteral("Checking the GPU (the device probe is running)…"));
}

QWidget *RunSettingsPanel::buildActionBar() {
    m_actionBar = new QWidget(this);
    m_actionBar->setObjectName(QStringLiteral("runActionBar"));
    m_runCpuButton = makeSettingsButton(m_actionBar, QStringLiteral("Run on CPU"), "runCpuButton",
                                        QStringLiteral("Train on the CPU"));
    m_runGpuButton = makeSettingsButton(m_actionBar, QStringLiteral("Run on GPU"), "runGpuButton");
    m_stopButton = makeSettingsButton(
        m_actionBar, QStringLiteral("Stop"), "stopButton",
        QStringLiteral("End the run within one step; its finished epochs are kept"));
    m_diagnosticsButton = makeSettingsButton(
        m_actionBar, QStringLiteral("Diagnostics…"), "diagnosticsButton",
        QStringLiteral("This machine's fingerprint and every device with its probe "
                       "result"));
    m_runSetButton =
        makeSettingsButton(m_actionBar, QStringLiteral("Run set"), "runSetButton",
                           QStringLiteral("Start every run of the list under Run set, below"));
    connect(m_runSetButton, &QPushButton::clicked, this, &RunSettingsPanel::requestRunSet);
    auto *layout = new QGridLayout(m_actionBar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_runCpuButton, 0, 0);
    layout->addWidget(m_runGpuButton, 0, 1);
    layout->addWidget(m_stopButton, 0, 2);
    layout->addWidget(m_runSetButton, 1, 0);
    layout->addWidget(buildReproduceButton(), 1, 1);
    layout->addWidget(m_diagnosticsButton, 1, 2);
    m_validationLabel = new QLabel(m_actionBar);
    m_validationLabel->setObjectName(QStringLiteral("validationLabel"));
    m_validationLabel->setWordWrap(true);
    m_validationLabel->setStyleSheet(QStringLiteral("color: %1;").arg(errorColour(palette())));
    m_validationLabel->hide();
    layout->addWidget(m_validationLabel, 2, 0, 1, 3);
    return m_actionBar;
}

QWidget *RunSettingsPanel::takeActionBar() {
    layout()->removeWidget(m_actionBar);
    m_actionBar->setParent(nullptr);
    return m_actionBar;
}

QWidget *RunSettingsPanel::buildDataBox() {
    auto *box = new QGroupBox(QStringLiteral("Data"), this);
    auto *layout = new QVBoxLayout(box);
    layout->addLayout(buildDataDirRow(box));
    layout->addLayout(buildFetchRow(box));
    m_syntheticCheck = new QCheckBox(QStringLiteral("Synthetic data"), box);
    m_syntheticCheck->setObjectName(QStringLiteral("syntheticCheck"));
    m_syntheticCheck->setToolTip(
        QStringLiteral("CIFAR-shaped generated data: times are real, accuracy is meaningless"));
    layout->addWidget(m_syntheticCheck);
    layout->addLayout(buildTensorBoardRow(box));
    connect(m_syntheticCheck, &QCheckBox::toggled, this, [this](bool synthetic) {
        m_dataDirEdit->setEnabled(!synthetic);
        m_browseButton->setEnabled(!synthetic);
    });
    return box;
}

QLayout *RunSettingsPanel::buildDataDirRow(QWidget *box) {
    auto *dirRow = new QHBoxLayout;
    m_dataDirEdit = new QLineEdit(box);
    m_dataDirEdit->setObjectName(QStringLiteral("dataDirEdit"));
    m_dataDirEdit->setPlaceholderText(QStringLiteral("cifar-10-batches-bin folder"));
    m_dataDirEdit->setToolTip(QString::fromStdString(dataDirHelp()));
    if (const auto dir = findDefaultDataDir())
        m_dataDirEdit->setText(QString::fromStdString(*dir));
    m_browseButton = makeSettingsButton(box, QStringLiteral("Browse…"), "browseButton");
    dirRow->addWidget(m_dataDirEdit, 1);
    dirRow->addWidget(m_browseButton);
    connect(m_browseButton, &QPushButton::clicked, this, [this] {
        chooseFolder(m_dataDirEdit,
                     QStringLiteral("CIFAR-10 binary folder (cifar-10-batches-bin)"));
    });
    return dirRow;
}

QLayout *RunSettingsPanel::buildFetchRow(QWidget *box) {
    auto *fetchRow = new QHBoxLayout;
    auto *getData =
        makeSettingsButton(box, QStringLiteral("Get CIFAR-10…"), "getDataButton",
                           QStringLiteral("Download the CIFAR-10 binary archive (170 MB), "
                                          "check it and unpack it"));
    auto *openArchive =
        makeSettingsButton(box, QStringLiteral("Open archive…"), "openArchiveButton",
                           QStringLiteral("Unpack a cifar-10-binary.tar.gz already downloaded"));
    fetchRow->addWidget(getData);
    fetchRow->addWidget(openArchive);
    fetchRow->addStretch(1);
    connect(getData, &QPushButton::clicked, this, &RunSettingsPanel::getDataRequested);
    connect(openArchive, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, QStringLiteral("CIFAR-10 binary archive"), QDir::homePath(),
            QStringLiteral("CIFAR-10 archive (*.tar.gz *.tgz);;All files (*)"));
        if (!file.isEmpty())
            Q_EMIT archiveChosen(file);
    });
    return fetchRow;
}

QLayout *RunSettingsPanel::buildTensorBoardRow(QWidget *box) {
    auto *tensorBoardRow = new QHBoxLayout;
    m_tensorBoardEdit = new QLineEdit(box);
    m_tensorBoardEdit->setObjectName(QStringLiteral("tensorBoardEdit"));
    m_tensorBoardEdit->setPlaceholderText(QStringLiteral("TensorBoard log folder (empty: none)"));
    m_tensorBoardEdit->setToolTip(
        QStringLiteral("Each run writes a TensorBoard event file in a folder of its own here, "
                       "flushed after every epoch. View with: tensorboard --logdir FOLDER"));
    auto *tensorBoardBrowse =
        makeSettingsButton(box, QStringLiteral("Browse…"), "tensorBoardBrowseButton");
    tensorBoardRow->addWidget(m_tensorBoardEdit, 1);
    tensorBoardRow->addWidget(tensorBoardBrowse);
    connect(tensorBoardBrowse, &QPushButton::clicked, this,
            [this] { chooseFolder(m_tensorBoardEdit, QStringLiteral("TensorBoard log folder")); });
    return tensorBoardRow;
}

void RunSettingsPanel::chooseFolder(QLineEdit *edit, const QString &title) {
    const QString dir = QFileDialog::getExistingDirectory(
        this, title, edit->text().isEmpty() ? QDir::homePath() : edit->text());
    if (!dir.isEmpty())
        edit->setText(QDir::toNativeSeparators(dir));
}

QWidget *RunSettingsPanel::buildTrainingBox() {
    auto *box = new QGroupBox(QStringLiteral("Training"), this);
    auto *form = new QFormLayout(box);
    m_epochsSpin = makeSpin(box, "epochsSpin", 1, 1000, kDefaultEpochs,
                            QStringLiteral("Epochs to train (article: 10)"));
    m_batchSizeSpin = makeSpin(box, "batchSizeSpin", 1, 65536, kDefaultBatchSize,
                               QStringLiteral("Images per training step (article: 64)"));
    m_learningRateSpin = new QDoubleSpinBox(box);
    m_learningRateSpin->setObjectName(QStringLiteral("learningRateSpin"));
    m_learningRateSpin->setDecimals(4);
    m_learningRateSpin->setRange(0.0001, 10.0);
    m_learningRateSpin->setSingleStep(0.001);
    m_learningRateSpin->setValue(kDefaultLearningRate);
    m_learningRateSpin->setToolTip(QStringLiteral("SGD step size, no momentum (article: 0.01)"));
    m_warmupSpin = makeSpin(box, "warmupSpin", 0, 999, kDefaultWarmupEpochs,
                            QStringLiteral("First epochs flagged warm-up and left out of the "
                                           "stable mean (article: 2)"));
    const int cores = availableCores();
    m_threadsSpin =
        makeSpin(box, "threadsSpin", 1, std::max(256, cores), cores,
                 QStringLiteral("CPU intra-op threads (this process may use %1 cores)").arg(cores));
    m_seedSpin = makeSpin(box, "seedSpin", 0, INT_MAX, static_cast<int>(kDefaultSeed),
                          QStringLiteral("Seed of the initial weights (same on every device)"));
    m_seedSpin->setGroupSeparatorShown(false);
    m_trainImagesSpin = makeSpin(box, "trainImagesSpin", 0, 50000, 0,
                                 QStringLiteral("Use only the first N training images"));
    m_trainImagesSpin->setSpecialValueText(QStringLiteral("all (50,000)"));
    m_testImagesSpin = makeSpin(box, "testImagesSpin", 0, 10000, 0,
                                QStringLiteral("Use only the first N test images"));
    m_testImagesSpin->setSpecialValueText(QStringLiteral("all (10,000)"));
    form->addRow(QStringLiteral("Epochs"), m_epochsSpin);
    form->addRow(QStringLiteral("Batch size"), m_batchSizeSpin);
    form->addRow(QStringLiteral("Learning rate"), m_learningRateSpin);
    form->addRow(QStringLiteral("Warm-up epochs"), m_warmupSpin);
    form->addRow(QStringLiteral("CPU threads"), m_threadsSpin);
    m_gpu.addRow(box, form, [this] { showChosenGpu(); });
    form->addRow(QStringLiteral("Seed"), m_seedSpin);
    form->addRow(QStringLiteral("Training images"), m_trainImagesSpin);
    form->addRow(QStringLiteral("Test images"), m_testImagesSpin);
    m_workload.addRows(box, form);
    m_model.addRows(box, form);
    m_precision.addRows(box, form);
    m_target.addRow(box, form);
    m_workload.setRecipeChosen([this](const WorkloadRow *recipe) { showRecipe(recipe); });
    // Where the time goes: a phase-timed run is another kind of measurement.
    m_phasesCheck = new QCheckBox(QStringLiteral("Time each phase (slower)"), box);
    m_phasesCheck->setObjectName(QStringLiteral("phasesCheck"));
    m_phasesCheck->setToolTip(QStringLiteral(
        "Split each epoch into data, forward, loss, backward, optimizer and test, shown as "
        "stacked bars. The device is synchronised at every phase of every step, so the run is "
        "slower (on a GPU, much) and is never compared with normal runs."));
    form->addRow(QString(), m_phasesCheck);
    return box;
}

void RunSettingsPanel::showRecipe(const WorkloadRow *recipe) {
    m_learningRateSpin->setEnabled(recipe == nullptr);
    m_model.setEnabled(recipe == nullptr);
    if (recipe == nullptr)
        return;
    setRunConfig(withRecipePreset(runConfig("cpu")));
}

RunConfig RunSettingsPanel::runConfig(const std::string &device) const {
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
    m_model.apply(&config);
    m_workload.apply(&config); // a recipe's network over the model rows
    m_precision.apply(&config);
    m_target.apply(&config);
    config.phases = m_phasesCheck->isChecked();
    return config;
}

void RunSettingsPanel::setRunConfig(const RunConfig &config) {
    m_workload.show(config); // first: a recipe's preset, then the config's own values over it
    m_epochsSpin->setValue(config.epochs);
    m_batchSizeSpin->setValue(config.batchSize);
    m_learningRateSpin->setValue(config.learningRate);
    m_warmupSpin->setValue(config.warmupEpochs);
    m_threadsSpin->setValue(config.threads > 0 ? config.threads : availableCores());
    m_seedSpin->setValue(static_cast<int>(std::min<std::uint64_t>(config.seed, INT_MAX)));
    m_dataDirEdit->setText(QString::fromStdString(config.dataDir));
    m_syntheticCheck->setChecked(config.synthetic);
    m_trainImagesSpin->setValue(clampToInt(config.trainImages));
    m_testImagesSpin->setValue(clampToInt(config.testImages));
    m_model.show(config);
    m_precision.show(config);
    m_target.show(config);
    m_phasesCheck->setChecked(config.phases);
}

QString RunSettingsPanel::tensorBoardDir() const { return m_tensorBoardEdit->text().trimmed(); }

void RunSettingsPanel::useDataDir(const QString &dir) {
    m_syntheticCheck->setChecked(false);
    m_dataDirEdit->setText(QDir::toNativeSeparators(dir));
}

void RunSettingsPanel::showProblems(const QStringList &problems) {
    m_validationLabel->setText(problems.join(QLatin1Char('\n')));
    m_validationLabel->setVisible(!problems.isEmpty());
}

void RunSettingsPanel::setGpuShortcut(const QString &keys) {
    m_gpuShortcut = keys;
    if (m_runGpuButton->isEnabled() || m_runGpuButton->toolTip().isEmpty())
        m_runGpuButton->setToolTip(gpuTip());
}

QString RunSettingsPanel::gpuTip() const {
    const QString name = m_gpu.name();
    const QString tip =
        name.isEmpty()
            ? QStringLiteral("Train on the first CUDA device")
            : QStringLiteral("Train on %1, %2").arg(QString::fromStdString(m_gpu.device()), name);
    return m_gpuShortcut.isEmpty() ? tip
                                   : tip + QStringLiteral(" (") + m_gpuShortcut + QLatin1Char(')');
}

void RunSettingsPanel::setGpus(const std::vector<DeviceInfo> &devices) {
    m_gpu.setGpus(devices);
    showChosenGpu();
}

void RunSettingsPanel::showChosenGpu() {
    // A long product name ("NVIDIA GeForce RTX 3050 Laptop GPU") is cut at 32 characters, so
    // that the button does not widen the panel; the tooltip has it whole.
    constexpr int kMaxText = 32;
    const QString name = m_gpu.name();
    QString text = name.isEmpty() ? QStringLiteral("Run on GPU") : QStringLiteral("Run on ") + name;
    if (text.size() > kMaxText)
        text = text.left(kMaxText - 1).trimmed() + QChar(0x2026);
    m_runGpuButton->setText(text);
    if (m_runGpuButton->isEnabled())
        m_runGpuButton->setToolTip(gpuTip());
}

void RunSettingsPanel::setRunState(bool running, const QString &gpuReason) {
    m_runCpuButton->setEnabled(!running);
    m_runGpuButton->setEnabled(!running && gpuReason.isEmpty());
    m_runGpuButton->setToolTip(gpuReason.isEmpty() ? gpuTip() : gpuReason);
    m_stopButton->setEnabled(running);
    m_runSetButton->setEnabled(!running);
    m_reproduceButton->setEnabled(!running);
}

void RunSettingsPanel::saveSettings(QSettings &settings) const {
    const RunConfig config = runConfig("cpu");
    settings.setValue(kDataDir, m_dataDirEdit->text().trimmed());
    settings.setValue(kSynthetic, config.synthetic);
    settings.setValue(kEpochs, config.epochs);
    settings.setValue(kBatchSize, config.batchSize);
    settings.setValue(kLearningRate, config.learningRate);
    settings.setValue(kWarmupEpochs, config.warmupEpochs);
    settings.setValue(kThreads, config.threads);
    settings.setValue(kSeed, m_seedSpin->value());
    settings.setValue(kTrainImages, m_trainImagesSpin->value());
    settings.setValue(kTestImages, m_testImagesSpin->value());
    m_workload.save(settings);
    settings.setValue(kTensorBoardDir, tensorBoardDir());
    m_model.save(settings);
    m_precision.save(settings);
    m_target.save(settings);
    m_gpu.save(settings);
    settings.setValue(kPhases, config.phases);
    settings.setValue(kRunSet, runSetText());
    settings.setValue(kInterleave, interleave());
}

void RunSettingsPanel::restoreSettings(const QSettings &settings) {
    m_workload.restore(settings); // first: a recipe's preset, then the saved values over it
    // The data folder: a saved non-empty one; else keep the one found by default.
    const QString dataDir = settings.value(kDataDir).toString();
    if (!dataDir.isEmpty())
        m_dataDirEdit->setText(dataDir);
    if (settings.contains(kTensorBoardDir))
        m_tensorBoardEdit->setText(settings.value(kTensorBoardDir).toString());
    if (settings.contains(kSynthetic))
        m_syntheticCheck->setChecked(settings.value(kSynthetic).toBool());
    restoreSpin(settings, kEpochs, m_epochsSpin);
    restoreSpin(settings, kBatchSize, m_batchSizeSpin);
    restoreSpin(settings, kWarmupEpochs, m_warmupSpin);
    restoreSpin(settings, kThreads, m_threadsSpin);
    restoreSpin(settings, kSeed, m_seedSpin);
    restoreSpin(settings, kTrainImages, m_trainImagesSpin);
    restoreSpin(settings, kTestImages, m_testImagesSpin);
    bool ok = false;
    const double learningRate = settings.value(kLearningRate).toDouble(&ok);
    if (ok && std::isfinite(learningRate) && learningRate >= m_learningRateSpin->minimum() &&
        learningRate <= m_learningRateSpin->maximum())
        m_learningRateSpin->setValue(learningRate);
    m_model.restore(settings);
    m_precision.restore(settings);
    m_target.restore(settings);
    m_gpu.restore(settings);
    if (settings.contains(kPhases))
        m_phasesCheck->setChecked(settings.value(kPhases).toBool());
    if (settings.contains(kRunSet))
        m_runSetEdit->setText(settings.value(kRunSet).toString());
    if (settings.contains(kInterleave))
        m_interleaveCheck->setChecked(settings.value(kInterleave).toBool());
}

} // namespace devicebench
