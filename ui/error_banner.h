// A visible, dismissable message above the tabs: load and run errors appear here
// (with file, line and column when the engine knows them) and the window stays usable.
#pragma once

#include <QFrame>

class QLabel;

namespace clusterdesk::ui {

class ErrorBanner : public QFrame {
    Q_OBJECT
public:
    explicit ErrorBanner(QWidget* parent = nullptr);

    void showMessage(const QString& message);
    QString message() const;

private:
    QLabel* m_text = nullptr;
};

}  // namespace clusterdesk::ui
