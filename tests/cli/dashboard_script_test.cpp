// SPDX-License-Identifier: MIT
// The dashboard as a script runs it: a scripted session exports exactly the runs it was given, and
// SIGINT/SIGTERM during a run end it as the CLI does. The dashboard runs offscreen
// (QT_QPA_PLATFORM=offscreen) with its settings, data and cache in a temporary home (XDG_* set), as
// a child process.
#include "cifar_files.h"
#include "process_support.h"
#include "stop_signals.h"

#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::namesIn;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;

namespace {

const fs::path kExamples = fs::path(DEVICEBENCH_SOURCE_DIR) / "docs" / "examples";

// A user's home for one test: the dashboard's saved runs are under data/.
struct Home {
    TempDir dir{"devicebench-dashboard-home"};
    fs::path savedRuns() const {
        return dir.path() / "data" / "DeviceBench" / "DeviceBench" / "runs";
    }
    std::vector<std::string> env() const {
        return {"QT_QPA_PLATFORM=offscreen",
                "HOME=" + dir.path().string(),
                "XDG_DATA_HOME=" + (dir.path() / "data").string(),
                "XDG_CONFIG_HOME=" + (dir.path() / "config").string(),
                "XDG_CACHE_HOME=" + (dir.path() / "cache").string(),
                "XDG_RUNTIME_DIR=" + dir.path().string()};
    }
};

// The dashboard started in the background with `env` added to its environment; stdout and
// stderr go to files in `io`.
class Dashboard {
public:
    Dashboard(const std::vector<std::string> &args, const std::vector<std::string> &env,
              const fs::path &io)
        : m_err(io / "stderr.txt") {
        std::vector<std::string> argv = {DEVICEBENCH_DASHBOARD};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<char *> cargv;
        for (auto &a : argv)
            cargv.push_back(a.data());
        cargv.push_back(nullptr);
        std::vector<std::string> envCopy = env;
        const std::string out = (io / "stdout.txt").string();
        const std::string err = m_err.string();
        m_pid = ::fork();
        if (m_pid == 0) {
            for (auto &e : envCopy)
                ::putenv(e.data());
            const int in = ::open("/dev/null", O_RDONLY);
            const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            const int r = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            ::dup2(in, STDIN_FILENO);
            ::dup2(o, STDOUT_FILENO);
            ::dup2(r, STDERR_FILENO);
            ::execv(cargv[0], cargv.data());
            ::_exit(127);
        }
    }
    ~Dashboard() {
        if (m_pid > 0 && !m_reaped) {
            ::kill(m_pid, SIGKILL);
            wait();
        }
    }
    Dashboard(const Dashboard &) = delete;
    Dashboard &operator=(const Dashboard &) = delete;

    void signal(int sig) const { ::kill(m_pid, sig); }
    bool exited() {
        if (!m_reaped && ::waitpid(m_pid, &m_status, WNOHANG) == m_pid)
            m_reaped = true;
        return m_reaped;
    }
    int wait() { // the wait status (waitpid)
        if (!m_reaped) {
            ::waitpid(m_pid, &m_status, 0);
            m_reaped = true;
        }
        return m_status;
    }
    std::string err() const { return slurp(m_err); }

private:
    fs::path m_err;
    pid_t m_pid = -1;
    bool m_reaped = false;
    int m_status = 0;
};

// Runs the dashboard to its end; returns its exit code (-1 when a signal ended it).
int runDashboard(const std::vector<std::string> &args, const Home &home) {
    Dashboard d(args, home.env(), home.dir.path());
    const int status = d.wait();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The runs' rows of a summary CSV (one per run; the published rows, status "published", that
// follow them when "Published results" is on are not runs).
int summaryRows(const fs::path &csv) {
    std::ifstream in(csv);
    std::string line;
    int rows = -1; // the header
    while (std::getline(in, line))
        rows += line.empty() || line.find(",published,") != std::string::npos ? 0 : 1;
    return rows;
}

// The published rows of a summary CSV.
int publishedRows(const fs::path &csv) {
    std::ifstream in(csv);
    int rows = 0;
    for (std::string line; std::getline(in, line);)
        rows += line.find(",published,") != std::string::npos ? 1 : 0;
    return rows;
}

// Polls `folder` until it holds one record with at least one finished epoch; "" or why not.
std::string waitForFirstEpoch(Dashboard &d, const fs::path &folder) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);
    while (std::chrono::steady_clock::now() < deadline) {
        std::error_code ec;
        if (fs::is_directory(folder, ec)) {
            for (const auto &entry : fs::directory_iterator(folder, ec)) {
                try {
                    if (!devicebench::readRunRecord(entry.path().string()).epochs.empty())
                        return "";
                } catch (const devicebench::RecordError &) {
                    // not written whole yet is impossible (atomic writes); a parse error is
                    // reported by the caller's read below
                }
            }
        }
        if (d.exited())
            return "the dashboard ended before epoch 1: " + d.err();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return "timed out";
}

} // namespace

TEST(DashboardScript, ExportsExactlyTheImportedRunsAndLeavesTheSavedRunsUntouched) {
    const Home home;
    // An interactive-like session that keeps what it imports in the saved runs.
    ASSERT_EQ(runDashboard({"--import", (kExamples / "cpu-1-thread.json").string(), "--export-csv",
                            (home.dir.path() / "s1.csv").string(), "--quit", "--with-history"},
                           home),
              0);
    const auto saved = namesIn(home.savedRuns());
    ASSERT_EQ(saved.size(), 1u);
    // The case that leaked: a later scripted session with two other records.
    const fs::path s2 = home.dir.path() / "s2.csv";
    ASSERT_EQ(runDashboard({"--import", (kExamples / "cpu-2-threads.json").string(), "--import",
                            (kExamples / "cpu-2-threads-batch32.json").string(), "--export-csv",
                            s2.string(), "--quit"},
                           home),
              0);
    EXPECT_EQ(summaryRows(home.dir.path() / "s2-summary.csv"), 2);
    EXPECT_EQ(publishedRows(home.dir.path() / "s2-summary.csv"), 4) << "the article's rows";
    EXPECT_EQ(namesIn(home.savedRuns()), saved);
}

TEST(DashboardScript, WithHistoryExportsTheSavedRunsBesideTheGivenOnes) {
    const Home home;
    ASSERT_EQ(runDashboard({"--import", (kExamples / "cpu-1-thread.json").string(), "--quit",
                            "--with-history"},
                           home),
              0);
    const fs::path csv = home.dir.path() / "all.csv";
    ASSERT_EQ(runDashboard({"--import", (kExamples / "cpu-2-threads.json").string(), "--export-csv",
                            csv.string(), "--quit", "--with-history"},
                           home),
              0);
    EXPECT_EQ(summaryRows(home.dir.path() / "all-summary.csv"), 2);
    EXPECT_EQ(namesIn(home.savedRuns()).size(), 2u);
}

TEST(DashboardScript, RunsFolderGetsTheSessionsRunRecordAndNothingElse) {
    const Home home;
    const fs::path folder = home.dir.path() / "records";
    ASSERT_EQ(runDashboard({"--synthetic", "--epochs", "1", "--warmup-epochs", "0",
                            "--train-images", "64", "--test-images", "32", "--run", "cpu:1",
                            "--import", (kExamples / "cpu-1-thread.json").string(), "--runs-folder",
                            folder.string(), "--quit"},
                           home),
              0);
    const auto names = namesIn(folder);
    ASSERT_EQ(names.size(), 1u);
    const auto record = devicebench::readRunRecord((folder / names[0]).string());
    EXPECT_EQ(names[0], record.runId + ".json");
    EXPECT_EQ(record.status, "finished");
    EXPECT_FALSE(fs::exists(home.savedRuns()));
}

TEST(DashboardScript, APrecisionGivenOnTheCommandLineIsTheScriptedRunsAndIsRecorded) {
    const Home home;
    const fs::path folder = home.dir.path() / "records";
    ASSERT_EQ(runDashboard({"--synthetic", "--epochs", "1", "--warmup-epochs", "0",
                            "--train-images", "64", "--test-images", "32", "--run", "cpu:1",
                            "--precision", "bf16", "--runs-folder", folder.string(), "--quit"},
                           home),
              0);
    const auto names = namesIn(folder);
    ASSERT_EQ(names.size(), 1u);
    const auto record = devicebench::readRunRecord((folder / names[0]).string());
    EXPECT_EQ(record.precision, "bfloat16");
    EXPECT_EQ(record.status, "finished");
}

// fp16 without a scripted run (a saved setting of a GPU user): the window opens; only a CPU
// run would be refused, by the controller.
TEST(DashboardScript, Fp16WithoutAScriptedRunStillOpensTheWindow) {
    const Home home;
    EXPECT_EQ(runDashboard({"--precision", "fp16", "--quit"}, home), 0);
}

TEST(DashboardScript, AnUnknownPrecisionOrFp16OnTheCpuIsRefusedBeforeTheWindowOpens) {
    const Home home;
    Dashboard unknown({"--precision", "fp8", "--quit"}, home.env(), home.dir.path());
    const int status = unknown.wait();
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_NE(WEXITSTATUS(status), 0);
    EXPECT_NE(unknown.err().find("--precision: 'fp8' is not fp32, bf16 or fp16"), std::string::npos)
        << unknown.err();
    Dashboard fp16({"--synthetic", "--precision", "fp16", "--run", "cpu", "--quit"}, home.env(),
                   home.dir.path());
    const int refused = fp16.wait();
    ASSERT_TRUE(WIFEXITED(refused));
    EXPECT_NE(WEXITSTATUS(refused), 0);
    EXPECT_NE(fp16.err().find("fp16 is CUDA only"), std::string::npos) << fp16.err();
}

using devicebench::testing::StopSignal; // each signal, and the words its record says

class DashboardStopSignal : public ::testing::TestWithParam<StopSignal> {};

TEST_P(DashboardStopSignal, DuringARunWritesACancelledRecordExportsWhatFinishedAndExits130) {
    const Home home;
    const fs::path folder = home.dir.path() / "records";
    const fs::path csv = home.dir.path() / "stopped.csv";
    Dashboard d({"--synthetic", "--epochs", "20", "--warmup-epochs", "1", "--train-images", "640",
                 "--test-images", "64", "--threads", "1", "--run", "cpu:1", "--runs-folder",
                 folder.string(), "--export-csv", csv.string(), "--quit"},
                home.env(), home.dir.path());
    const std::string problem = waitForFirstEpoch(d, folder);
    ASSERT_EQ(problem, "");
    d.signal(GetParam().number);
    const int status = d.wait();
    ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status) << "\n" << d.err();
    EXPECT_EQ(WEXITSTATUS(status), 130) << d.err();
    const auto names = namesIn(folder);
    ASSERT_EQ(names.size(), 1u);
    const auto record = devicebench::readRunRecord((folder / names[0]).string());
    EXPECT_EQ(record.status, "cancelled");
    EXPECT_NE(record.reason.find(std::string("stopped by ") + GetParam().cause), std::string::npos)
        << record.reason;
    EXPECT_GE(record.epochs.size(), 1u);
    EXPECT_LT(record.epochs.size(), 20u);
    EXPECT_EQ(summaryRows(home.dir.path() / "stopped-summary.csv"), 1);
    EXPECT_NE(slurp(csv).find("cancelled"), std::string::npos) << slurp(csv);
    EXPECT_NE(d.err().find("stopping the run after its current step"), std::string::npos)
        << d.err();
}

INSTANTIATE_TEST_SUITE_P(Signals, DashboardStopSignal, devicebench::testing::stopSignals(),
                         devicebench::testing::stopSignalName);
