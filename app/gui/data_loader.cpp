#include "data_loader.h"

#include "engine/core/error.h"
#include "engine/data/open_source.h"
#include "engine/data/source_registry.h"

#include <QFileInfo>

#include <chrono>
#include <new>

namespace clusterdesk::gui {
namespace {

constexpr int kPreviewLines = 8;
constexpr int kPreviewLineChars = 200;

}  // namespace

QString describeLoadError(const std::exception& error)
{
    if (const auto* e = dynamic_cast<const DataError*>(&error)) {
        const QString file = QString::fromStdString(e->file());
        const QString message = QString::fromStdString(e->message());
        if (e->line() > 0 && e->column() > 0)
            return QObject::tr("Cannot load %1: line %2, column %3: %4").arg(file).arg(e->line()).arg(e->column()).arg(message);
        if (e->line() > 0) return QObject::tr("Cannot load %1: line %2: %3").arg(file).arg(e->line()).arg(message);
        return QObject::tr("Cannot load %1: %2").arg(file, message);
    }
    if (dynamic_cast<const std::bad_alloc*>(&error)) return QObject::tr("Cannot load: out of memory");
    return QObject::tr("Cannot load: %1").arg(QString::fromStdString(error.what()));
}

DataLoader::DataLoader(std::vector<ProtectedFile> storeFiles, QObject* parent)
    : QObject(parent), m_storeFiles(std::move(storeFiles))
{
}

void DataLoader::refuseStoreFiles(const QString& path) const
{
    if (const ProtectedFile* file = protectedFileNamed(path.toStdString(), m_storeFiles))
        throw DataError(path.toStdString(), 0, 0, "this is " + file->role + ", not a data file");
}

void DataLoader::preview(const QString& path)
{
    ui::FilePreview preview;
    preview.path = path;
    try {
        refuseStoreFiles(path);
        const data::FileHead head(path.toStdString());
        const data::DataSource& source = data::detectSource(head);
        preview.source = QString::fromStdString(source.name());
        preview.holds = QString::fromStdString(source.holds());
        if (data::signatureSource(head)) {
            // A binary format: its lines mean nothing to a person.
            preview.firstLines << tr("%1 file (binary), %2 bytes").arg(preview.source).arg(QFileInfo(path).size());
        } else {
            const QStringList lines = QString::fromStdString(head.bytes().substr(0, 1 << 16)).split('\n');
            for (int i = 0; i < kPreviewLines && i < lines.size(); ++i)
                preview.firstLines << lines[i].trimmed().left(kPreviewLineChars);
        }
    } catch (const std::exception& e) {
        preview.error = describeLoadError(e);
    }
    emit previewReady(preview);
}

void DataLoader::loadFile(const QString& path, int returnWindow)
{
    auto lastReport = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    const auto onProgress = [&](double fraction) {
        // At most ~30 progress signals a second: the bar needs no more.
        const auto now = std::chrono::steady_clock::now();
        if (now - lastReport > std::chrono::milliseconds(33) || fraction >= 1.0) {
            lastReport = now;
            emit progress(fraction);
        }
        return !m_cancel.load();
    };
    try {
        refuseStoreFiles(path);
        SourceOptions options;
        if (returnWindow > 0) options["window"] = std::to_string(returnWindow);
        emit loaded(std::make_shared<const Dataset>(openSourceHashed(describeFile(path.toStdString(), "", options), onProgress)));
    } catch (const Cancelled&) {
        emit cancelled();
    } catch (const std::exception& e) {
        emit failed(describeLoadError(e));
    }
}

void DataLoader::makeDemo(const QString& spec)
{
    try {
        emit loaded(std::make_shared<const Dataset>(openSourceHashed(describeDemo(spec.toStdString()))));
    } catch (const UsageError& e) {
        emit failed(tr("Cannot make the demo '%1': %2").arg(spec, QString::fromStdString(e.what())));
    } catch (const std::exception& e) {
        emit failed(describeLoadError(e));
    }
}

}  // namespace clusterdesk::gui
