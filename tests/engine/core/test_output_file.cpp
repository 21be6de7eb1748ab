// Output files: an output never replaces a protected file (by any name), is never
// written to something that is not a regular file, and a failed write leaves the old
// content and no temporary file behind.
#include "engine/core/error.h"
#include "engine/core/output_file.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>

using namespace clusterdesk;

namespace {

QByteArray contentOf(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

// Everything in `dir` but the files named: what a write left behind.
QStringList leftovers(const QTemporaryDir& dir, const QStringList& expected)
{
    QStringList names = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System);
    for (const QString& name : expected) names.removeAll(name);
    return names;
}

template <typename E, typename F>
QString messageOf(F&& body)
{
    try {
        body();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestOutputFile : public QObject {
    Q_OBJECT

private slots:
    void replacesAtomicallyAndKeepsPermissions()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("labels.txt");
        writeText(path, "old\n");
        QVERIFY(::chmod(path.toUtf8().constData(), 0640) == 0);
        writeFileReplacing(path.toStdString(), "new\n");
        QCOMPARE(contentOf(path), QByteArray("new\n"));
        struct stat st {};
        QCOMPARE(::stat(path.toUtf8().constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0640));
        QCOMPARE(leftovers(dir, {"labels.txt"}), QStringList());
    }

    void writesThroughASymbolicLink()
    {
        QTemporaryDir dir;
        writeText(dir.filePath("real.txt"), "old\n");
        QVERIFY(QFile::link(dir.filePath("real.txt"), dir.filePath("link.txt")));
        writeFileReplacing(dir.filePath("link.txt").toStdString(), "new\n");
        QVERIFY(QFileInfo(dir.filePath("link.txt")).isSymLink());
        QCOMPARE(contentOf(dir.filePath("real.txt")), QByteArray("new\n"));
    }

    void aFailedWriteKeepsTheOldContent()
    {
        // A file-size limit makes write(2) fail with EFBIG, as a full disk fails with
        // ENOSPC: the old file stays whole and no temporary file is left.
        QTemporaryDir dir;
        const QString path = dir.filePath("out.json");
        writeText(path, "precious\n");
        struct rlimit old {};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto previous = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = old;
        small.rlim_cur = 4096;
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        const QString message = messageOf<OutputError>([&] { writeFileReplacing(path.toStdString(), std::string(100000, 'x')); });
        ::setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        QVERIFY2(message.startsWith("cannot write " + path) && message.contains("write failed"), qPrintable(message));
        QCOMPARE(contentOf(path), QByteArray("precious\n"));
        QCOMPARE(leftovers(dir, {"out.json"}), QStringList());
    }

    void refusesProtectedFilesByAnyName()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath("data.csv");
        writeText(data, "1,2\n");
        QVERIFY(QFile::link(data, dir.filePath("alias.csv")));
        QVERIFY(::link(data.toUtf8().constData(), dir.filePath("hard.csv").toUtf8().constData()) == 0);
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        const std::vector<ProtectedFile> keep = {{data.toStdString(), "the input data (--data)"}};
        for (const QString& name : {data, dir.filePath("alias.csv"), dir.filePath("hard.csv"), dir.filePath("sub/../data.csv")}) {
            const QString message = messageOf<UsageError>([&] { checkOutputPath("--labels-out", name.toStdString(), keep); });
            QVERIFY2(message.contains("would overwrite the input data (--data)"), qPrintable(name + ": " + message));
        }
        QCOMPARE(contentOf(data), QByteArray("1,2\n"));
        checkOutputPath("--labels-out", dir.filePath("labels.txt").toStdString(), keep);  // a new file is fine
        QCOMPARE(leftovers(dir, {"data.csv", "alias.csv", "hard.csv"}), QStringList());
    }

    void refusesTheStoreAndItsCompanions()
    {
        QTemporaryDir dir;
        const std::string store = dir.filePath("runs.sqlite").toStdString();
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
            const QString message = messageOf<UsageError>([&] { checkOutputPath("--json", store + suffix, storeFiles(store)); });
            QVERIFY2(message.contains("would overwrite the run store"), qPrintable(message));
        }
    }

    void refusesWhatIsNotARegularFile()
    {
        QTemporaryDir dir;
        QVERIFY(::mkfifo(dir.filePath("fifo").toUtf8().constData(), 0600) == 0);
        const struct {
            QString path;
            const char* says;
        } cases[] = {{"/dev/full", "a character device"}, {dir.filePath("fifo"), "a FIFO"}, {dir.path(), "a directory"},
                     {"/proc/version", "/proc"}, {dir.filePath("missing/out.txt"), "does not exist"}};
        for (const auto& c : cases) {
            const QString message = messageOf<UsageError>([&] { checkOutputPath("--labels-out", c.path.toStdString(), {}); });
            QVERIFY2(message.startsWith("--labels-out " + c.path) && message.contains(c.says), qPrintable(c.path + ": " + message));
        }
    }
};

QTEST_GUILESS_MAIN(TestOutputFile)
#include "test_output_file.moc"
