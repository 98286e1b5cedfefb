// SPDX-License-Identifier: MIT
// Child runs (child_run.h): this process's side reads the child's event lines into the
// observer; the child's side writes them.
#include "devicebench/child_run.h"

#include "devicebench/canary.h"
#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/run_events.h"
#include "devicebench/run_record.h"
#include "devicebench/stop_cause.h"
#include "devicebench/summary.h"
#include "devicebench/system_sampler.h"
#include "devicebench/time_to_target.h"
#include "devicebench/trainer.h"

#include "child_process.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstddef>
#include <exception>
#include <memory>
#include <poll.h>
#include <stdexcept>
#include <unistd.h>

namespace devicebench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kStopGrace = std::chrono::milliseconds(1000);

// One child's run as this process sees it: its events told to the observer, its outcome.
class ChildSession {
public:
    ChildSession(detail::ChildProcess &child, const ChildProgram &program, const RunConfig &config,
                 TrainingObserver &observer, ChildReport *report)
        : m_child(child), m_program(program), m_config(config), m_observer(observer),
          m_report(report),
          m_meter("/proc", [&child] { return processTreeCpuSeconds(child.pid()); }) {}

    // Before each "take": a channel child's epoch begins with its turn (its load is measured
    // from here), and its time to start runs from the first.
    void beginTurn() {
        if (m_program.startSeconds > 0 && m_startDeadline == Clock::time_point::max())
            m_startDeadline = Clock::now() + std::chrono::seconds(m_program.startSeconds);
        if (m_program.channel && m_started)
            m_meter.begin();
    }

    // Tells the events of one turn (all of them without turns). False: the run is over.
    bool readTurn(const std::atomic<bool> &stop) {
        std::string line;
        for (;;) {
            const detail::ChildProcess::Read read = m_child.readLine(
                &line, stop, m_started ? Clock::time_point::max() : m_startDeadline);
            if (read == detail::ChildProcess::Read::End)
                return false;
            if (read == detail::ChildProcess::Read::Stopped) {
                stopChild();
                continue;
            }
            if (read == detail::ChildProcess::Read::Late) {
                tooLate();
                continue;
            }
            if (!m_problem.empty())
                continue; // a bad line ended the run: the rest is not read as events
            if (tell(line))
                return !m_ended;
        }
    }

    RunOutcome finish(const std::atomic<bool> &stop) {
        if (m_stopping) // said "ended" or not: gone by the stop's deadline, or killed then
            m_child.terminate(std::chrono::duration_cast<std::chrono::milliseconds>(
                std::max(Clock::duration::zero(), m_stopDeadline - Clock::now())));
        const std::string exit = m_child.wait();
        if (!m_ended) {
            m_outcome.status =
                stop.load() && m_problem.empty() ? RunStatus::Cancelled : RunStatus::Failed;
            m_outcome.reason = failure(exit);
        } else if (m_outcome.status == RunStatus::Cancelled && !stop.load()) {
            // Nobody here asked it to stop: a signal sent to the child itself did.
            m_outcome.reason = "the child process was stopped by a signal sent to it, not from "
                               "DeviceBench (" +
                               m_outcome.reason + ")";
        } else if (m_outcome.status == RunStatus::Cancelled && stopCause() != "the user") {
            // The child was sent SIGTERM for us; the record says what stopped us.
            m_outcome.reason =
                "stopped by " + stopCause() +
                (m_outcome.epochs.empty() && !m_started
                     ? std::string(" before its set-up ended")
                     : " during epoch " + std::to_string(m_outcome.epochs.size() + 1));
        }
        m_outcome.summary = summarize(m_outcome.epochs, m_config.warmupEpochs, m_imagesPerEpoch);
        m_observer.onRunEnded(m_outcome);
        return m_outcome;
    }

private:
    // One event told; true when it ends the turn (a pass, or the end).
    bool tell(const std::string &line) {
        ++m_lines;
        RunEvent event;
        try {
            event = parseRunEvent(line, m_config,
                                  "child run (" + m_program.name + "): event line " +
                                      std::to_string(m_lines));
        } catch (const std::exception &e) {
            m_problem = "wrote a line that is not an event: " + std::string(e.what());
            m_child.signalGroup(SIGKILL);
            return false;
        }
        if (const std::string wrong = impossible(event); !wrong.empty()) {
            m_problem = "wrote an event no run can make (event line " + std::to_string(m_lines) +
                        "): " + wrong;
            m_child.signalGroup(SIGKILL);
            return false;
        }
        switch (event.kind) {
        case RunEventKind::Started:
            m_started = true;
            if (m_report != nullptr) {
                m_report->fingerprint = event.fingerprint;
                m_report->program = event.program;
                m_report->python = event.python;
                m_report->threads = event.started.threads;
            }
            m_imagesPerEpoch =
                static_cast<double>(event.started.trainImages + event.started.testImages);
            if (m_program.channel)
                startCanary(&event.started);
            m_observer.onRunStarted(event.started);
            return false;
        case RunEventKind::Steps:
            m_observer.onStepLosses(event.steps);
            return false;
        case RunEventKind::Epoch:
            if (m_program.channel)
                measureBetweenEpochs(&event.epoch);
            if (m_imagesPerEpoch == 0.0 && event.epoch.trainImages > 0) // a script's, counted
                m_imagesPerEpoch = static_cast<double>(event.epoch.trainImages);
            m_outcome.epochs.push_back(event.epoch);
            m_observer.onEpochFinished(event.epoch);
            return false;
        case RunEventKind::Pass:
            return true;
        case RunEventKind::Ended:
            m_outcome.status = event.status;
            m_outcome.reason = event.reason;
            m_ended = true;
            return true;
        }
        return false;
    }

    // What makes an event impossible here, so that the record is one its readers accept
    // (checkRunRecord's rules): "" when it may come.
    std::string impossible(const RunEvent &event) const {
        const bool early = !m_started && event.kind != RunEventKind::Ended;
        if (early && event.kind != RunEventKind::Started)
            return "it came before the started event";
        if (event.kind == RunEventKind::Started && m_started)
            return "a second started event";
        if (event.kind == RunEventKind::Epoch) {
            const EpochResult &e = event.epoch;
            const int expected = static_cast<int>(m_outcome.epochs.size()) + 1;
            if (reachedTarget())
                return "epoch " + std::to_string(e.epoch) + " after epoch " +
                       std::to_string(expected - 1) + " had reached the target accuracy";
            if (e.epoch != expected || e.epoch > m_config.epochs)
                return "epoch " + std::to_string(e.epoch) + " where epoch " +
                       std::to_string(expected) + " of " + std::to_string(m_config.epochs) +
                       " was due";
            if (!(e.seconds > 0.0) || !std::isfinite(e.seconds))
                return "epoch " + std::to_string(e.epoch) + " took no time or no finite time";
            const bool untested =
                !workloadRow(m_config.workload).alwaysTests && std::isnan(e.testAccuracy);
            if (untested && m_config.targetAccuracy)
                return "epoch " + std::to_string(e.epoch) +
                       " reported no test accuracy, which a target accuracy needs (the script "
                       "reports it with run.test(accuracy=...))";
            if (!(e.testAccuracy >= 0.0 && e.testAccuracy <= 1.0) && !untested)
                return "epoch " + std::to_string(e.epoch) + " has a test accuracy outside 0-1";
        }
        if (event.kind == RunEventKind::Ended && event.status == RunStatus::Finished &&
            static_cast<int>(m_outcome.epochs.size()) != m_config.epochs && !reachedTarget())
            return "finished after " + std::to_string(m_outcome.epochs.size()) + " of " +
                   std::to_string(m_config.epochs) + " epochs";
        return {};
    }

    // Whether the last epoch reached the run's target accuracy: the run may end before its
    // budget of epochs.
    bool reachedTarget() const {
        return m_config.targetAccuracy && !m_outcome.epochs.empty() &&
               reachesTarget(m_outcome.epochs.back().testAccuracy, *m_config.targetAccuracy);
    }

    // SIGTERM to the child's group at the first stop, SIGKILL when it is still there a second
    // later.
    void stopChild() {
        if (!m_stopping) {
            m_stopping = true;
            m_stopDeadline = Clock::now() + kStopGrace;
            m_child.signalGroup(SIGTERM);
        } else if (Clock::now() > m_stopDeadline) {
            m_child.signalGroup(SIGKILL);
        }
    }

    // The "started" event did not come in time: the child's group is killed, the run fails.
    void tooLate() {
        m_started = true; // no second deadline; the rest is not read as events
        m_problem = "did not start its first epoch within " +
                    std::to_string(m_program.startSeconds) +
                    " s (the script must call devicebench.run() and iterate run.epochs() by "
                    "then); its process group was killed";
        m_child.signalGroup(SIGKILL);
    }

    // The run's first canary (machine_drift.h), measured here while the child waits for its
    // turn; none when the device cannot run one in this process (e.g. CUDA without it here).
    void startCanary(RunStarted *started) {
        m_threads = started->threads;
        try {
            m_canary = std::make_unique<Canary>(started->device, started->threads);
            started->canary = m_canary->measure();
            m_firstCanary = started->canary;
        } catch (const std::exception &) {
            m_canary.reset();
        }
    }

    // An epoch's load (its process tree's CPU against the machine's, since its turn began)
    // and its canary, measured here after it ended.
    void measureBetweenEpochs(EpochResult *epoch) {
        epoch->load = m_meter.end(m_threads, m_config.device.rfind("cuda", 0) != 0);
        if (!m_canary)
            return;
        try {
            epoch->canary = m_canary->measure();
            markSpeedChange(m_firstCanary, *epoch);
        } catch (const std::exception &) {
            epoch->canary = CanaryTime{};
        }
    }

    std::string failure(const std::string &exit) const {
        std::string reason = "the child run (" + m_program.name + ") ";
        if (!m_problem.empty())
            reason += m_problem;
        else if (m_stopping)
            reason = "stopped";
        else
            reason += !exit.empty() ? exit
                      : m_lines == 0 && !m_program.silentExitHint.empty()
                          ? m_program.silentExitHint
                          : "ended without saying how";
        const std::string tail = m_child.stderrTail();
        if (!tail.empty() && !m_stopping)
            reason += "; its last messages:\n" + tail;
        return reason;
    }

    detail::ChildProcess &m_child;
    const ChildProgram &m_program;
    const RunConfig &m_config;
    TrainingObserver &m_observer;
    ChildReport *m_report;
    RunOutcome m_outcome;
    double m_imagesPerEpoch = 0.0;
    int m_lines = 0;
    bool m_started = false;
    bool m_ended = false;
    bool m_stopping = false;
    Clock::time_point m_stopDeadline{};
    Clock::time_point m_startDeadline = Clock::time_point::max();
    std::string m_problem;
    EpochLoadMeter m_meter;
    std::unique_ptr<Canary> m_canary;
    CanaryTime m_firstCanary{};
    int m_threads = 0;
};

// The turns of a child alone: every turn is its own at once.
class OwnTurns final : public TurnGate {
public:
    void take() override {}
    void pass() override {}
    void leave() override {}
};

RunOutcome cannotStart(const std::string &why, TrainingObserver &observer) {
    RunOutcome outcome;
    outcome.status = RunStatus::Failed;
    outcome.reason = why;
    observer.onRunEnded(outcome);
    return outcome;
}

// ---- the child's side ------------------------------------------------------------------------

void writeLine(const std::string &text, std::atomic<bool> &stop) {
    const std::string data = text + "\n";
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, data.data() + sent, data.size() - sent);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) { // the parent is gone: nobody wants the rest
            stop = true;
            return;
        }
        sent += static_cast<std::size_t>(n);
    }
}

class LineWriter : public TrainingObserver {
public:
    explicit LineWriter(std::atomic<bool> &stop) : m_stop(stop) {}
    void onRunStarted(const RunStarted &info) override {
        const Fingerprint fingerprint = collectFingerprint(); // after the run set its threads
        writeLine(startedEventLine(info, &fingerprint), m_stop);
    }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        writeLine(stepsEventLine(losses), m_stop);
    }
    void onEpochFinished(const EpochResult &epoch) override {
        writeLine(epochEventLine(epoch), m_stop);
    }
    void onRunEnded(const RunOutcome &outcome) override {
        writeLine(endedEventLine(outcome.status, outcome.reason), m_stop);
    }

private:
    std::atomic<bool> &m_stop;
};

// The child's turns: a "take" line from the parent on stdin, a "pass" line back.
class PipeGate : public TurnGate {
public:
    explicit PipeGate(std::atomic<bool> &stop) : m_stop(stop) {}
    void take() override {
        while (!m_stop.load()) {
            pollfd fd = {STDIN_FILENO, POLLIN, 0};
            if (::poll(&fd, 1, 50) <= 0)
                continue;
            char c = 0;
            const ssize_t n = ::read(STDIN_FILENO, &c, 1);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) { // the parent closed it: stop
                m_stop = true;
                return;
            }
            if (c == '\n' && m_line == "take") {
                m_line.clear();
                return;
            }
            m_line = c == '\n' ? std::string() : m_line + c;
        }
    }
    void pass() override { writeLine(passEventLine(), m_stop); }
    void leave() override {}

private:
    std::atomic<bool> &m_stop;
    std::string m_line;
};

} // namespace

RunOutcome runChildTraining(const ChildProgram &program, const RunConfig &config,
                            TrainingObserver &observer, const std::atomic<bool> &stopRequested,
                            TurnGate *gate, ChildReport *report) {
    std::unique_ptr<detail::ChildProcess> child;
    OwnTurns alone; // a channel child always takes turns: alone, they are all its own
    if (gate == nullptr && program.channel)
        gate = &alone;
    try {
        child = std::make_unique<detail::ChildProcess>(
            program.argv,
            detail::ChildOptions{program.echoStderr, program.channel, program.environment});
    } catch (const std::exception &e) {
        if (gate != nullptr)
            gate->leave();
        return cannotStart(e.what(), observer);
    }
    if (report != nullptr)
        report->pid = static_cast<int>(child->pid());
    ChildSession session(*child, program, config, observer, report);
    bool more = true;
    while (more) {
        if (gate != nullptr) {
            gate->take();
            session.beginTurn();
            child->writeLine("take"); // a child that is gone shows as the end of its lines
        }
        more = session.readTurn(stopRequested);
        if (gate != nullptr && more)
            gate->pass();
    }
    RunOutcome outcome = session.finish(stopRequested);
    if (gate != nullptr)
        gate->leave();
    return outcome;
}

RunOutcome runChildTrainingOf(const std::function<ChildProgram()> &makeProgram,
                              const RunConfig &config, TrainingObserver &observer,
                              const std::atomic<bool> &stopRequested, TurnGate *gate,
                              ChildReport *report) {
    ChildProgram program;
    try {
        program = makeProgram();
    } catch (const std::exception &e) {
        if (gate != nullptr)
            gate->leave();
        return cannotStart(e.what(), observer);
    }
    return runChildTraining(program, config, observer, stopRequested, gate, report);
}

RunOutcome runAsChild(const RunConfig &config, bool takeTurns, std::atomic<bool> &stopRequested) {
    LineWriter writer(stopRequested);
    if (!takeTurns)
        return runTraining(config, writer, stopRequested);
    PipeGate gate(stopRequested);
    return runTrainingInTurns(config, writer, stopRequested, gate);
}

} // namespace devicebench
