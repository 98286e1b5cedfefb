// SPDX-License-Identifier: MIT
#include "scripted_session.h"

#include "chart_script.h"
#include "run_controller.h"
#include "window/main_window.h"

#include "devicebench/stop_cause.h"

#include <QApplication>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <vector>

namespace devicebench {

ScriptedSession::ScriptedSession(MainWindow &window, RunController &controller,
                                 const QCommandLineParser &parser, std::deque<ScriptedRun> script,
                                 Finish finish, int exitCode, bool interleave)
    : m_window(window), m_controller(controller), m_parser(parser), m_script(std::move(script)),
      m_finish(std::move(finish)), m_exitCode(exitCode), m_scripted(!m_script.empty()),
      m_interleave(interleave) {
    if (!m_stopSignals.installed())
        std::fprintf(
            stderr,
            "devicebench: SIGINT, SIGTERM, SIGHUP and SIGQUIT keep their default action: %s\n",
            qPrintable(m_stopSignals.error()));
    connect(&m_stopSignals, &StopSignals::stopRequested, this, &ScriptedSession::onStopSignal);
    connect(&controller, &RunController::runAccepted, this, [this] { m_asked.clear(); });
    connect(&window, &MainWindow::runRefused, this, &ScriptedSession::onRunRefused);
    connect(&controller, &RunController::runEnded, this,
            [this](int, const RecordedRun &run) { onRunEnded(run.outcome); });
}

void ScriptedSession::begin(bool screenshot) {
    if (m_scripted)
        QTimer::singleShot(0, this, &ScriptedSession::startNext);
    else if (m_finish.quit || screenshot)
        QTimer::singleShot(300, this, &ScriptedSession::startNext); // once laid out
}

void ScriptedSession::reproduceFirst(const ReproductionOverrides &overrides) {
    m_reproduce = overrides;
    m_scripted = true;
}

void ScriptedSession::startNext() {
    if (m_reproduce && !m_stopSignalled) {
        startReproduction();
        return;
    }
    if (m_script.empty() || m_stopSignalled) {
        finish();
        return;
    }
    if (m_interleave) {
        startRunSet();
        return;
    }
    const ScriptedRun next = m_script.front();
    m_script.pop_front();
    if (next.threads > 0) {
        RunConfig config = m_window.runConfig(next.device);
        config.threads = next.threads;
        m_window.setRunConfig(config);
    }
    m_asked = "run on " + next.device;
    m_window.startRun(next.device); // accepted or refused: runAccepted or runRefused says which
}

void ScriptedSession::startRunSet() {
    const std::vector<RunSetItem> items(m_script.begin(), m_script.end());
    m_script.clear();
    m_asked = "interleaved run set";
    m_window.startRunSet(items, true); // each run's threads are its own, the window's unchanged
}

void ScriptedSession::startReproduction() {
    const ReproductionOverrides overrides = *m_reproduce;
    m_reproduce.reset();
    m_asked = "reproduction of the article";
    m_window.reproduceArticle(overrides); // refused: runRefused; else the set's runAccepted
}

// The chart script (zoom, hover, screenshot), the exports, then maybe quit.
void ScriptedSession::finish() {
    if (!finishChartScript(m_parser, m_window))
        m_exitCode = 1;
    QString error;
    if (!m_finish.exportPng.isEmpty() && !m_window.exportPng(m_finish.exportPng, &error)) {
        std::fprintf(stderr, "devicebench: %s\n", qPrintable(error));
        m_exitCode = 1;
    }
    if (!m_finish.exportCsv.isEmpty() && !m_window.exportCsv(m_finish.exportCsv, &error)) {
        std::fprintf(stderr, "devicebench: %s\n", qPrintable(error));
        m_exitCode = 1;
    }
    if (!m_finish.exportHtml.isEmpty() && !m_window.exportHtml(m_finish.exportHtml, &error)) {
        std::fprintf(stderr, "devicebench: %s\n", qPrintable(error));
        m_exitCode = 1;
    }
    if (m_stopSignalled)
        QTimer::singleShot(0, this, [] { QApplication::exit(kExitStopped); });
    else if (m_finish.quit)
        QTimer::singleShot(0, this, [this] { QApplication::exit(m_exitCode); });
}

// A script goes on with its next run (or its exports) once the controller is idle (after the
// last run of a set); an interactive session only when a signal stopped the run (then it
// exports and quits).
void ScriptedSession::onRunEnded(const RunOutcome &outcome) {
    if (!m_scripted && !m_stopSignalled)
        return;
    if (outcome.status != RunStatus::Finished && !m_stopSignalled) {
        std::fprintf(stderr, "devicebench: run %s: %s\n", toString(outcome.status),
                     outcome.reason.c_str());
        m_exitCode = 1; // a script must be able to tell
    }
    if (m_controller.isRunning())
        return;                                               // more runs of the set to end
    QTimer::singleShot(0, this, &ScriptedSession::startNext); // the window takes it first
}

// A scripted run that did not start ends the script with the reasons (the engine's).
void ScriptedSession::onRunRefused(const QStringList &reasons) {
    if (m_asked.empty())
        return;
    std::string why;
    for (const QString &reason : reasons)
        why += "\n  " + reason.toStdString();
    std::fprintf(stderr, "devicebench: scripted %s did not start%s\n", m_asked.c_str(),
                 why.c_str());
    m_asked.clear();
    m_exitCode = 2; // bad input, as the CLI's for a request it refuses
    m_script.clear();
    m_reproduce.reset();
    QTimer::singleShot(0, this, &ScriptedSession::startNext);
}

void ScriptedSession::onStopSignal(int signalNumber) {
    if (m_stopSignalled)
        return;
    m_stopSignalled = true;
    m_script.clear();
    m_reproduce.reset();
    const bool exports = !m_finish.exportPng.isEmpty() || !m_finish.exportCsv.isEmpty() ||
                         !m_finish.exportHtml.isEmpty();
    std::fprintf(stderr, "devicebench: %s: %s%s\n", signalName(signalNumber).c_str(),
                 m_window.isRunning() ? "stopping the run after its current step" : "quitting",
                 exports ? ", exporting what finished" : "");
    if (m_window.isRunning())
        m_controller.stop(); // runEnded (cancelled) then leads to startNext
    else
        startNext();
}

} // namespace devicebench
