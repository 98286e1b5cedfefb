// SPDX-License-Identifier: MIT
// `devicebench-cli launch`: this host's ranks of a data-parallel job, started as torchrun does
// (cli_launch.h).
#include "cli_launch.h"

#include "devicebench/devices.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <system_error>
#include <thread>
#include <vector>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace devicebench::cli {
namespace {

struct Child {
    int rank = 0;
    pid_t pid = -1;
    bool running = false;
    int status = 0;
};

std::string describeExit(int status) {
    if (WIFSIGNALED(status))
        return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
               strsignal(WTERMSIG(status)) + ")";
    return "exited with code " + std::to_string(WEXITSTATUS(status));
}

bool failed(int status) { return WIFSIGNALED(status) || WEXITSTATUS(status) != 0; }

// `command` with an explicit thread count: "--threads 0" or none becomes this host's cores
// shared by `ranks` ranks (so a 1-rank reference job uses the same threads per rank).
std::vector<std::string> withThreads(std::vector<std::string> command, int ranks) {
    const std::string share = std::to_string(std::max(1, availableCores() / ranks));
    for (std::size_t i = 0; i < command.size(); ++i) {
        if (command[i] == "--threads" && i + 1 < command.size()) {
            if (command[i + 1] == "0")
                command[i + 1] = share;
            return command;
        }
        if (command[i].rfind("--threads=", 0) == 0) {
            if (command[i] == "--threads=0")
                command[i] = "--threads=" + share;
            return command;
        }
    }
    command.push_back("--threads");
    command.push_back(share);
    return command;
}

// The value of option `name` in `command` ("--name value" or "--name=value"); "" when absent.
std::string optionValue(const std::vector<std::string> &command, const std::string &name) {
    for (std::size_t i = 0; i < command.size(); ++i) {
        if (command[i] == name && i + 1 < command.size())
            return command[i + 1];
        if (command[i].rfind(name + "=", 0) == 0)
            return command[i].substr(name.size() + 1);
    }
    return {};
}

bool hasOption(const std::vector<std::string> &command, const std::string &name) {
    for (const std::string &word : command)
        if (word == name || word.rfind(name + "=", 0) == 0)
            return true;
    return false;
}

// One job's ranks on this host: the command they run and where they meet.
struct RankGroup {
    std::vector<std::string> command; // "run" and its options
    int firstRank = 0;                // RANK of local rank 0
    int localRanks = 1;
    int worldSize = 1;
    std::string masterAddr;
    int masterPort = 0;
};

// In the forked child: torchrun's variables for local rank `local`, then this executable with
// the group's command. Never returns.
[[noreturn]] void execRank(const std::string &self, const RankGroup &group, int local) {
    // A rank ends with its launcher (SIGKILL'd, its terminal closed): SIGTERM, which stops it
    // as Ctrl-C does, rather than an orphan training for hours.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() == 1)
        std::_Exit(kExitCancelled); // the launcher died before prctl
    ::setenv("RANK", std::to_string(group.firstRank + local).c_str(), 1);
    ::setenv("WORLD_SIZE", std::to_string(group.worldSize).c_str(), 1);
    ::setenv("LOCAL_RANK", std::to_string(local).c_str(), 1);
    ::setenv("LOCAL_WORLD_SIZE", std::to_string(group.localRanks).c_str(), 1);
    ::setenv("MASTER_ADDR", group.masterAddr.c_str(), 1);
    ::setenv("MASTER_PORT", std::to_string(group.masterPort).c_str(), 1);
    ::setenv("TORCHELASTIC_USE_AGENT_STORE", "True", 1);
    std::vector<char *> argv;
    argv.push_back(const_cast<char *>(self.c_str()));
    for (const std::string &word : group.command)
        argv.push_back(const_cast<char *>(word.c_str()));
    argv.push_back(nullptr);
    ::execv(self.c_str(), argv.data());
    std::fprintf(stderr, "devicebench-cli launch: error: cannot run %s: %s\n", self.c_str(),
                 std::strerror(errno));
    std::_Exit(127);
}

// Forks the group's ranks into *children. False (the ones started killed, the reason on
// `err`) when one cannot be started.
bool startRanks(const std::string &self, const RankGroup &group, std::ostream &err,
                std::vector<Child> *children) {
    for (int local = 0; local < group.localRanks; ++local) {
        Child child;
        child.rank = group.firstRank + local;
        child.pid = ::fork();
        if (child.pid < 0) {
            err << "devicebench-cli launch: error: cannot start rank " << child.rank << ": "
                << std::strerror(errno) << "\n";
            for (Child &c : *children)
                ::kill(c.pid, SIGKILL);
            return false;
        }
        if (child.pid == 0)
            execRank(self, group, local);
        child.running = true;
        children->push_back(child);
    }
    return true;
}

// Waits for every child to end, keeping each one's status. The first rank that fails (not
// stopped) stops the others; a stop request is passed to every rank; ranks still running
// `timeoutSeconds` + 10 s after either are killed. Returns whether a rank failed.
bool waitForRanks(std::vector<Child> &children, double timeoutSeconds, std::ostream &err,
                  const std::atomic<bool> &stopRequested) {
    using Clock = std::chrono::steady_clock;
    std::optional<Clock::time_point> killAt; // SIGKILL to the ranks still running, then
    bool stopPassed = false;
    bool rankFailed = false;
    const auto grace =
        std::chrono::milliseconds(static_cast<long long>(timeoutSeconds * 1000.0)) +
        std::chrono::seconds(10); // timeoutSeconds <= kMaxTimeoutSeconds (timeoutValidator)
    const auto signalRunning = [&](int signal) {
        for (const Child &c : children)
            if (c.running)
                ::kill(c.pid, signal);
    };
    for (;;) {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (Child &c : children) {
                if (c.pid != pid)
                    continue;
                c.running = false;
                c.status = status;
                const bool cancelled = WIFEXITED(status) && WEXITSTATUS(status) == kExitCancelled;
                if (failed(status) && !cancelled && !rankFailed && !stopRequested.load()) {
                    rankFailed = true;
                    err << "devicebench-cli launch: rank " << c.rank << " (pid " << pid << ") "
                        << describeExit(status) << "; stopping the other ranks\n";
                    signalRunning(SIGTERM);
                    killAt = Clock::now() + grace;
                }
            }
            continue;
        }
        if (pid < 0) // no child left
            break;
        if (stopRequested.load() && !stopPassed) {
            stopPassed = true;
            err << "devicebench-cli launch: stop requested: passing it to every rank\n";
            signalRunning(SIGINT);
            killAt = Clock::now() + grace;
        }
        if (killAt && Clock::now() > *killAt) {
            err << "devicebench-cli launch: ranks still running after " << timeoutSeconds + 10
                << " s: killing them\n";
            signalRunning(SIGKILL);
            killAt.reset();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return rankFailed;
}

// The ranks' own exit code when they agree (2 bad usage, 3 no data, 130 stopped: a stop on
// one rank stops the job), else 1; said on `err` unless a failed rank was named already.
int ranksExitCode(const std::vector<Child> &children, bool rankFailed, std::ostream &err) {
    int code = kExitOk;
    for (const Child &c : children) {
        if (!failed(c.status))
            continue;
        const int own = WIFEXITED(c.status) ? WEXITSTATUS(c.status) : kExitRunFailed;
        code = code == kExitOk || code == own ? own : kExitRunFailed;
    }
    if (code != kExitOk && !rankFailed)
        err << "devicebench-cli launch: the ranks ended with exit code " << code << "\n";
    return code == kExitUsage || code == kExitNoData || code == kExitCancelled || code == kExitOk
               ? code
               : kExitRunFailed;
}

// Runs one job's local ranks to their end. Returns the launcher's exit code.
int runRanks(const std::string &self, const RankGroup &group, double timeoutSeconds,
             std::ostream &err, const std::atomic<bool> &stopRequested) {
    std::vector<Child> children;
    if (!startRanks(self, group, err, &children))
        return kExitRunFailed;
    const bool rankFailed = waitForRanks(children, timeoutSeconds, err, stopRequested);
    if (stopRequested.load())
        return kExitCancelled;
    return ranksExitCode(children, rankFailed, err);
}

// The rendezvous port: --master-port, else a free one (0) on one node, kDefaultMasterPort on
// several.
int masterPort(const LaunchOptions &options) {
    return options.masterPort >= 0 ? options.masterPort
                                   : (options.nnodes == 1 ? 0 : kDefaultMasterPort);
}

// What is refused before anything starts. kExitOk or kExitUsage.
int checkLaunchOptions(const LaunchOptions &options, std::ostream &err) {
    if (options.command.empty() || options.command.front() != "run") {
        err << "devicebench-cli launch: error: the command after -- must be `run ...` (got '"
            << (options.command.empty() ? std::string() : options.command.front()) << "')\n";
        return kExitUsage;
    }
    if (options.nodeRank >= options.nnodes) {
        err << "devicebench-cli launch: error: --node-rank " << options.nodeRank
            << " must be below --nnodes " << options.nnodes << "\n";
        return kExitUsage;
    }
    if (masterPort(options) == 0 && options.nnodes > 1) {
        err << "devicebench-cli launch: error: --master-port 0 (a free port) works on one host "
               "only: give every host the same port\n";
        return kExitUsage;
    }
    if (options.masterAddr.empty()) {
        err << "devicebench-cli launch: error: --master-addr is empty: give the host of node 0\n";
        return kExitUsage;
    }
    if (hasOption(options.command, "--out-dir") &&
        optionValue(options.command, "--out-dir").empty()) {
        err << "devicebench-cli launch: error: --out-dir is empty: give the folder for the "
               "records\n";
        return kExitUsage;
    }
    return kExitOk;
}

// The ranks this host starts into *localRanks: --nproc-per-node, but one GPU per rank:
// `--device cuda` on a host with fewer GPUs than ranks starts one rank per GPU and says so (a
// one-GPU box runs the NCCL path at world size 1). kExitOk, or kExitRunFailed without a GPU.
int localRankCount(const LaunchOptions &options, std::ostream &out, std::ostream &err,
                   int *localRanks) {
    *localRanks = options.nprocPerNode;
    if (optionValue(options.command, "--device") != "cuda")
        return kExitOk;
    const int gpus = cudaDeviceCount();
    if (gpus == 0) {
        err << "devicebench-cli launch: error: --device cuda, but this host has no usable "
               "CUDA device ("
            << cudaUnavailableReason() << ")\n";
        return kExitRunFailed;
    }
    if (gpus < *localRanks) {
        out << "launch: this host has " << gpus << (gpus == 1 ? " CUDA device" : " CUDA devices")
            << ": starting " << gpus << (gpus == 1 ? " rank" : " ranks") << " (one GPU each), "
            << "not " << *localRanks << "\n";
        *localRanks = gpus;
    }
    return kExitOk;
}

// The ranks' command: their share of the cores (withThreads) and, unless given, the
// launcher's --timeout (the ranks wait as long as the launcher).
std::vector<std::string> rankCommand(const LaunchOptions &options, int localRanks) {
    auto command = withThreads(options.command, localRanks);
    if (!hasOption(command, "--timeout")) {
        std::ostringstream seconds;
        seconds << options.timeoutSeconds;
        command.insert(command.end(), {"--timeout", seconds.str()});
    }
    return command;
}

// The 1-rank job of the same settings, records in <out-dir>/reference, beside the job's, where
// rank 0 looks for them. Returns its exit code.
int runReference(const std::string &self, const std::vector<std::string> &command,
                 double timeoutSeconds, std::ostream &out, std::ostream &err,
                 const std::atomic<bool> &stopRequested) {
    out << "reference: a 1-rank job of the same settings first, for the efficiency, "
           "records in <out-dir>/reference (--no-reference skips it)\n"
        << std::flush;
    RankGroup reference{command, 0, 1, 1, "127.0.0.1", 0};
    for (std::size_t i = 0; i < reference.command.size(); ++i) {
        if (reference.command[i] == "--out-dir" && i + 1 < reference.command.size())
            reference.command[i + 1] += "/reference";
        else if (reference.command[i].rfind("--out-dir=", 0) == 0)
            reference.command[i] += "/reference";
    }
    const StoreHost referenceStore(0, 1, timeoutSeconds);
    reference.masterPort = referenceStore.port();
    const int code = runRanks(self, reference, timeoutSeconds, err, stopRequested);
    if (code == kExitOk)
        out << "\n";
    return code;
}

} // namespace

CLI::App *addLaunchCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto shared = std::make_shared<LaunchOptions>(); // kept by the callback
    LaunchOptions &options = *shared;
    auto *launch = app.add_subcommand(
        "launch", "Start this host's ranks of a data-parallel job (as torchrun does): "
                  "devicebench-cli launch --nproc-per-node N -- run ...");
    launch->add_option("--nproc-per-node", options.nprocPerNode, "Ranks (processes) on this host")
        ->check(CLI::Range(1, 4096))
        ->default_val(1);
    launch->add_option("--nnodes", options.nnodes, "Hosts in the job")
        ->check(CLI::Range(1, 65536))
        ->default_val(1);
    launch->add_option("--node-rank", options.nodeRank, "This host's index, 0..nnodes-1")
        ->check(CLI::Range(0, 65535))
        ->default_val(0);
    launch
        ->add_option("--master-addr", options.masterAddr,
                     "Host of node 0, which holds the rendezvous store")
        ->default_val("127.0.0.1");
    launch
        ->add_option("--master-port", options.masterPort,
                     "Port of the rendezvous store (default: a free one on one host, 29500 on "
                     "several)")
        ->check(CLI::Range(0, 65535));
    launch
        ->add_option("--timeout", options.timeoutSeconds,
                     "Seconds the rendezvous and each collective wait for the other ranks "
                     "(passed to every rank's run unless it has its own --timeout)")
        ->check(timeoutValidator())
        ->default_val(kDefaultTimeoutSeconds);
    launch->add_flag("--no-reference", options.noReference,
                     "Do not run the 1-rank job of the same settings first (it gives the "
                     "efficiency; one host, several ranks, --out-dir only)");
    launch->add_option("command", options.command, "-- run [run options]")->required();
    setAction(*launch, chosen, [shared, &context] {
        std::error_code ec;
        const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
        return launchCommand(*shared, ec ? context.programPath : self.string(), context.out,
                             context.err, context.stopRequested);
    });
    return launch;
}

int launchCommand(const LaunchOptions &options, const std::string &self, std::ostream &out,
                  std::ostream &err, const std::atomic<bool> &stopRequested) {
    if (const int code = checkLaunchOptions(options, err); code != kExitOk)
        return code;
    int localRanks = 0;
    if (const int code = localRankCount(options, out, err, &localRanks); code != kExitOk)
        return code;
    const int world = localRanks * options.nnodes;
    const std::vector<std::string> command = rankCommand(options, localRanks);
    try {
        // The job's store first: a port in use is an error before anything runs.
        int port = masterPort(options);
        std::optional<StoreHost> store;
        if (options.nodeRank == 0) {
            store.emplace(port, world, options.timeoutSeconds);
            port = store->port();
        }
        if (options.nnodes == 1 && world > 1 && !options.noReference &&
            hasOption(command, "--out-dir")) {
            if (const int code =
                    runReference(self, command, options.timeoutSeconds, out, err, stopRequested);
                code != kExitOk)
                return code;
        }
        out << "launch: " << options.nprocPerNode
            << (options.nprocPerNode == 1 ? " rank" : " ranks") << " on this host (node "
            << options.nodeRank << " of " << options.nnodes << "), world size " << world
            << ", rendezvous at " << options.masterAddr << ":" << port << "\n"
            << std::flush;
        const RankGroup job{
            command, options.nodeRank * localRanks, localRanks, world, options.masterAddr, port};
        return runRanks(self, job, options.timeoutSeconds, err, stopRequested);
    } catch (const DistributedError &e) {
        err << "devicebench-cli launch: error: " << e.what() << "\n";
        return kExitRunFailed;
    }
}

} // namespace devicebench::cli
