// SPDX-License-Identifier: MIT
// Data-parallel jobs from the command line: `devicebench-cli launch` starting two Gloo ranks over
// loopback, the records and the efficiency it prints, and the faults: a rank killed mid-run, a rank
// that never arrives, a port in use, a wrong address, Ctrl-C on the launcher, a bad launch
// environment. Tiny jobs: synthetic data, 1 thread per rank, a few hundred images.
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace fs = std::filesystem;
using devicebench::readRunRecord;
using devicebench::RunRecord;
using devicebench::testing::ChildProcess;
using devicebench::testing::ProgramSetup;
using devicebench::testing::TempDir;

namespace {

devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args,
                                           const std::string &env = "") {
    static TempDir io("devicebench-cli-launch-io");
    static TempDir home("devicebench-cli-launch-home");
    ProgramSetup setup;
    setup.env = env;
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, home.path(), io.path(), setup);
}

std::vector<std::string> tinyRun(const fs::path &dir, int epochs, int trainImages) {
    return {"run",
            "--device",
            "cpu",
            "--threads",
            "1",
            "--epochs",
            std::to_string(epochs),
            "--train-images",
            std::to_string(trainImages),
            "--test-images",
            "64",
            "--batch-size",
            "32",
            "--synthetic",
            "--out-dir",
            dir.string()};
}

std::vector<std::string> withLaunch(std::vector<std::string> run, std::vector<std::string> opts) {
    opts.insert(opts.begin(), "launch");
    opts.push_back("--");
    opts.insert(opts.end(), run.begin(), run.end());
    return opts;
}

std::vector<fs::path> recordsIn(const fs::path &dir, const std::string &suffix) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() >= suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            found.push_back(e.path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

// A port nothing listens on now (bound, then closed).
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
    socklen_t size = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &size);
    ::close(fd);
    return ntohs(addr.sin_port);
}

// The pids of the processes whose parent is `parent` and whose environment holds `variable`.
std::vector<pid_t> childrenWith(pid_t parent, const std::string &variable) {
    std::vector<pid_t> found;
    for (const auto &e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream stat(e.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream rest(line.substr(close + 2));
        std::string state;
        pid_t ppid = 0;
        rest >> state >> ppid;
        if (ppid != parent)
            continue;
        const std::string environ = devicebench::testing::slurp(e.path() / "environ");
        if (environ.find(std::string(1, '\0') + variable + '\0') != std::string::npos ||
            environ.rfind(variable + '\0', 0) == 0)
            found.push_back(static_cast<pid_t>(std::stoi(name)));
    }
    return found;
}

// Waits up to `seconds` for `done()`.
template <class Done> bool waitFor(double seconds, const Done &done) {
    const auto end = std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<int>(seconds * 1000));
    while (std::chrono::steady_clock::now() < end) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return done();
}

// Whether a record of `dir` ending in `suffix` holds at least one finished epoch.
bool hasEpoch(const fs::path &dir, const std::string &suffix) {
    for (const fs::path &p : recordsIn(dir, suffix)) {
        try {
            if (!readRunRecord(p.string()).epochs.empty())
                return true;
        } catch (const std::exception &) {
        }
    }
    return false;
}

} // namespace

TEST(CliLaunch, TwoRanksWriteAJobRecordTwoRankRecordsAndPrintTheEfficiency) {
    TempDir dir;
    const auto r = runCli(withLaunch(tinyRun(dir.path(), 2, 256), {"--nproc-per-node", "2"}));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // The 2-rank job: its record and its two ranks'; the 1-rank reference job's two records
    // (job, rank 0) beside them in reference/.
    ASSERT_EQ(recordsIn(dir.path(), ".json").size(), 3U) << r.out;
    ASSERT_EQ(recordsIn(dir.path(), "-job.json").size(), 1U) << r.out;
    EXPECT_EQ(recordsIn(dir.path(), "-rank0.json").size(), 1U);
    ASSERT_EQ(recordsIn(dir.path(), "-rank1.json").size(), 1U);
    EXPECT_EQ(recordsIn(dir.path() / "reference", "-job.json").size(), 1U);
    EXPECT_EQ(recordsIn(dir.path() / "reference", "-rank0.json").size(), 1U);
    EXPECT_NE(r.out.find("efficiency: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" images/s on 2 ranks / (2 x "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" %\n"), std::string::npos) << r.out;

    const fs::path rank1 = recordsIn(dir.path(), "-rank1.json").front();
    const std::string jobId = rank1.filename().string().substr(
        0, rank1.filename().string().size() - std::string("-rank1.json").size());
    const RunRecord job = readRunRecord((dir.path() / (jobId + "-job.json")).string());
    const auto &d = job.started.distributed;
    EXPECT_EQ(job.status, "finished");
    EXPECT_EQ(d.worldSize, 2);
    EXPECT_EQ(d.role, "job");
    EXPECT_EQ(d.backend, "gloo");
    EXPECT_TRUE(d.weakScaling);
    EXPECT_EQ(job.config.batchSize, 64) << "global batch: 32 per rank x 2";
    ASSERT_EQ(d.ranks.size(), 2U);
    EXPECT_EQ(d.ranks[1].trainImages, 128);
    ASSERT_EQ(job.epochs.size(), 2U);
    const RunRecord r0 = readRunRecord((dir.path() / (jobId + "-rank0.json")).string());
    const RunRecord r1 = readRunRecord(rank1.string());
    EXPECT_EQ(r1.started.distributed.role, "rank");
    EXPECT_EQ(r1.started.distributed.rank, 1);
    for (std::size_t i = 0; i < job.epochs.size(); ++i) {
        EXPECT_DOUBLE_EQ(job.epochs[i].seconds,
                         std::max(r0.epochs[i].seconds, r1.epochs[i].seconds));
        EXPECT_GE(job.epochs[i].allReduceSeconds, 0.0);
        EXPECT_DOUBLE_EQ(job.epochs[i].testLoss, r1.epochs[i].testLoss);
    }
}

TEST(CliLaunch, ARankKilledMidRunEndsTheJobNamingItAndKeepsTheFinishedEpochs) {
    TempDir dir;
    const fs::path log = dir.path() / "launch.log";
    auto args = withLaunch(tinyRun(dir.path() / "records", 200, 256),
                           {"--nproc-per-node", "2", "--no-reference", "--timeout", "20"});
    ChildProcess launcher(DEVICEBENCH_CLI, args, log.string());
    ASSERT_TRUE(waitFor(60, [&] { return hasEpoch(dir.path() / "records", "-job.json"); }))
        << devicebench::testing::slurp(log);
    const auto rank1 = childrenWith(launcher.pid(), "RANK=1");
    ASSERT_EQ(rank1.size(), 1U) << devicebench::testing::slurp(log);
    ::kill(rank1.front(), SIGKILL);
    const auto killed = std::chrono::steady_clock::now();
    ASSERT_TRUE(waitFor(30, [&] { return launcher.exited(); }));
    EXPECT_LT(std::chrono::steady_clock::now() - killed, std::chrono::seconds(25));
    const int status = launcher.wait();
    EXPECT_EQ(WEXITSTATUS(status), 1);
    const std::string text = devicebench::testing::slurp(log);
    EXPECT_NE(
        text.find("rank 1 (pid " + std::to_string(rank1.front()) + ") was killed by signal 9"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("rank 1 stopped answering"), std::string::npos) << text;
    const RunRecord job = readRunRecord(recordsIn(dir.path() / "records", "-job.json").front());
    EXPECT_EQ(job.status, "failed");
    EXPECT_FALSE(job.epochs.empty()) << "the finished epochs are kept";
    EXPECT_NE(job.reason.find("rank 1"), std::string::npos) << job.reason;
}

TEST(CliLaunch, CtrlCOnTheLauncherStopsEveryRankAndKeepsTheRecords) {
    TempDir dir;
    const fs::path log = dir.path() / "launch.log";
    auto args = withLaunch(tinyRun(dir.path() / "records", 200, 256),
                           {"--nproc-per-node", "2", "--no-reference"});
    ChildProcess launcher(DEVICEBENCH_CLI, args, log.string());
    ASSERT_TRUE(waitFor(60, [&] { return hasEpoch(dir.path() / "records", "-job.json"); }))
        << devicebench::testing::slurp(log);
    launcher.signal(SIGINT);
    ASSERT_TRUE(waitFor(30, [&] { return launcher.exited(); }));
    EXPECT_EQ(WEXITSTATUS(launcher.wait()), 130) << devicebench::testing::slurp(log);
    for (const char *suffix : {"-job.json", "-rank0.json", "-rank1.json"}) {
        const auto found = recordsIn(dir.path() / "records", suffix);
        ASSERT_EQ(found.size(), 1U) << suffix;
        const RunRecord r = readRunRecord(found.front().string());
        EXPECT_EQ(r.status, "cancelled") << suffix << ": " << r.reason;
        EXPECT_FALSE(r.epochs.empty()) << suffix;
    }
}

std::vector<std::string> withTimeout(std::vector<std::string> run, const char *seconds) {
    run.insert(run.end(), {"--timeout", seconds});
    return run;
}

TEST(CliLaunch, ARankThatNeverArrivesEndsTheRendezvousNamingIt) {
    TempDir dir;
    const auto r = runCli(withTimeout(tinyRun(dir.path(), 2, 256), "2"),
                          "WORLD_SIZE=3 RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=" +
                              std::to_string(freePort()));
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("rank 0: error: ranks 1, 2 did not arrive within 2 s"), std::string::npos)
        << r.err;
    EXPECT_TRUE(recordsIn(dir.path(), ".json").empty()) << "nothing trained, nothing written";
}

TEST(CliLaunch, APortInUseIsAClearErrorBeforeAnyRankStarts) {
    TempDir dir;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(fd, 1), 0);
    socklen_t size = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &size);
    const std::string port = std::to_string(ntohs(addr.sin_port));
    const auto r =
        runCli(withLaunch(tinyRun(dir.path(), 2, 256),
                          {"--nproc-per-node", "2", "--no-reference", "--master-port", port}));
    ::close(fd);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("cannot open the rendezvous store on port " + port), std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("job "), std::string::npos) << "no rank started: " << r.out;
    EXPECT_TRUE(recordsIn(dir.path(), ".json").empty());
}

TEST(CliLaunch, AWrongMasterAddressIsAClearErrorBeforeAnyTraining) {
    TempDir dir;
    const std::string port = std::to_string(freePort());
    const auto r = runCli(withTimeout(tinyRun(dir.path(), 2, 256), "2"),
                          "WORLD_SIZE=2 RANK=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=" + port);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("rank 1: error: cannot reach the rendezvous store at 127.0.0.1:" + port +
                         " within 2 s"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(recordsIn(dir.path(), ".json").empty());
}

TEST(CliLaunch, ABadLaunchEnvironmentIsRefusedNamingTheVariable) {
    TempDir dir;
    const auto r = runCli(tinyRun(dir.path(), 2, 256), "WORLD_SIZE=2 RANK=2");
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("RANK='2' must be a whole number from 0 to 1"), std::string::npos)
        << r.err;
    const auto notRun = runCli({"launch", "--nproc-per-node", "2", "--", "sweep"});
    EXPECT_EQ(notRun.exitCode, 2) << notRun.err;
    EXPECT_NE(notRun.err.find("the command after -- must be `run ...` (got 'sweep')"),
              std::string::npos)
        << notRun.err;
}

TEST(CliLaunch, ALauncherKilledOutrightTakesItsRanksWithIt) {
    TempDir dir;
    auto args = withLaunch(tinyRun(dir.path() / "records", 200, 256),
                           {"--nproc-per-node", "2", "--no-reference"});
    ChildProcess launcher(DEVICEBENCH_CLI, args);
    ASSERT_TRUE(waitFor(60, [&] { return hasEpoch(dir.path() / "records", "-job.json"); }));
    const auto ranks = childrenWith(launcher.pid(), "WORLD_SIZE=2");
    ASSERT_EQ(ranks.size(), 2U);
    launcher.signal(SIGKILL);
    launcher.wait();
    // Each rank got SIGTERM (PR_SET_PDEATHSIG): it stops as on Ctrl-C, records kept.
    EXPECT_TRUE(waitFor(30, [&] {
        return std::none_of(ranks.begin(), ranks.end(),
                            [](pid_t pid) { return ::kill(pid, 0) == 0; });
    })) << "orphan ranks left running";
    for (const char *suffix : {"-rank0.json", "-rank1.json"}) {
        const RunRecord r = readRunRecord(recordsIn(dir.path() / "records", suffix).front());
        EXPECT_EQ(r.status, "cancelled") << suffix;
    }
}

TEST(CliLaunch, CtrlCWhileWaitingForAnotherNodeEndsAtOnce) {
    TempDir dir;
    const fs::path log = dir.path() / "launch.log";
    auto args = withLaunch(tinyRun(dir.path(), 2, 256),
                           {"--nnodes", "2", "--node-rank", "0", "--master-port",
                            std::to_string(freePort()), "--timeout", "60"});
    ChildProcess launcher(DEVICEBENCH_CLI, args, log.string());
    ASSERT_TRUE(waitFor(30, [&] {
        return devicebench::testing::slurp(log).find("launch: 1 rank") != std::string::npos;
    }));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    launcher.signal(SIGINT);
    const auto stopped = std::chrono::steady_clock::now();
    ASSERT_TRUE(waitFor(20, [&] { return launcher.exited(); }));
    EXPECT_LT(std::chrono::steady_clock::now() - stopped, std::chrono::seconds(10))
        << "not the 60 s rendezvous timeout";
    EXPECT_EQ(WEXITSTATUS(launcher.wait()), 130) << devicebench::testing::slurp(log);
}
