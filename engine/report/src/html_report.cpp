// SPDX-License-Identifier: MIT
// The report's page (html_report.h): the skeleton, the escaped data and the inlined assets.
#include "devicebench/html_report.h"

#include "report_assets.h"

#include "devicebench/atomic_file.h"

#include <ctime>
#include <random>
#include <vector>

namespace devicebench {
namespace {

// `text` as HTML text or attribute value.
std::string htmlEscaped(const std::string &text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

// The text at data[key] (or data[key][inner]); "" when there is none.
std::string textAt(const OrderedJson &data, const char *key, const char *inner = nullptr) {
    const OrderedJson *at = &data;
    for (const char *name : {key, inner}) {
        if (name == nullptr)
            break;
        const auto found = at->is_object() ? at->find(name) : at->end();
        if (found == at->end())
            return {};
        at = &*found;
    }
    const std::string *text = at->get_ptr<const std::string *>();
    return text != nullptr ? *text : std::string();
}

// 32 random hex digits.
std::string newNonce() {
    std::random_device device;
    std::string nonce;
    const char *digits = "0123456789abcdef";
    for (int i = 0; i < 32; ++i)
        nonce += digits[device() % 16U];
    return nonce;
}

// The page's sections, in the order docs/REPORT.md gives; report.js fills them.
const char *const kBody = R"HTML(<header>
<h1>DeviceBench report</h1>
<p class="question" id="question"></p>
<p class="answer" id="answer"></p>
<noscript><p>This page draws its tables and charts with the JavaScript inlined in it; allow
scripts for this file to see them. The data is in the page source as JSON.</p></noscript>
</header>
<main>
<section aria-labelledby="h-comparison"><h2 id="h-comparison">Comparison</h2>
<div id="groups"></div><div id="runs"></div><div id="published"></div>
<h3 id="h-flags">Flags</h3><ul id="flags" aria-labelledby="h-flags"></ul></section>
<section aria-labelledby="h-bars"><h2 id="h-bars">Stable mean seconds per epoch</h2>
<p class="hint" id="bars-hint">Bars: the mean with its 95&nbsp;% interval; hatched bars are
published results (no interval).</p><div class="chart" id="bars-box"><canvas id="bars" role="img"></canvas></div>
</section>
<section aria-labelledby="h-loss"><h2 id="h-loss">Loss curves</h2>
<p class="hint">Lines: training loss per step (bucket means); dots: test loss per epoch. Drag
across the chart to zoom into epochs; hover for values.</p>
<div class="controls" id="loss-controls"></div>
<div class="chart" id="loss-box"><canvas id="loss" role="img"></canvas></div>
<fieldset class="toggles"><legend>Runs shown</legend><div id="toggles"></div></fieldset>
</section>
<section aria-labelledby="h-accuracy" id="accuracy-section" hidden><h2 id="h-accuracy">Test
accuracy against time</h2>
<p class="hint">Each run's test accuracy at the end of each epoch against the seconds since its
first step (evaluations included); dashed: the target; a ring where a run reached it.</p>
<div class="chart" id="accuracy-box"><canvas id="accuracy" role="img"></canvas></div>
</section>
<section aria-labelledby="h-system"><h2 id="h-system">System readings</h2><div id="system"></div>
</section>
<section aria-labelledby="h-settings"><h2 id="h-settings">Settings and fingerprints</h2>
<div id="settings"></div></section>
<section aria-labelledby="h-control"><h2 id="h-control">Control</h2><p id="control"></p>
</section>
</main>
<footer><p id="made"></p></footer>
)HTML";

} // namespace

std::string scriptSafeJson(const OrderedJson &data) {
    const std::string json = data.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
    std::string out;
    out.reserve(json.size() + json.size() / 16);
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '<') {
            out += "\\u003c";
        } else if (c == '>') {
            out += "\\u003e";
        } else if (c == '&') {
            out += "\\u0026";
        } else if (c == '\xE2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
                   (json[i + 2] == '\xA8' || json[i + 2] == '\xA9')) {
            out += json[i + 2] == '\xA8' ? "\\u2028" : "\\u2029"; // line, paragraph separator
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

std::string htmlReport(const OrderedJson &data, const std::string &nonce) {
    const std::string title = textAt(data, "answer", "sentence");
    std::string page;
    page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    page += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "script-src 'nonce-" +
            nonce + "'; style-src 'nonce-" + nonce +
            "'; img-src data:; base-uri 'none'; form-action 'none'\">\n";
    page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    page += "<meta name=\"generator\" content=\"DeviceBench " +
            htmlEscaped(textAt(data, "version")) + "\">\n";
    page += "<title>DeviceBench report: " + htmlEscaped(title) + "</title>\n";
    page += "<style nonce=\"" + nonce + "\">\n" + report_assets::kStyle + "</style>\n";
    page += "</head>\n<body>\n";
    page += kBody;
    page += "<script type=\"application/json\" id=\"report-data\">" + scriptSafeJson(data) +
            "</script>\n";
    page += "<script nonce=\"" + nonce + "\">\n" + report_assets::kChartJs + "\n</script>\n";
    page += "<script nonce=\"" + nonce + "\">\nconst kChartJsVersion = '" +
            report_assets::kChartJsVersion + "';\n" + report_assets::kScript + "</script>\n";
    page += "</body>\n</html>\n";
    return page;
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

void writeHtmlReport(const std::string &path, const RunSet &runs,
                     const std::vector<PublishedSet> *published, const PublishedBeside *beside) {
    const RunGroups groups = runs.runCount() > 0 ? groupRuns(runs) : RunGroups();
    const ControlSummary control = runs.runCount() > 0 ? summarizeControl(runs) : ControlSummary();
    ComparisonParts parts;
    parts.groups = &groups;
    parts.control = &control;
    parts.published = published;
    parts.beside = beside;
    const std::string page = htmlReport(reportData(runs, parts, utcNow()), newNonce());
    try {
        writeFileAtomically(path, page);
    } catch (const AtomicWriteError &e) {
        throw ReportError("Cannot write " + path + ": " + e.what());
    }
}

} // namespace devicebench
