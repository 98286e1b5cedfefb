// SPDX-License-Identifier: MIT
// The desktop-convention part of MainWindow: menus with keyboard shortcuts, the settings and
// window geometry kept through QSettings (the run settings through the settings panel), and
// the File menu's exports, import and removal as calls (the scripted session's).
#include "window/main_window.h"

#include "export/comparison_export.h"
#include "panels/charts_panel.h"
#include "panels/compare_panel.h"
#include "panels/run_library_panel.h"
#include "panels/run_settings_panel.h"
#include "store/run_store.h"
#include "sweep/sweep_panel.h"

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
#include <initializer_list>
#include <utility>

namespace devicebench {

namespace {

// A menu titled `title` in `bar` with `actions` in order; nullptr: a separator.
void addMenu(QMenuBar &bar, const QString &title, std::initializer_list<QAction *> actions) {
    QMenu *menu = bar.addMenu(title);
    for (QAction *action : actions) {
        if (action == nullptr)
            menu->addSeparator();
        else
            menu->addAction(action);
    }
}

// The window's size at its first start (or when no saved geometry can be used), shrunk to
// the screen's available area.
constexpr int kDefaultWidth = 1560;
constexpr int kDefaultHeight = 960;

// QSettings keys. Run settings under run/ (run_settings_panel.cpp), the Compare box under
// compare/, the window under window/. Only the dashboard's main() reads and writes them (tests
// pass their own QSettings).
const QString kCompareWarmup = QStringLiteral("compare/warmupEpochs");
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kSplitters = QStringLiteral("window/splitters");
const QString kHiddenRuns = QStringLiteral("charts/hiddenRuns"); // runIds

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
    QAction *importAction = makeAction(QStringLiteral("&Import runs…"), "importAction",
                                       QKeySequence(Qt::CTRL | Qt::Key_O));
    m_exportPngAction = makeAction(QStringLiteral("Export &PNG…"), "exportPngAction",
                                   QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportCsvAction = makeAction(QStringLiteral("Export &CSV (+ summary)…"), "exportCsvAction",
                                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportHtmlAction =
        makeAction(QStringLiteral("Export &HTML report…"), "exportHtmlAction", QKeySequence());
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
    QAction *pricesAction = makeAction(QStringLiteral("&Prices…"), "pricesAction", QKeySequence());
    m_runSetAction = makeAction(QStringLiteral("Run &set"), "runSetAction",
                                QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    // No keys: a stray chord must not start the article's hour-long set.
    m_reproduceAction =
        makeAction(QStringLiteral("Reproduce the &article"), "reproduceAction", QKeySequence());

    QPushButton *importButton = m_library->importButton();
    QPushButton *exportPngButton = m_compare->exportPngButton();
    QPushButton *exportCsvButton = m_compare->exportCsvButton();
    QPushButton *runCpuButton = m_settings->runCpuButton();
    QPushButton *runGpuButton = m_settings->runGpuButton();
    QPushButton *stopButton = m_settings->stopButton();
    connect(importAction, &QAction::triggered, importButton, &QPushButton::click);
    connect(m_exportPngAction, &QAction::triggered, exportPngButton, &QPushButton::click);
    connect(m_exportCsvAction, &QAction::triggered, exportCsvButton, &QPushButton::click);
    connect(m_exportHtmlAction, &QAction::triggered, m_compare->exportHtmlButton(),
            &QPushButton::click);
    connect(quitAction, &QAction::triggered, this, &QWidget::close);
    for (const auto &[action, button] : {std::pair{m_runCpuAction, runCpuButton},
                                         {m_runGpuAction, runGpuButton},
                                         {m_stopAction, stopButton},
                                         {m_runSetAction, m_settings->runSetButton()},
                                         {m_reproduceAction, m_settings->reproduceButton()}})
        connect(action, &QAction::triggered, button, &QPushButton::click);
    connect(diagnosticsAction, &QAction::triggered, this, &MainWindow::showDiagnostics);
    connect(pricesAction, &QAction::triggered, this, [this] { openPricesDialog(); });

    addMenu(*menuBar(), QStringLiteral("&File"),
            {importAction, m_exportPngAction, m_exportCsvAction, m_exportHtmlAction, nullptr,
             quitAction});
    addMenu(
        *menuBar(), QStringLiteral("&Run"),
        {m_runCpuAction, m_runGpuAction, m_stopAction, nullptr, m_runSetAction, m_reproduceAction});
    addMenu(*menuBar(), QStringLiteral("&View"), {m_charts->runsOneByOneAction()});
    addMenu(*menuBar(), QStringLiteral("&Settings"), {pricesAction});
    addMenu(*menuBar(), QStringLiteral("&Tools"), {diagnosticsAction});

    // The shortcuts in the buttons' tooltips too (the GPU button's tooltip stays the reason
    // it is disabled, when it is).
    m_settings->setGpuShortcut(withShortcut(QString(), m_runGpuAction));
    for (const auto &[button, shortcut] : {std::pair{runCpuButton, m_runCpuAction},
                                           {stopButton, m_stopAction},
                                           {m_settings->runSetButton(), m_runSetAction},
                                           {exportPngButton, m_exportPngAction},
                                           {exportCsvButton, m_exportCsvAction},
                                           {importButton, importAction}})
        button->setToolTip(withShortcut(button->toolTip(), shortcut));
}

void MainWindow::connectCharts() {
    connect(m_charts, &ChartsPanel::runVisibilityRequested, this, &MainWindow::setRunVisible);
    connect(m_library, &RunLibraryPanel::runVisibilityRequested, this, &MainWindow::setRunVisible);
    connect(m_charts, &ChartsPanel::chartOptionsChanged, m_compare, &ComparePanel::setChartOptions);
    m_compare->setChartOptions(m_charts->chartOptions());
}

void MainWindow::setRunVisible(int id, bool visible) {
    m_store->setRunHidden(id, !visible);
    redrawNow();
}

void MainWindow::syncActions() {
    if (m_runCpuAction == nullptr)
        return; // before buildActions()
    m_runCpuAction->setEnabled(m_settings->runCpuButton()->isEnabled());
    m_runGpuAction->setEnabled(m_settings->runGpuButton()->isEnabled());
    const QString gpu = m_settings->gpuName();
    m_runGpuAction->setText(gpu.isEmpty() ? QStringLiteral("Run on &GPU")
                                          : QStringLiteral("Run on &GPU: ") + gpu);
    m_stopAction->setEnabled(m_settings->stopButton()->isEnabled());
    m_runSetAction->setEnabled(m_settings->runSetButton()->isEnabled());
    m_reproduceAction->setEnabled(m_settings->reproduceButton()->isEnabled());
    m_exportPngAction->setEnabled(m_compare->exportPngButton()->isEnabled());
    m_exportCsvAction->setEnabled(m_compare->exportCsvButton()->isEnabled());
    m_exportHtmlAction->setEnabled(m_compare->exportHtmlButton()->isEnabled());
}

bool MainWindow::exportHtml(const QString &path, QString *error) const {
    return exportComparisonHtml(*m_store, path, error);
}

void MainWindow::saveSettings(QSettings &settings) const {
    m_settings->saveSettings(settings);
    settings.setValue(kCompareWarmup, m_compare->warmupSpin()->value());
    m_charts->saveSettings(settings);
    m_sweep->saveSettings(settings);
    savePrices(settings);
    settings.setValue(kHiddenRuns, m_store->hiddenRunKeys());
    settings.setValue(kGeometry, saveGeometry());
    settings.setValue(kState, saveState());
    QList<QVariant> splitters;
    for (const QSplitter *splitter : findChildren<QSplitter *>())
        splitters.append(splitter->saveState());
    settings.setValue(kSplitters, splitters);
}

void MainWindow::restoreSettings(const QSettings &settings) {
    m_settings->restoreSettings(settings);
    bool ok = false;
    const int compareWarmup = settings.value(kCompareWarmup).toInt(&ok);
    QSpinBox *spin = m_compare->warmupSpin();
    if (settings.contains(kCompareWarmup) && ok && compareWarmup >= spin->minimum() &&
        compareWarmup <= spin->maximum())
        spin->setValue(compareWarmup);
    m_charts->restoreSettings(settings);
    m_sweep->restoreSettings(settings);
    restorePrices(settings);
    m_store->setHiddenRunKeys(settings.value(kHiddenRuns).toStringList());

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

// The File menu's scripted counterparts: the exports, an import and a removal, each
// redrawing what it changed.
bool MainWindow::exportPng(const QString &path, QString *error) const {
    return exportComparisonPng(*m_store, path, error, m_charts->chartOptions(),
                               systemPanesFor(*m_store));
}

bool MainWindow::exportCsv(const QString &path, QString *error) const {
    return exportComparisonCsv(*m_store, path, error);
}

ImportReport MainWindow::importRecords(const QStringList &paths, bool showDialog) {
    const ImportReport report = m_library->importRecords(paths, showDialog);
    redrawNow();
    return report;
}

bool MainWindow::removeRun(int id, bool deleteRecordFile, QString *error) {
    const bool ok = m_library->removeRun(id, deleteRecordFile, error);
    redrawNow();
    return ok;
}

} // namespace devicebench
