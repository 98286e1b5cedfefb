// SPDX-License-Identifier: MIT
// The comparison as CSV (every run of a RunSet): the per-epoch table and the summary table,
// the same files from the CLI and from the dashboard's "Export CSV". Plain C++ (no Qt, no
// LibTorch). Text is UTF-8; numbers use '.' whatever the process locale; lines end with "\n";
// a field holding a comma, quote, CR or LF is quoted with quotes doubled (RFC 4180); text
// starting like a spreadsheet formula is neutralised with a leading ' (csvField).
#pragma once

#include <stdexcept>
#include <string>

namespace devicebench {

class RunSet;

// A file of the comparison could not be written; what() names the path and the OS error,
// e.g. "Cannot write /x/y.csv: No such file or directory".
class ExportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One CSV cell. Text that a spreadsheet would run as a formula, i.e. that starts with '=', '+',
// '-', '@', TAB or CR (OWASP, "CSV Injection"), gets a leading single quote ("=1+1" ->
// "'=1+1"); a number (isCsvNumber: "-1.5", "+2e-3", "nan", "-inf") is left as it is. Then RFC
// 4180 quoting (unchanged when it needs none). Every writer below writes each cell through it.
std::string csvField(const std::string &field);

// `value` as "%.<decimals>f" in the C locale whatever the process locale (a Qt application sets
// the user's): "1234.50"; "nan", "inf", "-inf" when not finite. The number cells of every writer
// here and of the sweep CSV (sweep.h).
std::string csvNumber(double value, int decimals);

// True when `text` is a decimal number as the writers below print them: optional sign, digits
// with an optional '.' and fraction, optional exponent; or "nan", "inf", "-inf".
bool isCsvNumber(const std::string &text);

// The per-epoch CSV text: header line
//   run,device,threads,epoch,seconds,warmup,train_loss,test_loss,test_accuracy,images_per_s,data,
//   status,host,comparable,differences,contended,cpu_share,other_cpus,steal_fraction,load_average,
//   model,image_size,parameters,phase_data_s,phase_forward_s,phase_loss_s,phase_backward_s,
//   phase_optimizer_s,phase_test_s
// then one line per run and finished epoch, runs in set order, epochs in order. Cells: run
// label; device as started (else as configured); intra-op threads; epoch from 1; seconds
// "%.4f"; warmup 1/0 under the set's warm-up setting (RunEntry::isWarmup, not the recorded
// flag); losses "%.6f" (nats); test accuracy "%.6f" as a fraction 0..1; images/s "%.2f";
// "synthetic" or "cifar-10"; the run state (toString(RunState)); the host name; comparable with
// the baseline 1/0; the differing workload fields joined by ';'; then what the epoch got from
// the machine (EpochLoad, contention.h): contended 1/0 (the rule of contention.h), the run's CPU
// share "%.4f", other CPUs "%.4f" (CPUs' worth of others' work on the run's CPUs), steal
// fraction "%.4f", 1-minute load average "%.2f", all five empty when not measured (records
// from before issue 15); then the model trained (issue 13): its name (RunRecord::model), the
// image size in pixels per side, its trainable parameters (empty when unknown); then where the
// epoch's time went in a phase-timed run (PhaseTimes, run_types.h; issue 13): each phase's
// seconds "%.6f", all six empty when the epoch was not phase-timed. Non-finite numbers: "nan",
// "inf", "-inf".
std::string epochCsv(const RunSet &runs);
inline constexpr int kEpochCsvColumnCount = 29;

// The summary CSV text: one row per run, header line
//   run,device,host,threads,status,epochs,warmup_epochs,mean_all_s,stable_mean_s,median_s,
//   stddev_s,min_s,max_s,cv,ci95_low_s,ci95_high_s,images_per_s,speedup,speedup_low,
//   speedup_high,baseline,comparable,differences,max_test_loss_diff,cpu_model,physical_cores,
//   logical_cores,cpu_quota,affinity,omp_num_threads,intra_op_threads,blas,libtorch,cuda_built,
//   cuda_runtime,cudnn,driver,gpu_name,gpu_cc,gpu_memory_bytes,cudnn_benchmark,app_version,os,
//   contended_stable_epochs,model,image_size,parameters,achieved_gflops,phase_data_fraction,
//   phase_forward_fraction,phase_loss_fraction,phase_backward_fraction,phase_optimizer_fraction,
//   phase_test_fraction
// Times in seconds "%.4f" (the set's warm-up setting; the stable statistics "nan" without a
// stable epoch), cv "%.6f" as a fraction, images/s "%.2f", speed-ups "%.4f" against the
// baseline (whose label is in `baseline`) with their 95% interval (on the log of the times,
// comparison.h); unknown numbers "nan"; stddev_s, cv and the interval ci95_low_s/ci95_high_s
// "n/a" with fewer than 2 stable epochs (undefined, not 0), and speedup_low/speedup_high "n/a"
// when the speed-up exists but either run has fewer than 2 stable epochs;
// max_test_loss_diff "%.6f" against the baseline, empty for the baseline itself. m_gpu* describe
// the run's GPU for a CUDA run, and every GPU of the machine (joined by ';') otherwise.
// contended_stable_epochs: how many stable epochs (the set's warm-up setting) were contended,
// empty when none of them was measured. model, image_size, parameters: as in the per-epoch CSV.
// achieved_gflops "%.2f": the run's achieved GFLOP/s (achievedGflops, comparison.h),
//   (trainImages x 6 + testImages x 2) x multiplyAddsPerImage / stable mean seconds / 1e9,
// the images per epoch and the model's forward multiply-adds per image as the run recorded them
// (RunStarted); "n/a" when the multiply-adds are unknown (older records of other models),
// "nan" without a stable epoch.
// phase_*_fraction (issue 13): each phase's share "%.4f" (0..1) of the summed time of the run's
// phase-timed stable epochs (stablePhaseMean, phase_summary.h), "n/a" when no stable epoch was
// phase-timed (a normal run).
std::string summaryCsv(const RunSet &runs);
inline constexpr int kSummaryCsvColumnCount = 54;

// Where the summary CSV goes beside the per-epoch CSV `csvPath`: "x/out.csv" ->
// "x/out-summary.csv" (".csv" in any case; a path without it gets "-summary.csv" appended).
std::string summaryCsvPath(const std::string &csvPath);

// Writes `bytes` to `path` with writeFileAtomically() (atomic_file.h: temporary file in the same
// folder, mode 0644, fsync, rename). On failure throws ExportError("Cannot write <path>: <OS
// error>", or "...: only N of M bytes could be written (disk full?)" when the disk or a file
// size limit ran out) and leaves no temporary file; an existing `path` is then unchanged.
void writeExportFile(const std::string &path, const std::string &bytes);

// Writes epochCsv() to `csvPath`, then summaryCsv() to summaryCsvPath(csvPath), each
// atomically. Throws ExportError as writeExportFile (when the per-epoch file fails, the
// summary is not written).
void writeComparisonCsv(const RunSet &runs, const std::string &csvPath);

} // namespace devicebench
