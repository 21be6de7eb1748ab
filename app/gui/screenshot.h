// clusterdesk --screenshot: runs the default job on a demo (for the Compare tab, also a
// quick comparison of it on five topologies), or a live session on a feed, renders the
// window off screen and writes PNGs, so the look of every tab can be checked without a
// display.
#pragma once

#include <QString>

namespace clusterdesk::gui {

struct ScreenshotRequest {
    QString path;           // a .png file; with tab "all", a folder for one PNG per tab
    QString demo = "market";
    QString tab = "Clusters";  // a tab title, or "all"
    QString storePath;         // the run store the run is recorded in; empty: a temporary one
    QString feed;              // a live feed's URL: instead of the job, a live session of
                               // k-means (k = 10) for liveUpdates updates, then the tab
    int liveUpdates = 30;
};

// Returns a process exit code; says what went wrong on stderr.
int writeScreenshots(const ScreenshotRequest& request);

}  // namespace clusterdesk::gui
