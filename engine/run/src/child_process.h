// SPDX-License-Identifier: MIT
// A child process for a child run (child_run.h): started in a process group of its own with
// its stdin, stdout and stderr connected to this process; its stdout read line by line, the
// last lines of its stderr kept for messages. Engine-internal.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <string>
#include <sys/types.h>
#include <vector>

namespace devicebench::detail {

// How a child is connected besides its argv.
struct ChildOptions {
    bool echoStderr = false; // what it writes on stderr also goes to this process's stderr
    // Its lines (both ways) on a socket of their own, its descriptor kChannelFd: its stdout
    // then joins its stderr (kept and echoed as stderr) and its stdin is /dev/null, so that
    // nothing the program prints is read as a line.
    bool channel = false;
    std::vector<std::string> environment; // "NAME=value", added to this process's (or replacing)
};

// The child's descriptor of the channel (ChildOptions::channel).
inline constexpr int kChannelFd = 3;

class ChildProcess {
public:
    // Starts argv[0] (a path, or a name looked up in PATH) with `argv`. Throws
    // std::runtime_error "cannot start <argv[0]>: <OS error>" when it cannot.
    ChildProcess(const std::vector<std::string> &argv, const ChildOptions &options);
    explicit ChildProcess(const std::vector<std::string> &argv, bool echoStderr = false)
        : ChildProcess(argv, ChildOptions{echoStderr, false, {}}) {}
    ~ChildProcess(); // ends the group if still running (terminate) and reaps it
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    enum class Read { Line, End, Stopped, Late };
    // The next stdout (or channel) line, without its newline, into *line. End: the child closed
    // it, or the child itself exited (its descendants may hold it still). Stopped: `stop`
    // turned true before a line came (checked every 50 ms). Late: `until` passed first.
    Read readLine(
        std::string *line, const std::atomic<bool> &stop,
        std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max());
    // Writes `text` and a newline to the child's stdin; false when the child has closed it.
    bool writeLine(const std::string &text);
    // A signal to the child's whole process group (nothing once it has exited): SIGTERM asks a
    // child run to end cancelled, SIGKILL ends it.
    void signalGroup(int signal);
    // SIGTERM to the child's process group; SIGKILL to it if the child has not exited after
    // `grace`. Returns at once when the child has exited already.
    void terminate(std::chrono::milliseconds grace = std::chrono::milliseconds(1000));
    // Waits for the child to exit (after its stdout ended), kills what is left of its process
    // group (workers it forked) and describes how it ended: "" for exit code 0, else "exited
    // with code 3" or "was killed by signal 9 (Killed)".
    std::string wait();
    // The last lines the child wrote on stderr (at most 8), joined with "\n".
    std::string stderrTail() const;
    // The child's process id (also its process group's).
    pid_t pid() const { return m_pid; }

private:
    bool fillStdout(const std::atomic<bool> &stop, bool *stopped);
    void drainStderr();
    bool reap(bool block);

    pid_t m_pid = -1;
    int m_in = -1;  // the child's stdin, or the channel (a socket: writes never raise SIGPIPE)
    int m_out = -1; // its stdout, or the channel (a second descriptor of it)
    int m_err = -1; // its stderr
    std::string m_outBuffer;
    std::string m_errBuffer;
    std::deque<std::string> m_errLines;
    bool m_echoStderr = false;
    bool m_exited = false;
    int m_status = 0;
};

} // namespace devicebench::detail
