// SPDX-License-Identifier: MIT
// ScriptedSession: the dashboard's --run list started one run after another through the
// window, as a user's clicks would (with --interleave: all of them as one interleaved run set,
// as "Run set" with "Interleave epochs" does), then the chart script, the exports and --quit. It
// also turns SIGINT/SIGTERM into a stop: the run ends cancelled, what finished is exported, and the
// program exits 130 (stop_signals.h).
#pragma once

#include "script_options.h"
#include "stop_signals.h"

#include "devicebench/run_types.h"
#include "window/main_window.h" // ReproductionOverrides

#include <QObject>
#include <QString>
#include <QStringList>

#include <deque>
#include <optional>
#include <string>

class QCommandLineParser;

namespace devicebench {

class MainWindow;
class RunController;

class ScriptedSession : public QObject {
    Q_OBJECT

public:
    // What the session does after its runs: the --export-png / --export-csv / --export-html
    // files (empty: none) and whether it quits.
    struct Finish {
        QString exportPng;
        QString exportCsv;
        bool quit = false;
        QString exportHtml;
    };

    // `parser` (the chart script's options) must outlive the session. `exitCode`: what the
    // session started with (1 when an import was skipped). `interleave`: the runs as one
    // interleaved run set.
    ScriptedSession(MainWindow &window, RunController &controller, const QCommandLineParser &parser,
                    std::deque<ScriptedRun> script, Finish finish, int exitCode,
                    bool interleave = false);

    // --reproduce: "Reproduce the article" (MainWindow::reproduceArticle with `overrides`)
    // first, as one interleaved run set, then the --run list; call before begin().
    void reproduceFirst(const ReproductionOverrides &overrides);

    // Starts the first run now, or (with no runs) finishes once the window is laid out when
    // the session quits or takes a screenshot; an interactive session waits for the user.
    void begin(bool screenshot);

    // 0, or 1 when a run did not start or did not finish, an import was skipped or an export
    // failed.
    int exitCode() const { return m_exitCode; }

private:
    void startNext();
    void startRunSet(); // every run left, as one interleaved run set
    void startReproduction();
    void finish();
    void onRunEnded(const RunOutcome &outcome);
    void onRunRefused(const QStringList &reasons);
    void onStopSignal(int signalNumber);

    MainWindow &m_window;
    RunController &m_controller;
    const QCommandLineParser &m_parser;
    std::deque<ScriptedRun> m_script;
    Finish m_finish;
    int m_exitCode;
    bool m_scripted; // there were runs to start
    bool m_interleave;
    bool m_stopSignalled = false;
    std::optional<ReproductionOverrides> m_reproduce; // --reproduce, not asked for yet
    std::string m_asked; // "run on cpu", "interleaved run set": asked for, not accepted; or ""
    StopSignals m_stopSignals;
};

} // namespace devicebench
