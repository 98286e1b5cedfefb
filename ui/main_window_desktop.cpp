// SPDX-License-Identifier: MIT
// The desktop-convention part of MainWindow: menus with keyboard shortcuts, the settings and
// window geometry kept through QSettings, and the look: the chart theme matching the palette
// and the window icon (theme.h).
#include "main_window.h"

#include "charts.h"
#include "theme.h"

#include "devicebench/run_types.h"

#include <QAction>
#include <QByteArray>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGuiApplication>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>

#include <algorithm>
#include <cmath>

namespace devicebench {

namespace {

// The window's size at its first start (or when no saved geometry can be used), shrunk to
// the screen's available area.
constexpr int kDefaultWidth = 1560;
constexpr int kDefaultHeight = 960;

// QSettings keys. Run settings under run/, the Compare box under compare/, the window under
// window/. Only the dashboard's main() reads and writes them (tests pass their own QSettings).
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
const QString kWorkload = QStringLiteral("run/workload");
const QString kTensorBoardDir = QStringLiteral("run/tensorBoardDir");
const QString kCompareWarmup = QStringLiteral("compare/warmupEpochs");
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kSplitters = QStringLiteral("window/splitters");

// A saved whole number inside the spin box's range; anything else keeps the current value.
void restoreSpin(const QSettings &settings, const QString &key, QSpinBox *spin) {
    bool ok = false;
    const int value = settings.value(key).toInt(&ok);
    if (settings.contains(key) && ok && value >= spin->minimum() && value <= spin->maximum())
        spin->setValue(value);
}

QString withShortcut(const QString &tip, const QAction *action) {
    const QString keys = action->shortcut().toString(QKeySequence::NativeText);
    return tip.isEmpty() ? keys : tip + QStringLiteral(" (") + keys + QLatin1Char(')');
}

} // namespace

void MainWindow::buildActions() {
    // Each action clicks its button, so that a shortcut does exactly what the click does and
    // nothing while the button is disabled; syncActions() mirrors the buttons' states.
    auto makeAction = [this](const QString &text, const char *name, const QKeySequence &keys) {
        auto *action = new QAction(text, this);
        action->setObjectName(QString::fromUtf8(name));
        action->setShortcut(keys);
        action->setShortcutContext(Qt::WindowShortcut);
        addAction(action); // active even when the menu bar is hidden
        return action;
    };
    QAction *importAction =
        makeAction(QStringLiteral("&Import runs…"), "importAction", QKeySequence(Qt::CTRL | Qt::Key_O));
    m_exportPngAction = makeAction(QStringLiteral("Export &PNG…"), "exportPngAction",
                                   QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportCsvAction = makeAction(QStringLiteral("Export &CSV (+ summary)…"), "exportCsvAction",
                                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    // Explicit keys, not QKeySequence::Quit: some platforms (offscreen, plain X11) bind none.
    QAction *quitAction =
        makeAction(QStringLiteral("&Quit"), "quitAction", QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_runCpuAction = makeAction(QStringLiteral("Run on &CPU"), "runCpuAction",
                                QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runGpuAction = makeAction(QStringLiteral("Run on &GPU"), "runGpuAction",
                                QKeySequence(Qt::CTRL | Qt::Key_G));
    // Not Esc: a stray Esc (closing a popup) must not end a run that has taken minutes.
    m_stopAction =
        makeAction(QStringLiteral("&Stop"), "stopAction", QKeySequence(Qt::CTRL | Qt::Key_Period));
    QAction *diagnosticsAction =
        makeAction(QStringLiteral("&Diagnostics…"), "diagnosticsAction", QKeySequence());

    connect(importAction, &QAction::triggered, m_importButton, &QPushButton::click);
    connect(m_exportPngAction, &QAction::triggered, m_exportPngButton, &QPushButton::click);
    connect(m_exportCsvAction, &QAction::triggered, m_exportCsvButton, &QPushButton::click);
    connect(quitAction, &QAction::triggered, this, &QWidget::close);
    connect(m_runCpuAction, &QAction::triggered, m_runCpuButton, &QPushButton::click);
    connect(m_runGpuAction, &QAction::triggered, m_runGpuButton, &QPushButton::click);
    connect(m_stopAction, &QAction::triggered, m_stopButton, &QPushButton::click);
    connect(diagnosticsAction, &QAction::triggered, this, &MainWindow::showDiagnostics);

    QMenu *fileMenu = menuBar()->addMenu(QStringLiteral("&File"));
    fileMenu->addAction(importAction);
    fileMenu->addAction(m_exportPngAction);
    fileMenu->addAction(m_exportCsvAction);
    fileMenu->addSeparator();
    fileMenu->addAction(quitAction);
    QMenu *runMenu = menuBar()->addMenu(QStringLiteral("&Run"));
    runMenu->addAction(m_runCpuAction);
    runMenu->addAction(m_runGpuAction);
    runMenu->addAction(m_stopAction);
    QMenu *toolsMenu = menuBar()->addMenu(QStringLiteral("&Tools"));
    toolsMenu->addAction(diagnosticsAction);

    // The shortcuts in the buttons' tooltips too (the GPU button's tooltip stays the reason
    // it is disabled, when it is).
    m_runCpuButton->setToolTip(withShortcut(QStringLiteral("Train on the CPU"), m_runCpuAction));
    if (m_cudaReason.isEmpty())
        m_runGpuButton->setToolTip(withShortcut(m_runGpuButton->toolTip(), m_runGpuAction));
    m_stopButton->setToolTip(withShortcut(
        QStringLiteral("End the run within one step; its finished epochs are kept"), m_stopAction));
    m_exportPngButton->setToolTip(
        withShortcut(QStringLiteral("Both charts in one picture"), m_exportPngAction));
    m_exportCsvButton->setToolTip(withShortcut(m_exportCsvButton->toolTip(), m_exportCsvAction));
    m_importButton->setToolTip(withShortcut(m_importButton->toolTip(), importAction));

    // Charts readable on the palette in use (--theme dark, or a dark desktop palette), in the
    // chart palette's colours (resources/charts/palette.json).
    const theme::Theme shade = theme::themeOf(palette());
    theme::applyToChart(m_lossChart, shade);
    theme::applyToChart(m_speedChart, shade);
    // The application icon from the resources (resources/icons/), also where no
    // QApplication::setWindowIcon was called (tests, embedding).
    setWindowIcon(theme::applicationIcon());
}

void MainWindow::syncActions() {
    if (m_runCpuAction == nullptr)
        return; // before buildActions()
    m_runCpuAction->setEnabled(m_runCpuButton->isEnabled());
    m_runGpuAction->setEnabled(m_runGpuButton->isEnabled());
    m_stopAction->setEnabled(m_stopButton->isEnabled());
    m_exportPngAction->setEnabled(m_exportPngButton->isEnabled());
    m_exportCsvAction->setEnabled(m_exportCsvButton->isEnabled());
}

void MainWindow::saveSettings(QSettings &settings) const {
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
    settings.setValue(kWorkload, QString::fromUtf8(toString(config.workload)));
    settings.setValue(kTensorBoardDir, m_tensorBoardEdit->text().trimmed());
    settings.setValue(kCompareWarmup, m_compareWarmupSpin->value());
    settings.setValue(kGeometry, saveGeometry());
    settings.setValue(kState, saveState());
    QList<QVariant> splitters;
    for (const QSplitter *splitter : findChildren<QSplitter *>())
        splitters.append(splitter->saveState());
    settings.setValue(kSplitters, splitters);
}

void MainWindow::restoreSettings(const QSettings &settings) {
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
    restoreSpin(settings, kCompareWarmup, m_compareWarmupSpin);
    bool ok = false;
    const double learningRate = settings.value(kLearningRate).toDouble(&ok);
    if (ok && std::isfinite(learningRate) && learningRate >= m_learningRateSpin->minimum() &&
        learningRate <= m_learningRateSpin->maximum())
        m_learningRateSpin->setValue(learningRate);
    const int workload = m_workloadCombo->findData(settings.value(kWorkload).toString());
    if (workload >= 0)
        m_workloadCombo->setCurrentIndex(workload);

    if (!restoreGeometry(settings.value(kGeometry).toByteArray())) {
        QSize size(kDefaultWidth, kDefaultHeight);
        if (const QScreen *s = screen() != nullptr ? screen() : QGuiApplication::primaryScreen())
            size = size.boundedTo(s->availableGeometry().size());
        resize(size);
    }
    restoreState(settings.value(kState).toByteArray());
    const QList<QVariant> splitters = settings.value(kSplitters).toList();
    const QList<QSplitter *> own = findChildren<QSplitter *>();
    for (qsizetype i = 0; i < std::min(splitters.size(), own.size()); ++i)
        own[i]->restoreState(splitters[i].toByteArray());
}

} // namespace devicebench
