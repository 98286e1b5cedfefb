// SPDX-License-Identifier: MIT
// A Python's answer to a program's check mode (python_check.h).
#include "python_check.h"

#include "child_process.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace devicebench::detail {
namespace {

// An interpreter that has not answered its check by then is taken as unusable.
constexpr auto kCheckTimeout = std::chrono::seconds(120);

// Sets `flag` when `limit` passes, unless finished first.
class Deadline {
public:
    Deadline(std::atomic<bool> &flag, std::chrono::seconds limit)
        : m_thread([this, &flag, limit] {
              std::unique_lock<std::mutex> lock(m_mutex);
              if (!m_done.wait_for(lock, limit, [this] { return m_finished; }))
                  flag = true;
          }) {}
    ~Deadline() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_finished = true;
        }
        m_done.notify_all();
        m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_finished = false;
    std::thread m_thread; // last: started once the members above exist
};

// The check line's "problem" ("" when usable), or why the line cannot be read.
std::string checkLineProblem(const std::string &line, const std::string &what) {
    try {
        const nlohmann::json j = nlohmann::json::parse(line);
        const auto problem = j.find("problem");
        if (problem != j.end() && problem->is_string())
            return problem->get<std::string>();
    } catch (const nlohmann::json::exception &) {
    }
    return "it answered " + what + " with a line DeviceBench does not read: " + line.substr(0, 200);
}

} // namespace

std::string pythonCheckProblem(const std::vector<std::string> &argv, const std::string &what,
                               const std::vector<std::string> &environment) {
    const std::string &python = argv.at(0);
    std::string line;
    std::string exit;
    std::string tail;
    try {
        ChildProcess child(argv, ChildOptions{false, false, environment});
        std::atomic<bool> late{false};
        {
            Deadline deadline(late, kCheckTimeout);
            if (child.readLine(&line, late) == ChildProcess::Read::Stopped)
                return "Python " + python + " did not answer " + what + " within " +
                       std::to_string(kCheckTimeout.count()) + " s";
        }
        exit = child.wait();
        tail = child.stderrTail();
    } catch (const std::exception &e) {
        return "Python " + python + " cannot be started (" + e.what() +
               "): install Python 3 with torch and torchvision (apt install python3-torch "
               "python3-torchvision), or name another with --python";
    }
    if (line.empty())
        return "Python " + python + " did not run " + what + " (" +
               (exit.empty() ? std::string("no answer") : exit) + ")" +
               (tail.empty() ? std::string() : ": " + tail);
    const std::string problem = checkLineProblem(line, what);
    return problem.empty() ? std::string() : "Python " + python + ": " + problem;
}

} // namespace devicebench::detail
