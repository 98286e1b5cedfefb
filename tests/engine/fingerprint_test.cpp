// SPDX-License-Identifier: MIT
#include "devicebench/cuda_driver.h"
#include "devicebench/fingerprint.h"

#include "fingerprint_internal.h"
#include "json_fingerprint.h"

#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <link.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

using namespace devicebench;

namespace {

bool libblasLoaded() {
    bool found = false;
    dl_iterate_phdr(
        [](struct dl_phdr_info *info, std::size_t, void *data) {
            if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "libblas.so")) {
                *static_cast<bool *>(data) = true;
                return 1;
            }
            return 0;
        },
        &found);
    return found;
}

Fingerprint sampleWithGpus() {
    Fingerprint fp;
    fp.hostName = "host-a";
    fp.os = "Debian GNU/Linux 12 (bookworm), kernel Linux 6.1.0";
    fp.cpuModel = "Intel(R) Xeon(R) CPU @ 2.20GHz";
    fp.physicalCores = 2;
    fp.logicalCores = 4;
    fp.cpuQuota = "200000 100000";
    fp.cpuQuotaCores = 2.0;
    fp.affinity = "0-3";
    fp.affinityCount = 4;
    fp.ompNumThreads = "2";
    fp.intraOpThreads = 2;
    fp.blasLibrary = "/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3";
    fp.libtorchVersion = "2.1.0";
    fp.cudaBuilt = true;
    fp.cudaRuntimeVersion = "11.8";
    fp.cudnnVersion = "8.7.0";
    fp.driverVersion = "12.2";
    fp.gpus.push_back({0, "Tesla T4", 7, 5, 15843721216LL});
    fp.gpus.push_back({1, "NVIDIA GeForce RTX 3050 Laptop GPU", 8, 6, 4294967296LL});
    fp.cudnnBenchmark = true;
    fp.appVersion = "0.3.0";
    return fp;
}

std::string fromJsonError(const nlohmann::json &j) {
    try {
        fingerprintFromJson(j, "runs/a.json");
    } catch (const RecordError &e) {
        return e.what();
    }
    return "<no error>";
}

} // namespace

TEST(Fingerprint, FieldsOnThisMachineArePlausible) {
    const Fingerprint fp = collectFingerprint();
    EXPECT_FALSE(fp.hostName.empty());
    EXPECT_FALSE(fp.os.empty());
    EXPECT_GE(fp.logicalCores, 1);
    EXPECT_GE(fp.physicalCores, 1);
    EXPECT_LE(fp.physicalCores, fp.logicalCores);
    EXPECT_GE(fp.affinityCount, 1);
    EXPECT_LE(fp.affinityCount, fp.logicalCores);
    EXPECT_FALSE(fp.affinity.empty());
    EXPECT_GE(fp.intraOpThreads, 1);
    EXPECT_GE(fp.cpuQuotaCores, 0.0);
    ASSERT_FALSE(fp.libtorchVersion.empty());
    EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(fp.libtorchVersion[0])))
        << fp.libtorchVersion;
    EXPECT_FALSE(fp.appVersion.empty());
    if (!fp.cudaBuilt) {
        EXPECT_TRUE(fp.cudaRuntimeVersion.empty());
        EXPECT_TRUE(fp.cudnnVersion.empty());
    }
    for (const auto &gpu : fp.gpus) {
        EXPECT_FALSE(gpu.name.empty());
        EXPECT_GT(gpu.memoryBytes, 0);
    }
}

TEST(Fingerprint, CpuModelIsReadWhereCpuinfoHasOne) {
    std::ifstream in("/proc/cpuinfo");
    bool hasModelName = false;
    for (std::string line; std::getline(in, line);) {
        hasModelName = hasModelName || line.rfind("model name", 0) == 0;
    }
    if (!hasModelName) {
        GTEST_SKIP() << "/proc/cpuinfo has no \"model name\" line here";
    }
    EXPECT_FALSE(collectFingerprint().cpuModel.empty());
}

TEST(Fingerprint, BlasLibraryResolvesToAnExistingFileWhenLibblasIsLoaded) {
    if (!libblasLoaded()) {
        GTEST_SKIP() << "no libblas.so is loaded in this process (LibTorch links another BLAS)";
    }
    const Fingerprint fp = collectFingerprint();
    ASSERT_FALSE(fp.blasLibrary.empty());
    EXPECT_TRUE(std::filesystem::is_regular_file(fp.blasLibrary)) << fp.blasLibrary;
    // A real path: no symbolic link left to resolve (Debian's alternatives link is followed).
    EXPECT_FALSE(std::filesystem::is_symlink(fp.blasLibrary)) << fp.blasLibrary;
    EXPECT_EQ(std::filesystem::canonical(fp.blasLibrary).string(), fp.blasLibrary);
}

TEST(Fingerprint, OmpNumThreadsIsRecordedAsSet) {
    const char *omp = std::getenv("OMP_NUM_THREADS");
    EXPECT_EQ(collectFingerprint().ompNumThreads, omp != nullptr ? omp : "");
}

TEST(Fingerprint, CpuListsAreFormattedAsKernelRanges) {
    EXPECT_EQ(detail::formatCpuList({}), "");
    EXPECT_EQ(detail::formatCpuList({3}), "3");
    EXPECT_EQ(detail::formatCpuList({0, 1}), "0-1");
    EXPECT_EQ(detail::formatCpuList({0, 2, 4}), "0,2,4");
    EXPECT_EQ(detail::formatCpuList({8, 7, 0, 1, 2, 5, 2}), "0-2,5,7-8");
}

TEST(Fingerprint, CpuMaxIsParsedIntoCores) {
    EXPECT_DOUBLE_EQ(detail::parseCpuMax("max 100000"), 0.0);
    EXPECT_DOUBLE_EQ(detail::parseCpuMax("200000 100000"), 2.0);
    EXPECT_DOUBLE_EQ(detail::parseCpuMax("150000 100000\n"), 1.5);
    EXPECT_DOUBLE_EQ(detail::parseCpuMax("50000 100000 (cgroup v1)"), 0.5);
    EXPECT_DOUBLE_EQ(detail::parseCpuMax(""), 0.0);
    EXPECT_DOUBLE_EQ(detail::parseCpuMax("garbage"), 0.0);
    EXPECT_DOUBLE_EQ(detail::parseCpuMax("100000 0"), 0.0);
    EXPECT_DOUBLE_EQ(detail::parseCpuMax("12x 100000"), 0.0);
}

TEST(Fingerprint, AQuotaOfMaxOrMinusOneReadsAsNoLimit) {
    Fingerprint fp;
    EXPECT_EQ(cpuQuotaText(fp), "none found");
    fp.cpuQuota = "max 100000 (cgroup v1)"; // cpu.cfs_quota_us -1, as the collector writes it
    EXPECT_EQ(cpuQuotaText(fp), "no limit (cgroup v1 cpu.cfs_quota_us: -1)");
    fp.cpuQuota = "max 100000";
    EXPECT_EQ(cpuQuotaText(fp), "no limit (cgroup v2 cpu.max: max 100000)");
    fp.cpuQuota = "200000 100000";
    fp.cpuQuotaCores = 2.0;
    EXPECT_EQ(cpuQuotaText(fp), "2.00 cores (200000 100000)");
    fp.cpuQuota = "150000 100000 (cgroup v1)";
    fp.cpuQuotaCores = 1.5;
    EXPECT_EQ(cpuQuotaText(fp), "1.50 cores (150000 100000 (cgroup v1))");
}

TEST(Fingerprint, CgroupPathsAreFoundInProcSelfCgroup) {
    EXPECT_EQ(detail::cgroupV2Path("0::/user.slice/session-1.scope\n"),
              "/user.slice/session-1.scope");
    EXPECT_EQ(detail::cgroupV2Path("4:cpu,cpuacct:/docker/ab\n"), "");
    const auto v1 = detail::cgroupV1CpuPath("5:cpuacct:/x\n4:cpu,cpuacct:/docker/ab\n0::/\n");
    EXPECT_EQ(v1.controllers, "cpu,cpuacct");
    EXPECT_EQ(v1.path, "/docker/ab");
    EXPECT_EQ(detail::cgroupV1CpuPath("0::/\n").controllers, "");
}

TEST(Fingerprint, CudaVersionNumbersAreFormatted) {
    EXPECT_EQ(formatCudaVersion(11080), "11.8");
    EXPECT_EQ(formatCudaVersion(12020), "12.2");
    EXPECT_EQ(formatCudaVersion(0), "");
    EXPECT_EQ(detail::formatCudnnVersion(8700), "8.7.0");
    EXPECT_EQ(detail::formatCudnnVersion(8902), "8.9.2");
    EXPECT_EQ(detail::formatCudnnVersion(90100), "9.1.0");
}

TEST(Fingerprint, MachineLabelNamesDeviceAndHost) {
    const Fingerprint fp = sampleWithGpus();
    EXPECT_EQ(machineLabel(fp, "cpu", 8), "CPU x8 @ host-a");
    EXPECT_EQ(machineLabel(fp, "cuda:0", 8), "Tesla T4 @ host-a");
    EXPECT_EQ(machineLabel(fp, "cuda", 1), "Tesla T4 @ host-a");
    EXPECT_EQ(machineLabel(fp, "cuda:1", 1), "NVIDIA GeForce RTX 3050 Laptop GPU @ host-a");
    EXPECT_EQ(machineLabel(fp, "cuda:5", 1), "cuda:5 @ host-a");
}

TEST(Fingerprint, JsonRoundTripKeepsEveryFieldIncludingGpus) {
    const Fingerprint fp = sampleWithGpus();
    const auto text = toJson(fp).dump();
    const Fingerprint back = fingerprintFromJson(nlohmann::json::parse(text), "test");
    EXPECT_EQ(back.hostName, fp.hostName);
    EXPECT_EQ(back.os, fp.os);
    EXPECT_EQ(back.cpuModel, fp.cpuModel);
    EXPECT_EQ(back.physicalCores, fp.physicalCores);
    EXPECT_EQ(back.logicalCores, fp.logicalCores);
    EXPECT_EQ(back.cpuQuota, fp.cpuQuota);
    EXPECT_DOUBLE_EQ(back.cpuQuotaCores, fp.cpuQuotaCores);
    EXPECT_EQ(back.affinity, fp.affinity);
    EXPECT_EQ(back.affinityCount, fp.affinityCount);
    EXPECT_EQ(back.ompNumThreads, fp.ompNumThreads);
    EXPECT_EQ(back.intraOpThreads, fp.intraOpThreads);
    EXPECT_EQ(back.blasLibrary, fp.blasLibrary);
    EXPECT_EQ(back.libtorchVersion, fp.libtorchVersion);
    EXPECT_EQ(back.cudaBuilt, fp.cudaBuilt);
    EXPECT_EQ(back.cudaRuntimeVersion, fp.cudaRuntimeVersion);
    EXPECT_EQ(back.cudnnVersion, fp.cudnnVersion);
    EXPECT_EQ(back.driverVersion, fp.driverVersion);
    ASSERT_EQ(back.gpus.size(), fp.gpus.size());
    for (std::size_t i = 0; i < fp.gpus.size(); ++i) {
        EXPECT_EQ(back.gpus[i].index, fp.gpus[i].index);
        EXPECT_EQ(back.gpus[i].name, fp.gpus[i].name);
        EXPECT_EQ(back.gpus[i].computeMajor, fp.gpus[i].computeMajor);
        EXPECT_EQ(back.gpus[i].computeMinor, fp.gpus[i].computeMinor);
        EXPECT_EQ(back.gpus[i].memoryBytes, fp.gpus[i].memoryBytes);
    }
    EXPECT_EQ(back.cudnnBenchmark, fp.cudnnBenchmark);
    EXPECT_EQ(back.appVersion, fp.appVersion);
}

TEST(Fingerprint, JsonOfThisMachineRoundTrips) {
    const Fingerprint fp = collectFingerprint();
    const Fingerprint back = fingerprintFromJson(toJson(fp), "test");
    EXPECT_EQ(toJson(back), toJson(fp));
}

TEST(Fingerprint, JsonErrorsNameTheSourceAndTheField) {
    auto j = toJson(sampleWithGpus());
    auto missing = j;
    missing.erase("cpuModel");
    EXPECT_EQ(fromJsonError(missing), "runs/a.json: field 'fingerprint.cpuModel' is missing");
    auto wrongType = j;
    wrongType["logicalCores"] = "four";
    EXPECT_EQ(fromJsonError(wrongType),
              "runs/a.json: field 'fingerprint.logicalCores' must be a whole number");
    auto gpuName = j;
    gpuName["gpus"][1]["name"] = 3;
    EXPECT_EQ(fromJsonError(gpuName),
              "runs/a.json: field 'fingerprint.gpus[1].name' must be a string");
    auto negative = j;
    negative["cpuQuotaCores"] = -1.0;
    EXPECT_NE(fromJsonError(negative).find("'fingerprint.cpuQuotaCores'"), std::string::npos);
    EXPECT_EQ(fromJsonError(nlohmann::json::array()),
              "runs/a.json: field 'fingerprint' must be an object");
}
