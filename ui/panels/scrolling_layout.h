// A docked panel taller than its dock: its content scrolls rather than being crushed
// below the sizes its widgets need (a dock shares the window's height with others).
#pragma once

class QVBoxLayout;
class QWidget;

namespace clusterdesk::ui {

// Fills `panel` with a frameless scroll area and returns the layout of the scrolled
// content, for the panel's widgets.
QVBoxLayout* scrollingLayout(QWidget* panel);

}  // namespace clusterdesk::ui
