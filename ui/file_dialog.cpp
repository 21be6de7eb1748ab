#include "file_dialog.h"

#include <QAbstractFileIconProvider>
#include <QFileInfo>

namespace clusterdesk::ui {
namespace {

// Icons and type names by name and kind (stat only, which takes no lock).
class PlainFileIconProvider : public QAbstractFileIconProvider {
public:
    using QAbstractFileIconProvider::icon;

    QIcon icon(const QFileInfo& info) const override
    {
        if (info.isRoot()) return icon(Drive);
        return icon(info.isDir() ? Folder : File);
    }

    QString type(const QFileInfo& info) const override
    {
        if (info.isDir()) return QFileDialog::tr("Folder");
        const QString suffix = info.suffix();
        return suffix.isEmpty() ? QFileDialog::tr("File") : QFileDialog::tr("%1 File").arg(suffix.toUpper());
    }
};

}  // namespace

QFileDialog* makeFileDialog(QWidget* parent, const QString& caption, const QString& nameFilters)
{
    auto* dialog = new QFileDialog(parent, caption, QString(), nameFilters);
    // A native dialog runs the platform's own file chooser in this process, sniffing included.
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setOption(QFileDialog::DontUseCustomDirectoryIcons);  // no reading of .directory files
    auto* icons = new PlainFileIconProvider;
    dialog->setIconProvider(icons);
    QObject::connect(dialog, &QObject::destroyed, [icons] { delete icons; });
    return dialog;
}

}  // namespace clusterdesk::ui
