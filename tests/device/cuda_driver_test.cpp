// SPDX-License-Identifier: MIT
// The NVIDIA driver check (cuda_driver.h) against stand-in driver libraries (fake_cuda.cpp:
// CUDA 12.4, CUDA 13.0, one without cuDriverGetVersion) and kernel-module version files
// written here.
#include "devicebench/cuda_driver.h"

#include "cifar_files.h" // TempDir

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace devicebench {
namespace {

using testing::TempDir;

constexpr const char *kNoModule = "/nonexistent/proc/driver/nvidia/version";
constexpr const char *kModuleLine =
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024";

std::string writeModuleFile(const TempDir &dir, const std::string &firstLine) {
    const auto path = dir.path() / "version";
    std::ofstream(path) << firstLine << "\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
    return path.string();
}

std::string fileText(const std::string &path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(CudaDriverRead, AStandInDriverIsReadThroughItsCuDriverGetVersion) {
    const CudaDriver old = readCudaDriver(DEVICEBENCH_FAKE_CUDA_12_4, kNoModule);
    EXPECT_TRUE(old.loaded);
    EXPECT_TRUE(old.hasVersion);
    EXPECT_EQ(old.cudaVersion, 12040);
    const CudaDriver current = readCudaDriver(DEVICEBENCH_FAKE_CUDA_13_0, kNoModule);
    EXPECT_EQ(current.cudaVersion, 13000);
    EXPECT_EQ(formatCudaVersion(current.cudaVersion), "13.0");
}

TEST(CudaDriverRead, TheEnvironmentPointsTheCheckAtAStandIn) {
    TempDir dir;
    const std::string module = writeModuleFile(dir, kModuleLine);
    setenv("DEVICEBENCH_CUDA_DRIVER_LIBRARY", DEVICEBENCH_FAKE_CUDA_12_4, 1);
    setenv("DEVICEBENCH_NVIDIA_VERSION_FILE", module.c_str(), 1);
    const CudaDriver driver = readCudaDriver();
    unsetenv("DEVICEBENCH_CUDA_DRIVER_LIBRARY");
    unsetenv("DEVICEBENCH_NVIDIA_VERSION_FILE");
    EXPECT_EQ(driver.cudaVersion, 12040);
    EXPECT_EQ(driver.moduleVersion, "550.54.14");
    EXPECT_EQ(driver.moduleFile, module);
}

TEST(CudaDriverRead, TheKernelModuleVersionIsReadInBothModuleForms) {
    EXPECT_EQ(nvidiaModuleVersion(kModuleLine), "550.54.14");
    EXPECT_EQ(nvidiaModuleVersion("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                  "580.95.05  Release Build  (dvs-builder@U16-I3-B03-4-3)"),
              "580.95.05");
    EXPECT_EQ(nvidiaModuleVersion(""), "");
    EXPECT_EQ(nvidiaModuleVersion("NVRM version: something else"), "");
}

TEST(CudaDriverJudge, NoLibraryAndNoModuleMeansNoDriver) {
    const CudaDriver driver = readCudaDriver("/nonexistent/libcuda.so.1", kNoModule);
    EXPECT_FALSE(driver.loaded);
    const DriverVerdict verdict = judgeCudaDriver(driver, "2.11.0", 13000);
    EXPECT_EQ(verdict.fit, DriverFit::None);
    EXPECT_NE(verdict.found.find("no NVIDIA driver"), std::string::npos) << verdict.found;
    EXPECT_NE(verdict.found.find("/nonexistent/libcuda.so.1"), std::string::npos);
    EXPECT_EQ(verdict.advice, "");
}

TEST(CudaDriverJudge, AModuleWithoutItsLibraryIsUnusableNamingBoth) {
    TempDir dir;
    const CudaDriver driver =
        readCudaDriver("/nonexistent/libcuda.so.1", writeModuleFile(dir, kModuleLine));
    const DriverVerdict verdict = judgeCudaDriver(driver, "2.11.0", 13000);
    EXPECT_EQ(verdict.fit, DriverFit::Unusable);
    EXPECT_NE(verdict.found.find("kernel module 550.54.14"), std::string::npos) << verdict.found;
    EXPECT_NE(verdict.found.find("cannot be loaded"), std::string::npos) << verdict.found;
    EXPECT_NE(verdict.advice.find("DEVICEBENCH_PRESET=default"), std::string::npos);
}

TEST(CudaDriverJudge, AnAbsentAnUnreadableAndAMalformedModuleFileAreToldApart) {
    TempDir dir;
    const std::string absent = (dir.path() / "absent").string();
    const DriverVerdict none =
        judgeCudaDriver(readCudaDriver("/nonexistent/libcuda.so.1", absent), "2.11.0", 13000);
    EXPECT_EQ(none.fit, DriverFit::None);
    EXPECT_NE(none.found.find(absent + " is absent"), std::string::npos) << none.found;

    const std::string folder = dir.path().string(); // a folder where the file should be
    const DriverVerdict unreadable =
        judgeCudaDriver(readCudaDriver("/nonexistent/libcuda.so.1", folder), "2.11.0", 13000);
    EXPECT_EQ(unreadable.fit, DriverFit::Unusable);
    EXPECT_NE(unreadable.found.find(folder + " exists but cannot be read (a folder, not a file)"),
              std::string::npos)
        << unreadable.found;
    EXPECT_EQ(unreadable.found.find("absent"), std::string::npos) << unreadable.found;

    const std::string garbage = writeModuleFile(dir, "NVRM \x1b[2Jgarbage \u202Eevil");
    const CudaDriver malformed = readCudaDriver("/nonexistent/libcuda.so.1", garbage);
    const DriverVerdict verdict = judgeCudaDriver(malformed, "2.11.0", 13000);
    EXPECT_EQ(verdict.fit, DriverFit::Unusable);
    EXPECT_NE(verdict.found.find(garbage + " is malformed: its first line 'NVRM [U+001B][2Jgarbage "
                                           "[U+202E]evil' names no driver version"),
              std::string::npos)
        << verdict.found;
    EXPECT_NE(verdict.advice.find("nvidia-smi"), std::string::npos) << verdict.advice;

    // with a library that answers, the verdict stands and names the file's problem
    const DriverVerdict loaded =
        judgeCudaDriver(readCudaDriver(DEVICEBENCH_FAKE_CUDA_13_0, garbage), "2.11.0", 13000);
    EXPECT_EQ(loaded.fit, DriverFit::Fits);
    EXPECT_NE(loaded.found.find(" is malformed"), std::string::npos) << loaded.found;
}

TEST(CudaDriverJudge, ALibraryWithoutCuDriverGetVersionIsUnusableNamingTheSymbol) {
    const CudaDriver driver = readCudaDriver(DEVICEBENCH_FAKE_CUDA_NO_VERSION, kNoModule);
    EXPECT_TRUE(driver.loaded);
    EXPECT_FALSE(driver.hasVersion);
    const DriverVerdict verdict = judgeCudaDriver(driver, "2.11.0", 13000);
    EXPECT_EQ(verdict.fit, DriverFit::Unusable);
    EXPECT_NE(verdict.found.find("has no cuDriverGetVersion"), std::string::npos) << verdict.found;
    EXPECT_NE(verdict.found.find(DEVICEBENCH_FAKE_CUDA_NO_VERSION), std::string::npos);
}

TEST(CudaDriverJudge, AFailingCuDriverGetVersionIsUnusableWithItsCuResult) {
    setenv("FAKE_CUDA_FAIL", "999", 1); // CUDA_ERROR_UNKNOWN
    const CudaDriver driver = readCudaDriver(DEVICEBENCH_FAKE_CUDA_13_0, kNoModule);
    unsetenv("FAKE_CUDA_FAIL");
    EXPECT_EQ(driver.versionError, 999);
    const DriverVerdict verdict = judgeCudaDriver(driver, "2.11.0", 13000);
    EXPECT_EQ(verdict.fit, DriverFit::Unusable);
    EXPECT_NE(verdict.found.find("CUresult 999"), std::string::npos) << verdict.found;
}

TEST(CudaDriverJudge, ADriverOfCuda12_4IsTooOldForTorch2_11AndSaysTheWaysForward) {
    TempDir dir;
    const CudaDriver driver =
        readCudaDriver(DEVICEBENCH_FAKE_CUDA_12_4, writeModuleFile(dir, kModuleLine));
    const DriverVerdict verdict = judgeCudaDriver(driver, "2.11.0", 13000);
    EXPECT_EQ(verdict.fit, DriverFit::TooOld);
    EXPECT_NE(verdict.found.find("supports CUDA 12.4"), std::string::npos) << verdict.found;
    EXPECT_NE(verdict.found.find("torch 2.11.0 needs CUDA 13.0"), std::string::npos);
    EXPECT_NE(verdict.found.find("550.54.14"), std::string::npos);
    // Update the driver (the first driver of CUDA 13.0), the newest torch of CUDA 12.4 or
    // older (2.6.0), or the CPU build.
    EXPECT_NE(verdict.advice.find("update the NVIDIA driver"), std::string::npos);
    EXPECT_NE(verdict.advice.find("580.65.06"), std::string::npos) << verdict.advice;
    EXPECT_NE(verdict.advice.find("DEVICEBENCH_TORCH_VERSION=2.6.0"), std::string::npos)
        << verdict.advice;
    EXPECT_NE(verdict.advice.find("DEVICEBENCH_PRESET=default"), std::string::npos);
}

TEST(CudaDriverJudge, ADriverOfCuda13_0FitsTorch2_11AndNotAHigherCuda) {
    const CudaDriver driver = readCudaDriver(DEVICEBENCH_FAKE_CUDA_13_0, kNoModule);
    const DriverVerdict fits = judgeCudaDriver(driver, "2.11.0", 13000);
    EXPECT_EQ(fits.fit, DriverFit::Fits);
    EXPECT_NE(fits.found.find("supports CUDA 13.0"), std::string::npos) << fits.found;
    EXPECT_EQ(fits.advice, "");
    EXPECT_EQ(judgeCudaDriver(driver, "99.0.0", 13010).fit, DriverFit::TooOld);
}

TEST(CudaDriverJudge, ADriverOlderThanEveryPinSaysNoTorchOfTheTableFits) {
    CudaDriver driver;
    driver.library = "libcuda.so.1";
    driver.loaded = driver.hasVersion = true;
    driver.cudaVersion = 11080;
    const DriverVerdict verdict = judgeCudaDriver(driver, "2.11.0", 13000);
    EXPECT_EQ(verdict.fit, DriverFit::TooOld);
    EXPECT_NE(verdict.advice.find("no PyTorch of DeviceBench's table runs on CUDA 11.8"),
              std::string::npos)
        << verdict.advice;
    EXPECT_EQ(verdict.advice.find("DEVICEBENCH_TORCH_VERSION="), std::string::npos);
}

TEST(TorchCudaPins, TheTableIsNewestFirstAndKnowsThePinnedWheel) {
    const auto &pins = torchCudaPins();
    ASSERT_GE(pins.size(), 2U);
    for (std::size_t i = 0; i + 1 < pins.size(); ++i)
        EXPECT_GE(pins[i].cuda, pins[i + 1].cuda) << pins[i].torch;
    const TorchCudaPin *pinned = findTorchCudaPin("2.11.0+cu130");
    ASSERT_NE(pinned, nullptr);
    EXPECT_EQ(pinned->cuda, 13000);
    EXPECT_EQ(pinned->torchvision, "0.26.0");
    EXPECT_EQ(findTorchCudaPin("1.13.1"), nullptr);
}

TEST(TorchCudaPins, TheNewestPinIsTheOneThePresetsAndTheInstallerBuild) {
    const std::string newest = torchCudaPins().front().torch;
    const std::string source = DEVICEBENCH_SOURCE_DIR;
    const std::regex presetPin("\"DEVICEBENCH_TORCH_VERSION\": \"([0-9.]+)\"");
    std::smatch match;
    const std::string presets = fileText(source + "/CMakePresets.json");
    ASSERT_TRUE(std::regex_search(presets, match, presetPin));
    EXPECT_EQ(match[1].str(), newest);
    const std::string installer = fileText(source + "/scripts/install-torch.sh");
    EXPECT_NE(installer.find("\ntorch_pin=" + newest + " "), std::string::npos);
}

TEST(CudaBuildReason, SaysWhyACudaLibTorchSeesNoDeviceForEachKindOfDriver) {
    const CudaDriver none = readCudaDriver("/nonexistent/libcuda.so.1", kNoModule);
    EXPECT_NE(cudaBuildUnusableReason("2.11.0", 13000, none)
                  .find("this LibTorch (2.11.0, CUDA 13.0) has CUDA, but no CUDA device is "
                        "visible: no NVIDIA driver"),
              std::string::npos);
    const std::string old = cudaBuildUnusableReason(
        "2.11.0", 13000, readCudaDriver(DEVICEBENCH_FAKE_CUDA_12_4, kNoModule));
    EXPECT_NE(old.find("cannot use the NVIDIA driver here"), std::string::npos) << old;
    EXPECT_NE(old.find("supports CUDA 12.4"), std::string::npos) << old;
    EXPECT_NE(old.find("DEVICEBENCH_TORCH_VERSION=2.6.0"), std::string::npos) << old;
    const std::string noSymbol = cudaBuildUnusableReason(
        "2.11.0", 13000, readCudaDriver(DEVICEBENCH_FAKE_CUDA_NO_VERSION, kNoModule));
    EXPECT_NE(noSymbol.find("has no cuDriverGetVersion"), std::string::npos) << noSymbol;
    const std::string fits = cudaBuildUnusableReason(
        "2.11.0", 13000, readCudaDriver(DEVICEBENCH_FAKE_CUDA_13_0, kNoModule));
    EXPECT_NE(fits.find("no CUDA device is visible (no GPU, or CUDA_VISIBLE_DEVICES hides it)"),
              std::string::npos)
        << fits;
}

TEST(CudaVersionText, ParsesAndFormatsMajorDotMinor) {
    EXPECT_EQ(parseCudaVersion("13.0"), 13000);
    EXPECT_EQ(parseCudaVersion("12.4"), 12040);
    EXPECT_EQ(parseCudaVersion("12"), 0);
    EXPECT_EQ(parseCudaVersion("12.4.1"), 0);
    EXPECT_EQ(parseCudaVersion("x.y"), 0);
    EXPECT_EQ(formatCudaVersion(11080), "11.8");
    EXPECT_EQ(formatCudaVersion(0), "");
}

} // namespace
} // namespace devicebench
