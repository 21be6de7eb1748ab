// NVML GPUs where a driver is present; elsewhere the reason it is unavailable.
#include "engine/telemetry/nvml_power_source.h"

#include <QTest>

#include <thread>

class TestNvmlPowerSource : public QObject {
    Q_OBJECT

private slots:
    void readsEveryGpu()
    {
        const clusterdesk::PowerDiscovery found = clusterdesk::discoverNvmlSources();
        if (found.sources.empty()) {
            QVERIFY2(!found.unavailable.empty(), "no GPU and no reason why");
            QSKIP(found.unavailable.front().c_str());
        }
        for (const auto& source : found.sources) {
            QCOMPARE(source->name(), std::string("nvml"));
            QVERIFY(source->kind() == clusterdesk::PowerKind::Measured);
            QVERIFY2(source->device().rfind("GPU ", 0) == 0, source->device().c_str());
            const auto first = source->read();
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            const auto second = source->read();
            QVERIFY(first && second);
            QVERIFY2(second->watts > 0, source->device().c_str());  // a powered GPU draws tens of watts idle
            if (second->energyJ) QVERIFY(*second->energyJ >= *first->energyJ);
        }
    }
};

QTEST_APPLESS_MAIN(TestNvmlPowerSource)
#include "test_nvml_power_source.moc"
