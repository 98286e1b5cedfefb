// SPDX-License-Identifier: MIT
// The published results (devicebench/published.h) as the bar chart draws them, after the runs'
// bars: one bar per published row at its stable mean, one bar set (and one legend entry,
// "published: the article's script", PublishedLegendItem) per source program, hatched and outlined
// in the chart's text colour so that they never look like a run of the user's. The hover of a bar
// says where the number comes from and how it stands against the runs in view (the CLI's wording,
// app/cli/cli_published.cpp).
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QList>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

class QBarSet;
class QChart;
class QAbstractBarSeries;

namespace devicebench {

class RunStore;
struct PublishedSet;

// The published rows the store shows (RunStore::publishedRows), in order, beside `runBars`
// bars of runs: with more than three bars in all, their categories are compact.
struct PublishedBars {
    QStringList categories;     // rich text: device, where, speed-up and the match (compact:
                                // the device and the speed-up)
    std::vector<double> values; // the rows' stable means, seconds per epoch
    std::vector<int> group;     // per bar: its bar set, an index into legendNames
    QStringList legendNames;    // one per source program, in order of first appearance
    QStringList hoverTexts;     // per bar
    QStringList ratioLines;     // programRatioLines(store), under the legend entries
};
// `errorColour`: the "⚠ other settings" of a row whose settings are not the runs' baseline's.
PublishedBars publishedBars(const RunStore &store, int runBars, const QString &errorColour);

// "published: " + publishedProgramName(program): "published: the article's script".
QString publishedLegendName(const std::string &program);

// Which of the store's runs are like for like with `set`, in one line (likeForLikeLine of
// published.h, as the CLI says it).
QString likeForLikeLine(const PublishedSet &set, const RunStore &store);

// What the article's script and the faithful workload of the same settings on the same
// machine say about each other: each line of programRatios(store.runSet()) (engine
// reproduction.h), "DeviceBench's faithful workload: 0.79 x the article's script on CPU x2 @
// host (...) (#2 against #1)"; empty when no such pair of runs is in view. Drawn in the
// chart's footer (so in the exported PNG too), in the published bars' hover and in the compare
// panel.
QStringList programRatioLines(const RunStore &store);

// The published style: hatched (Qt::BDiagPattern) in `ink`, outlined in `ink`.
void stylePublishedSet(QBarSet *set, const QColor &ink);
bool hasPublishedStyle(const QBarSet *set);

// Appends one bar set per published group to `series` (after the runs' sets): set g holds
// values[c] in each category c >= `first` whose group[c - first] is g, 0 elsewhere, in the
// published style.
void addPublishedSets(QAbstractBarSeries *series, const std::vector<double> &values, int first,
                      const std::vector<int> &group, const QStringList &names, const QColor &ink);

// The published sets' legend, which the chart draws itself in a strip along its bottom edge
// (Qt's legend would list every run's bar set too, and its layout shows hidden markers
// again): a hatched square and the name of each set, in the chart's text colour, in as many
// rows as the chart's width needs, and under them the footer's lines (programRatioLines and
// the bars left out), each word-wrapped within the chart. A child item of the chart, so the
// dashboard and the exported PNG both draw it; the chart's bottom margin holds the strip and
// the room above it that setSpaceAbove asks for, so that nothing in it is drawn over another.
class PublishedLegendItem : public QGraphicsItem {
public:
    explicit PublishedLegendItem(QChart *chart);
    // The entries; makes room for them under the axis (the chart's bottom margin), or gives
    // it back when there are none.
    void setNames(const QStringList &names);
    QStringList names() const { return m_names; }
    // The ratio lines under the entries; makes room for them as setNames does.
    void setLines(const QStringList &lines);
    QStringList lines() const { return m_lines; }
    // Room (pixels) kept between the axis and the strip: the vertical bars' labels.
    void setSpaceAbove(double pixels);
    // Keeps the chart's bottom margin at what the strip needs at the chart's width, then
    // repaints.
    void geometryChanged();
    // Where the entries' rows and the lines are drawn (chart coordinates).
    QList<QRectF> textRects() const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    double lineHeight() const;
    double textWidth() const;                   // the strip's width for text
    std::vector<QStringList> entryRows() const; // the names, in rows that fit textWidth()
    double rowWidth(const QStringList &row) const;
    double lineHeightOf(const QString &line) const; // wrapped to textWidth()
    double stripHeight() const;                     // the entries' rows and the lines
    void fitMargin(); // the chart's bottom margin holds the strip and the space above it
    void paintEntries(QPainter *painter, double y, const QStringList &row) const;

    QChart *m_chart;
    QStringList m_names;
    QStringList m_lines;
    double m_spaceAbove = 0.0;
    int m_bottomMargin; // the chart's own, without the strip
};

} // namespace devicebench
