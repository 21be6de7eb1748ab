// Spin boxes and combo boxes take the mouse wheel only when they have the keyboard
// focus. Qt's default lets any of them under the pointer change value, so scrolling a
// panel past "Shards" turned 1 into 8 without the user noticing.
#pragma once

#include <QObject>

namespace clusterdesk::ui {

// An event filter for the whole application: install it once (on the QApplication);
// it stops wheel events to unfocused spin and combo boxes and gives them wheel-proof
// focus (click or Tab, never the wheel).
class WheelGuard : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace clusterdesk::ui
