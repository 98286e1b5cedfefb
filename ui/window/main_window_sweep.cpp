// SPDX-License-Identifier: MIT
// The Sweep part of MainWindow: the "Runs", "Sweep" and "Scaling" tabs, the Sweep view's base
// settings (the run settings' data, seed, learning rate and workload) and the rule that a training
// run and a sweep never share the machine.
#include "window/main_window.h"

#include "panels/run_settings_panel.h"
#include "panels/scaling_panel.h"
#include "sweep/sweep_panel.h"

#include <QPushButton>
#include <QTabWidget>
#include <QTimer>

namespace devicebench {

void MainWindow::buildTabs(QWidget *runsView) {
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_tabs->setDocumentMode(true);
    m_sweep = new SweepPanel;
    m_sweep->setObjectName(QStringLiteral("sweepPanel"));
    m_tabs->addTab(runsView, QStringLiteral("Runs"));
    m_tabs->addTab(m_sweep, QStringLiteral("Sweep"));
    m_scaling = new ScalingPanel(*m_store);
    m_scaling->setObjectName(QStringLiteral("scalingPanel"));
    m_tabs->addTab(m_scaling, QStringLiteral("Scaling"));
    m_tabs->setTabToolTip(0, QStringLiteral("Training runs epoch by epoch, compared by their "
                                            "stable mean seconds per epoch"));
    m_tabs->setTabToolTip(1, QStringLiteral("A grid of short timed runs: models x batch sizes "
                                            "x image sizes x devices"));
    m_tabs->setTabToolTip(2, QStringLiteral("Data-parallel jobs: images/s against world size, "
                                            "the ideal line and each point's efficiency"));
    setCentralWidget(m_tabs);

    // Every cell takes the run settings' data folder (or synthetic data), seed, learning rate
    // and workload; the grid sets the rest.
    m_sweep->setBaseConfigProvider([this] { return m_settings->runConfig("cpu"); });
    connect(m_sweep, &SweepPanel::statusMessage, this, &MainWindow::setStatus);
    connect(m_sweep, &SweepPanel::runningChanged, this, [this](bool running) {
        updateButtons();
        if (!running && m_closeRequested)
            QTimer::singleShot(0, this, &QWidget::close);
    });
}

void MainWindow::showSweepView() { m_tabs->setCurrentWidget(m_sweep); }

void MainWindow::showScalingView() { m_tabs->setCurrentWidget(m_scaling); }

void MainWindow::syncSweepButtons() {
    if (m_sweep == nullptr)
        return;
    m_sweep->setBlockedReason(
        isRunning() ? QStringLiteral("A training run is going: a sweep would share the machine "
                                     "with it. Wait for it to end, or stop it.")
                    : QString());
    if (m_sweep->isRunning()) { // likewise, no run during a sweep
        m_settings->runCpuButton()->setEnabled(false);
        m_settings->runGpuButton()->setEnabled(false);
        m_settings->runSetButton()->setEnabled(false);
        m_settings->reproduceButton()->setEnabled(false);
    }
}

bool MainWindow::stopSweepBeforeClose() {
    if (m_sweep == nullptr || !m_sweep->isRunning())
        return false;
    m_closeRequested = true;
    setStatus(QStringLiteral("Stopping the sweep before closing…"), false);
    m_sweep->requestStop();
    return true;
}

} // namespace devicebench
