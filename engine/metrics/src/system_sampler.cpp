// SPDX-License-Identifier: MIT
#include "devicebench/system_sampler.h"

#include "nvml_gpu.h"
#include "proc_reader.h"
#include "rapl.h"

#include "devicebench/contention.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <thread>
#include <utility>

namespace devicebench {
namespace {

using Clock = std::chrono::steady_clock;

double secondsBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// Whether the NVIDIA driver's NVML library can be loaded (for a CPU run's note only).
bool nvmlPresent(const std::string &library) {
    void *handle = dlopen(library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (handle == nullptr)
        return false;
    const bool nvml = dlsym(handle, "nvmlInit_v2") != nullptr; // not just any library
    dlclose(handle);
    return nvml;
}

} // namespace

double processTreeCpuSeconds(int pid, const std::string &procRoot) {
    const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
    const detail::ProcessTree tree = detail::readProcessTree(procRoot, pid, ticks);
    if (!tree.valid)
        return std::numeric_limits<double>::quiet_NaN();
    // Children that ended and were waited for (DataLoader workers at an epoch's end) left the
    // tree: their time is the root's cutime and cstime now.
    const std::string stat = detail::readSmallFile(procRoot + "/" + std::to_string(pid) + "/stat");
    const double ended = detail::parseStatChildTicks(stat) / ticks;
    double seconds = std::isfinite(ended) ? ended : 0.0;
    for (const auto &entry : tree.cpuSeconds)
        seconds += entry.second;
    return seconds;
}

int cudaDeviceIndex(const std::string &device) {
    if (device == "cuda")
        return 0;
    if (device.rfind("cuda:", 0) != 0 || device.size() == 5)
        return -1;
    char *end = nullptr;
    const long index = std::strtol(device.c_str() + 5, &end, 10);
    return *end == '\0' && index >= 0 && index < 4096 ? static_cast<int>(index) : -1;
}

SamplerOptions samplerOptionsFor(const std::string &device, const std::string &gpuPciBusId) {
    SamplerOptions options;
    const int index = cudaDeviceIndex(device);
    options.gpu = index >= 0;
    options.gpuIndex = std::max(index, 0);
    options.gpuPciBusId = options.gpu ? gpuPciBusId : std::string();
    const char *period = std::getenv("DEVICEBENCH_SAMPLING_PERIOD");
    if (period != nullptr && *period != '\0') { // empty is unset, as for every variable
        char *end = nullptr;
        const double seconds = std::strtod(period, &end);
        const bool number = end != period && *end == '\0';
        if (number && (seconds == 0.0 ||
                       (seconds >= SamplerOptions::kShortestPeriodSeconds && seconds <= 60.0)))
            options.periodSeconds = seconds;
        else
            options.notes.push_back("DEVICEBENCH_SAMPLING_PERIOD=\"" + std::string(period) +
                                    "\" ignored (not 0 or a number of seconds from 0.001 to "
                                    "60): sampled every 0.5 s");
    }
    return options;
}

// Everything the thread reads and writes; the readings and notes under `mutex`, the sources
// touched by the thread alone (after start() opened them).
struct SystemSampler::State {
    SamplerOptions options;
    double ticksPerSecond = static_cast<double>(sysconf(_SC_CLK_TCK));
    Clock::time_point started;

    std::unique_ptr<detail::RaplCounters> rapl;
    std::unique_ptr<detail::NvmlGpu> gpu;
    bool gpuCounter = false; // NVML's energy counter, else its power integrated
    double gpuCounterBase = kNotSampled;
    double gpuIntegral = 0.0; // joules, trapezoids of power over time
    double lastPower = kNotSampled;
    double lastPowerTime = 0.0;
    int lastRoot = -1;
    detail::ProcessTree lastTree;
    bool proportional = false; // the last readable tree's memory was its Pss sum
    CpuTimes lastMachine;
    Clock::time_point lastRead;

    mutable std::mutex mutex;
    std::condition_variable wake;
    std::condition_variable readDone;
    bool running = false;
    bool stopping = false;
    bool readWanted = false;
    long readings = 0;
    std::vector<SystemSample> samples;
    std::size_t taken = 0;
    std::vector<std::string> notes;
    EnergySources sources;
    std::thread thread;

    double now() const {
        return options.clock ? options.clock() : secondsBetween(started, Clock::now());
    }
    void openSources();
    SystemSample read();
    void readGpu(SystemSample &sample, double t, std::vector<std::string> *newNotes);
    void loop();
};

void SystemSampler::State::openSources() {
    std::string why;
    rapl = detail::RaplCounters::open(options.powercapRoot, &why);
    sources.cpu = rapl ? EnergyReading{EnergyMethod::Rapl, kNotSampled, rapl->zones()}
                       : EnergyReading{EnergyMethod::None, kNotSampled, why};
    const std::string library =
        options.nvmlLibrary.empty() ? detail::nvmlLibraryName() : options.nvmlLibrary;
    if (!options.gpu) {
        sources.gpu.note = nvmlPresent(library) ? kNotTheRunsDevice : "no NVIDIA driver";
        return;
    }
    gpu = detail::NvmlGpu::open(library, options.gpuIndex, options.gpuPciBusId, &why);
    if (!gpu) {
        sources.gpu.note = why;
        notes.push_back("gpu: " + why);
        return;
    }
    gpuCounter = gpu->hasEnergyCounter();
    sources.gpu.method =
        gpuCounter ? EnergyMethod::NvmlEnergyCounter : EnergyMethod::NvmlPowerIntegral;
    sources.gpu.note = gpu->name();
    if (!gpuCounter)
        notes.push_back("gpu energy: " + gpu->name() +
                        " has no energy counter: its power readings are integrated over time");
}

void SystemSampler::State::readGpu(SystemSample &sample, double t,
                                   std::vector<std::string> *newNotes) {
    const detail::GpuReading r = gpu->read(newNotes);
    sample.gpuUtilization = r.utilization;
    sample.gpuMemoryBytes = r.memoryBytes;
    sample.gpuPowerWatts = r.powerWatts;
    if (gpuCounter) {
        if (std::isnan(gpuCounterBase))
            gpuCounterBase = r.energyJoules;
        sample.gpuJoules = r.energyJoules - gpuCounterBase; // NaN once the counter failed
        return;
    }
    if (std::isnan(r.powerWatts))
        return; // no power: nothing to integrate from now on
    if (!std::isnan(lastPower))
        gpuIntegral += (lastPower + r.powerWatts) / 2.0 * (t - lastPowerTime);
    lastPower = r.powerWatts;
    lastPowerTime = t;
    sample.gpuJoules = gpuIntegral;
}

SystemSample SystemSampler::State::read() {
    SystemSample sample;
    const Clock::time_point wallNow = Clock::now();
    const double wall = secondsBetween(lastRead, wallNow);
    sample.seconds = now();

    const int root = options.process ? options.process() : 0;
    detail::ProcessTree tree = detail::readProcessTree(options.procRoot, root, ticksPerSecond);
    if (root == lastRoot) // a new root (a child run's process started): no rate until the next
        sample.processCores = detail::busyCores(lastTree, tree, wall);
    sample.rssBytes = tree.valid ? tree.rssBytes : kNotSampled;
    if (tree.valid)
        proportional = tree.proportional;
    lastTree = std::move(tree);
    lastRoot = root;

    const CpuTimes machine =
        parseProcStat(detail::readSmallFile(options.procRoot + "/stat"), {}, ticksPerSecond);
    if (machine.valid && lastMachine.valid && wall > 0.0)
        sample.machineCores = std::max(0.0, machine.busy - lastMachine.busy) / wall;
    lastMachine = machine;
    lastRead = wallNow;

    std::vector<std::string> newNotes;
    if (rapl) {
        sample.cpuJoules = rapl->read(&newNotes);
        if (std::isnan(sample.cpuJoules)) {
            rapl.reset();
            std::lock_guard<std::mutex> lock(mutex);
            sources.cpu = {EnergyMethod::None, kNotSampled, "RAPL counter failed during the run"};
        }
    }
    if (gpu)
        readGpu(sample, sample.seconds, &newNotes);
    if (!newNotes.empty()) {
        std::lock_guard<std::mutex> lock(mutex);
        for (std::string &note : newNotes)
            notes.push_back(std::move(note));
    }
    return sample;
}

void SystemSampler::State::loop() {
    const auto period = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options.periodSeconds));
    Clock::time_point next = Clock::now() + period;
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
        wake.wait_until(lock, next, [&] { return stopping || readWanted; });
        // No reading after the run: its processes idle then, and the curves would end in a drop.
        if (stopping)
            return;
        readWanted = false;
        lock.unlock();
        SystemSample sample = read(); // outside the lock: takeNew() never waits for /proc
        lock.lock();
        samples.push_back(sample);
        ++readings;
        readDone.notify_all();
        if (Clock::now() >= next)
            next += period * (1 + (Clock::now() - next) / period); // the next tick ahead
    }
}

SystemSampler::SystemSampler(SamplerOptions options) : m_state(std::make_unique<State>()) {
    m_state->options = std::move(options);
    double &period = m_state->options.periodSeconds;
    if (!(period > 0.0)) // NaN too
        period = 0.5;
    period = std::max(period, SamplerOptions::kShortestPeriodSeconds);
    m_state->notes = m_state->options.notes;
}

SystemSampler::~SystemSampler() { stop(); }

void SystemSampler::start() {
    State &s = *m_state;
    if (s.running)
        return;
    s.started = Clock::now();
    s.openSources();
    // The first reading is the base of the rates: its CPU use is unknown.
    s.lastRead = Clock::now();
    s.samples.push_back(s.read());
    s.running = true;
    s.thread = std::thread([&s] { s.loop(); });
}

void SystemSampler::stop() {
    State &s = *m_state;
    if (!s.running)
        return;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        s.stopping = true;
    }
    s.wake.notify_all();
    s.thread.join();
    s.running = false;
}

void SystemSampler::readNow() {
    State &s = *m_state;
    std::unique_lock<std::mutex> lock(s.mutex);
    if (!s.running || s.stopping)
        return;
    const long before = s.readings;
    s.readWanted = true;
    s.wake.notify_all();
    const auto limit = std::chrono::duration<double>(2 * s.options.periodSeconds);
    s.readDone.wait_for(lock, limit, [&] { return s.readings > before; });
}

std::vector<SystemSample> SystemSampler::takeNew() {
    State &s = *m_state;
    std::lock_guard<std::mutex> lock(s.mutex);
    std::vector<SystemSample> fresh(s.samples.begin() + static_cast<std::ptrdiff_t>(s.taken),
                                    s.samples.end());
    s.taken = s.samples.size();
    return fresh;
}

SamplingInfo SystemSampler::info() const {
    const State &s = *m_state;
    std::lock_guard<std::mutex> lock(s.mutex);
    SamplingInfo info;
    info.sampled = true;
    info.periodSeconds = s.options.periodSeconds;
    info.notes = s.notes;
    info.memoryMeasure = s.proportional ? kProportionalSetSize : kResidentSetSize;
    return info;
}

EpochSystem SystemSampler::epoch(double fromSeconds, double toSeconds) const {
    const State &s = *m_state;
    std::lock_guard<std::mutex> lock(s.mutex);
    return summarizeEpoch(s.samples, fromSeconds, toSeconds, s.sources);
}

} // namespace devicebench
