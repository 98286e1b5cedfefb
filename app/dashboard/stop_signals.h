// SPDX-License-Identifier: MIT
// SIGINT and SIGTERM as a Qt signal, so that the dashboard can end a run the way its own
// "Stop" button and the CLI do (issue #15, fault 7): the run finishes its current training
// step, its record is written as "cancelled" with the epochs it finished, the scripted
// exports are written, and the program exits 130 (128 + SIGINT, as shells report it; the CLI
// uses the same code for both signals).
//
// A signal handler may call only async-signal-safe functions (POSIX, signal-safety(7)), so the
// handler writes one byte to a socket pair and a QSocketNotifier turns it into stopRequested
// on the thread that made the object: the pattern of Qt's documentation, "Calling Qt
// Functions From Unix Signal Handlers".
//
// The handlers are installed with SA_RESETHAND: after the first SIGINT or SIGTERM the default
// action is back, so a second one (Ctrl-C twice) ends the program at once, as users expect;
// a record then stays "running" and the next window shows it as interrupted.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace devicebench {

// The dashboard's exit code after SIGINT or SIGTERM (as devicebench-cli's kExitCancelled).
inline constexpr int kExitStopped = 130;

class StopSignals : public QObject {
    Q_OBJECT

public:
    // Installs the handlers for SIGINT and SIGTERM. One object per process: a second one
    // throws std::logic_error. When the socket pair or a handler cannot be made, installed()
    // is false and error() says why (the default actions then stay in place).
    explicit StopSignals(QObject *parent = nullptr);
    // Restores the actions that were in place before.
    ~StopSignals() override;
    StopSignals(const StopSignals &) = delete;
    StopSignals &operator=(const StopSignals &) = delete;

    bool installed() const { return m_installed; }
    const QString &error() const { return m_error; }

Q_SIGNALS:
    // Once per signal received; `signalNumber` is SIGINT or SIGTERM.
    void stopRequested(int signalNumber);

private:
    void readSignal();

    QSocketNotifier *m_notifier = nullptr;
    bool m_installed = false;
    QString m_error;
};

} // namespace devicebench
