// SPDX-License-Identifier: MIT
#include "run_setup.h"

#include "autocast.h"

#include "devicebench/trainer.h"

#include "devicebench/devices.h"

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include <chrono>

namespace devicebench::detail {

void applyTf32(Tf32 tf32) {
    struct Switches {
        bool cublas;
        bool cudnn;
    };
    auto &context = at::globalContext();
    static const Switches libtorchDefault{context.allowTF32CuBLAS(), context.allowTF32CuDNN()};
    const Switches wanted = tf32 == Tf32::Default ? libtorchDefault
                            : tf32 == Tf32::On    ? Switches{true, true}
                                                  : Switches{false, false};
    context.setAllowTF32CuBLAS(wanted.cublas);
    context.setAllowTF32CuDNN(wanted.cudnn);
}

std::string startRunDevice(const RunConfig &config, const DeviceProbe &probe, RunDevice *out) {
    const torch::Device device(resolveDevice(config.device));
    // The first CUDA start (context creation) before anything is timed, and recorded as its
    // own figure, not inside the first timed region.
    double initSeconds = 0.0;
    try {
        initSeconds = startDevice(device.str());
    } catch (const std::exception &e) {
        return "device " + device.str() + " is unusable: " + e.what();
    }
    // No run starts on a device that cannot run and agree with the CPU (MEASURING.md, lesson 3).
    if (const ProbeResult probed = probe(device.str()); !probed.usable) {
        return "device " + device.str() + " is unusable: " +
               (probed.error.empty() ? std::string("the device probe failed") : probed.error);
    }
    at::set_num_threads(config.threads > 0 ? config.threads : availableCores());
    out->device = device;
    out->initSeconds = initSeconds;
    out->threads = at::get_num_threads();
    return {};
}

Cifar10 loadRunData(const RunConfig &config, std::int64_t trainImages, std::int64_t testImages) {
    Cifar10 data =
        config.synthetic
            ? makeSyntheticCifar10(trainImages > 0 ? trainImages : kCifarTrainImages,
                                   testImages > 0 ? testImages : kCifarTestImages, config.seed)
            : loadCifar10(config.dataDir, trainImages, testImages);
    // --image-size: upsampled once, before anything is timed (32, CIFAR-10's own: unchanged).
    if (config.imageSize != kDefaultImageSize) {
        const auto t0 = std::chrono::steady_clock::now();
        for (Split *split : {&data.train, &data.test}) {
            split->images = resizeImages(split->images, config.imageSize);
        }
        spdlog::info("images upsampled to {} x {} pixels in {:.2f} s (outside the timed steps)",
                     config.imageSize, config.imageSize,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return data;
}

ImageClassifier buildRunModel(const RunConfig &config, const torch::Device &device,
                              const WorkloadStrategy &workload) {
    // Same seed -> same initial weights on every device: initialise on the CPU, then move.
    ImageClassifier model = makeModel(config.model, config.imageSize, config.seed);
    model->to(device);
    workload.prepareModel(model);
    return model;
}

void placeSplit(SplitTensors &split, const WorkloadStrategy &workload, const torch::Device &device,
                bool dataOnDevice) {
    workload.layOutHostData(split);
    if (dataOnDevice && device.is_cuda()) {
        // The whole set on the device once, outside the timed region (RunConfig).
        split.images = split.images.to(device);
        split.labels = split.labels.to(device);
    } else {
        workload.stageHostData(split);
    }
}

std::string torchFailureReason(const std::string &message, int batchSize) {
    // LibTorch's CPU ("can't allocate memory") and CUDA ("out of memory") allocation failures:
    // say what to change, keep LibTorch's text for the details.
    const bool outOfMemory = message.empty() ||
                             message.find("can't allocate memory") != std::string::npos ||
                             message.find("out of memory") != std::string::npos;
    if (!outOfMemory) {
        return message;
    }
    std::string reason =
        "out of memory at batch size " + std::to_string(batchSize) + " (try a smaller batch size)";
    return message.empty() ? reason : reason + ": " + message;
}

RunStop runStopOf(const std::exception_ptr &thrown, int batchSize) {
    try {
        std::rethrow_exception(thrown);
    } catch (const RunStop &stop) {
        return stop;
    } catch (const c10::Error &e) {
        return {RunStatus::Failed, torchFailureReason(e.what_without_backtrace(), batchSize)};
    } catch (const std::bad_alloc &) {
        return {RunStatus::Failed, torchFailureReason("", batchSize)};
    } catch (const std::exception &e) {
        return {RunStatus::Failed, e.what()};
    }
}

} // namespace devicebench::detail

namespace devicebench {

std::string precisionProblem(Precision precision, const std::string &device) {
    if (precision == Precision::Float32)
        return {};
    const bool cuda = device.rfind("cuda", 0) == 0;
    if (!cuda && device != "cpu")
        return {}; // not a device: resolveDevice names it
    if (precision == Precision::Float16 && !cuda)
        return "precision fp16 is CUDA only: device " + device +
               " cannot run it (use bf16 or fp32 on the CPU)";
    const std::string problem = detail::autocastProblem(
        cuda ? c10::DeviceType::CUDA : c10::DeviceType::CPU, detail::lowerPrecisionType(precision));
    if (problem.empty())
        return {};
    return "precision " + std::string(shortName(precision)) + " cannot run on " + device + ": " +
           problem;
}

} // namespace devicebench
