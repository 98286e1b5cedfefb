// SPDX-License-Identifier: MIT
// Small helpers for tests that run the built programs through sh and read what they wrote.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace devicebench::testing {

// The whole file's bytes ("" when it cannot be opened).
inline std::string slurp(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The names of the entries of folder `dir` (files and folders, not recursive), sorted.
// Throws std::filesystem::filesystem_error when `dir` cannot be listed.
inline std::vector<std::string> namesIn(const std::filesystem::path &dir) {
    std::vector<std::string> names;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

// `s` as one POSIX sh word: in single quotes, each ' written as '\''.
inline std::string shellQuote(const std::string &s) {
    std::string q = "'";
    for (char ch : s) {
        q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    }
    return q + "'";
}

// What a program run by runProgram() left behind.
struct ProgramResult {
    int exitCode = -1; // the exit status; -1 when the shell itself was killed by a signal
    std::string out;   // everything written to stdout
    std::string err;   // everything written to stderr
};

// How runProgram() starts the program, beyond its arguments. Each field is shell text, put in
// the command line as it is (quote values with shellQuote()).
struct ProgramSetup {
    std::string env;        // extra VAR=value words for env(1), e.g. "QT_QPA_PLATFORM=offscreen"
    std::string prefix;     // words before the program, e.g. "prlimit --fsize=2048 "
    std::string shellSetup; // commands run first in the same sh, e.g. "trap '' XFSZ; "
};

// Runs `program args...` through sh (std::system) and waits for it, in a clean data
// environment: DEVICEBENCH_DATA unset, XDG_CACHE_HOME empty, HOME = `home`, stdin /dev/null.
// stdout and stderr go through files in `ioDir`, numbered so none is reused in the process.
inline ProgramResult runProgram(const std::string &program, const std::vector<std::string> &args,
                                const std::filesystem::path &home,
                                const std::filesystem::path &ioDir,
                                const ProgramSetup &setup = {}) {
    static int counter = 0;
    const int n = counter++;
    const std::filesystem::path out = ioDir / ("out" + std::to_string(n));
    const std::filesystem::path err = ioDir / ("err" + std::to_string(n));
    std::string cmd = setup.shellSetup +
                      "env -u DEVICEBENCH_DATA XDG_CACHE_HOME= HOME=" + shellQuote(home.string()) +
                      " " + setup.env + " " + setup.prefix + shellQuote(program);
    for (const auto &a : args) {
        cmd += " " + shellQuote(a);
    }
    cmd += " >" + shellQuote(out.string()) + " 2>" + shellQuote(err.string()) + " </dev/null";
    const int status = std::system(cmd.c_str());
    ProgramResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

// A program started in the background (fork + execv), for tests that signal it mid-run. Its
// stdin is /dev/null; stdout and stderr go to `outPath` (both, appended) or /dev/null when
// empty. The destructor kills (SIGKILL) and reaps it if it is still running.
class ChildProcess {
public:
    ChildProcess(const std::string &program, const std::vector<std::string> &args,
                 const std::string &outPath = "") {
        std::vector<std::string> argv = {program};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<char *> cargv;
        for (auto &a : argv) {
            cargv.push_back(a.data());
        }
        cargv.push_back(nullptr);
        m_pid = ::fork();
        if (m_pid == 0) {
            const int devNull = ::open("/dev/null", O_RDWR);
            const int out = outPath.empty()
                                ? devNull
                                : ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
            ::dup2(devNull, STDIN_FILENO);
            ::dup2(out, STDOUT_FILENO);
            ::dup2(out, STDERR_FILENO);
            ::execv(cargv[0], cargv.data());
            ::_exit(127);
        }
    }
    ~ChildProcess() {
        if (m_pid > 0 && !m_reaped) {
            ::kill(m_pid, SIGKILL);
            wait();
        }
    }
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    bool started() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }
    void signal(int sig) const { ::kill(m_pid, sig); }
    // Whether it has ended (reaped without waiting).
    bool exited() {
        int status = 0;
        if (!m_reaped && ::waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_reaped = true;
            m_status = status;
        }
        return m_reaped;
    }
    // The wait status (waitpid).
    int wait() {
        if (!m_reaped) {
            ::waitpid(m_pid, &m_status, 0);
            m_reaped = true;
        }
        return m_status;
    }

private:
    pid_t m_pid = -1;
    bool m_reaped = false;
    int m_status = 0;
};

} // namespace devicebench::testing
