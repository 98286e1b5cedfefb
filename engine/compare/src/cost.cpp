// SPDX-License-Identifier: MIT
// A run's price and what its stable epochs cost at it (cost.h).
#include "devicebench/cost.h"

#include "devicebench/fingerprint.h"
#include "devicebench/resource_files.h"
#include "devicebench/run_energy.h"

#include "ascii_case.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>
#include <system_error>

namespace devicebench {
namespace {

std::string trimmed(const std::string &text) {
    const auto begin = text.find_first_not_of(" \t");
    if (begin == std::string::npos)
        return {};
    return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

std::string deviceOf(const RunRecord &r) {
    return r.started.device.empty() ? r.config.device : r.started.device;
}

// "cuda" stands for "cuda:0" where one device is meant.
std::string normalDevice(const std::string &device) { return device == "cuda" ? "cuda:0" : device; }

bool isKnownDevice(const std::string &device) {
    if (device == "cpu" || device == "cuda")
        return true;
    if (device.rfind("cuda:", 0) != 0 || device.size() == 5)
        return false;
    return std::all_of(device.begin() + 5, device.end(),
                       [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; });
}

// The user's price `key` covers the run's `device`: the same device, or "cuda" for any GPU.
bool covers(const std::string &key, const std::string &device) {
    return key == "cuda" ? device.rfind("cuda", 0) == 0 : normalDevice(key) == normalDevice(device);
}

const PriceOverride *overrideFor(const std::vector<PriceOverride> &overrides,
                                 const std::string &device) {
    // A device's own price first (cuda:1 before cuda), then the price for every run.
    const PriceOverride *best = nullptr;
    for (const PriceOverride &o : overrides) {
        if (o.device.empty() || !covers(o.device, device))
            continue;
        if (best == nullptr || (best->device == "cuda" && o.device != "cuda"))
            best = &o;
    }
    if (best != nullptr)
        return best;
    const auto all = std::find_if(overrides.begin(), overrides.end(),
                                  [](const PriceOverride &o) { return o.device.empty(); });
    return all == overrides.end() ? nullptr : &*all;
}

// The entry whose match is the longest part of `name` (without case); the first on a tie.
const DevicePrice *tableEntryFor(const PriceTable &table, const std::string &name) {
    const std::string haystack = detail::lowerAscii(name);
    const DevicePrice *best = nullptr;
    for (const DevicePrice &price : table.prices) {
        const std::string needle = detail::lowerAscii(price.match);
        if (needle.empty() || needle == "cpu" || haystack.find(needle) == std::string::npos)
            continue;
        if (best == nullptr || needle.size() > best->match.size())
            best = &price;
    }
    return best;
}

const DevicePrice *cpuEntry(const PriceTable &table) {
    const auto it =
        std::find_if(table.prices.begin(), table.prices.end(),
                     [](const DevicePrice &p) { return detail::lowerAscii(p.match) == "cpu"; });
    return it == table.prices.end() ? nullptr : &*it;
}

RunPrice fromEntry(const DevicePrice &entry) {
    RunPrice price;
    price.found = true;
    price.perHour = entry.perHour;
    price.currency = entry.currency;
    price.match = entry.match;
    price.source = entry.source;
    price.date = entry.date;
    price.note = entry.note;
    return price;
}

// `value` with `digits` significant digits, fixed notation, trailing zeros dropped: 857142.9 ->
// "857000", 0.00116667 -> "0.00117"; beyond 1e15 or below 1e-6, exponent form ("8.78e-09").
// A decimal point whatever the locale (to_chars).
std::string significant(double value, int digits) {
    if (value == 0.0 || !std::isfinite(value))
        return value == 0.0 ? "0" : value > 0 ? "inf" : std::isnan(value) ? "nan" : "-inf";
    std::array<char, 64> buffer{};
    char *const end = buffer.data() + buffer.size();
    if (std::fabs(value) >= 1e15 || std::fabs(value) < 1e-6) {
        const auto result =
            std::to_chars(buffer.data(), end, value, std::chars_format::general, digits);
        return std::string(buffer.data(), result.ptr);
    }
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    const int decimals = std::max(0, digits - 1 - magnitude);
    if (decimals == 0) {
        const double unit = std::pow(10.0, magnitude - digits + 1);
        value = std::round(value / unit) * unit;
    }
    const auto result =
        std::to_chars(buffer.data(), end, value, std::chars_format::fixed, decimals);
    std::string text(buffer.data(), result.ptr);
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.')
            text.pop_back();
    }
    return text;
}

std::string withCurrency(const std::string &number, const std::string &currency) {
    return currency.empty() ? number : number + " " + currency;
}

// The per-unit price with its unit: "0.35 USD/h", "0.3/kWh".
std::string rate(double value, const std::string &currency, const char *unit) {
    return significant(value, 4) + (currency.empty() ? "" : " " + currency) + "/" + unit;
}

std::string joulesText(double joules) {
    return joules >= 10000.0 ? significant(joules / 1000.0, 2) + " kJ"
                             : significant(joules, 2) + " J";
}

// Where a table price comes from: "(Tesla T4; <source>, <date>)"; "(your price)".
std::string priceOrigin(const RunPrice &price) {
    if (price.source.empty())
        return "(" + price.match + ")";
    std::string text = "(" + price.match + "; " + price.source;
    if (!price.date.empty())
        text += ", " + price.date;
    return text + ")";
}

} // namespace

std::string defaultPriceTablePath() { return resourcePath("prices/prices.json"); }

std::string parsePrice(const std::string &text, double *price) {
    const std::string t = trimmed(text);
    double value = 0.0;
    const auto result = std::from_chars(t.data(), t.data() + t.size(), value);
    if (t.empty() || result.ec != std::errc() || result.ptr != t.data() + t.size())
        return "'" + text + "' is not a number";
    if (!std::isfinite(value))
        return "'" + text + "' is not a finite number";
    if (value < 0.0)
        return t + " is negative (a price is 0 or more)";
    *price = value;
    return {};
}

std::string parsePriceOverrides(const std::string &text, std::vector<PriceOverride> *overrides) {
    std::vector<PriceOverride> read;
    if (text.find('=') == std::string::npos) {
        PriceOverride all;
        if (std::string problem = parsePrice(text, &all.perHour); !problem.empty())
            return problem;
        read.push_back(all);
    } else {
        std::stringstream items(text);
        std::string item;
        while (std::getline(items, item, ',')) {
            const auto equals = item.find('=');
            if (equals == std::string::npos)
                return "'" + item + "' is not DEVICE=PRICE";
            PriceOverride o;
            o.device = detail::lowerAscii(trimmed(item.substr(0, equals)));
            if (!isKnownDevice(o.device))
                return "unknown device '" + trimmed(item.substr(0, equals)) +
                       "' (cpu, cuda or cuda:N)";
            if (std::string problem = parsePrice(item.substr(equals + 1), &o.perHour);
                !problem.empty())
                return o.device + ": " + problem;
            if (std::any_of(read.begin(), read.end(),
                            [&o](const PriceOverride &r) { return r.device == o.device; }))
                return o.device + " is given twice";
            read.push_back(o);
        }
        if (read.empty())
            return "no DEVICE=PRICE pair";
    }
    *overrides = read;
    return {};
}

RunPrice priceOfRun(const RunRecord &record, const CostSettings &settings) {
    const std::string device = deviceOf(record);
    if (const PriceOverride *o = overrideFor(settings.overrides, device)) {
        RunPrice price;
        price.found = true;
        price.perHour = o->perHour;
        price.currency = settings.currency;
        price.match = "your price";
        return price;
    }
    if (device == "cpu") {
        if (const DevicePrice *entry = cpuEntry(settings.table))
            return fromEntry(*entry);
        RunPrice none;
        none.reason = "no price for the CPU";
        return none;
    }
    const std::string name = gpuName(record.fingerprint, device);
    RunPrice none;
    if (name.empty()) {
        none.reason = "the record names no GPU for " + device;
        return none;
    }
    if (const DevicePrice *entry = tableEntryFor(settings.table, name))
        return fromEntry(*entry);
    none.reason = "no price for " + name;
    return none;
}

const char *toString(CostBasis basis) {
    switch (basis) {
    case CostBasis::Hourly:
        return "hourly";
    case CostBasis::Energy:
        return "energy";
    case CostBasis::Free:
        return "free";
    case CostBasis::None:
        break;
    }
    return "n/a";
}

RunCost costOfRun(const RunRecord &record, const Summary &summary, int warmupEpochs,
                  const CostSettings &settings) {
    RunCost cost;
    cost.price = priceOfRun(record, settings);
    if (!summary.hasStable || !(summary.stableMean > 0.0)) {
        cost.reason = "no stable epoch";
        return cost;
    }
    const double imagesPerEpoch = summary.imagesPerSecond * summary.stableMean;
    if (cost.price.found && cost.price.perHour > 0.0) {
        cost.basis = CostBasis::Hourly;
        cost.currency = cost.price.currency;
        cost.perEpoch = cost.price.perHour * summary.stableMean / 3600.0;
    } else if (settings.perKwh == 0.0) { // free electricity: whatever was measured costs 0
        cost.basis = CostBasis::Free;
        cost.currency = settings.currency;
        cost.perKwh = 0.0;
        cost.perEpoch = 0.0;
    } else if (std::isfinite(settings.perKwh)) {
        const EnergySummary energy = summarizeEnergy(record.epochs, warmupEpochs);
        if (energy.epochs == 0 || !std::isfinite(energy.meanJoules)) {
            const std::string why = energyNotMeasuredReason(record.epochs);
            const bool sampled = std::any_of(record.epochs.begin(), record.epochs.end(),
                                             [](const EpochResult &e) { return e.system.sampled; });
            cost.reason = "no energy measured" +
                          (!why.empty() ? ": " + why
                           : sampled    ? std::string()
                                        : ": not sampled (a record from before sampling, or "
                                          "DEVICEBENCH_SAMPLING_PERIOD=0)");
            return cost;
        }
        cost.basis = CostBasis::Energy;
        cost.currency = settings.currency;
        cost.perKwh = settings.perKwh;
        cost.joulesPerEpoch = energy.meanJoules;
        cost.perEpoch = energy.meanJoules / 3.6e6 * settings.perKwh;
    } else if (cost.price.found) {
        cost.basis = CostBasis::Free;
        cost.currency = cost.price.currency;
        cost.perEpoch = 0.0;
    } else {
        cost.reason = cost.price.reason;
        return cost;
    }
    cost.perRun = kArticleRunEpochs * cost.perEpoch;
    if (cost.perEpoch > 0.0 && imagesPerEpoch > 0.0)
        cost.imagesPerMoney = imagesPerEpoch / cost.perEpoch;
    return cost;
}

RunCost meanCost(const std::vector<RunCost> &costs) {
    if (costs.empty()) {
        RunCost none;
        none.reason = "no run with a stable epoch";
        return none;
    }
    RunCost mean = costs.front();
    const bool alike = std::all_of(costs.begin(), costs.end(), [&mean](const RunCost &c) {
        return c.basis == mean.basis && c.currency == mean.currency &&
               c.price.match == mean.price.match &&
               (c.perKwh == mean.perKwh || (std::isnan(c.perKwh) && std::isnan(mean.perKwh)));
    });
    if (!alike) {
        RunCost differing;
        differing.reason = "its runs are priced differently (see them one by one)";
        return differing;
    }
    if (mean.basis == CostBasis::None)
        return mean;
    const auto average = [&costs](double RunCost::*figure) {
        double sum = 0.0;
        for (const RunCost &c : costs)
            sum += c.*figure;
        return sum / static_cast<double>(costs.size());
    };
    mean.perEpoch = average(&RunCost::perEpoch);
    mean.perRun = average(&RunCost::perRun);
    mean.imagesPerMoney = average(&RunCost::imagesPerMoney);
    mean.joulesPerEpoch = average(&RunCost::joulesPerEpoch);
    return mean;
}

std::string moneyText(double value, const std::string &currency) {
    if (!std::isfinite(value))
        return "n/a";
    return withCurrency(significant(value, 3), currency);
}

std::string costBasisText(const RunCost &cost) {
    const RunPrice &p = cost.price;
    switch (cost.basis) {
    case CostBasis::Hourly:
        return "at " + rate(p.perHour, p.currency, "h") + " " + priceOrigin(p);
    case CostBasis::Energy:
        return "from " + joulesText(cost.joulesPerEpoch) + " per stable epoch at " +
               rate(cost.perKwh, cost.currency, "kWh");
    case CostBasis::Free:
        if (cost.perKwh == 0.0) // free by a price per kWh of 0
            return rate(0.0, cost.currency, "kWh") + " (your price)";
        return rate(0.0, p.currency, "h") + " " + priceOrigin(p) +
               (p.note.empty() ? "" : ": " + p.note);
    case CostBasis::None:
        break;
    }
    return cost.reason;
}

std::string imagesPerMoneyText(const RunCost &cost) {
    if (cost.basis == CostBasis::Free)
        return "free";
    if (!std::isfinite(cost.imagesPerMoney))
        return "n/a";
    return significant(cost.imagesPerMoney, 3);
}

std::string costLine(const RunCost &cost) {
    if (cost.basis == CostBasis::None)
        return "cost: n/a: " + cost.reason;
    if (cost.basis == CostBasis::Free)
        return "cost: free; " + costBasisText(cost);
    const std::string unit = cost.currency.empty() ? "unit of money" : cost.currency;
    return "cost: " + moneyText(cost.perEpoch, cost.currency) + " per stable epoch, " +
           moneyText(cost.perRun, cost.currency) + " per " + std::to_string(kArticleRunEpochs) +
           "-epoch run, " + imagesPerMoneyText(cost) + " images per " + unit + "; " +
           costBasisText(cost);
}

} // namespace devicebench
