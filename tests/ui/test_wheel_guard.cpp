// The mouse wheel changes a spin box or combo box only when it has the keyboard focus:
// wheel events sent to the real window's Topology and Engine panels.
#include "ui/main_window.h"

#include <QApplication>
#include <QComboBox>
#include <QSpinBox>
#include <QTest>
#include <QWheelEvent>

using namespace clusterdesk;

namespace {

// One notch of the wheel, upwards, over the middle of `widget`.
void wheel(QWidget* widget)
{
    const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(0, 120), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

}  // namespace

class TestWheelGuard : public QObject {
    Q_OBJECT

private slots:
    void wheelChangesOnlyTheFocusedBox()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* threads = window.findChild<QSpinBox*>("threads");
        auto* algorithm = window.findChild<QComboBox*>();
        QVERIFY(threads && algorithm);
        QVERIFY(threads->value() < threads->maximum());
        QVERIFY(algorithm->count() > 1);
        algorithm->setCurrentIndex(0);

        // The pointer passes over them: nothing changes.
        const int before = threads->value();
        wheel(threads);
        wheel(algorithm);
        QCOMPARE(threads->value(), before);
        QCOMPARE(algorithm->currentIndex(), 0);
        QVERIFY(threads->focusPolicy() != Qt::WheelFocus);

        // Once the user has clicked or tabbed into one, the wheel steps it.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        threads->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(threads->hasFocus());
        wheel(threads);
        QCOMPARE(threads->value(), before + 1);
    }
};

QTEST_MAIN(TestWheelGuard)
#include "test_wheel_guard.moc"
