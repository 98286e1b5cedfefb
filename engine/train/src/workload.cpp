// SPDX-License-Identifier: MIT
// The two workloads (run_types.h, Workload): the faithful one, the article's computation, and
// the tuned one, the same training computed the fastest way measured on the device.
#include "workload.h"

#include "devicebench/cifar10.h"

namespace devicebench::detail {

torch::Tensor WorkloadStrategy::eagerTrainStep(ImageClassifier &model,
                                               torch::optim::Optimizer &optimizer,
                                               const std::vector<torch::Tensor> &parameters,
                                               const torch::Tensor &x, const torch::Tensor &y,
                                               bool autocastCache) const {
    torch::Tensor loss;
    {
        const auto autocast = m_precision.autocast(autocastCache);
        loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    }
    clearGradients(optimizer, parameters);
    m_precision.backward(loss);
    m_precision.step(optimizer, parameters);
    return loss;
}

torch::Tensor WorkloadStrategy::trainStep(ImageClassifier &model,
                                          torch::optim::Optimizer &optimizer,
                                          const std::vector<torch::Tensor> &parameters,
                                          const torch::Tensor &x, const torch::Tensor &y) {
    return eagerTrainStep(model, optimizer, parameters, x, y);
}

namespace {

// The article's computation: NCHW tensors, a new float batch converted from the uint8 images
// every step, gradients zeroed, the test pass under NoGradGuard, cuDNN's default algorithm
// choice (benchmark off, PyTorch's default).
class FaithfulWorkload final : public WorkloadStrategy {
public:
    FaithfulWorkload(const torch::Device &device, Precision precision)
        : WorkloadStrategy(StepPrecision(precision, device)), m_device(device) {}

    Workload workload() const override { return Workload::Faithful; }
    void prepareModel(ImageClassifier & /*model*/) const override {}
    bool cudnnBenchmark() const override { return false; }
    void layOutHostData(SplitTensors & /*split*/) const override {}
    void stageHostData(SplitTensors & /*split*/) const override {}
    void prepareBatches() override {}

    torch::Tensor batchImages(const torch::Tensor &images, std::int64_t start,
                              std::int64_t n) override {
        return toUnitFloat(images.narrow(0, start, n)).to(m_device);
    }

    torch::Tensor batchLabels(const torch::Tensor &labels, std::int64_t start,
                              std::int64_t n) const override {
        return labels.narrow(0, start, n).to(m_device, /*non_blocking=*/false);
    }

    void clearGradients(torch::optim::Optimizer &optimizer,
                        const std::vector<torch::Tensor> & /*parameters*/) const override {
        optimizer.zero_grad();
    }

    void withoutAutograd(const std::function<void()> &body) const override {
        torch::NoGradGuard noGrad;
        body();
    }

private:
    torch::Device m_device;
};

// Channels-last memory format for the model, the images (laid out once, with the data) and
// the batches; one preallocated batch buffer filled in place (no per-step allocation of the
// input); gradients set to none instead of zeroed; the test pass under InferenceMode; on CUDA
// cuDNN's benchmark mode, the images in pinned host memory copied non-blocking, and (in the
// CUDA build) the training step captured once and replayed as a CUDA graph (graphed_step.h).
class TunedWorkload final : public WorkloadStrategy {
public:
    TunedWorkload(const torch::Device &device, std::int64_t batchSize, std::int64_t imageSize,
                  Precision precision)
        : WorkloadStrategy(StepPrecision(precision, device)), m_device(device),
          m_batchSize(batchSize), m_imageSize(imageSize) {}

    Workload workload() const override { return Workload::Tuned; }

    void prepareModel(ImageClassifier &model) const override {
        // What Python's model.to(memory_format=torch.channels_last) does: 4-d weights re-laid
        // out, values unchanged.
        torch::NoGradGuard noGrad;
        for (auto &p : model->parameters()) {
            if (p.dim() == 4) {
                p.set_data(p.contiguous(kFormat));
            }
        }
    }

    bool cudnnBenchmark() const override { return true; }

    void layOutHostData(SplitTensors &split) const override {
        // Held as N x S x S x 3 bytes (channels-last), laid out once with the data, so that
        // each batch's conversion to float is a plain element-wise pass.
        split.images = split.images.contiguous(kFormat);
    }

    void stageHostData(SplitTensors &split) const override {
        if (m_device.is_cuda()) {
            // Pinned, so the per-step copies can be non-blocking.
            split.images = split.images.pin_memory();
            split.labels = split.labels.pin_memory();
        }
    }

    void prepareBatches() override {
        m_batchBuffer = torch::empty({m_batchSize, 3, m_imageSize, m_imageSize},
                                     torch::TensorOptions().dtype(torch::kFloat32).device(m_device))
                            .contiguous(kFormat);
        if (m_device.is_cuda())
            m_graphedStep = makeGraphedTrainStep(m_batchSize); // nullptr without CUDA graphs
    }

    torch::Tensor trainStep(ImageClassifier &model, torch::optim::Optimizer &optimizer,
                            const std::vector<torch::Tensor> &parameters, const torch::Tensor &x,
                            const torch::Tensor &y) override {
        if (!m_graphedStep)
            return eagerTrainStep(model, optimizer, parameters, x, y);
        // No autocast cache in a captured step: a cached cast would outlive the capture.
        return m_graphedStep->step(x, y, [&](const torch::Tensor &bx, const torch::Tensor &by) {
            return eagerTrainStep(model, optimizer, parameters, bx, by, /*autocastCache=*/false);
        });
    }

    torch::Tensor batchImages(const torch::Tensor &images, std::int64_t start,
                              std::int64_t n) override {
        auto x = m_batchBuffer.narrow(0, 0, n);
        x.copy_(images.narrow(0, start, n), /*non_blocking=*/true);
        return x.div_(255.0);
    }

    torch::Tensor batchLabels(const torch::Tensor &labels, std::int64_t start,
                              std::int64_t n) const override {
        return labels.narrow(0, start, n).to(m_device, /*non_blocking=*/true);
    }

    void clearGradients(torch::optim::Optimizer & /*optimizer*/,
                        const std::vector<torch::Tensor> &parameters) const override {
        for (const auto &p : parameters) {
            p.mutable_grad() = torch::Tensor(); // set to none: no zero-fill pass
        }
    }

    void withoutAutograd(const std::function<void()> &body) const override {
        // InferenceMode skips autograd's version counters and views as well.
        c10::InferenceMode inference;
        body();
    }

private:
    static constexpr auto kFormat = torch::MemoryFormat::ChannelsLast;
    torch::Device m_device;
    std::int64_t m_batchSize;
    std::int64_t m_imageSize;    // pixels per side (RunConfig::imageSize)
    torch::Tensor m_batchBuffer; // float32, batchSize x 3 x S x S, channels-last, on the device
    std::unique_ptr<GraphedTrainStep> m_graphedStep; // CUDA build, CUDA device: the graph
};

} // namespace

std::unique_ptr<WorkloadStrategy>
makeWorkloadStrategy(Workload workload, const torch::Device &device, std::int64_t batchSize,
                     std::int64_t imageSize, Precision precision) {
    if (workload == Workload::Tuned) {
        return std::make_unique<TunedWorkload>(device, batchSize, imageSize, precision);
    }
    return std::make_unique<FaithfulWorkload>(device, precision);
}

} // namespace devicebench::detail
