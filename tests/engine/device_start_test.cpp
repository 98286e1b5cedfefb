// SPDX-License-Identifier: MIT
// What a run records about its device start and the float32 precision it
// ran with, and that records written before these fields existed still import.
#include "devicebench/devices.h"
#include "devicebench/fingerprint.h"
#include "devicebench/run_record.h"
#include "devicebench/trainer.h"

#include <ATen/Context.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <optional>
#include <string>

using namespace devicebench;

namespace {

// A record as DeviceBench 0.1.0 wrote it before the device start and the TF32 states were
// recorded (the fuzz seed tests/fuzz/corpus/run_record/diverged-null-losses.json): no
// started.deviceInitSeconds, no fingerprint.tf32Matmul / tf32Cudnn. Trimmed to one epoch, so
// its config says 1 epoch: a finished run holds all of its epochs (checkRunRecord).
const std::string kRecordWithoutDeviceStart =
    R"j({"schemaVersion":1,"runId":"20261129T231142Z-vm-d3fa9804","createdUtc":"2026-11-29T23:11:42Z",)j"
    R"j("status":"finished","reason":"","model":"small-cnn","precision":"float32","workload":"tuned",)j"
    R"j("config":{"device":"cuda:0","epochs":1,"batchSize":64,"learningRate":0.01,"warmupEpochs":1,)j"
    R"j("threads":1,"seed":0,"dataDir":"/data","synthetic":false,"trainImages":10000,"testImages":2000,)j"
    R"j("lossFetchInterval":50},"started":{"device":"cuda:0","deviceName":"CUDA device cuda:0",)j"
    R"j("threads":1,"trainImages":10000,"testImages":2000,"stepsPerEpoch":157,"dataDescription":"/data",)j"
    R"j("synthetic":false},"data":{"path":"/data","variant":"cifar-10-binary","trainImages":10000,)j"
    R"j("testImages":2000,"contentHash":"57d61928ece405de"},"fingerprint":{"affinity":"0-1",)j"
    R"j("affinityCount":2,"appVersion":"0.1.0","blasLibrary":"","cpuModel":"Intel(R) Xeon(R) Processor",)j"
    R"j("cpuQuota":"","cpuQuotaCores":0.0,"cudaBuilt":true,"cudaRuntimeVersion":"11.8",)j"
    R"j("cudnnBenchmark":true,"cudnnVersion":"8.7.0","driverVersion":"12.2","gpus":[{"index":0,)j"
    R"j("name":"Tesla T4","computeMajor":7,"computeMinor":5,"memoryBytes":15843721216}],)j"
    R"j("hostName":"vm","intraOpThreads":1,"libtorchVersion":"1.13.0","logicalCores":2,)j"
    R"j("ompNumThreads":"","os":"Debian GNU/Linux 12 (bookworm)","physicalCores":2},)j"
    R"j("epochs":[{"epoch":1,"seconds":7.65,"warmup":true,"trainLoss":2.29,"testLoss":2.28,)j"
    R"j("testAccuracy":0.121,"imagesPerSecond":1567.8}],"steps":[]})j";

struct LastStart : TrainingObserver {
    RunStarted started;
    bool seen = false;
    void onRunStarted(const RunStarted &info) override {
        started = info;
        seen = true;
    }
    void onRunEnded(const RunOutcome & /*outcome*/) override {}
};

} // namespace

TEST(RecordCompatibility, ARecordWrittenBeforeTheDeviceStartWasRecordedImportsWithItUnknown) {
    const RunRecord r = parseRunRecord(kRecordWithoutDeviceStart, "old.json");
    EXPECT_TRUE(std::isnan(r.started.deviceInitSeconds));
    EXPECT_FALSE(r.fingerprint.tf32Matmul.has_value());
    EXPECT_FALSE(r.fingerprint.tf32Cudnn.has_value());
    EXPECT_EQ(r.fingerprint.gpus.at(0).name, "Tesla T4");
    // Written again, the unknowns stay unknown (null), and read back the same.
    const RunRecord again = parseRunRecord(toJson(r), "again.json");
    EXPECT_TRUE(std::isnan(again.started.deviceInitSeconds));
    EXPECT_FALSE(again.fingerprint.tf32Matmul.has_value());
}

TEST(RecordCompatibility, DeviceStartAndTf32StatesSurviveTheRoundTrip) {
    RunRecord r = parseRunRecord(kRecordWithoutDeviceStart, "old.json");
    r.started.deviceInitSeconds = 0.1 + 0.2; // needs full precision
    r.fingerprint.tf32Matmul = false;
    r.fingerprint.tf32Cudnn = true;
    const RunRecord back = parseRunRecord(toJson(r), "new.json");
    EXPECT_EQ(back.started.deviceInitSeconds, 0.1 + 0.2);
    EXPECT_EQ(back.fingerprint.tf32Matmul, std::optional<bool>(false));
    EXPECT_EQ(back.fingerprint.tf32Cudnn, std::optional<bool>(true));
}

TEST(RecordCompatibility, ANegativeDeviceStartOrAWrongTf32TypeIsRefusedNamingTheField) {
    std::string negative = kRecordWithoutDeviceStart;
    negative.replace(negative.find(R"("synthetic":false},"data")"), 18,
                     R"("synthetic":false,"deviceInitSeconds":-1})");
    EXPECT_THROW(
        {
            try {
                parseRunRecord(negative, "neg.json");
            } catch (const RecordError &e) {
                EXPECT_NE(std::string(e.what()).find("started.deviceInitSeconds"),
                          std::string::npos)
                    << e.what();
                throw;
            }
        },
        RecordError);
    std::string wrongType = kRecordWithoutDeviceStart;
    wrongType.replace(wrongType.find(R"("cudnnBenchmark":true)"), 21,
                      R"("cudnnBenchmark":true,"tf32Matmul":"yes")");
    EXPECT_THROW(
        {
            try {
                parseRunRecord(wrongType, "tf32.json");
            } catch (const RecordError &e) {
                EXPECT_NE(std::string(e.what()).find("fingerprint.tf32Matmul"), std::string::npos)
                    << e.what();
                throw;
            }
        },
        RecordError);
}

TEST(DeviceStart, TheCpuHasNothingToStart) { EXPECT_EQ(startDevice("cpu"), 0.0); }

TEST(DeviceStart, ARunOnTheCpuRecordsNoDeviceStartTime) {
    RunConfig c;
    c.synthetic = true;
    c.epochs = 1;
    c.warmupEpochs = 0;
    c.trainImages = 64;
    c.testImages = 32;
    c.threads = 1;
    LastStart observer;
    std::atomic<bool> stop{false};
    ASSERT_EQ(runTraining(c, observer, stop).status, RunStatus::Finished);
    ASSERT_TRUE(observer.seen);
    EXPECT_EQ(observer.started.deviceInitSeconds, 0.0);
}

TEST(Fingerprint, RecordsTheTf32StatesLibTorchReports) {
    const Fingerprint fp = collectFingerprint();
    ASSERT_TRUE(fp.tf32Matmul.has_value());
    ASSERT_TRUE(fp.tf32Cudnn.has_value());
    EXPECT_EQ(*fp.tf32Matmul, at::globalContext().allowTF32CuBLAS());
    EXPECT_EQ(*fp.tf32Cudnn, at::globalContext().allowTF32CuDNN());
}
