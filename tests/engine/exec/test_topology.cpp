#include "engine/core/error.h"
#include "engine/exec/topology.h"

#include <QTest>

using namespace clusterdesk;

class TestTopology : public QObject {
    Q_OBJECT

private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("normalised");
        QTest::addColumn<QStringList>("shards");
        QTest::newRow("host") << "host" << "host" << QStringList{"host"};
        QTest::newRow("shards:3") << "shards:3" << "shards:3" << QStringList{"host", "host", "host"};
        QTest::newRow("cuda") << "cuda" << "cuda:0" << QStringList{"cuda:0"};
        QTest::newRow("cuda:0,1") << "cuda:0,1" << "cuda:0,1" << QStringList{"cuda:0", "cuda:1"};
        // Several shards on one GPU: the multi-shard path on a one-GPU machine.
        QTest::newRow("cuda:0,0") << "cuda:0,0" << "cuda:0,0" << QStringList{"cuda:0", "cuda:0"};
        QTest::newRow("cuda:01,1") << "cuda:01,1" << "cuda:1,1" << QStringList{"cuda:1", "cuda:1"};
        // Pool ranks name their backend: the host by default, or a GPU of their node.
        QTest::newRow("pool:2") << "pool:2" << "pool:2" << QStringList{"host", "host"};
        QTest::newRow("pool:2:cuda") << "pool:2:cuda" << "pool:2:cuda" << QStringList{"cuda", "cuda"};
        QTest::newRow("pool:3:host") << "pool:3:host" << "pool:3" << QStringList{"host", "host", "host"};
    }

    void parses()
    {
        QFETCH(QString, spec);
        QFETCH(QString, normalised);
        QFETCH(QStringList, shards);
        const Topology t = parseTopology(spec.toStdString());
        QCOMPARE(QString::fromStdString(toString(t)), normalised);
        QStringList got;
        for (int s = 0; s < t.shardCount(); ++s) got << QString::fromStdString(t.shardBackend(s));
        QCOMPARE(got, shards);
        QVERIFY(parseTopology(toString(t)) == t);  // the spelling round-trips
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << "unknown topology ''";
        QTest::newRow("shards:0") << "shards:0" << "at least one shard";
        QTest::newRow("shards:x") << "shards:x" << "'x' is not a number";
        QTest::newRow("cuda:") << "cuda:" << "'' is not a number";
        QTest::newRow("cuda:0,,1") << "cuda:0,,1" << "'' is not a number";
        QTest::newRow("cuda:-1") << "cuda:-1" << "'-1' is not a number";
        QTest::newRow("mpi") << "mpi" << "unknown topology 'mpi'";
        QTest::newRow("pool::cuda") << "pool::cuda" << "cannot read hostfile :cuda";
    }

    void rejects()
    {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        try {
            parseTopology(spec.toStdString());
            QFAIL("accepted");
        } catch (const UsageError& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestTopology)
#include "test_topology.moc"
