// SPDX-License-Identifier: MIT
// What the report inlines, made at build time from engine/report/assets/ and the installed
// libjs-chart.js (cmake/EmbedReportAssets.cmake writes the definitions).
#pragma once

namespace devicebench::report_assets {

extern const char kChartJs[];        // chart.min.js after a comment with its licence notice
extern const char kChartJsVersion[]; // "3.9.1"
extern const char kScript[];         // assets/report.js
extern const char kStyle[];          // assets/report.css

} // namespace devicebench::report_assets
