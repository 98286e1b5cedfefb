// SPDX-License-Identifier: MIT
// `devicebench-cli run` as one rank of a data-parallel job (cli_distributed.h).
#include "cli_distributed.h"
#include "cli_command.h"
#include "cli_support.h"

#include "devicebench/data_location.h"
#include "devicebench/devices.h"
#include "devicebench/recorded_run.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/scaling.h"
#include "devicebench/summary.h"
#include "devicebench/trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <system_error>

namespace devicebench::cli {
namespace {

// Rank 0's console: the job's events, one line per epoch (the ranks' own lines would
// interleave; each rank's record has them).
class JobConsole final : public RecordObserver {
public:
    JobConsole(std::ostream &out, const RunConfig &config) : m_out(out), m_config(config) {}
    void onRunStarted(const RunStarted &info) override {
        const DistributedInfo &d = info.distributed;
        m_out << "job " << d.jobId << ": " << d.worldSize << (d.worldSize == 1 ? " rank" : " ranks")
              << " (" << d.backend << "), " << info.device << ", " << info.threads
              << (info.threads == 1 ? " thread" : " threads") << " per rank, "
              << describeModel(m_config.model, m_config.imageSize, info.modelParameters,
                               info.multiplyAddsPerImage)
              << ", global batch size " << m_config.batchSize << " ("
              << (m_config.batchSize % d.worldSize == 0 ? "" : "up to ") << d.perRankBatchSize
              << " per rank), " << m_config.epochs
              << (m_config.epochs == 1 ? " epoch\n" : " epochs\n");
        for (const RankPlacement &p : d.ranks)
            m_out << "  rank " << p.rank << ": " << p.device << " @ " << p.host << ", "
                  << p.trainImages << " training + " << p.testImages << " test images per epoch\n";
        m_out << "data: " << info.dataDescription << "\n" << std::flush;
    }
    void onStepLosses(const std::vector<StepLoss> &) override {}
    void onEpochFinished(const EpochResult &e) override {
        m_out << "epoch " << std::setw(2) << e.epoch << "/" << m_config.epochs << "  "
              << fixed(e.seconds, 3) << " s (slowest rank)  all-reduce "
              << fixed(e.allReduceSeconds, 3) << " s  train loss " << fixed(e.trainLoss, 4)
              << "  test loss " << fixed(e.testLoss, 4) << "  test accuracy "
              << fixed(100.0 * e.testAccuracy, 2) << "%  " << fixed(e.imagesPerSecond, 0)
              << " images/s" << (e.warmup ? "  (warm-up)" : "")
              << (e.load.contended ? "  [CONTENDED]" : "") << "\n"
              << std::flush;
    }
    void onRunEnded(const RunOutcome &) override {}

private:
    std::ostream &m_out;
    RunConfig m_config;
};

// The job's efficiency against the newest 1-rank job (or single-process run) of the same
// settings among the job records in `folder` and `folder`/reference (scalingSeries,
// scaling.h).
void printEfficiency(std::ostream &out, const RunRecord &job, const std::string &folder) {
    RunSet set;
    for (const std::string &dir : {folder, folder + "/reference"}) { // launch's reference job
        std::error_code ec;
        for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
            const std::string name = entry.path().filename().string();
            if (entry.path().extension() != ".json" || name.find("-rank") != std::string::npos)
                continue;
            try {
                RunRecord r = readRunRecord(entry.path().string());
                if (r.runId != job.runId && r.status == "finished")
                    set.addRecord(r, entry.path().string());
            } catch (const RecordError &) {
                // Not a record of ours, or a broken one: not a reference.
            }
        }
    }
    const int self = set.addRecord(job, "this job"); // its index in set.runs()
    for (const ScalingSeries &series : scalingSeries(set)) {
        const int one = series.singleRankIndex();
        for (const ScalingPoint &p : series.points) {
            if (p.runIndex != self)
                continue;
            if (one < 0) {
                out << "efficiency: no 1-rank job of these settings in " << folder
                    << " yet (run the same settings as a 1-rank job into this folder: "
                       "`launch` does it first on one host, unless --no-reference)\n";
                return;
            }
            const ScalingPoint &ref = series.points[static_cast<std::size_t>(one)];
            out << "efficiency: " << fixed(p.imagesPerSecond, 0) << " images/s on " << p.worldSize
                << " ranks / (" << p.worldSize << " x " << fixed(ref.imagesPerSecond, 0)
                << " images/s on 1 rank, "
                << set.runs()[static_cast<std::size_t>(ref.runIndex)].record.runId
                << ") = " << fixed(100.0 * p.efficiency, 1) << " %\n";
            return;
        }
    }
    out << "efficiency: unknown (this job has no stable epoch to measure)\n";
}

// The options a rank refuses: lists in --device or --threads, and the single-process outputs.
// kExitOk or kExitUsage.
int checkRankOptions(const RunOptions &options, const std::string &me, std::ostream &err) {
    if (options.devices.size() != 1 || options.threads.size() != 1) {
        err << me << "error: a rank of a data-parallel job runs one device and one thread count "
            << "(no lists in --device or --threads)\n";
        return kExitUsage;
    }
    if (!options.recordPath.empty() || !options.csvPath.empty() || !options.pngPath.empty() ||
        !options.htmlPath.empty() || !options.logDir.empty() || options.json) {
        err << me << "error: --record, --csv, --png, --html, --logdir and --json are for "
            << "single-process "
            << "runs; a job writes its records with --out-dir DIR (compare them with "
            << "`devicebench-cli compare DIR/<job id>-job.json ...`)\n";
        return kExitUsage;
    }
    return kExitOk;
}

// The rank's run: its share of this host's cores, its GPU for "cuda", the job's global batch.
// kExitOk, or kExitUsage for a device that does not resolve.
int rankConfig(const RunOptions &options, const LaunchEnvironment &env, const std::string &me,
               std::ostream &err, RunConfig *config) {
    *config = options.base;
    config->threads = options.threads.front();
    if (config->threads == 0) // this host's cores, shared by its ranks
        config->threads = std::max(1, availableCores() / env.localWorldSize);
    std::string device = options.devices.front();
    if (device == "cuda")
        device = "cuda:" + std::to_string(env.localRank);
    try {
        config->device = resolveDevice(device);
    } catch (const std::invalid_argument &e) {
        err << me << "error: " << e.what() << "\n";
        return kExitUsage;
    }
    config->batchSize = options.globalBatchSize > 0 ? options.globalBatchSize
                                                    : options.base.batchSize * env.worldSize;
    return kExitOk;
}

// The data folder (found as `run` finds it), the global batch against the world size and the
// rest of the run's settings. kExitOk, kExitNoData or kExitUsage.
int checkRankConfig(RunConfig &config, int worldSize, const std::string &me, std::ostream &err) {
    if (!config.synthetic && config.dataDir.empty()) {
        if (auto dir = findDefaultDataDir()) {
            config.dataDir = *dir;
        } else {
            err << me << "error: no data folder given.\n" << dataDirHelp() << "\n";
            return kExitNoData;
        }
    }
    if (!config.synthetic) {
        if (const std::string problem = checkCifar10Folder(config.dataDir); !problem.empty()) {
            err << me << "error: " << problem << "\n";
            return kExitNoData;
        }
    }
    if (const std::string problem = globalBatchProblem(config.batchSize, worldSize);
        !problem.empty()) {
        err << me << "error: " << problem << "\n";
        return kExitUsage;
    }
    if (const auto errors = validateRunConfig(config); !errors.empty()) {
        for (const auto &message : errors)
            err << me << "error: " << message << "\n";
        return kExitUsage;
    }
    return kExitOk;
}

// Joins the job's process group into *group and learns the job id that rank 0 made. kExitOk;
// kExitCancelled when stopped meanwhile; kExitRunFailed when the rendezvous failed.
int joinJob(const RunOptions &options, const LaunchEnvironment &env, const RunConfig &config,
            const std::string &me, std::ostream &err, const std::atomic<bool> &stopRequested,
            std::unique_ptr<Collectives> *group, std::string *jobId) {
    ProcessGroupSettings settings;
    settings.backend = options.backend.empty() ? defaultBackend(config.device) : options.backend;
    settings.rank = env.rank;
    settings.worldSize = env.worldSize;
    settings.masterAddr = env.masterAddr;
    settings.masterPort = env.masterPort;
    settings.timeoutSeconds = options.timeoutSeconds;
    settings.agentStore = env.agentStore;
    settings.stopRequested = &stopRequested;
    settings.cudaDevice =
        config.device.rfind("cuda:", 0) == 0 ? std::stoi(config.device.substr(5)) : -1;
    try {
        *group = joinProcessGroup(settings);
        *jobId = (*group)->allGather(env.rank == 0 ? newRunId() : std::string()).front();
    } catch (const std::exception &e) {
        if (stopRequested.load()) {
            err << me << "cancelled: " << e.what() << "\n";
            return kExitCancelled;
        }
        err << me << "error: " << e.what() << "\n";
        return kExitRunFailed;
    }
    return kExitOk;
}

// DIR/<job id>-<name>.json under --out-dir; "" without it.
std::string jobFilePath(const std::string &outDir, const std::string &jobId,
                        const std::string &name) {
    return outDir.empty()
               ? std::string()
               : (std::filesystem::path(outDir) / (jobId + "-" + name + ".json")).string();
}

// What a rank's training left behind: its outcome, its recorders' write errors and, on rank 0,
// the job's record.
struct RankResult {
    RunOutcome outcome;
    std::vector<std::string> writeErrors;
    RunRecord job; // rank 0 only
};

// Trains this rank's shard with its own recorder and, on rank 0, the job's recorder and
// console.
RankResult runRank(const RunOptions &options, const LaunchEnvironment &env, const RunConfig &config,
                   const std::unique_ptr<Collectives> &group, const std::string &jobId,
                   std::ostream &out, const std::atomic<bool> &stopRequested) {
    const auto path = [&](const std::string &name) {
        return jobFilePath(options.outDir, jobId, name);
    };
    // This rank's record is a recorded run (recorded_run.h) whose training is the
    // data-parallel loop; rank 0 also records the job, with the console behind that recorder.
    JobConsole console(out, config);
    std::unique_ptr<RunRecorder> jobRecorder;
    if (env.rank == 0)
        jobRecorder = std::make_unique<RunRecorder>(config, path("job"), &console, jobId + "-job");
    DataParallelRun run;
    run.group = group.get();
    run.jobId = jobId;
    run.localRank = env.localRank;
    run.job = jobRecorder.get();
    run.weakScaling = options.globalBatchSize == 0;
    RunRequest request;
    request.config = config;
    request.runId = jobId + "-rank" + std::to_string(env.rank);
    request.recordsFolder = options.outDir; // "<outDir>/<jobId>-rank<r>.json"
    const RecordedRun rank = runRecorded(
        request, nullptr, stopRequested,
        [&run](const RunConfig &c, TrainingObserver &observer, const std::atomic<bool> &stop) {
            return runDataParallelTraining(c, run, observer, stop, probeDevice);
        });
    RankResult result;
    result.outcome = rank.outcome;
    for (const std::string *error :
         {&rank.recordError, jobRecorder ? &jobRecorder->writeError() : nullptr}) {
        if (error != nullptr && !error->empty())
            result.writeErrors.push_back(*error);
    }
    if (jobRecorder)
        result.job = jobRecorder->record();
    return result;
}

// Rank 0's last lines: the job's stable mean (its record's epochs: the slowest rank's, not this
// rank's own), its records and its efficiency.
void printJobSummary(const RunOptions &options, const LaunchEnvironment &env,
                     const RunConfig &config, const RunRecord &job, const std::string &jobId,
                     std::ostream &out) {
    const Summary s =
        summarize(job.epochs, config.warmupEpochs,
                  static_cast<double>(job.started.trainImages + job.started.testImages));
    out << "job finished: " << env.worldSize << (env.worldSize == 1 ? " rank" : " ranks");
    if (s.hasStable)
        out << ", stable mean " << fixed(s.stableMean, 3) << " s per epoch, "
            << fixed(s.imagesPerSecond, 0) << " images/s";
    out << "\n";
    if (!options.outDir.empty()) {
        out << "wrote the job record " << jobFilePath(options.outDir, jobId, "job")
            << "; each rank writes its own, " << jobFilePath(options.outDir, jobId, "rank<r>")
            << ", on its host\n";
        if (env.worldSize > 1)
            printEfficiency(out, job, options.outDir);
    }
    out << std::flush;
}

} // namespace

CLI::Validator timeoutValidator() {
    return CLI::Validator(
        [](std::string &text) -> std::string {
            char *end = nullptr;
            const double seconds = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !std::isfinite(seconds) || seconds <= 0.0 ||
                seconds > kMaxTimeoutSeconds)
                return "--timeout must be a number of seconds above 0 and at most 86400 (got " +
                       text + ")";
            return {};
        },
        "SECONDS (0 < s <= 86400)");
}

void addDistributedRunOptions(CLI::App &run, RunOptions &options) {
    run.add_option("--global-batch-size", options.globalBatchSize,
                   "Data-parallel job: images per step over all ranks (default: --batch-size x "
                   "world size), so jobs of different world sizes compare")
        ->check(CLI::Range(0, 1 << 30));
    run.add_option("--backend", options.backend,
                   "Data-parallel job: c10d back end, gloo or nccl (default: nccl on CUDA, gloo "
                   "on the CPU)")
        ->check(CLI::IsMember({"gloo", "nccl"}));
    run.add_option("--timeout", options.timeoutSeconds,
                   "Data-parallel job: seconds the rendezvous and each collective wait for the "
                   "other ranks")
        ->check(timeoutValidator())
        ->default_val(kDefaultTimeoutSeconds);
}

int distributedRunCommand(RunOptions options, const LaunchEnvironment &env, std::ostream &out,
                          std::ostream &err, const std::atomic<bool> &stopRequested) {
    const std::string me = "devicebench-cli: rank " + std::to_string(env.rank) + ": ";
    if (const int code = checkRankOptions(options, me, err); code != kExitOk)
        return code;
    RunConfig config;
    if (const int code = rankConfig(options, env, me, err, &config); code != kExitOk)
        return code;
    if (const int code = checkRankConfig(config, env.worldSize, me, err); code != kExitOk)
        return code;
    if (!options.outDir.empty()) {
        if (const std::string problem = makeRecordFolder(options.outDir); !problem.empty()) {
            err << me << "error: " << problem << "\n";
            return kExitRunFailed;
        }
    }
    std::unique_ptr<Collectives> group;
    std::string jobId;
    if (const int code = joinJob(options, env, config, me, err, stopRequested, &group, &jobId);
        code != kExitOk)
        return code;

    const RankResult rank = runRank(options, env, config, group, jobId, out, stopRequested);
    for (const std::string &error : rank.writeErrors)
        err << me << "error: " << error << "\n";
    if (rank.outcome.status == RunStatus::Cancelled) {
        err << me << "cancelled: " << rank.outcome.reason << "\n";
        return kExitCancelled;
    }
    if (rank.outcome.status != RunStatus::Finished) {
        err << me << toString(rank.outcome.status) << ": " << rank.outcome.reason << "\n";
        return kExitRunFailed;
    }
    if (env.rank == 0)
        printJobSummary(options, env, config, rank.job, jobId, out);
    return kExitOk;
}

} // namespace devicebench::cli
