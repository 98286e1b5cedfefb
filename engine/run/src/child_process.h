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

class ChildProcess {
public:
    // Starts argv[0] (a path, or a name looked up in PATH) with `argv`. Throws
    // std::runtime_error "cannot start <argv[0]>: <OS error>" when it cannot.
    // `echoStderr`: what the child writes on stderr is also written to this process's stderr.
    explicit ChildProcess(const std::vector<std::string> &argv, bool echoStderr = false);
    ~ChildProcess(); // ends the group if still running (terminate) and reaps it
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    enum class Read { Line, End, Stopped };
    // The next stdout line (without its newline) into *line. End: the child closed its stdout.
    // Stopped: `stop` turned true before a line came (checked every 50 ms).
    Read readLine(std::string *line, const std::atomic<bool> &stop);
    // Writes `text` and a newline to the child's stdin; false when the child has closed it.
    bool writeLine(const std::string &text);
    // A signal to the child's whole process group (nothing once it has exited): SIGTERM asks a
    // child run to end cancelled, SIGKILL ends it.
    void signalGroup(int signal);
    // SIGTERM to the child's process group; SIGKILL to it if the child has not exited after
    // `grace`. Returns at once when the child has exited already.
    void terminate(std::chrono::milliseconds grace = std::chrono::milliseconds(1000));
    // Waits for the child to exit (after its stdout ended) and describes how: "" for exit code
    // 0, else "exited with code 3" or "was killed by signal 9 (Killed)".
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
    int m_in = -1;  // the child's stdin (a socket: writes never raise SIGPIPE)
    int m_out = -1; // its stdout
    int m_err = -1; // its stderr
    std::string m_outBuffer;
    std::string m_errBuffer;
    std::deque<std::string> m_errLines;
    bool m_echoStderr = false;
    bool m_exited = false;
    int m_status = 0;
};

} // namespace devicebench::detail
