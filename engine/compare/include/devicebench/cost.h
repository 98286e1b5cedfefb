// SPDX-License-Identifier: MIT
// What a run costs in money (docs/MEASURING.md, "Cost"): a price per hour for each device, from
// a price table (the shipped examples in share/devicebench/prices/prices.json, or the user's
// file of the same format) or the user's own prices, and what the run's stable epochs cost at
// it; or, for a machine already paid for, its measured energy at a price per kWh. Prices change
// and are the user's to set: every figure says which price it rests on. Plain C++.
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/run_types.h"

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench {

// One price of a table.
struct DevicePrice {
    // What it matches: part of a GPU's name as the record names it ("Tesla T4", "A100",
    // "H100"), compared without case; "cpu" matches every run on the CPU.
    std::string match;
    double perHour = 0.0; // money per hour of the device, 0 or more
    std::string currency; // "USD"; "" when none is said (a machine already paid for)
    std::string source;   // where the price comes from: the page and the offer
    std::string date;     // when the price was read or stated
    std::string note;     // optional ("already paid for: give your electricity price per kWh")
};

struct PriceTable {
    std::vector<DevicePrice> prices;
    std::string note; // the file's note; optional
    std::string file; // the file it was read from; "" when made in code
};

// A price table that cannot be read; what() names the file, the field and the value:
// "x.json: field 'prices[1].pricePerHour' must be 0 or more (got -1)".
class PriceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads the price table in `path` ({"format": "devicebench-prices", "version": 1, "note",
// "prices": [{"match", "pricePerHour", "currency", "source", "date", "note"}]}; "note" is
// optional, every other field required). Throws PriceError.
PriceTable readPriceTable(const std::string &path);

// The same from JSON text; `source` names it in errors and becomes PriceTable::file.
PriceTable parsePriceTable(const std::string &text, const std::string &source);

// The table as JSON text in that format (the dashboard keeps the user's table in it).
std::string priceTableJson(const PriceTable &table);

// The shipped table: resourcePath("prices/prices.json") ("" when the data folder is unknown).
std::string defaultPriceTablePath();

// A price of the user's for the runs on one device.
struct PriceOverride {
    std::string device; // "cpu", "cuda" (every GPU), "cuda:N"; "" = every run
    double perHour = 0.0;
};

// "0.35" (every run) or "cuda=0.35,cpu=0" into overrides; "" when it reads, else the problem
// ("'abc' is not a number", "-1 is negative", "unknown device 'tpu' (cpu, cuda or cuda:N)").
std::string parsePriceOverrides(const std::string &text, std::vector<PriceOverride> *overrides);

// "0.25" into a price: "" when it reads (a finite number, 0 or more), else the problem.
std::string parsePrice(const std::string &text, double *price);

inline constexpr double kNoPrice = std::numeric_limits<double>::quiet_NaN();

// Everything the cost of a run depends on besides the run.
struct CostSettings {
    PriceTable table;
    std::vector<PriceOverride> overrides; // win over the table; a device's own over ""
    double perKwh = kNoPrice;             // price of a kWh of measured energy; NaN: none
    std::string currency;                 // of the overrides and of perKwh; "" when not said
};

// The price that applies to a run.
struct RunPrice {
    bool found = false;
    double perHour = kNoPrice;
    std::string currency;
    std::string match;  // the table entry's match, or "your price" for an override
    std::string source; // "" for an override
    std::string date;
    std::string note;
    std::string reason; // why none was found: "no price for NVIDIA H200"
};

// The price of the run of `record` on its device (started.device, else config.device): the
// user's price for that device ("cuda" matches every cuda:N), else the user's price for every
// run, else the table's entry with the longest match inside the run's GPU name (gpuName;
// the first such entry on a tie), or a "cpu" entry for a run on the CPU.
RunPrice priceOfRun(const RunRecord &record, const CostSettings &settings);

// How a run's cost was worked out.
//   Hourly: price per hour x stable mean seconds / 3600.
//   Energy: stable mean joules / 3.6e6 x price per kWh (a price per hour of 0, or none, and a
//           price per kWh given).
//   Free:   a price per hour of 0 and no price per kWh, or a price per kWh of 0 (perKwh 0):
//           nothing to pay per epoch, measured energy or not.
//   None:   no figure; RunCost::reason says why.
enum class CostBasis { None, Hourly, Energy, Free };

// "n/a", "hourly", "energy", "free".
const char *toString(CostBasis basis);

// Epochs of the article's run: the per-run figure is this many stable epochs' cost.
inline constexpr int kArticleRunEpochs = 10;

struct RunCost {
    CostBasis basis = CostBasis::None;
    double perEpoch = kNoPrice;       // money per stable epoch
    double perRun = kNoPrice;         // kArticleRunEpochs x perEpoch
    double imagesPerMoney = kNoPrice; // images per epoch / perEpoch; NaN when free or None
    std::string currency;
    RunPrice price;                   // the price per hour looked up (found or not)
    double perKwh = kNoPrice;         // Energy: the price per kWh used; Free by a kWh price: 0
    double joulesPerEpoch = kNoPrice; // Energy: the stable epochs' mean joules
    std::string reason;               // None: "no stable epoch", "no price for NVIDIA H200", ...
};

// The cost of a group of repeated runs (run_groups.h) from its runs' costs: the mean of their
// figures (per epoch, per run, images per money, joules) when all share the basis, currency and
// price; else basis None, reason "its runs are priced differently (see them one by one)". The
// first run's price and reason otherwise. An empty list: None, "no run with a stable epoch"
// (a group's cost is over the runs its statistics count, countsInGroupStats).
RunCost meanCost(const std::vector<RunCost> &costs);

// The cost of a run with `summary` (its stable mean) and `warmupEpochs` (for its energy,
// summarizeEnergy) under `settings`; images per epoch are summary.imagesPerSecond x
// summary.stableMean. A price per hour above 0 wins over the energy basis (what is paid for
// a rented machine is its time).
RunCost costOfRun(const RunRecord &record, const Summary &summary, int warmupEpochs,
                  const CostSettings &settings);

// Money with three significant digits and its currency: "0.00117 USD", "12.3", "0".
std::string moneyText(double value, const std::string &currency);

// What the figure rests on: "at 0.35 USD/h (Tesla T4; <source>, <date>)", "at your 0.5/h",
// "from 1.2 kJ per stable epoch at 0.3 EUR/kWh", "0/h (cpu; your own machine): already paid
// for: give your electricity price per kWh".
std::string costBasisText(const RunCost &cost);

// The summary's cost line: "cost: 0.00117 USD per stable epoch, 0.0117 USD per 10-epoch run,
// 857000 images per USD; at 0.35 USD/h (...)", "cost: free; 0/h (...)", "cost: n/a: <reason>".
std::string costLine(const RunCost &cost);

// Images per unit of money as text: "857000", "free" for a free run, "n/a" without a figure.
std::string imagesPerMoneyText(const RunCost &cost);

} // namespace devicebench
