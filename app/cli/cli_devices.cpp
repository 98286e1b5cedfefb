// SPDX-License-Identifier: MIT
// `devicebench-cli devices`: every device with its probe result, then this machine's
// fingerprint (MEASURING.md, lessons 3 and 4).
#include "cli_devices.h"

#include "devicebench/devices.h"
#include "devicebench/fingerprint.h"
#include "devicebench/version.h"

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>

namespace devicebench::cli {
namespace {

std::string orNone(const std::string &value) { return value.empty() ? "(none)" : value; }

std::string number(double value, int precision) {
    std::ostringstream s;
    s << std::setprecision(precision) << value;
    return s.str();
}

std::string gibibytes(std::int64_t bytes) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1)
      << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB";
    return s.str();
}

void printFingerprint(const Fingerprint &fp, std::ostream &out) {
    out << "fingerprint\n";
    auto line = [&out](const char *key, const std::string &value) {
        out << "  " << key << ": " << value << "\n";
    };
    line("hostName", orNone(fp.hostName));
    line("os", orNone(fp.os));
    line("cpuModel", orNone(fp.cpuModel));
    line("physicalCores", std::to_string(fp.physicalCores));
    line("logicalCores", std::to_string(fp.logicalCores));
    line("cpuQuota", cpuQuotaText(fp));
    line("affinity", orNone(fp.affinity) + " (" + std::to_string(fp.affinityCount) + " CPUs)");
    line("ompNumThreads", fp.ompNumThreads.empty() ? std::string("(unset)") : fp.ompNumThreads);
    line("intraOpThreads", std::to_string(fp.intraOpThreads));
    line("blasLibrary", orNone(fp.blasLibrary));
    line("libtorchVersion", orNone(fp.libtorchVersion));
    line("cudaBuilt", fp.cudaBuilt ? "yes" : "no");
    line("cudaRuntimeVersion", orNone(fp.cudaRuntimeVersion));
    line("cudnnVersion", orNone(fp.cudnnVersion));
    line("driverVersion", orNone(fp.driverVersion));
    if (fp.gpus.empty()) {
        line("gpus", "(none: no CUDA driver or no GPU)");
    }
    for (const auto &gpu : fp.gpus) {
        out << "  gpu[" << gpu.index << "]: " << orNone(gpu.name) << ", compute capability "
            << gpu.computeMajor << "." << gpu.computeMinor << ", " << gibibytes(gpu.memoryBytes)
            << "\n";
    }
    line("cudnnBenchmark", fp.cudnnBenchmark ? "on" : "off");
    line("appVersion", orNone(fp.appVersion));
}

} // namespace

CLI::App *addDevicesCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen) {
    auto *devices = app.add_subcommand(
        "devices", "List the devices, each probed, and this machine's fingerprint");
    auto asJson = std::make_shared<bool>(false); // kept by the callback
    devices->add_flag("--json", *asJson,
                      "Print {\"devices\": [...], \"fingerprint\": {...}} as JSON");
    setAction(*devices, chosen,
              [asJson, &context] { return devicesCommand(context.out, *asJson); });
    return devices;
}

int devicesCommand(std::ostream &out, bool json) {
    const auto devices = listDevices();
    const Fingerprint fingerprint = collectFingerprint();
    if (json) {
        out << devicesJson(devices, fingerprint);
        return kExitOk;
    }
    out << "DeviceBench " << kVersion << ": devices (each probed with a 5x5 convolution forward "
        << "and backward, checked against the CPU)\n";
    bool anyCuda = false;
    std::string cudaReasons;
    for (const auto &d : devices) {
        out << "  " << std::left << std::setw(8) << d.id << (d.usable ? "USABLE    " : "UNUSABLE  ")
            << d.name;
        if (d.id == "cpu") {
            out << ", " << availableCores() << " cores available to this process";
        }
        out << "\n";
        if (!d.probe.device.empty()) {
            out << "            probe: " << number(d.probe.seconds * 1000.0, 3)
                << " ms, relative error "
                << (std::isfinite(d.probe.relativeError) ? number(d.probe.relativeError, 3)
                                                         : std::string("not finite"))
                << (d.usable ? " (passed)" : "") << "\n";
        } else {
            out << "            probe: not run (no such device to run it on)\n";
        }
        if (!d.usable) {
            out << "            reason: " << d.reason << "\n";
        }
        if (d.id.rfind("cuda", 0) == 0) {
            anyCuda = anyCuda || d.usable;
            if (!d.usable) {
                // The unindexed "cuda" entry stands for CUDA as a whole: its reason says it all.
                cudaReasons += (cudaReasons.empty() ? "" : "; ") +
                               (d.id == "cuda" ? d.reason : d.id + ": " + d.reason);
            }
        }
    }
    if (!anyCuda) {
        out << "No CUDA device is usable here: " << cudaReasons << "\n";
    }
    out << "\n";
    printFingerprint(fingerprint, out);
    return kExitOk;
}

} // namespace devicebench::cli
