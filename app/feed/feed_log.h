// The feed server's log: one line per event on stderr, stamped with the wall time, so
// an operator (or a test) can follow connections, refusals and rates.
#pragma once

#include <QDateTime>
#include <QString>

#include <cstdio>

namespace clusterdesk::feed {

inline void logLine(const QString& text)
{
    std::fprintf(stderr, "%s clusterdesk-feed: %s\n",
                 qPrintable(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)), qPrintable(text));
    std::fflush(stderr);
}

}  // namespace clusterdesk::feed
