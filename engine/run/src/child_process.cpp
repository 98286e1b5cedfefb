// SPDX-License-Identifier: MIT
#include "child_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace devicebench::detail {
namespace {

constexpr int kPollMs = 50;
constexpr std::size_t kTailLines = 8;

std::string osError(const std::string &what, int error) {
    return what + ": " + std::strerror(error);
}

void closeFd(int *fd) {
    if (*fd >= 0)
        ::close(*fd);
    *fd = -1;
}

// The child's signals as a fresh program has them: nothing blocked, SIGINT/SIGTERM/SIGPIPE at
// their defaults (this process may block or catch them on its threads).
void resetSignals(posix_spawnattr_t *attr) {
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(attr, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT})
        sigaddset(&defaults, sig);
    posix_spawnattr_setsigdefault(attr, &defaults);
    posix_spawnattr_setpgroup(attr, 0); // a group of its own: stopping it ends its children too
    posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                       POSIX_SPAWN_SETSIGDEF);
}

// This process's environment with `additions` ("NAME=value") added, replacing the same names.
std::vector<std::string> environmentWith(const std::vector<std::string> &additions) {
    std::vector<std::string> out;
    for (char **e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string entry = *e;
        const std::string name = entry.substr(0, entry.find('=') + 1);
        bool replaced = false;
        for (const std::string &a : additions)
            replaced = replaced || a.compare(0, name.size(), name) == 0;
        if (!replaced)
            out.push_back(entry);
    }
    out.insert(out.end(), additions.begin(), additions.end());
    return out;
}

std::vector<char *> pointers(const std::vector<std::string> &texts) {
    std::vector<char *> out;
    for (const std::string &t : texts)
        out.push_back(const_cast<char *>(t.c_str()));
    out.push_back(nullptr);
    return out;
}

// The descriptors of one child: [0] this process's end, [1] the child's, for stdin (or the
// channel), stdout and stderr. -1 where not made.
struct Pipes {
    int in[2] = {-1, -1};
    int out[2] = {-1, -1};
    int err[2] = {-1, -1};
    bool make(bool channel) {
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 ||
            ::pipe2(err, O_CLOEXEC) != 0)
            return false;
        if (!channel)
            return ::pipe2(out, O_CLOEXEC) == 0;
        out[0] = ::fcntl(in[0], F_DUPFD_CLOEXEC, 0);
        if (in[1] == kChannelFd) { // dup2 onto itself would keep its close-on-exec flag
            const int moved = ::fcntl(in[1], F_DUPFD_CLOEXEC, kChannelFd + 1);
            ::close(in[1]);
            in[1] = moved;
        }
        return out[0] >= 0 && in[1] >= 0;
    }
    void closeChildEnds() {
        for (int *fd : {&in[1], &out[1], &err[1]})
            closeFd(fd);
    }
    void closeAll() {
        closeChildEnds();
        for (int *fd : {&in[0], &out[0], &err[0]})
            closeFd(fd);
    }
};

void addConnections(posix_spawn_file_actions_t *actions, const Pipes &p, bool channel) {
    if (!channel) {
        posix_spawn_file_actions_adddup2(actions, p.in[1], 0);
        posix_spawn_file_actions_adddup2(actions, p.out[1], 1);
        posix_spawn_file_actions_adddup2(actions, p.err[1], 2);
        return;
    }
    posix_spawn_file_actions_adddup2(actions, p.err[1], 1);
    posix_spawn_file_actions_adddup2(actions, p.err[1], 2);
    posix_spawn_file_actions_adddup2(actions, p.in[1], kChannelFd);
    posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0);
}

} // namespace

ChildProcess::ChildProcess(const std::vector<std::string> &argv, const ChildOptions &options)
    : m_echoStderr(options.echoStderr) {
    if (argv.empty())
        throw std::invalid_argument("a child process needs a program");
    Pipes pipes;
    if (!pipes.make(options.channel)) {
        const int error = errno;
        pipes.closeAll();
        throw std::runtime_error(osError("cannot start " + argv[0], error));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    addConnections(&actions, pipes, options.channel);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    resetSignals(&attr);
    std::vector<char *> args = pointers(argv);
    const std::vector<std::string> environment = environmentWith(options.environment);
    std::vector<char *> envp = pointers(environment);
    const int spawned =
        ::posix_spawnp(&m_pid, argv[0].c_str(), &actions, &attr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    pipes.closeChildEnds();
    m_in = pipes.in[0];
    m_out = pipes.out[0];
    m_err = pipes.err[0];
    if (spawned != 0) {
        closeFd(&m_in);
        closeFd(&m_out);
        closeFd(&m_err);
        m_pid = -1;
        throw std::runtime_error(osError("cannot start " + argv[0], spawned));
    }
}

ChildProcess::~ChildProcess() {
    if (m_pid > 0 && !reap(false)) {
        ::kill(-m_pid, SIGKILL);
        reap(true);
    }
    closeFd(&m_in);
    closeFd(&m_out);
    closeFd(&m_err);
}

bool ChildProcess::reap(bool block) {
    if (m_exited || m_pid <= 0)
        return true;
    int status = 0;
    pid_t got = 0;
    do {
        got = ::waitpid(m_pid, &status, block ? 0 : WNOHANG);
    } while (got < 0 && errno == EINTR);
    if (got == m_pid || got < 0) { // < 0: not our child any more (reaped elsewhere)
        m_exited = true;
        m_status = got == m_pid ? status : 0;
    }
    return m_exited;
}

void ChildProcess::drainStderr() {
    char chunk[4096];
    const ssize_t n = m_err >= 0 ? ::read(m_err, chunk, sizeof chunk) : 0;
    if (n <= 0) {
        if (n == 0 || (errno != EINTR && errno != EAGAIN))
            closeFd(&m_err);
        return;
    }
    if (m_echoStderr) { // best effort: a closed stderr loses the copy, not the tail
        [[maybe_unused]] const ssize_t written =
            ::write(STDERR_FILENO, chunk, static_cast<std::size_t>(n));
    }
    m_errBuffer.append(chunk, static_cast<std::size_t>(n));
    std::size_t newline = 0;
    while ((newline = m_errBuffer.find('\n')) != std::string::npos) {
        m_errLines.push_back(m_errBuffer.substr(0, newline));
        m_errBuffer.erase(0, newline + 1);
        if (m_errLines.size() > kTailLines)
            m_errLines.pop_front();
    }
}

// Reads what stdout and stderr have, waiting up to one poll interval. False at stdout's end.
bool ChildProcess::fillStdout(const std::atomic<bool> &stop, bool *stopped) {
    pollfd fds[2] = {{m_out, POLLIN, 0}, {m_err, POLLIN, 0}};
    const int ready = ::poll(fds, m_err >= 0 ? 2 : 1, kPollMs);
    if (ready < 0 && errno != EINTR)
        return false;
    if (m_err >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0)
        drainStderr();
    if (ready == 0 && reap(false))
        return false; // it exited: what its descendants still hold open is no line of its
    if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        char chunk[65536];
        const ssize_t n = ::read(m_out, chunk, sizeof chunk);
        if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
            return false;
        if (n > 0)
            m_outBuffer.append(chunk, static_cast<std::size_t>(n));
    }
    *stopped = stop.load();
    return true;
}

ChildProcess::Read ChildProcess::readLine(std::string *line, const std::atomic<bool> &stop,
                                          std::chrono::steady_clock::time_point until) {
    for (;;) {
        const std::size_t newline = m_outBuffer.find('\n');
        if (newline != std::string::npos) {
            *line = m_outBuffer.substr(0, newline);
            m_outBuffer.erase(0, newline + 1);
            return Read::Line;
        }
        bool stopped = false;
        if (m_out < 0 || !fillStdout(stop, &stopped)) {
            closeFd(&m_out);
            if (m_outBuffer.empty())
                return Read::End;
            *line = std::move(m_outBuffer); // a last line without its newline
            m_outBuffer.clear();
            return Read::Line;
        }
        if (stopped && m_outBuffer.find('\n') == std::string::npos)
            return Read::Stopped;
        if (std::chrono::steady_clock::now() > until && m_outBuffer.find('\n') == std::string::npos)
            return Read::Late;
    }
}

bool ChildProcess::writeLine(const std::string &text) {
    const std::string data = text + "\n";
    std::size_t sent = 0;
    while (sent < data.size() && m_in >= 0) {
        const ssize_t n = ::send(m_in, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += static_cast<std::size_t>(n);
    }
    return sent == data.size();
}

void ChildProcess::signalGroup(int signal) {
    if (m_pid > 0 && !reap(false))
        ::kill(-m_pid, signal);
}

void ChildProcess::terminate(std::chrono::milliseconds grace) {
    if (m_pid <= 0 || reap(false))
        return;
    ::kill(-m_pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    while (std::chrono::steady_clock::now() < deadline) {
        if (reap(false))
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(-m_pid, SIGKILL);
    reap(true);
}

std::string ChildProcess::wait() {
    if (m_in >= 0)                 // a child waiting for its turn reads the end and stops
        ::shutdown(m_in, SHUT_WR); // (the channel has a second descriptor: close is not enough)
    closeFd(&m_in);
    for (int i = 0; i < 100 && !reap(false); ++i) // up to 5 s after its stdout ended
        std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
    if (!reap(false))
        terminate();
    // Its group outlives it while processes it forked (DataLoader workers) are left: the
    // group's id cannot be reused before they are gone, so this reaches only them.
    ::kill(-m_pid, SIGKILL);
    while (m_err >= 0) {
        pollfd fd = {m_err, POLLIN, 0};
        if (::poll(&fd, 1, 0) <= 0)
            break;
        drainStderr();
    }
    if (WIFEXITED(m_status))
        return WEXITSTATUS(m_status) == 0
                   ? ""
                   : "exited with code " + std::to_string(WEXITSTATUS(m_status));
    if (WIFSIGNALED(m_status))
        return "was killed by signal " + std::to_string(WTERMSIG(m_status)) + " (" +
               ::strsignal(WTERMSIG(m_status)) + ")";
    return "";
}

std::string ChildProcess::stderrTail() const {
    std::string text;
    for (const std::string &l : m_errLines)
        text += (text.empty() ? "" : "\n") + l;
    if (!m_errBuffer.empty())
        text += (text.empty() ? "" : "\n") + m_errBuffer;
    return text;
}

} // namespace devicebench::detail
