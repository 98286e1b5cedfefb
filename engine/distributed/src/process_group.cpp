// SPDX-License-Identifier: MIT
// The rendezvous (c10d::TCPStore) and the process group (c10d's Gloo, NCCL) behind Collectives.
#include "process_group.h"

#include "devicebench/distributed.h"

#include <spdlog/spdlog.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/cuda.h>
#if defined(DEVICEBENCH_WITH_NCCL)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <thread>
#include <vector>

#include <unistd.h>

namespace devicebench {
namespace detail {
namespace {

using std::chrono::milliseconds;

std::vector<std::uint8_t> bytes(const std::string &text) { return {text.begin(), text.end()}; }
std::string text(const std::vector<std::uint8_t> &bytes) { return {bytes.begin(), bytes.end()}; }

std::string failedKey(int rank) { return "devicebench/failed/" + std::to_string(rank); }

// Collectives over one c10d process group type (ProcessGroupGloo, ProcessGroupNCCL: their
// allreduce has the same form in LibTorch 1.13 and 2.x).
template <class Group> class C10dCollectives final : public Collectives {
public:
    C10dCollectives(c10::intrusive_ptr<c10d::Store> store, c10::intrusive_ptr<Group> group,
                    int rank, int worldSize, std::string backend, torch::Device device)
        : m_store(std::move(store)), m_group(std::move(group)), m_rank(rank),
          m_worldSize(worldSize), m_backend(std::move(backend)), m_device(device) {}

    int rank() const override { return m_rank; }
    int worldSize() const override { return m_worldSize; }
    std::string backend() const override { return m_backend; }

    void allReduceSum(std::vector<torch::Tensor> &tensors) override {
        allReduce(tensors, c10d::ReduceOp::SUM);
    }

    std::vector<double> allReduceMax(const std::vector<double> &values) override {
        std::vector<torch::Tensor> tensors{
            torch::tensor(values, torch::TensorOptions().dtype(torch::kFloat64)).to(m_device)};
        allReduce(tensors, c10d::ReduceOp::MAX);
        const torch::Tensor host = tensors[0].cpu();
        return {host.data_ptr<double>(), host.data_ptr<double>() + host.numel()};
    }

    std::vector<std::string> allGather(const std::string &mine) override {
        const std::string prefix = "devicebench/gather/" + std::to_string(m_gathers++) + "/";
        std::vector<std::string> all;
        guarded([&] {
            m_store->set(prefix + std::to_string(m_rank), bytes(mine));
            for (int r = 0; r < m_worldSize; ++r)
                all.push_back(text(m_store->get(prefix + std::to_string(r))));
        });
        return all;
    }

    std::string explainFailure(const std::string &what) override {
        try {
            m_store->set(failedKey(m_rank), bytes(what));
        } catch (const std::exception &) {
            return what + " (and the rendezvous store is gone: rank 0, or the launcher holding "
                          "it, has stopped)";
        }
        if (!m_collectiveFailed)
            return what; // this rank's own failure: the others will name it
        // A collective failed: give the others a moment to say why, then name who did not.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        std::vector<int> silent;
        std::string reported;
        do {
            silent.clear();
            reported.clear();
            for (int r = 0; r < m_worldSize; ++r) {
                if (r == m_rank)
                    continue;
                try {
                    if (!m_store->check({failedKey(r)})) {
                        silent.push_back(r);
                    } else if (const std::string why = text(m_store->get(failedKey(r)));
                               !isCollectiveError(why)) {
                        reported += "; rank " + std::to_string(r) + " failed: " + why;
                    }
                } catch (const std::exception &) {
                    silent.push_back(r);
                }
            }
            if (silent.empty())
                break;
            std::this_thread::sleep_for(milliseconds(100));
        } while (std::chrono::steady_clock::now() < deadline);
        std::string message;
        for (int r : silent)
            message += (message.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) +
                       " stopped answering (it died, was killed or hangs)";
        if (!reported.empty())
            message += message.empty() ? reported.substr(2) : reported;
        if (message.empty())
            message = "every rank reported a failed collective";
        return message + "; on rank " + std::to_string(m_rank) + ": " + what;
    }

private:
    static bool isCollectiveError(const std::string &why) {
        return why.rfind(kCollectivePrefix, 0) == 0;
    }
    static constexpr const char *kCollectivePrefix = "collective failed: ";

    template <class Body> void guarded(const Body &body) {
        try {
            body();
        } catch (const c10::Error &e) {
            m_collectiveFailed = true;
            throw std::runtime_error(kCollectivePrefix + std::string(e.what_without_backtrace()));
        } catch (const std::exception &e) {
            m_collectiveFailed = true;
            throw std::runtime_error(kCollectivePrefix + std::string(e.what()));
        }
    }

    void allReduce(std::vector<torch::Tensor> &tensors, c10d::ReduceOp op) {
        guarded([&] {
            c10d::AllreduceOptions options;
            options.reduceOp = op;
            auto work = m_group->allreduce(tensors, options);
            work->wait();
            if (m_device.is_cuda())
                torch::cuda::synchronize(m_device.index());
        });
    }

    c10::intrusive_ptr<c10d::Store> m_store;
    c10::intrusive_ptr<Group> m_group;
    int m_rank;
    int m_worldSize;
    std::string m_backend;
    torch::Device m_device;
    int m_gathers = 0;
    bool m_collectiveFailed = false;
};

} // namespace

std::unique_ptr<Collectives> makeCollectives(const c10::intrusive_ptr<c10d::Store> &store, int rank,
                                             int worldSize, const std::string &backend,
                                             double timeoutSeconds, int cudaDevice) {
    std::string why;
    if (!backendAvailable(backend, &why))
        throw DistributedError(why);
    // The store's own waits (allGather, the failure reports) end as the collectives do.
    store->setTimeout(toMilliseconds(timeoutSeconds));
    if (backend == "gloo") {
        auto options = c10d::ProcessGroupGloo::Options::create();
        options->timeout = toMilliseconds(timeoutSeconds);
        if (const char *ifname = std::getenv("GLOO_SOCKET_IFNAME");
            ifname != nullptr && ifname[0] != '\0') {
            options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
        } else {
            options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        }
        auto group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, worldSize, options);
        return std::make_unique<C10dCollectives<c10d::ProcessGroupGloo>>(
            store, group, rank, worldSize, backend, torch::Device(torch::kCPU));
    }
#if defined(DEVICEBENCH_WITH_NCCL)
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = toMilliseconds(timeoutSeconds);
    auto group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, worldSize, options);
    return std::make_unique<C10dCollectives<c10d::ProcessGroupNCCL>>(
        store, group, rank, worldSize, backend,
        torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(std::max(cudaDevice, 0))));
#else
    (void)cudaDevice;
    throw DistributedError("back end '" + backend + "' is not available");
#endif
}

} // namespace detail

bool backendAvailable(const std::string &backend, std::string *why) {
    std::string problem;
    if (backend == "gloo") {
        return true;
    } else if (backend == "nccl") {
#if defined(DEVICEBENCH_WITH_NCCL)
        return true;
#else
        problem = "back end 'nccl' needs a build against a CUDA LibTorch with NCCL (docs/GPU.md); "
                  "this one has none: use gloo";
#endif
    } else {
        problem = "back end '" + backend + "' is not known (use gloo or nccl)";
    }
    if (why != nullptr)
        *why = problem;
    return false;
}

} // namespace devicebench
