// RAPL on a powercap tree the test writes in a temporary directory: discovery picks
// package zones only, and energy follows the counter through a wrap-around.
#include "engine/telemetry/rapl_power_source.h"

#include <QDir>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

// Replaces the file in one rename, as sysfs never shows a half-written value.
void writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QSaveFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(path));
    file.write(text + "\n");
    QVERIFY(file.commit());
}

void writeZone(const QTemporaryDir& root, const QString& zone, const QByteArray& name, const QByteArray& energy)
{
    writeFile(root.filePath(zone + "/name"), name);
    if (!energy.isEmpty()) writeFile(root.filePath(zone + "/energy_uj"), energy);
    writeFile(root.filePath(zone + "/max_energy_range_uj"), "4000000");
}

}  // namespace

class TestRaplPowerSource : public QObject {
    Q_OBJECT

private slots:
    void discoversPackagesOnly()
    {
        QTemporaryDir root;
        writeZone(root, "intel-rapl:0", "package-0", "1000000");
        writeZone(root, "intel-rapl:0:0", "core", "5000");            // a subzone: part of the package
        writeZone(root, "intel-rapl-mmio:0", "package-0", "1000000");  // the same package again
        writeZone(root, "intel-rapl:1", "package-1", "");              // no counter: unavailable
        const clusterdesk::PowerDiscovery found = clusterdesk::discoverRaplSources(root.path().toStdString());
        QCOMPARE(found.sources.size(), std::size_t(1));
        QCOMPARE(found.sources[0]->device(), std::string("cpu package 0"));
        QCOMPARE(found.sources[0]->name(), std::string("rapl"));
        QVERIFY(found.sources[0]->kind() == clusterdesk::PowerKind::Measured);
        QCOMPARE(found.unavailable.size(), std::size_t(1));
        QVERIFY2(found.unavailable[0].find("intel-rapl:1/energy_uj") != std::string::npos, found.unavailable[0].c_str());
    }

    void countsThroughWrapAround()
    {
        QTemporaryDir root;
        writeZone(root, "intel-rapl:0", "package-0", "1000000");
        clusterdesk::RaplPowerSource source(root.filePath("intel-rapl:0").toStdString(), "cpu package 0");
        writeFile(root.filePath("intel-rapl:0/energy_uj"), "3000000");
        auto reading = source.read();
        QVERIFY(reading && reading->energyJ);
        QCOMPARE(*reading->energyJ, 2.0);
        QVERIFY(reading->watts > 0);
        // 3.0 J -> 4.0 J (the range) -> wraps to 0 -> 0.5 J: 1.5 J more.
        writeFile(root.filePath("intel-rapl:0/energy_uj"), "500000");
        reading = source.read();
        QVERIFY(reading && reading->energyJ);
        QCOMPARE(*reading->energyJ, 3.5);
    }

    void absentRootIsUnavailable()
    {
        const clusterdesk::PowerDiscovery found = clusterdesk::discoverRaplSources("/nonexistent/powercap");
        QVERIFY(found.sources.empty());
        QCOMPARE(found.unavailable.size(), std::size_t(1));
        QVERIFY2(found.unavailable[0].find("/nonexistent/powercap") != std::string::npos, found.unavailable[0].c_str());
    }

    // The counter vanishing mid-run (a driver unloaded) is a failed read, not a crash.
    void unreadableCounterIsAFailedRead()
    {
        QTemporaryDir root;
        writeZone(root, "intel-rapl:0", "package-0", "1000000");
        clusterdesk::RaplPowerSource source(root.filePath("intel-rapl:0").toStdString(), "cpu package 0");
        QVERIFY(QFile::remove(root.filePath("intel-rapl:0/energy_uj")));
        QVERIFY(!source.read());
    }
};

QTEST_APPLESS_MAIN(TestRaplPowerSource)
#include "test_rapl_power_source.moc"
