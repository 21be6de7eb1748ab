// The Data panel's live feed status: the counts, and the bad messages by reason on hover.
#include "ui/live/live_history.h"
#include "ui/panels/live_feed_panel.h"

#include <QLabel>
#include <QTest>

using namespace clusterdesk;

class TestLiveFeedPanel : public QObject {
    Q_OBJECT

private slots:
    void badMessagesAreCountedAndExplainedOnHover()
    {
        ui::LiveFeedPanel panel;
        auto* counts = panel.findChild<QLabel*>("liveCounts");
        QVERIFY(counts);
        ui::LiveFeedStatus status;
        status.state = "connected";
        status.messages = 12;
        status.ticks = 9;
        status.bad = 3;
        status.badByReason = "2 malformed JSON, 1 unknown field";
        panel.showStatus(status);
        QVERIFY2(counts->text().contains("12 messages, 9 ticks") && counts->text().contains("3 bad"), qPrintable(counts->text()));
        QCOMPARE(counts->toolTip(), QString("Bad messages: 2 malformed JSON, 1 unknown field"));

        // A new session, nothing bad yet: no reasons to give.
        status.bad = 0;
        status.badByReason.clear();
        panel.showStatus(status);
        QVERIFY(counts->toolTip().isEmpty());
    }
};

QTEST_MAIN(TestLiveFeedPanel)
#include "test_live_feed_panel.moc"
