// SPDX-License-Identifier: MIT
#include "dialogs/prices_dialog.h"

#include "theme/appearance.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <string>

namespace devicebench {

namespace {

// QSettings keys (savePriceSettings).
const QString kTableKey = QStringLiteral("prices/table");
const QString kPerKwhKey = QStringLiteral("prices/perKwh");
const QString kCurrencyKey = QStringLiteral("prices/currency");

// Where a saved table's errors say it came from.
constexpr const char *kSavedTableSource = "saved settings (prices/table)";

QString cellText(const QTableWidget *table, int row, int column) {
    const QTableWidgetItem *item = table->item(row, column);
    return item == nullptr ? QString() : item->text().trimmed();
}

QString priceText(double value) { return QString::number(value, 'g', 10); }

// What the table means, above it: how a run finds its row, and that the prices are examples.
QLabel *makeNote(const QString &defaultsNote, QWidget *parent) {
    auto *note = new QLabel(parent);
    note->setObjectName(QStringLiteral("pricesNoteLabel"));
    note->setWordWrap(true);
    note->setText(
        (defaultsNote.isEmpty() ? QString() : defaultsNote + QStringLiteral("\n")) +
        QStringLiteral("A run's price per hour is the row whose device is the longest part of its "
                       "GPU's name (\"cpu\": runs on the CPU). Prices change: these are examples "
                       "with their sources and dates; set your own. A price of 0 per hour (a "
                       "machine already paid for) counts the energy measured at the price per "
                       "kWh."));
    return note;
}

// The table of prices: device, price per hour, currency, source, date; rows numbered.
QTableWidget *makeTable(QWidget *parent) {
    auto *table = new QTableWidget(0, 5, parent);
    table->setObjectName(QStringLiteral("pricesTable"));
    table->setHorizontalHeaderLabels({QStringLiteral("Device"), QStringLiteral("Price per hour"),
                                      QStringLiteral("Currency"), QStringLiteral("Source"),
                                      QStringLiteral("Date")});
    table->verticalHeader()->setVisible(true); // the row numbers the messages name
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    return table;
}

// The price per kWh and its currency, in one row; the two fields into *perKwh and *currency.
QHBoxLayout *makeKwhRow(QLineEdit **perKwh, QLineEdit **currency, QWidget *parent) {
    *perKwh = new QLineEdit(parent);
    (*perKwh)->setObjectName(QStringLiteral("perKwhEdit"));
    (*perKwh)->setPlaceholderText(QStringLiteral("none"));
    (*perKwh)->setToolTip(QStringLiteral("Your electricity price: the cost of a run priced at 0 "
                                         "per hour (or not at all) is its measured energy at it"));
    *currency = new QLineEdit(parent);
    (*currency)->setObjectName(QStringLiteral("kwhCurrencyEdit"));
    (*currency)->setPlaceholderText(QStringLiteral("EUR, USD, ..."));
    auto *row = new QHBoxLayout;
    row->addWidget(*perKwh, 2);
    row->addWidget(new QLabel(QStringLiteral("currency"), parent));
    row->addWidget(*currency, 1);
    return row;
}

} // namespace

PricesDialog::PricesDialog(const CostSettings &current, const PriceTable &defaults,
                           const QString &defaultsNote, QWidget *parent)
    : QDialog(parent), m_current(current), m_defaults(defaults) {
    setWindowTitle(QStringLiteral("Prices"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(makeNote(defaultsNote, this));
    m_table = makeTable(this);
    layout->addWidget(m_table, 1);

    auto *rowButtons = new QHBoxLayout;
    auto *add = new QPushButton(QStringLiteral("Add row"), this);
    add->setObjectName(QStringLiteral("addPriceButton"));
    auto *remove = new QPushButton(QStringLiteral("Remove row"), this);
    remove->setObjectName(QStringLiteral("removePriceButton"));
    auto *restore = new QPushButton(QStringLiteral("Restore defaults"), this);
    restore->setObjectName(QStringLiteral("restorePricesButton"));
    restore->setToolTip(QStringLiteral("The shipped table (share/devicebench/prices/prices.json) "
                                       "and no price per kWh"));
    rowButtons->addWidget(add);
    rowButtons->addWidget(remove);
    rowButtons->addStretch(1);
    rowButtons->addWidget(restore);
    layout->addLayout(rowButtons);

    auto *form = new QFormLayout;
    form->addRow(QStringLiteral("Price per kWh"), makeKwhRow(&m_perKwh, &m_kwhCurrency, this));
    layout->addLayout(form);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("pricesErrorLabel"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(errorColour(palette())));
    m_error->setVisible(false);
    layout->addWidget(m_error);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);

    connect(add, &QPushButton::clicked, this, [this] {
        const int row = addRow();
        m_table->setCurrentCell(row, MatchColumn);
        m_table->editItem(m_table->item(row, MatchColumn));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
    });
    connect(restore, &QPushButton::clicked, this, [this] {
        setPrices(m_defaults);
        m_perKwh->clear();
        m_kwhCurrency->clear();
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &PricesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &PricesDialog::reject);

    setPrices(current.table);
    if (std::isfinite(current.perKwh))
        m_perKwh->setText(priceText(current.perKwh));
    m_kwhCurrency->setText(QString::fromStdString(current.currency));
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(SourceColumn, std::min(m_table->columnWidth(SourceColumn), 360));
    resize(900, 460);
}

int PricesDialog::addRow(const DevicePrice &price) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const bool priced = !price.match.empty();
    const QStringList texts = {
        QString::fromStdString(price.match), priced ? priceText(price.perHour) : QString(),
        QString::fromStdString(price.currency), QString::fromStdString(price.source),
        QString::fromStdString(price.date)};
    for (int column = 0; column < texts.size(); ++column) {
        auto *item = new QTableWidgetItem(texts[column]);
        if (column == SourceColumn)
            item->setToolTip(texts[column]); // long: the page and the offer
        m_table->setItem(row, column, item);
    }
    // The entry's note ("already paid for: ...") has no column; it stays with its row.
    m_table->item(row, MatchColumn)->setData(Qt::UserRole, QString::fromStdString(price.note));
    return row;
}

void PricesDialog::setPrices(const PriceTable &table) {
    m_table->setRowCount(0);
    for (const DevicePrice &price : table.prices)
        addRow(price);
}

std::optional<CostSettings> PricesDialog::settings(QString *problem) const {
    CostSettings out = m_current;
    out.table.prices.clear();
    out.table.file.clear(); // the user's table: made here, not read from a file
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const auto fail = [&](const QString &field, const QString &what) {
            *problem = QStringLiteral("Row %1, %2: %3").arg(row + 1).arg(field, what);
            return std::nullopt;
        };
        DevicePrice price;
        price.match = cellText(m_table, row, MatchColumn).toStdString();
        if (price.match.empty())
            return fail(QStringLiteral("device"),
                        QStringLiteral("empty (part of a GPU's name, or cpu)"));
        const std::string why =
            parsePrice(cellText(m_table, row, PriceColumn).toStdString(), &price.perHour);
        if (!why.empty())
            return fail(QStringLiteral("price per hour"), QString::fromStdString(why));
        price.currency = cellText(m_table, row, CurrencyColumn).toStdString();
        price.source = cellText(m_table, row, SourceColumn).toStdString();
        price.date = cellText(m_table, row, DateColumn).toStdString();
        price.note = m_table->item(row, MatchColumn)->data(Qt::UserRole).toString().toStdString();
        out.table.prices.push_back(price);
    }
    out.perKwh = kNoPrice;
    if (const QString kwh = m_perKwh->text().trimmed(); !kwh.isEmpty()) {
        double value = 0.0;
        const std::string why = parsePrice(kwh.toStdString(), &value);
        if (!why.empty()) {
            *problem = QStringLiteral("Price per kWh: ") + QString::fromStdString(why);
            return std::nullopt;
        }
        out.perKwh = value;
    }
    out.currency = m_kwhCurrency->text().trimmed().toStdString();
    // The engine's reader has the last word (control characters, ...), as for a file.
    try {
        out.table = parsePriceTable(priceTableJson(out.table), "the table");
        out.table.file.clear();
    } catch (const PriceError &e) {
        *problem = QString::fromStdString(e.what());
        return std::nullopt;
    }
    return out;
}

void PricesDialog::accept() {
    QString problem;
    if (!settings(&problem)) {
        m_error->setText(problem);
        m_error->setVisible(true);
        return;
    }
    m_error->setVisible(false);
    QDialog::accept();
}

void savePriceSettings(QSettings &settings, const CostSettings &cost, const PriceTable &defaults) {
    const std::string table = priceTableJson(cost.table);
    if (table == priceTableJson(defaults))
        settings.remove(kTableKey);
    else
        settings.setValue(kTableKey, QString::fromStdString(table));
    settings.setValue(kPerKwhKey, std::isfinite(cost.perKwh) ? priceText(cost.perKwh) : QString());
    settings.setValue(kCurrencyKey, QString::fromStdString(cost.currency));
}

CostSettings restorePriceSettings(const QSettings &settings, const PriceTable &defaults,
                                  QString *problem) {
    CostSettings cost;
    cost.table = defaults;
    if (settings.contains(kTableKey)) {
        try {
            cost.table = parsePriceTable(settings.value(kTableKey).toString().toStdString(),
                                         kSavedTableSource);
            cost.table.file.clear();
        } catch (const PriceError &e) {
            if (problem != nullptr)
                *problem = QString::fromStdString(e.what());
        }
    }
    double perKwh = 0.0;
    if (parsePrice(settings.value(kPerKwhKey).toString().toStdString(), &perKwh).empty())
        cost.perKwh = perKwh;
    cost.currency = settings.value(kCurrencyKey).toString().trimmed().toStdString();
    return cost;
}

} // namespace devicebench
