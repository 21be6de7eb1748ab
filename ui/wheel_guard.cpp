#include "wheel_guard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>

namespace clusterdesk::ui {

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel) return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || !(qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QComboBox*>(widget))) return false;
    // WheelFocus would hand the focus to the box under the pointer, and the value with it.
    if (widget->focusPolicy() == Qt::WheelFocus) widget->setFocusPolicy(Qt::StrongFocus);
    if (widget->hasFocus()) return false;
    event->ignore();
    return true;  // swallowed: the value stays as the user left it
}

}  // namespace clusterdesk::ui
