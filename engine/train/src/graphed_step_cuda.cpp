// SPDX-License-Identifier: MIT
// graphed_step.h in a build against a CUDA LibTorch (compiled only there: CMakeLists.txt).
#include "graphed_step.h"

#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAStream.h>
#include <spdlog/spdlog.h>
#include <torch/cuda.h>

#include <cstdint>
#include <memory>

namespace devicebench::detail {
namespace {

class CudaGraphTrainStep final : public GraphedTrainStep {
public:
    explicit CudaGraphTrainStep(std::int64_t batchSize) : m_batchSize(batchSize) {}

    torch::Tensor step(const torch::Tensor &x, const torch::Tensor &y,
                       const TrainStepFn &eager) override {
        if (x.size(0) != m_batchSize)
            return eager(x, y); // the last, partial batch of an epoch
        if (m_graph) {
            m_x.copy_(x, /*non_blocking=*/true);
            m_y.copy_(y, /*non_blocking=*/true);
            m_graph->replay();
            return m_loss.detach().clone();
        }
        if (m_warmupSteps < kGraphWarmupSteps) {
            ++m_warmupSteps;
            return onSideStream([&] { return eager(x, y); });
        }
        return captureAndRun(x, y, eager);
    }

    bool captured() const override { return m_graph != nullptr; }

private:
    // Runs `body` on a stream from the pool, ordered after and before the current stream's
    // work by device synchronisations (only for the warm-up and capture steps).
    //
    // The stream is switched with c10::cuda::setCurrentCUDAStream, not a CUDAStreamGuard: the
    // guard's header defines CUDA's device-guard implementation inline, which would make this
    // program call the CUDA runtime (libcudart) itself, and the runner bundle may use only the
    // CUDA libraries that PyTorch brings, through LibTorch (scripts/make-bundle.sh).
    template <typename Body> torch::Tensor onSideStream(const Body &body) {
        torch::cuda::synchronize();
        const c10::cuda::CUDAStream previous = c10::cuda::getCurrentCUDAStream();
        c10::cuda::setCurrentCUDAStream(c10::cuda::getStreamFromPool());
        torch::Tensor result;
        try {
            result = body();
        } catch (...) {
            c10::cuda::setCurrentCUDAStream(previous);
            throw;
        }
        c10::cuda::setCurrentCUDAStream(previous);
        torch::cuda::synchronize();
        return result;
    }

    torch::Tensor captureAndRun(const torch::Tensor &x, const torch::Tensor &y,
                                const TrainStepFn &eager) {
        m_x = torch::empty_like(x); // keeps x's memory format (channels-last in tuned)
        m_y = torch::empty_like(y);
        m_x.copy_(x);
        m_y.copy_(y);
        auto graph = std::make_unique<at::cuda::CUDAGraph>();
        onSideStream([&] {
            graph->capture_begin();
            m_loss = eager(m_x, m_y); // recorded, not run
            graph->capture_end();
            return m_loss;
        });
        m_graph = std::move(graph);
        spdlog::debug("training step captured as a CUDA graph after {} eager warm-up steps",
                      m_warmupSteps);
        m_graph->replay(); // this step's own computation
        return m_loss.detach().clone();
    }

    std::int64_t m_batchSize;
    int m_warmupSteps = 0;
    std::unique_ptr<at::cuda::CUDAGraph> m_graph;
    torch::Tensor m_x;    // static input of the graph
    torch::Tensor m_y;    // static target
    torch::Tensor m_loss; // static loss, rewritten by each replay
};

} // namespace

bool cudaGraphsCompiledIn() { return true; }

std::unique_ptr<GraphedTrainStep> makeGraphedTrainStep(std::int64_t batchSize) {
    return std::make_unique<CudaGraphTrainStep>(batchSize);
}

} // namespace devicebench::detail
