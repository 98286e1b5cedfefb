// SPDX-License-Identifier: MIT
#include "stop_signals.h"

#include "devicebench/stop_cause.h"

#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace devicebench {

namespace {

int g_fds[2] = {-1, -1}; // [0] written by the handler, [1] read by the notifier
bool g_exists = false;
int g_installed = 0; // handlers installed, in kSignals order
// Each way a person or the system ends the program: Ctrl-C, kill, a closed terminal, Ctrl-\.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
constexpr int kCount = sizeof(kSignals) / sizeof(kSignals[0]);
struct sigaction g_previous[kCount];
struct sigaction g_previousPipe;
bool g_pipeIgnored = false;

extern "C" void onStopSignal(int signalNumber) {
    const int saved = errno;
    noteStopSignal(signalNumber); // the runs' reasons name it
    const char byte = static_cast<char>(signalNumber);
    [[maybe_unused]] const ssize_t n = ::write(g_fds[0], &byte, 1);
    errno = saved;
}

} // namespace

StopSignals::StopSignals(QObject *parent) : QObject(parent) {
    if (g_exists)
        throw std::logic_error("StopSignals: one object per process");
    g_exists = true;
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_fds) != 0) {
        m_error = QStringLiteral("socketpair: ") + QString::fromLocal8Bit(std::strerror(errno));
        return;
    }
    // The handler must never block on a full socket.
    ::fcntl(g_fds[0], F_SETFL, ::fcntl(g_fds[0], F_GETFL) | O_NONBLOCK);
    m_notifier = new QSocketNotifier(g_fds[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &StopSignals::readSignal);
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = static_cast<int>(SA_RESTART | SA_RESETHAND);
    // A closed stderr or stdout must not kill the program mid-run: writes fail instead.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    g_pipeIgnored = ::sigaction(SIGPIPE, &ignore, &g_previousPipe) == 0;
    for (int i = 0; i < kCount; ++i) {
        if (::sigaction(kSignals[i], &action, &g_previous[i]) != 0) {
            m_error = QStringLiteral("sigaction: ") + QString::fromLocal8Bit(std::strerror(errno));
            return;
        }
        ++g_installed;
    }
    m_installed = true;
}

StopSignals::~StopSignals() {
    for (int i = 0; i < g_installed; ++i)
        ::sigaction(kSignals[i], &g_previous[i], nullptr);
    if (g_pipeIgnored)
        ::sigaction(SIGPIPE, &g_previousPipe, nullptr);
    g_pipeIgnored = false;
    g_installed = 0;
    delete m_notifier;
    for (int &fd : g_fds) {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
    g_exists = false;
}

void StopSignals::readSignal() {
    char byte = 0;
    if (::read(g_fds[1], &byte, 1) == 1)
        Q_EMIT stopRequested(static_cast<unsigned char>(byte));
}

} // namespace devicebench
