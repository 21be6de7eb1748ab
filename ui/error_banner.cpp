#include "error_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace clusterdesk::ui {

ErrorBanner::ErrorBanner(QWidget* parent)
    : QFrame(parent)
{
    setObjectName("errorBanner");
    setStyleSheet("#errorBanner { background: #fde2e1; border: 1px solid #d9534f; border-radius: 3px; }");
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    m_text = new QLabel(this);
    m_text->setObjectName("errorMessage");
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setText(tr("Dismiss"));
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    layout->addWidget(m_text, 1);
    layout->addWidget(close);
    hide();
}

void ErrorBanner::showMessage(const QString& message)
{
    m_text->setText(message);
    show();
}

QString ErrorBanner::message() const
{
    return isVisible() ? m_text->text() : QString();
}

}  // namespace clusterdesk::ui
