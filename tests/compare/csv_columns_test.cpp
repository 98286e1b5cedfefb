// SPDX-License-Identifier: MIT
// Every column of the three comparison CSVs, pinned byte for byte: the docs' example files are
// what this version writes from the example records, a synthetic set that fills every field of
// a record writes the text below, and docs/run-record.md lists each header as the code writes
// it. A new column adds its cells here (and its header to the docs): its test.
#include "devicebench/cost.h"
#include "devicebench/csv_columns.h"
#include "devicebench/csv_export.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"

#include "csv_lines.h"

#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace devicebench {
namespace {

using testing::fieldsOf;
using testing::splitLines;

const std::string kExamples = DEVICEBENCH_EXAMPLES_DIR;

std::string slurp(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// What `devicebench-cli compare cpu-1-thread.json cpu-2-threads.json cpu-2-threads-batch32.json
// --csv compare.csv` reads in docs/examples: the three records and the shipped prices.
RunSet exampleSet() {
    RunSet set;
    CostSettings prices;
    prices.table = readPriceTable(DEVICEBENCH_SOURCE_DIR "/resources/prices/prices.json");
    set.setCostSettings(prices);
    for (const char *name :
         {"cpu-1-thread.json", "cpu-2-threads.json", "cpu-2-threads-batch32.json"})
        set.addRecord(readRunRecord(kExamples + "/" + name), name);
    return set;
}

TEST(CsvColumns, TheDocsExampleFilesAreWhatThisVersionWritesFromTheExampleRecords) {
    const RunSet set = exampleSet();
    EXPECT_EQ(epochCsv(set), slurp(kExamples + "/compare.csv"));
    EXPECT_EQ(summaryCsv(set), slurp(kExamples + "/compare-summary.csv"));
    EXPECT_EQ(groupsCsv(set), slurp(kExamples + "/compare-groups.csv"));
}

TEST(CsvColumns, TheDocsListEachHeaderAsTheCodeWritesIt) {
    const std::string docs = slurp(DEVICEBENCH_SOURCE_DIR "/docs/run-record.md");
    const RunSet set = exampleSet();
    for (const std::string &csv : {epochCsv(set), summaryCsv(set), groupsCsv(set)}) {
        const std::string header = csv.substr(0, csv.find('\n') + 1);
        EXPECT_NE(docs.find("\n" + header), std::string::npos)
            << "docs/run-record.md, \"The comparison CSV\", lacks the header line " << header;
    }
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const DataIdentity kData{"/data", "cifar-10-binary", 900, 100, "0123456789abcdef"};

// A float16 ResNet-18 run on a Tesla T4 whose every epoch was measured: load (epoch 3
// contended), phases, canary (epoch 3 on a slower machine), the system sampler (GPU and CPU
// energy); its host name needs quoting.
RunRecord measuredRun() {
    RunRecord r;
    r.runId = "measured";
    r.model = r.config.model = "resnet18";
    r.config.imageSize = 64;
    r.config.epochs = 3;
    r.config.warmupEpochs = 1;
    r.config.device = "cuda";
    r.config.precision = Precision::Float16;
    r.precision = "float16";
    r.config.tf32 = Tf32::Off;
    r.started.device = "cuda:0";
    r.started.deviceName = "Tesla T4";
    r.started.threads = 4;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.data = kData;
    r.started.modelParameters = 11173962;
    r.started.multiplyAddsPerImage = 2220000000;
    r.started.precisionNote = "float16 with a loss scaler";
    r.started.canary = {true, 0.0100, 0.0030, 0.02};
    Fingerprint &f = r.fingerprint;
    f = {};
    f.hostName = "gpu, box";
    f.os = "Debian GNU/Linux 12 (bookworm) 6.1.0";
    f.cpuModel = "AMD EPYC 7B12";
    f.physicalCores = 4;
    f.logicalCores = 8;
    f.cpuQuota = "400000 100000";
    f.affinity = "0-7";
    f.ompNumThreads = "4";
    f.intraOpThreads = 4;
    f.blasLibrary = "/usr/lib/libblas.so.3";
    f.libtorchVersion = "2.11.0";
    f.cudaBuilt = true;
    f.cudaRuntimeVersion = "13.0";
    f.cudnnVersion = "9.1.0";
    f.driverVersion = "13.0";
    f.gpus = {GpuInfo{0, "Tesla T4", 7, 5, 16LL << 30}, GpuInfo{1, "Tesla T4", 7, 5, 16LL << 30}};
    f.cudnnBenchmark = true;
    f.appVersion = "0.1.0";
    r.sampling.sampled = true;
    r.sampling.periodSeconds = 0.5;
    for (int n = 1; n <= 3; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = n == 1 ? 4.25 : n == 2 ? 2.125 : 2.5;
        e.warmup = n == 1;
        e.trainLoss = 2.0 / n;
        e.testLoss = 1.75 / n;
        e.testAccuracy = 0.25 * n;
        e.imagesPerSecond = 1000.0 / e.seconds;
        e.load = {true, 2.5, 0.99, 0.01, 0.0, 0.0, 3.25, 8, n == 3};
        if (n == 3) {
            e.load.cpuShare = 0.5;
            e.load.otherCpus = 1.75;
        }
        e.phases = {true, 0.25, 0.5, 0.125, 1.0, 0.25, 0.125 * n};
        e.skippedSteps = n - 1;
        e.lossScale = 65536.0;
        e.startedUnixSeconds = 1800000000.125 + 10.0 * n;
        e.canary = {true, n == 3 ? 0.0125 : 0.0101, 0.0031, 0.02};
        e.canaryChange = n == 3 ? 0.25 : 0.01;
        e.speedChanged = n == 3;
        e.system.sampled = true;
        e.system.samples = 8;
        e.system.processCores = {1.25, 1.5};
        e.system.machineCores = {1.75, 2.0};
        e.system.rssBytes = {2.5e9, 3.0e9 + n};
        e.system.gpuUtilization = {0.875, 1.0};
        e.system.gpuMemoryBytes = {4.0e9, 5.0e9};
        e.system.gpuPowerWatts = {62.25, 70.0};
        e.system.gpuEnergy = {EnergyMethod::NvmlEnergyCounter, 150.0 * e.seconds, "cuda:0"};
        e.system.cpuEnergy = {EnergyMethod::Rapl, 40.0 * e.seconds, "package-0"};
        e.testSeconds = 0.5;
        r.epochs.push_back(e);
    }
    r.status = "finished";
    return r;
}

// A run as a record from before any measurement was kept (no load, phases, canary, sampling):
// a one-thread CPU run on "=host" (a formula to a spreadsheet) of `scale` x 12, 12, 13 s; at
// another batch size than 64 it diverged, its last epoch's losses not finite.
RunRecord olderRun(const std::string &id, double scale, int batch) {
    RunRecord r;
    r.runId = id;
    r.config.epochs = 3;
    r.config.warmupEpochs = 1;
    r.config.batchSize = batch;
    r.started.device = "cpu";
    r.started.threads = 1;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.data = kData;
    r.fingerprint.hostName = "=host";
    r.fingerprint.cpuModel = "AMD EPYC 7B12";
    for (int n = 1; n <= 3; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = scale * (n == 1 ? 12.0 : 10.0 + n);
        e.trainLoss = n == 3 && batch != 64 ? kNaN : 2.25;
        e.testLoss = n == 3 && batch != 64 ? std::numeric_limits<double>::infinity() : 2.5;
        e.testAccuracy = 0.125;
        e.imagesPerSecond = 1000.0 / e.seconds;
        r.epochs.push_back(e);
    }
    r.status = batch != 64 ? "diverged" : "finished";
    return r;
}

// The measured run, two repeats of an older CPU run (one group) and a diverged one of another
// batch size; CUDA priced per hour, the rest per kWh (not sampled, so no figure).
RunSet syntheticSet() {
    RunSet set;
    CostSettings prices;
    prices.overrides = {{"cuda", 0.35}};
    prices.perKwh = 0.25;
    prices.currency = "USD";
    set.setCostSettings(prices);
    set.addRecord(measuredRun(), "measured.json");
    set.addRecord(olderRun("older-a", 1.0, 64), "older-a.json");
    set.addRecord(olderRun("older-b", 1.0625, 64), "older-b.json");
    set.addRecord(olderRun("diverged", 0.5, 32), "diverged.json");
    return set;
}

TEST(CsvColumns, EveryColumnOfASyntheticSetIsWrittenAsPinned) {
    const RunSet set = syntheticSet();
    EXPECT_EQ(
        epochCsv(set),
        R"csv(run,device,threads,epoch,seconds,warmup,train_loss,test_loss,test_accuracy,images_per_s,data,status,host,comparable,differences,contended,cpu_share,other_cpus,steal_fraction,load_average,model,image_size,parameters,phase_data_s,phase_forward_s,phase_loss_s,phase_backward_s,phase_optimizer_s,phase_test_s,precision,skipped_steps,started_unix_s,canary_s,canary_run_threads_s,canary_change,speed_changed,process_cores,machine_cores,peak_rss_bytes,gpu_utilization,gpu_power_w,gpu_memory_peak_bytes,energy_j,energy_method,test_s,elapsed_s
"#1 Tesla T4 @ gpu, box · resnet18 · 64 px fp16 TF32 off",cuda:0,4,1,4.2500,1,2.000000,1.750000,0.250000,235.29,cifar-10,finished,"gpu, box",0,model;image size;precision;TF32,0,0.9900,0.0100,0.0000,3.25,resnet18,64,11173962,0.250000,0.500000,0.125000,1.000000,0.250000,0.125000,fp16,0,1800000010.125,0.010100,0.003100,0.010000,0,1.250,1.750,3000000001,0.875,62.2,5000000000,807.5,nvml-energy-counter + rapl,0.5000,4.2500
"#1 Tesla T4 @ gpu, box · resnet18 · 64 px fp16 TF32 off",cuda:0,4,2,2.1250,0,1.000000,0.875000,0.500000,470.59,cifar-10,finished,"gpu, box",0,model;image size;precision;TF32,0,0.9900,0.0100,0.0000,3.25,resnet18,64,11173962,0.250000,0.500000,0.125000,1.000000,0.250000,0.250000,fp16,1,1800000020.125,0.010100,0.003100,0.010000,0,1.250,1.750,3000000002,0.875,62.2,5000000000,403.8,nvml-energy-counter + rapl,0.5000,6.3750
"#1 Tesla T4 @ gpu, box · resnet18 · 64 px fp16 TF32 off",cuda:0,4,3,2.5000,0,0.666667,0.583333,0.750000,400.00,cifar-10,finished,"gpu, box",0,model;image size;precision;TF32,1,0.5000,1.7500,0.0000,3.25,resnet18,64,11173962,0.250000,0.500000,0.125000,1.000000,0.250000,0.375000,fp16,2,1800000030.125,0.012500,0.003100,0.250000,1,1.250,1.750,3000000003,0.875,62.2,5000000000,475.0,nvml-energy-counter + rapl,0.5000,8.8750
#2 CPU x1 @ =host,cpu,1,1,12.0000,1,2.250000,2.500000,0.125000,83.33,cifar-10,finished,'=host,1,,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,12.0000
#2 CPU x1 @ =host,cpu,1,2,12.0000,0,2.250000,2.500000,0.125000,83.33,cifar-10,finished,'=host,1,,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,24.0000
#2 CPU x1 @ =host,cpu,1,3,13.0000,0,2.250000,2.500000,0.125000,76.92,cifar-10,finished,'=host,1,,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,37.0000
#3 CPU x1 @ =host,cpu,1,1,12.7500,1,2.250000,2.500000,0.125000,78.43,cifar-10,finished,'=host,1,,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,12.7500
#3 CPU x1 @ =host,cpu,1,2,12.7500,0,2.250000,2.500000,0.125000,78.43,cifar-10,finished,'=host,1,,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,25.5000
#3 CPU x1 @ =host,cpu,1,3,13.8125,0,2.250000,2.500000,0.125000,72.40,cifar-10,finished,'=host,1,,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,39.3125
#4 CPU x1 @ =host · batch 32,cpu,1,1,6.0000,1,2.250000,2.500000,0.125000,166.67,cifar-10,diverged,'=host,0,batch size,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,6.0000
#4 CPU x1 @ =host · batch 32,cpu,1,2,6.0000,0,2.250000,2.500000,0.125000,166.67,cifar-10,diverged,'=host,0,batch size,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,12.0000
#4 CPU x1 @ =host · batch 32,cpu,1,3,6.5000,0,nan,inf,0.125000,153.85,cifar-10,diverged,'=host,0,batch size,,,,,,small-cnn,32,,,,,,,,fp32,,,,,,,,,,,,,,,,18.5000
)csv");
    EXPECT_EQ(
        summaryCsv(set),
        R"csv(run,device,host,threads,status,epochs,warmup_epochs,mean_all_s,stable_mean_s,median_s,stddev_s,min_s,max_s,cv,ci95_low_s,ci95_high_s,images_per_s,speedup,speedup_low,speedup_high,baseline,comparable,differences,max_test_loss_diff,cpu_model,physical_cores,logical_cores,cpu_quota,affinity,omp_num_threads,intra_op_threads,blas,libtorch,cuda_built,cuda_runtime,cudnn,driver,gpu_name,gpu_cc,gpu_memory_bytes,cudnn_benchmark,app_version,os,contended_stable_epochs,model,image_size,parameters,achieved_gflops,phase_data_fraction,phase_forward_fraction,phase_loss_fraction,phase_backward_fraction,phase_optimizer_fraction,phase_test_fraction,precision,precision_native,precision_note,tf32,canary_drift,speed_changed_stable_epochs,machine_speed_vs_baseline,machine_speed_biased,mean_process_cores,peak_rss_bytes,mean_gpu_utilization,mean_gpu_power_w,energy_j_per_stable_epoch,energy_j_stable_total,energy_method,cost_basis,price_per_hour,price_per_kwh,currency,cost_per_epoch,cost_per_10_epochs,images_per_money,price_source,cost_note,target_accuracy_pct,target_reached,target_epoch,time_to_target_s,training_to_target_s
"#1 Tesla T4 @ gpu, box · resnet18 · 64 px fp16 TF32 off",cuda:0,"gpu, box",4,finished,3,1,2.9583,2.3125,2.3125,0.2652,2.1250,2.5000,0.114666,0.8208,6.4723,432.43,5.7432,1.8214,18.2006,#3 CPU x1 @ =host,0,model;image size;precision;TF32,1.916667,AMD EPYC 7B12,4,8,400000 100000,0-7,4,4,/usr/lib/libblas.so.3,2.11.0,1,13.0,9.1.0,13.0,Tesla T4,7.5,17179869184,1,0.1.0,Debian GNU/Linux 12 (bookworm) 6.1.0,1,resnet18,64,11173962,5376.00,0.1026,0.2051,0.0513,0.4103,0.1026,0.1282,fp16,1,float16 with a loss scaler,off,0.2500,1,,,1.250,3000000003,0.875,62.2,439.4,878.8,nvml-energy-counter + rapl,hourly,0.350000,,USD,0.000224826,0.00224826,4447876.4,your price,at 0.35 USD/h (your price),,,,,
#2 CPU x1 @ =host,cpu,'=host,1,finished,3,1,12.3333,12.5000,12.5000,0.7071,12.0000,13.0000,0.056569,7.5113,20.7687,80.00,1.0625,0.8328,1.3555,#3 CPU x1 @ =host,1,,0.000000,AMD EPYC 7B12,0,0,,,,0,,,0,,,,,,,0,,,,small-cnn,32,,n/a,n/a,n/a,n/a,n/a,n/a,n/a,fp32,1,,default,,,,,,,,,n/a,n/a,not sampled,n/a,,,,n/a,n/a,n/a,,"no energy measured: not sampled (a record from before sampling, or DEVICEBENCH_SAMPLING_PERIOD=0)",,,,,
#3 CPU x1 @ =host,cpu,'=host,1,finished,3,1,13.1042,13.2812,13.2812,0.7513,12.7500,13.8125,0.056569,7.9808,22.0668,75.29,1.0000,0.7839,1.2757,#3 CPU x1 @ =host,1,,,AMD EPYC 7B12,0,0,,,,0,,,0,,,,,,,0,,,,small-cnn,32,,n/a,n/a,n/a,n/a,n/a,n/a,n/a,fp32,1,,default,,,,,,,,,n/a,n/a,not sampled,n/a,,,,n/a,n/a,n/a,,"no energy measured: not sampled (a record from before sampling, or DEVICEBENCH_SAMPLING_PERIOD=0)",,,,,
#4 CPU x1 @ =host · batch 32,cpu,'=host,1,diverged,3,1,6.1667,6.2500,6.2500,0.3536,6.0000,6.5000,0.056569,3.7557,10.3844,160.00,2.1250,1.6657,2.7110,#3 CPU x1 @ =host,0,batch size,inf,AMD EPYC 7B12,0,0,,,,0,,,0,,,,,,,0,,,,small-cnn,32,,n/a,n/a,n/a,n/a,n/a,n/a,n/a,fp32,1,,default,,,,,,,,,n/a,n/a,not sampled,n/a,,,,n/a,n/a,n/a,,"no energy measured: not sampled (a record from before sampling, or DEVICEBENCH_SAMPLING_PERIOD=0)",,,,,
)csv");
    EXPECT_EQ(
        groupsCsv(set),
        R"csv(group,label,runs,n,members,device,host,threads,cpu_model,model,image_size,batch_size,precision,workload,epochs,mean_s,stddev_s,min_s,max_s,ci95_low_s,ci95_high_s,interval_from,speedup,speedup_low,speedup_high,baseline,comparable,differences,max_test_loss_diff
1,"Tesla T4 @ gpu, box · resnet18 · 64 px fp16 TF32 off",#1,1,1,cuda:0,"gpu, box",4,AMD EPYC 7B12,resnet18,64,64,fp16,faithful,3,2.3125,n/a,2.3125,2.3125,0.8208,6.4723,epochs,5.5743,1.8556,16.8139,CPU x1 @ =host (group 2),0,model;image size;precision;TF32,
2,CPU x1 @ =host,#2-#3,2,2,cpu,'=host,1,AMD EPYC 7B12,small-cnn,32,64,fp32,faithful,3,12.8906,0.5524,12.5000,13.2812,8.7590,18.9233,runs,1.0000,0.8316,1.2026,CPU x1 @ =host (group 2),1,,0.000000
3,CPU x1 @ =host · batch 32,#4,1,1,cpu,'=host,1,AMD EPYC 7B12,small-cnn,32,32,fp32,faithful,3,6.2500,n/a,6.2500,6.2500,3.7557,10.3844,epochs,2.0625,1.0893,3.9016,CPU x1 @ =host (group 2),0,batch size,
)csv");
}

TEST(CsvColumns, EachFilesCountIsItsTablesColumns) {
    const RunSet set = syntheticSet();
    const auto columns = [](const std::string &csv) {
        return static_cast<int>(fieldsOf(splitLines(csv).at(0)).size());
    };
    EXPECT_EQ(columns(epochCsv(set)), epochCsvColumnCount());
    EXPECT_EQ(static_cast<int>(epochCsvColumns().size()), epochCsvColumnCount());
    EXPECT_EQ(columns(summaryCsv(set)), summaryCsvColumnCount());
    EXPECT_EQ(columns(groupsCsv(set)), groupsCsvColumnCount());
    for (const std::string &line : splitLines(epochCsv(set)))
        EXPECT_EQ(static_cast<int>(fieldsOf(line).size()), epochCsvColumnCount()) << line;
}

// The names say the unit where they carry one: "_per_s" a rate, "_s" seconds, "_bytes", "_w"
// watts, "_j" joules (the first that matches).
TEST(CsvColumns, APerEpochNumbersNameSaysItsUnit) {
    const std::pair<std::string, std::string> units[] = {
        {"_per_s", "images/s"}, {"_s", "s"}, {"_bytes", "bytes"}, {"_w", "W"}, {"_j", "J"}};
    for (const CsvColumn<EpochCsvRow> &column : epochCsvColumns()) {
        for (const auto &[suffix, unit] : units) {
            const std::string &name = column.name;
            if (name.size() > suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
                EXPECT_TRUE(column.isNumber()) << name;
                EXPECT_EQ(column.unit, unit) << name;
                break;
            }
        }
        if (!column.isNumber()) {
            EXPECT_EQ(column.unit, "") << column.name << ": a text has no unit";
        }
    }
}

TEST(CsvColumns, APerEpochColumnIsFoundByNameAndMakesTheFilesCell) {
    const RunSet set = syntheticSet();
    const RunEntry &run = set.run(0);
    // A copy: GCC 14 takes a reference bound to the result of a call with a temporary argument
    // ("seconds") for a dangling one.
    const CsvColumn<EpochCsvRow> seconds = epochCsvColumn("seconds");
    EXPECT_EQ(seconds.unit, "s");
    EXPECT_EQ(seconds.decimals, 4);
    EXPECT_EQ(seconds.cell(EpochCsvRow::of(run, run.record.epochs[0])), "4.2500");
    EXPECT_EQ(epochCsvColumn("host").cell(EpochCsvRow::of(run, run.record.epochs[0])), "gpu, box")
        << "before quoting";
    const RunEntry &older = set.run(1);
    EXPECT_EQ(epochCsvColumn("cpu_share").cell(EpochCsvRow::of(older, older.record.epochs[0])), "")
        << "not measured";
    try {
        epochCsvColumn("second");
        FAIL() << "no error";
    } catch (const std::out_of_range &e) {
        EXPECT_EQ(std::string(e.what()), "no per-epoch CSV column 'second'");
    }
}

} // namespace
} // namespace devicebench
