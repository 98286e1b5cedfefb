// SPDX-License-Identifier: MIT
#include "sweep/sweep_form.h"

#include "panels/run_settings_panel.h" // makeSpin

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace devicebench {

namespace {

const QString kModelsKey = QStringLiteral("sweep/models");
const QString kBatchSizesKey = QStringLiteral("sweep/batchSizes");
const QString kImageSizesKey = QStringLiteral("sweep/imageSizes");
const QString kPrecisionsKey = QStringLiteral("sweep/precisions");
const QString kDevicesKey = QStringLiteral("sweep/devices");
const QString kThreadsKey = QStringLiteral("sweep/threads");
const QString kStepsKey = QStringLiteral("sweep/steps");
const QString kWarmupStepsKey = QStringLiteral("sweep/warmupSteps");
const QString kPhaseStepsKey = QStringLiteral("sweep/phaseSteps");

QString joinInts(const std::vector<int> &values) {
    QStringList parts;
    for (const int v : values)
        parts.append(QString::number(v));
    return parts.join(QStringLiteral(","));
}

void restoreSpin(const QSettings &settings, const QString &key, QSpinBox *spin) {
    bool ok = false;
    const int value = settings.value(key).toInt(&ok);
    if (settings.contains(key) && ok && value >= spin->minimum() && value <= spin->maximum())
        spin->setValue(value);
}

} // namespace

bool parseIntList(const QString &text, const QString &what, std::vector<int> *values,
                  QString *problem) {
    std::vector<int> out;
    for (const QString &raw : text.split(QLatin1Char(','))) {
        const QString item = raw.trimmed();
        if (item.isEmpty() && text.trimmed().isEmpty())
            break;
        bool ok = false;
        const int value = item.toInt(&ok);
        if (!ok) {
            *problem = QStringLiteral("%1: '%2' is not a whole number").arg(what, item);
            return false;
        }
        if (std::find(out.begin(), out.end(), value) != out.end()) {
            *problem = QStringLiteral("%1: %2 is given twice").arg(what).arg(value);
            return false;
        }
        out.push_back(value);
    }
    if (out.empty()) {
        *problem = QStringLiteral("%1: none given").arg(what);
        return false;
    }
    *values = out;
    return true;
}

SweepSpec sweepSpecOf(const std::vector<SweepCellRecord> &records) {
    SweepSpec spec;
    spec.models.clear();
    spec.batchSizes.clear();
    spec.imageSizes.clear();
    spec.devices.clear();
    spec.precisions.clear();
    const auto addOnce = [](auto &list, const auto &value) {
        if (std::find(list.begin(), list.end(), value) == list.end())
            list.push_back(value);
    };
    for (const SweepCellRecord &record : records) {
        addOnce(spec.models, record.cell.model);
        addOnce(spec.batchSizes, record.cell.batchSize);
        addOnce(spec.imageSizes, record.cell.imageSize);
        addOnce(spec.precisions, record.cell.precision);
        const bool known =
            std::any_of(spec.devices.begin(), spec.devices.end(), [&](const SweepDevice &d) {
                return d.device == record.cell.device.device &&
                       d.threads == record.cell.device.threads;
            });
        if (!known)
            spec.devices.push_back(record.cell.device);
    }
    std::sort(spec.batchSizes.begin(), spec.batchSizes.end());
    std::sort(spec.precisions.begin(), spec.precisions.end()); // the enum's order: fp32, bf16, fp16
    if (!records.empty()) {
        spec.steps = records.front().steps;
        spec.warmupSteps = records.front().warmupSteps;
        spec.phaseSteps = records.front().phaseSteps;
    }
    return spec;
}

SweepForm::SweepForm(QWidget *parent) : QGroupBox(QStringLiteral("Grid"), parent) {
    auto *form = new QFormLayout(this);
    form->addRow(QStringLiteral("Models"), buildModelsRow());
    m_batchSizesEdit = new QLineEdit(QStringLiteral("16,64,256"), this);
    m_batchSizesEdit->setObjectName(QStringLiteral("sweepBatchSizesEdit"));
    m_batchSizesEdit->setToolTip(
        QStringLiteral("Images per step, 1 to 1024, separated by commas. A cell that runs out "
                       "of memory ends with that reason and the sweep goes on."));
    form->addRow(QStringLiteral("Batch sizes"), m_batchSizesEdit);
    form->addRow(QStringLiteral("Image sizes"), buildImageSizesRow());
    form->addRow(QStringLiteral("Precisions"), buildPrecisionsRow());
    form->addRow(QStringLiteral("Devices"), buildDevices());
    addStepRows(form);
}

QLayout *SweepForm::buildModelsRow() {
    auto *models = new QHBoxLayout;
    for (const char *name : kModelNames) {
        auto *box = new QCheckBox(QString::fromUtf8(name), this);
        box->setObjectName(QStringLiteral("sweepModel_") + QString::fromUtf8(name));
        box->setChecked(std::string(name) == kDefaultModel);
        models->addWidget(box);
        m_models[name] = box;
    }
    models->addStretch(1);
    return models;
}

QLayout *SweepForm::buildImageSizesRow() {
    auto *sizes = new QHBoxLayout;
    for (const int pixels : kImageSizes) {
        auto *box = new QCheckBox(QStringLiteral("%1 px").arg(pixels), this);
        box->setObjectName(QStringLiteral("sweepImageSize_%1").arg(pixels));
        box->setChecked(pixels == kDefaultImageSize);
        box->setToolTip(QStringLiteral("CIFAR-10 upsampled once to %1 x %1 (bilinear), outside "
                                       "the timed steps")
                            .arg(pixels));
        sizes->addWidget(box);
        m_imageSizes[pixels] = box;
    }
    sizes->addStretch(1);
    return sizes;
}

QLayout *SweepForm::buildPrecisionsRow() {
    struct Choice {
        Precision precision;
        const char *name;
        const char *tip;
    };
    static constexpr Choice kChoices[] = {
        {Precision::Float32, "sweepPrecisionFp32Check", "float32 throughout (the article's)"},
        {Precision::BFloat16, "sweepPrecisionBf16Check",
         "bf16 mixed precision (autocast): products and convolutions in bfloat16"},
        {Precision::Float16, "sweepPrecisionFp16Check",
         "fp16 mixed precision with loss scaling: CUDA devices only"},
    };
    auto *precisions = new QHBoxLayout;
    for (const Choice &choice : kChoices) {
        auto *box = new QCheckBox(QString::fromUtf8(shortName(choice.precision)), this);
        box->setObjectName(QString::fromUtf8(choice.name));
        box->setChecked(choice.precision == Precision::Float32);
        box->setToolTip(QString::fromUtf8(choice.tip));
        precisions->addWidget(box);
        m_precisions[choice.precision] = box;
    }
    precisions->addStretch(1);
    return precisions;
}

QWidget *SweepForm::buildDevices() {
    auto *devices = new QWidget(this);
    m_deviceLayout = new QVBoxLayout(devices);
    m_deviceLayout->setContentsMargins(0, 0, 0, 0);
    auto *cpuRow = new QHBoxLayout;
    QCheckBox *cpu = addDevice(QStringLiteral("cpu"), QStringLiteral("CPU, threads"));
    cpu->setChecked(true);
    m_deviceLayout->removeWidget(cpu); // on its row with the thread counts
    cpuRow->addWidget(cpu);
    m_threadsEdit = new QLineEdit(QStringLiteral("1,2"), this);
    m_threadsEdit->setObjectName(QStringLiteral("sweepThreadsEdit"));
    m_threadsEdit->setToolTip(QStringLiteral(
        "CPU intra-op thread counts, separated by commas (0: every usable core); each is a "
        "device of its own in the grid"));
    cpuRow->addWidget(m_threadsEdit, 1);
    m_deviceLayout->insertLayout(0, cpuRow);
    return devices;
}

void SweepForm::addStepRows(QFormLayout *form) {
    m_stepsSpin = makeSpin(this, "sweepStepsSpin", 2, 100000, 20,
                           QStringLiteral("Timed training steps per cell; images/s is their "
                                          "median, with a 95% interval"));
    m_warmupSpin = makeSpin(this, "sweepWarmupSpin", 0, 100000, 5,
                            QStringLiteral("Untimed steps before the timed ones in every cell"));
    m_phaseStepsSpin =
        makeSpin(this, "sweepPhaseStepsSpin", 0, 100000, 5,
                 QStringLiteral("Steps timed phase by phase after the timed ones (the device "
                                "synchronised at each boundary: never part of images/s); 0: none"));
    form->addRow(QStringLiteral("Timed steps"), m_stepsSpin);
    form->addRow(QStringLiteral("Warm-up steps"), m_warmupSpin);
    form->addRow(QStringLiteral("Phase steps"), m_phaseStepsSpin);
}

QCheckBox *SweepForm::addDevice(const QString &id, const QString &text) {
    auto *box = new QCheckBox(text, this);
    box->setObjectName(QStringLiteral("sweepDevice_") + id);
    m_deviceLayout->addWidget(box);
    m_devices.emplace_back(id.toStdString(), box);
    return box;
}

void SweepForm::setDevices(const std::vector<DeviceInfo> &devices) {
    for (const DeviceInfo &device : devices) {
        if (!device.usable || device.id == "cpu")
            continue;
        const bool known = std::any_of(m_devices.begin(), m_devices.end(),
                                       [&](const auto &d) { return d.first == device.id; });
        if (!known)
            addDevice(QString::fromStdString(device.id),
                      QString::fromStdString(device.id + " (" + device.name + ")"));
    }
}

bool SweepForm::readSpec(SweepSpec *spec, QStringList *problems) const {
    SweepSpec out = *spec;
    out.models.clear();
    for (const char *name : kModelNames)
        if (m_models.at(name)->isChecked())
            out.models.emplace_back(name);
    if (out.models.empty())
        problems->append(QStringLiteral("models: tick at least one"));
    QString problem;
    if (!parseIntList(m_batchSizesEdit->text(), QStringLiteral("batch sizes"), &out.batchSizes,
                      &problem))
        problems->append(problem);
    out.imageSizes.clear();
    for (const auto &[pixels, box] : m_imageSizes)
        if (box->isChecked())
            out.imageSizes.push_back(pixels);
    if (out.imageSizes.empty())
        problems->append(QStringLiteral("image sizes: tick at least one"));
    out.precisions.clear();
    for (const auto &[precision, box] : m_precisions)
        if (box->isChecked())
            out.precisions.push_back(precision);
    if (out.precisions.empty())
        problems->append(QStringLiteral("precisions: tick at least one"));
    out.devices.clear();
    for (const auto &[id, box] : m_devices) {
        if (!box->isChecked())
            continue;
        if (id != "cpu") {
            out.devices.push_back(SweepDevice{id, 0});
            continue;
        }
        std::vector<int> threads;
        if (!parseIntList(m_threadsEdit->text(), QStringLiteral("CPU threads"), &threads, &problem))
            problems->append(problem);
        for (const int t : threads)
            out.devices.push_back(SweepDevice{"cpu", t});
    }
    if (out.devices.empty() && std::none_of(m_devices.begin(), m_devices.end(),
                                            [](const auto &d) { return d.second->isChecked(); }))
        problems->append(QStringLiteral("devices: tick at least one"));
    out.steps = m_stepsSpin->value();
    out.warmupSteps = m_warmupSpin->value();
    out.phaseSteps = m_phaseStepsSpin->value();
    if (problems->isEmpty()) {
        const std::string invalid = validateSweepSpec(out);
        if (!invalid.empty())
            problems->append(QString::fromStdString(invalid));
    }
    if (!problems->isEmpty())
        return false;
    *spec = out;
    return true;
}

void SweepForm::setSpec(const SweepSpec &spec) {
    for (const auto &[name, box] : m_models)
        box->setChecked(std::find(spec.models.begin(), spec.models.end(), name) !=
                        spec.models.end());
    m_batchSizesEdit->setText(joinInts(spec.batchSizes));
    for (const auto &[pixels, box] : m_imageSizes)
        box->setChecked(std::find(spec.imageSizes.begin(), spec.imageSizes.end(), pixels) !=
                        spec.imageSizes.end());
    for (const auto &[precision, box] : m_precisions)
        box->setChecked(std::find(spec.precisions.begin(), spec.precisions.end(), precision) !=
                        spec.precisions.end());
    std::vector<int> threads;
    for (const auto &[id, box] : m_devices)
        box->setChecked(false);
    for (const SweepDevice &device : spec.devices) {
        auto found = std::find_if(m_devices.begin(), m_devices.end(),
                                  [&](const auto &d) { return d.first == device.device; });
        QCheckBox *box = found != m_devices.end()
                             ? found->second
                             : addDevice(QString::fromStdString(device.device),
                                         QString::fromStdString(device.device));
        box->setChecked(true);
        if (device.device == "cpu")
            threads.push_back(device.threads);
    }
    if (!threads.empty())
        m_threadsEdit->setText(joinInts(threads));
    m_stepsSpin->setValue(spec.steps);
    m_warmupSpin->setValue(spec.warmupSteps);
    m_phaseStepsSpin->setValue(spec.phaseSteps);
}

void SweepForm::saveSettings(QSettings &settings) const {
    QStringList models;
    for (const auto &[name, box] : m_models)
        if (box->isChecked())
            models.append(QString::fromStdString(name));
    settings.setValue(kModelsKey, models);
    settings.setValue(kBatchSizesKey, m_batchSizesEdit->text());
    QStringList sizes;
    for (const auto &[pixels, box] : m_imageSizes)
        if (box->isChecked())
            sizes.append(QString::number(pixels));
    settings.setValue(kImageSizesKey, sizes);
    QStringList precisions;
    for (const auto &[precision, box] : m_precisions)
        if (box->isChecked())
            precisions.append(QString::fromUtf8(shortName(precision)));
    settings.setValue(kPrecisionsKey, precisions);
    QStringList devices;
    for (const auto &[id, box] : m_devices)
        if (box->isChecked())
            devices.append(QString::fromStdString(id));
    settings.setValue(kDevicesKey, devices);
    settings.setValue(kThreadsKey, m_threadsEdit->text());
    settings.setValue(kStepsKey, m_stepsSpin->value());
    settings.setValue(kWarmupStepsKey, m_warmupSpin->value());
    settings.setValue(kPhaseStepsKey, m_phaseStepsSpin->value());
}

void SweepForm::restorePrecisions(const QSettings &settings) {
    // Only a list naming a precision this form offers: anything else keeps the ticks.
    std::vector<Precision> saved;
    for (const QString &name : settings.value(kPrecisionsKey).toStringList()) {
        Precision precision = Precision::Float32;
        if (parsePrecision(name.toStdString(), &precision))
            saved.push_back(precision);
    }
    if (saved.empty())
        return;
    for (const auto &[precision, box] : m_precisions)
        box->setChecked(std::find(saved.begin(), saved.end(), precision) != saved.end());
}

void SweepForm::restoreSettings(const QSettings &settings) {
    if (settings.contains(kModelsKey)) {
        const QStringList models = settings.value(kModelsKey).toStringList();
        for (const auto &[name, box] : m_models)
            box->setChecked(models.contains(QString::fromStdString(name)));
    }
    if (settings.contains(kBatchSizesKey))
        m_batchSizesEdit->setText(settings.value(kBatchSizesKey).toString());
    if (settings.contains(kImageSizesKey)) {
        const QStringList sizes = settings.value(kImageSizesKey).toStringList();
        for (const auto &[pixels, box] : m_imageSizes)
            box->setChecked(sizes.contains(QString::number(pixels)));
    }
    restorePrecisions(settings);
    if (settings.contains(kDevicesKey)) { // a GPU the probe has not (yet) listed stays unticked
        const QStringList devices = settings.value(kDevicesKey).toStringList();
        for (const auto &[id, box] : m_devices)
            box->setChecked(devices.contains(QString::fromStdString(id)));
    }
    if (settings.contains(kThreadsKey))
        m_threadsEdit->setText(settings.value(kThreadsKey).toString());
    restoreSpin(settings, kStepsKey, m_stepsSpin);
    restoreSpin(settings, kWarmupStepsKey, m_warmupSpin);
    restoreSpin(settings, kPhaseStepsKey, m_phaseStepsSpin);
}

} // namespace devicebench
