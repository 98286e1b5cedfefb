// SPDX-License-Identifier: MIT
// A rank of a data-parallel job: shards, the bucketed gradient all-reduce, the job's epochs.
#include "data_parallel_state.h"

#include "run_stop.h"

#include "devicebench/stop_cause.h"
#include "devicebench/summary.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

namespace devicebench {

Shard shardOf(std::int64_t start, std::int64_t count, int rank, int worldSize) {
    if (worldSize < 1 || rank < 0 || rank >= worldSize || count < 0) {
        throw std::invalid_argument("no shard for rank " + std::to_string(rank) + " of " +
                                    std::to_string(worldSize) + " ranks over " +
                                    std::to_string(count) + " images");
    }
    const std::int64_t first = count * rank / worldSize;
    const std::int64_t end = count * (rank + 1) / worldSize;
    return {start + first, end - first};
}

std::string globalBatchProblem(std::int64_t globalBatchSize, int worldSize) {
    if (globalBatchSize >= worldSize)
        return {};
    return "global batch size (" + std::to_string(globalBatchSize) +
           ") must be at least the world size (" + std::to_string(worldSize) +
           "): every rank needs an image per step";
}

namespace detail {

// The rank's step losses go to the rank's observer and, on rank 0, to the job's.
class DataParallelState::StepTee final : public TrainingObserver {
public:
    StepTee(TrainingObserver &rank, TrainingObserver *job) : m_rank(rank), m_job(job) {}
    void onRunStarted(const RunStarted &) override {}
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        m_rank.onStepLosses(losses);
        if (m_job != nullptr)
            m_job->onStepLosses(losses);
    }
    void onEpochFinished(const EpochResult &) override {}
    void onRunEnded(const RunOutcome &) override {}

private:
    TrainingObserver &m_rank;
    TrainingObserver *m_job;
};

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string placementText(const RankPlacement &p) {
    // Tab-separated: host names and device strings hold no tabs.
    return std::to_string(p.rank) + '\t' + std::to_string(p.localRank) + '\t' + p.host + '\t' +
           p.device + '\t' + std::to_string(p.threads) + '\t' + std::to_string(p.trainImages) +
           '\t' + std::to_string(p.testImages);
}

RankPlacement placementFrom(const std::string &text) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (std::size_t tab; (tab = text.find('\t', from)) != std::string::npos; from = tab + 1)
        parts.push_back(text.substr(from, tab - from));
    parts.push_back(text.substr(from));
    if (parts.size() != 7)
        throw std::runtime_error("a rank sent a placement of another version: '" + text + "'");
    return {std::stoi(parts[0]),  std::stoi(parts[1]), parts[2], parts[3], std::stoi(parts[4]),
            std::stoll(parts[5]), std::stoll(parts[6])};
}

// The settings every rank must share, as (name, value) pairs in a fixed order.
std::vector<std::pair<std::string, std::string>> sharedSettings(const RunConfig &c) {
    std::ostringstream lr;
    lr.precision(17);
    lr << c.learningRate;
    return {{"model", c.model},
            {"image size", std::to_string(c.imageSize)},
            {"global batch size", std::to_string(c.batchSize)},
            {"epochs", std::to_string(c.epochs)},
            {"warm-up epochs", std::to_string(c.warmupEpochs)},
            {"learning rate", lr.str()},
            {"seed", std::to_string(c.seed)},
            {"training images", std::to_string(c.trainImages)},
            {"test images", std::to_string(c.testImages)},
            {"data", c.synthetic ? "synthetic" : "cifar-10"},
            {"workload", toString(c.workload)},
            {"loss fetch interval", std::to_string(c.lossFetchInterval)},
            {"data on device", c.dataOnDevice ? "on" : "off"}};
}

// `flat`'s values from `offset` on, cut into the gradients of `params` in turn.
void copyToGradients(const torch::Tensor &flat, std::int64_t offset,
                     const std::vector<torch::Tensor> &params) {
    for (const torch::Tensor &p : params) {
        auto slice = flat.narrow(0, offset, p.numel()).view_as(p);
        offset += p.numel();
        if (p.grad().defined())
            p.mutable_grad().copy_(slice);
        else
            p.mutable_grad() = slice.clone();
    }
}

} // namespace

void DataParallelState::checkSettings(const RunConfig &config) {
    const auto mine = sharedSettings(config);
    std::string text;
    for (const auto &[name, value] : mine)
        text += value + '\n';
    const std::vector<std::string> all = m_group.allGather(text);
    for (std::size_t r = 1; r < all.size(); ++r) {
        if (all[r] == all[0])
            continue;
        std::istringstream first(all[0]);
        std::istringstream other(all[r]);
        for (const auto &[name, value] : mine) {
            std::string a;
            std::string b;
            std::getline(first, a);
            std::getline(other, b);
            if (a != b)
                throw std::runtime_error("rank " + std::to_string(r) + "'s " + name + " is " + b +
                                         ", rank 0's " + a +
                                         ": every rank of a job must train with the same "
                                         "settings");
        }
        throw std::runtime_error("rank " + std::to_string(r) +
                                 " runs another version of DeviceBench than rank 0");
    }
}

DataParallelState::DataParallelState(const RunConfig &config, DataParallelRun &run,
                                     TrainingObserver &rankObserver)
    : m_config(config), m_run(run), m_group(*run.group),
      m_tee(std::make_unique<StepTee>(rankObserver, run.job)) {}

DataParallelState::~DataParallelState() = default;

std::vector<std::string> DataParallelState::validate(const RunConfig &config) const {
    std::vector<std::string> errors;
    if (config.phases)
        errors.emplace_back("phase timing is not available in a data-parallel run (it would "
                            "synchronise every rank at every phase); run it on one process");
    if (workloadRow(config.workload).recipe())
        errors.push_back(std::string("workload ") + toString(config.workload) +
                         " trains in one process (its recipe has no data-parallel form)");
    if (std::string problem = globalBatchProblem(config.batchSize, m_group.worldSize());
        config.batchSize >= 1 && !problem.empty())
        errors.push_back(std::move(problem));
    return errors;
}

double DataParallelState::describe(RunStarted &started) {
    const int rank = m_group.rank();
    const int world = m_group.worldSize();
    RankPlacement mine;
    mine.rank = rank;
    mine.localRank = m_run.localRank;
    char host[256] = {};
    mine.host = ::gethostname(host, sizeof host - 1) == 0 ? host : "unknown";
    mine.device = started.device;
    mine.threads = started.threads;
    mine.trainImages = 0;
    for (std::int64_t s = 0; s < started.trainImages; s += m_config.batchSize)
        mine.trainImages +=
            shardOf(s, std::min<std::int64_t>(m_config.batchSize, started.trainImages - s), rank,
                    world)
                .count;
    mine.testImages = shardOf(0, started.testImages, rank, world).count;

    DistributedInfo &d = started.distributed;
    d.worldSize = world;
    d.rank = rank;
    d.role = "rank";
    d.backend = m_group.backend();
    d.jobId = m_run.jobId;
    d.perRankBatchSize = (m_config.batchSize + world - 1) / world;
    d.weakScaling = m_run.weakScaling;
    d.ranks.clear();
    for (const std::string &text : m_group.allGather(placementText(mine)))
        d.ranks.push_back(placementFrom(text));
    m_jobImagesPerEpoch = static_cast<double>(started.trainImages + started.testImages);
    return static_cast<double>(mine.trainImages + mine.testImages);
}

TrainingObserver &DataParallelState::stepObserver() { return *m_tee; }

void DataParallelState::runStarted(const RunStarted &started) {
    if (m_run.job == nullptr)
        return;
    RunStarted job = started;
    job.distributed.role = "job";
    m_run.job->onRunStarted(job);
}

void DataParallelState::trainEpoch(const EpochParts &parts, int epoch, const SplitTensors &train,
                                   LossBuffer &losses, EpochPhases * /*phases*/) {
    const std::int64_t size = train.size();
    parts.model->train();
    for (std::int64_t start = 0; start < size; start += parts.batchSize) {
        const std::int64_t n = std::min(parts.batchSize, size - start);
        parts.workload.clearGradients(parts.optimizer, parts.parameters);
        const torch::Tensor weightedLoss = shardBackward(parts, train, start, n);
        const bool stop = parts.stopRequested.load(std::memory_order_relaxed);
        const ReducedStep reduced = allReduceStep(parts, weightedLoss, stop);
        parts.workload.stepPrecision().step(parts.optimizer, parts.parameters);
        losses.add(reduced.loss);
        if (reduced.stop) {
            losses.flush();
            throw RunStop{RunStatus::Cancelled, "stopped by " + stopCause() + " during epoch " +
                                                    std::to_string(epoch) +
                                                    " (a stop on any rank stops the job)"};
        }
    }
    losses.flush();
}

torch::Tensor DataParallelState::shardBackward(const EpochParts &parts, const SplitTensors &train,
                                               std::int64_t start, std::int64_t n) {
    const Shard shard = shardOf(start, n, m_group.rank(), m_group.worldSize());
    if (shard.count == 0)
        return torch::zeros({}, torch::TensorOptions().device(parts.device));
    auto x = parts.workload.batchImages(train.images, shard.start, shard.count);
    auto y = parts.workload.batchLabels(train.labels, shard.start, shard.count);
    const StepPrecision &precision = parts.workload.stepPrecision();
    torch::Tensor loss;
    {
        const auto autocast = precision.autocast();
        loss = torch::nn::functional::cross_entropy(parts.model->forward(x), y);
    }
    // Weighted by the shard's share of the global batch: summed over the ranks, the gradients
    // are those of the global batch's mean loss (float16: of the scaled loss, unscaled after
    // the all-reduce by the precision's step).
    torch::Tensor weightedLoss = loss * (static_cast<double>(shard.count) / static_cast<double>(n));
    precision.backward(weightedLoss);
    return weightedLoss;
}

DataParallelState::ReducedStep DataParallelState::allReduceStep(const EpochParts &parts,
                                                                const torch::Tensor &weightedLoss,
                                                                bool stop) {
    // One flat buffer per bucket; the first carries the weighted loss and the stop flag.
    std::vector<torch::Tensor> pieces{
        weightedLoss.detach().reshape({1}).to(torch::kFloat32),
        torch::full({1}, stop ? 1.0F : 0.0F, torch::TensorOptions().device(parts.device))};
    std::int64_t bucketBytes = 0;
    std::vector<torch::Tensor> bucketParams;
    ReducedStep reduced;
    const auto reduceBucket = [&] {
        if (pieces.empty())
            return;
        const torch::Tensor flat = allReduceFlat(pieces, parts.device);
        std::int64_t offset = 0;
        if (!reduced.loss.defined()) {
            reduced.loss = flat[0];
            reduced.stop = flat[1].item<float>() > 0.0F;
            offset = 2;
        }
        copyToGradients(flat, offset, bucketParams);
        pieces.clear();
        bucketParams.clear();
        bucketBytes = 0;
    };
    for (const torch::Tensor &p : parts.parameters) {
        const std::int64_t bytes = p.numel() * static_cast<std::int64_t>(sizeof(float));
        if (!bucketParams.empty() && bucketBytes + bytes > m_run.bucketBytes)
            reduceBucket();
        pieces.push_back(p.grad().defined() ? p.grad().reshape({-1})
                                            : torch::zeros({p.numel()}, p.options()));
        bucketParams.push_back(p);
        bucketBytes += bytes;
    }
    reduceBucket();
    return reduced;
}

torch::Tensor DataParallelState::allReduceFlat(const std::vector<torch::Tensor> &pieces,
                                               const torch::Device &device) {
    torch::Tensor flat = torch::cat(pieces);
    if (device.is_cuda())
        synchronize(device); // the backward pass is not communication
    const auto t0 = Clock::now();
    std::vector<torch::Tensor> tensors{flat};
    m_group.allReduceSum(tensors);
    m_allReduceSeconds += secondsSince(t0);
    return flat;
}

TestResult DataParallelState::testEpoch(const EpochParts &parts, int epoch,
                                        const SplitTensors &test) {
    const std::int64_t size = test.size();
    const Shard shard = shardOf(0, size, m_group.rank(), m_group.worldSize());
    TestSums mine;
    if (shard.count > 0)
        mine = testSums(parts, epoch,
                        {test.images.narrow(0, shard.start, shard.count),
                         test.labels.narrow(0, shard.start, shard.count)});
    std::vector<torch::Tensor> sums{torch::tensor({mine.lossSum, static_cast<double>(mine.correct)},
                                                  torch::TensorOptions().dtype(torch::kFloat64))
                                        .to(parts.device)};
    const auto t0 = Clock::now();
    m_group.allReduceSum(sums);
    m_allReduceSeconds += secondsSince(t0);
    const torch::Tensor total = sums[0].cpu();
    TestResult result;
    result.loss = total[0].item<double>() / static_cast<double>(size);
    result.accuracy = total[1].item<double>() / static_cast<double>(size);
    return result;
}

void DataParallelState::finishEpoch(EpochResult &rankEpoch) {
    rankEpoch.allReduceSeconds = m_allReduceSeconds;
    m_allReduceSeconds = 0.0;
    const std::vector<double> slowest = m_group.allReduceMax(
        {rankEpoch.seconds, rankEpoch.allReduceSeconds, rankEpoch.load.contended ? 1.0 : 0.0});
    EpochResult job = rankEpoch;
    job.seconds = slowest[0];
    job.allReduceSeconds = slowest[1];
    job.load.contended = slowest[2] > 0.0; // any rank's CPUs were shared
    job.imagesPerSecond = m_jobImagesPerEpoch / job.seconds;
    m_jobEpochs.push_back(job);
    if (m_run.job != nullptr)
        m_run.job->onEpochFinished(job);
}

void DataParallelState::runEnded(const RunOutcome &rankOutcome, int warmupEpochs) {
    if (m_run.finalParameters != nullptr) {
        m_run.finalParameters->clear();
        for (const torch::Tensor &p : m_parameters)
            m_run.finalParameters->push_back(p.detach().cpu().clone());
    }
    if (m_run.job == nullptr)
        return;
    RunOutcome job;
    job.status = rankOutcome.status;
    job.reason = rankOutcome.reason;
    job.epochs = m_jobEpochs;
    job.summary = summarize(job.epochs, std::max(warmupEpochs, 0), m_jobImagesPerEpoch);
    try {
        m_run.job->onRunEnded(job);
    } catch (const std::exception &e) {
        spdlog::error("job observer threw in onRunEnded: {}", e.what());
    }
}

std::string DataParallelState::explainFailure(const std::string &what) {
    return m_group.explainFailure(what);
}

} // namespace detail
} // namespace devicebench
