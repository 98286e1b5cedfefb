// SPDX-License-Identifier: MIT
#include "dialogs/fetch_dialog.h"

#include "theme/appearance.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include <utility>

namespace devicebench {

namespace {

const QString kUrlKey = QStringLiteral("fetch/url");
const QString kMd5Key = QStringLiteral("fetch/md5");
constexpr int kBarSteps = 1000;

QString phaseTitle(FetchPhase phase) {
    switch (phase) {
    case FetchPhase::Downloading:
        return QStringLiteral("Downloading…");
    case FetchPhase::Verifying:
        return QStringLiteral("Verifying the MD5…");
    case FetchPhase::Unpacking:
        return QStringLiteral("Unpacking…");
    case FetchPhase::Checking:
        return QStringLiteral("Checking the folder…");
    }
    return {};
}

} // namespace

FetchDialog::FetchDialog(QWidget *parent) : QDialog(parent) {
    setWindowTitle(QStringLiteral("Get CIFAR-10"));
    setObjectName(QStringLiteral("fetchDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(
        QStringLiteral("The binary version of CIFAR-10 (cifar-10-binary.tar.gz, 170 MB) is "
                       "downloaded, its MD5 checked, unpacked and checked. The folder "
                       "appears complete or not at all."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(buildForm());
    buildStatus(layout);
    layout->addStretch(1);
    layout->addWidget(buildButtons());
    setBusy(false);
    resize(640, sizeHint().height());
}

QLayout *FetchDialog::buildForm() {
    auto *form = new QFormLayout;
    const QSettings settings;
    m_urlEdit =
        new QLineEdit(settings.value(kUrlKey, QString::fromUtf8(kCifar10Url)).toString(), this);
    m_urlEdit->setObjectName(QStringLiteral("urlEdit"));
    m_urlEdit->setToolTip(QStringLiteral("The official address, or a mirror serving the same "
                                         "file (http:// or https://)"));
    form->addRow(QStringLiteral("Download from"), m_urlEdit);
    m_md5Edit =
        new QLineEdit(settings.value(kMd5Key, QString::fromUtf8(kCifar10Md5)).toString(), this);
    m_md5Edit->setObjectName(QStringLiteral("md5Edit"));
    m_md5Edit->setToolTip(QStringLiteral("The archive must have this MD5 (empty: not checked; "
                                         "the unpacked folder is checked anyway)"));
    form->addRow(QStringLiteral("Expected MD5"), m_md5Edit);
    auto *targetRow = new QHBoxLayout;
    m_targetEdit = new QLineEdit(QString::fromStdString(defaultFetchDir()), this);
    m_targetEdit->setObjectName(QStringLiteral("targetEdit"));
    m_targetEdit->setToolTip(
        QStringLiteral("The folder that receives cifar-10-batches-bin (created if missing)"));
    m_browseButton = new QPushButton(QStringLiteral("Browse…"), this);
    targetRow->addWidget(m_targetEdit, 1);
    targetRow->addWidget(m_browseButton);
    form->addRow(QStringLiteral("Unpack into"), targetRow);
    connect(m_browseButton, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, QStringLiteral("Folder that receives cifar-10-batches-bin"),
            m_targetEdit->text().isEmpty() ? QDir::homePath() : m_targetEdit->text());
        if (!dir.isEmpty()) {
            m_targetEdit->setText(QDir::toNativeSeparators(dir));
        }
    });
    return form;
}

void FetchDialog::buildStatus(QVBoxLayout *layout) {
    m_phaseLabel = new QLabel(QStringLiteral("Ready to download."), this);
    m_phaseLabel->setObjectName(QStringLiteral("phaseLabel"));
    QFont bold = m_phaseLabel->font();
    bold.setBold(true);
    m_phaseLabel->setFont(bold);
    layout->addWidget(m_phaseLabel);
    m_progressBar = new QProgressBar(this);
    m_progressBar->setObjectName(QStringLiteral("progressBar"));
    m_progressBar->setRange(0, kBarSteps);
    m_progressBar->setValue(0);
    layout->addWidget(m_progressBar);
    m_detailLabel = new QLabel(this);
    m_detailLabel->setObjectName(QStringLiteral("detailLabel"));
    layout->addWidget(m_detailLabel);
    m_resultLabel = new QLabel(this);
    m_resultLabel->setObjectName(QStringLiteral("resultLabel"));
    m_resultLabel->setWordWrap(true);
    m_resultLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_resultLabel);
}

QWidget *FetchDialog::buildButtons() {
    auto *buttons = new QDialogButtonBox(this);
    m_startButton = buttons->addButton(QStringLiteral("Download"), QDialogButtonBox::ActionRole);
    m_startButton->setObjectName(QStringLiteral("startButton"));
    m_cancelButton = buttons->addButton(QStringLiteral("Cancel"), QDialogButtonBox::RejectRole);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    m_closeButton = buttons->addButton(QStringLiteral("Close"), QDialogButtonBox::AcceptRole);
    m_closeButton->setObjectName(QStringLiteral("closeButton"));
    connect(m_startButton, &QPushButton::clicked, this, [this] { startDownload(); });
    // Cancel stops a job; the dialog stays open to show the outcome.
    connect(m_cancelButton, &QPushButton::clicked, this, &FetchDialog::cancel);
    connect(m_closeButton, &QPushButton::clicked, this, &QDialog::accept);
    return buttons;
}

FetchDialog::~FetchDialog() {
    if (m_busy)
        Q_EMIT cancelRequested();
}

void FetchDialog::setUrl(const QString &url) { m_urlEdit->setText(url); }
void FetchDialog::setExpectedMd5(const QString &md5) { m_md5Edit->setText(md5); }
void FetchDialog::setTargetDir(const QString &dir) { m_targetEdit->setText(dir); }

bool FetchDialog::startDownload() {
    FetchOptions options;
    options.url = m_urlEdit->text().trimmed().toStdString();
    if (m_busy) {
        return false;
    }
    QSettings settings;
    settings.setValue(kUrlKey, m_urlEdit->text().trimmed());
    settings.setValue(kMd5Key, m_md5Edit->text().trimmed());
    return startJob(std::move(options));
}

bool FetchDialog::startFromArchive(const QString &archivePath) {
    FetchOptions options;
    options.archivePath = archivePath.toStdString();
    return startJob(std::move(options));
}

bool FetchDialog::startJob(FetchOptions options) {
    if (m_busy) {
        return false;
    }
    options.expectedMd5 = m_md5Edit->text().trimmed().toStdString();
    options.targetDir = m_targetEdit->text().trimmed().toStdString();
    m_resultLabel->clear();
    m_resultLabel->setStyleSheet(QString());
    m_detailLabel->clear();
    m_progressBar->setRange(0, kBarSteps);
    m_progressBar->setValue(0);
    m_phaseLabel->setText(options.archivePath.empty()
                              ? QStringLiteral("Connecting…")
                              : QStringLiteral("Opening ") +
                                    QString::fromStdString(options.archivePath) +
                                    QStringLiteral("…"));
    Q_EMIT fetchRequested(std::move(options)); // onFetchStarted marks the dialog busy
    if (!m_busy) {
        m_phaseLabel->setText(QStringLiteral("Not started: another download is going."));
    }
    return m_busy;
}

void FetchDialog::onFetchStarted(int jobId) {
    m_jobId = jobId;
    m_cancelling = false;
    setBusy(true);
}

void FetchDialog::cancel() {
    if (m_busy) {
        m_cancelling = true;
        m_phaseLabel->setText(QStringLiteral("Cancelling…"));
        m_cancelButton->setEnabled(false);
        Q_EMIT cancelRequested();
    }
}

void FetchDialog::reject() {
    if (m_busy) {
        m_closeWhenEnded = true;
        cancel();
        return;
    }
    QDialog::reject();
}

void FetchDialog::onProgress(int jobId, const FetchProgress &progress) {
    if (jobId != m_jobId || !m_busy || m_cancelling) {
        return;
    }
    m_phaseLabel->setText(phaseTitle(progress.phase));
    if (progress.bytesTotal > 0) {
        m_progressBar->setRange(0, kBarSteps);
        m_progressBar->setValue(
            static_cast<int>(progress.bytesDone * kBarSteps / progress.bytesTotal));
    } else if (progress.phase == FetchPhase::Checking) {
        m_progressBar->setRange(0, kBarSteps);
        m_progressBar->setValue(kBarSteps);
    } else {
        m_progressBar->setRange(0, 0); // busy indicator: size not known yet
    }
    m_detailLabel->setText(progress.phase == FetchPhase::Checking
                               ? QStringLiteral("data_batch_1..5.bin and test_batch.bin")
                               : QString::fromStdString(describeProgress(progress)));
}

void FetchDialog::onEnded(int jobId, const FetchResult &result) {
    if (jobId != m_jobId || !m_busy) {
        return;
    }
    m_result = result;
    setBusy(false);
    const bool ready =
        result.status == FetchStatus::Ok || result.status == FetchStatus::AlreadyPresent;
    m_progressBar->setRange(0, kBarSteps);
    m_progressBar->setValue(ready ? kBarSteps : 0);
    m_phaseLabel->setText(ready                                     ? QStringLiteral("Done.")
                          : result.status == FetchStatus::Cancelled ? QStringLiteral("Cancelled.")
                                                                    : QStringLiteral("Failed."));
    m_detailLabel->clear();
    m_resultLabel->setText(QString::fromStdString(result.message));
    m_resultLabel->setStyleSheet(
        result.status == FetchStatus::Failed
            ? QStringLiteral("color: %1;").arg(errorColour(palette())) // light/dark
            : QString());
    Q_EMIT fetchEnded(result);
    if (ready) {
        Q_EMIT dataReady(QString::fromStdString(result.dataDir));
    }
    if (m_closeWhenEnded) {
        m_closeWhenEnded = false;
        QDialog::reject();
    }
}

void FetchDialog::setBusy(bool busy) {
    m_busy = busy;
    m_urlEdit->setEnabled(!busy);
    m_md5Edit->setEnabled(!busy);
    m_targetEdit->setEnabled(!busy);
    m_browseButton->setEnabled(!busy);
    m_startButton->setEnabled(!busy);
    m_cancelButton->setEnabled(busy);
    m_closeButton->setEnabled(!busy);
}

} // namespace devicebench
