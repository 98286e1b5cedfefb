// SPDX-License-Identifier: MIT
// The canary: a fixed matrix product timed a few times, the median kept (canary.h).
#include "devicebench/canary.h"

#include "devicebench/devices.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

std::mutex g_hookMutex;
std::function<void()> g_hook;

void callHook() {
    std::function<void()> hook;
    {
        const std::lock_guard<std::mutex> lock(g_hookMutex);
        hook = g_hook;
    }
    if (hook)
        hook();
}

// Values in [-0.5, 0.5) from the golden-ratio sequence: the same tensor everywhere, made
// without touching any random generator (the run's seeded initialisation stays untouched).
torch::Tensor fixedTensor(at::IntArrayRef shape, const torch::Device &device, double scale) {
    std::int64_t count = 1;
    for (std::int64_t size : shape)
        count *= size;
    const auto values = torch::arange(count, torch::kDouble).mul(0.6180339887498949).frac();
    return values.sub(0.5).mul(scale).to(torch::kFloat).reshape(shape).to(device);
}

struct Repetitions {
    double median = 0.0;
    double spread = 0.0; // of the middle repetitions, over the median
};

// The median and the spread of the repetitions without the fastest and the slowest (one
// outlier, a timer interrupt or a thread woken late, does not make the whole canary "noisy").
Repetitions summarise(std::vector<double> seconds) {
    std::sort(seconds.begin(), seconds.end());
    const std::size_t n = seconds.size();
    const double median = n % 2 == 1 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
    const double spread = n >= 3 ? seconds[n - 2] - seconds[1] : seconds.back() - seconds.front();
    return {median, median > 0.0 ? spread / median : 0.0};
}

} // namespace

struct Canary::Tensors {
    torch::Device device{torch::kCPU};
    torch::Tensor left;
    torch::Tensor right;
    mutable torch::Tensor product; // preallocated: nothing is allocated while it is timed

    void synchronize() const {
        if (device.is_cuda())
            torch::cuda::synchronize(device.index());
    }

    // The kernel, once per launch of a repetition.
    void launch(int launches) const {
        for (int i = 0; i < launches; ++i)
            torch::mm_out(product, left, right);
    }

    // kCanaryWarmups untimed then kCanaryRepetitions timed repetitions, at the current threads.
    Repetitions time() const {
        const int launches = device.is_cuda() ? kCanaryCudaLaunches : 1;
        for (int i = 0; i < kCanaryWarmups; ++i)
            launch(launches);
        std::vector<double> seconds;
        for (int i = 0; i < kCanaryRepetitions; ++i) {
            synchronize();
            const auto t0 = std::chrono::steady_clock::now();
            launch(launches);
            callHook();
            synchronize();
            const auto t1 = std::chrono::steady_clock::now();
            seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
        }
        return summarise(std::move(seconds));
    }
};

Canary::Canary(const std::string &device, int threads)
    : m_tensors(std::make_unique<Tensors>()), m_threads(std::max(threads, 1)) {
    torch::NoGradGuard noGrad;
    Tensors &t = *m_tensors;
    t.device = torch::Device(resolveDevice(device));
    const std::int64_t side = t.device.is_cuda() ? kCanaryCudaSide : kCanaryCpuSide;
    t.left = fixedTensor({side, side}, t.device, 1.0);
    t.right = fixedTensor({side, side}, t.device, 1.0).t().contiguous();
    t.product = torch::empty({side, side}, torch::TensorOptions().device(t.device));
    (void)measure(); // untimed: the first measurement of a process runs cold
}

Canary::~Canary() = default;

CanaryTime Canary::measure() {
    torch::NoGradGuard noGrad;
    const Tensors &t = *m_tensors;
    CanaryTime canary;
    canary.measured = true;
    if (t.device.is_cuda()) {
        const Repetitions device = t.time();
        canary.seconds = device.median;
        canary.noise = device.spread;
        return canary;
    }
    // At the run's threads first, right after the epoch at those threads; then at one thread.
    at::set_num_threads(m_threads);
    Repetitions oneThread = t.time();
    canary.runThreadsSeconds = oneThread.median;
    if (m_threads != 1) {
        at::set_num_threads(1);
        oneThread = t.time();
        at::set_num_threads(m_threads);
    }
    canary.seconds = oneThread.median;
    canary.noise = oneThread.spread;
    return canary;
}

void setCanaryHookForTesting(std::function<void()> hook) {
    const std::lock_guard<std::mutex> lock(g_hookMutex);
    g_hook = std::move(hook);
}

} // namespace devicebench
