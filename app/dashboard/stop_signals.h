// SPDX-License-Identifier: MIT
// SIGINT, SIGTERM, SIGHUP and SIGQUIT as a Qt signal, so that the dashboard ends a run as its
// Stop button and the CLI do: the record is written "cancelled" naming the signal
// (stop_cause.h), and the program exits 130. SIGPIPE is ignored while it lives. A signal handler
// may call only async-signal-safe functions, so it writes a byte to a socket pair that a
// QSocketNotifier reads (Qt's "Calling Qt Functions From Unix Signal Handlers"). SA_RESETHAND:
// a second Ctrl-C ends the program at once.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace devicebench {

// The dashboard's exit code after a stop signal: 128 + SIGINT, as the CLI's kExitCancelled.
inline constexpr int kExitStopped = 130;

class StopSignals : public QObject {
    Q_OBJECT

public:
    // Installs the handlers (and ignores SIGPIPE). One object per process: a second one
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
    // Once per signal received; `signalNumber` is SIGINT, SIGTERM, SIGHUP or SIGQUIT.
    void stopRequested(int signalNumber);

private:
    void readSignal();

    QSocketNotifier *m_notifier = nullptr;
    bool m_installed = false;
    QString m_error;
};

} // namespace devicebench
