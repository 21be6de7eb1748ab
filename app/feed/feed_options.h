// clusterdesk-feed's command line, checked: what to stream, how fast, where, and the
// access rules (token, TLS) a non-loopback bind needs.
#pragma once

#include <QHostAddress>
#include <QString>
#include <QStringList>

#include <optional>

namespace clusterdesk::feed {

struct FeedOptions {
    QString demo;              // "market[:k=v,...]", or empty with ticksFile
    QString ticksFile;
    double speed = 1.0;        // exchange seconds per wall second; 0 = as fast as clients take it
    QHostAddress host = QHostAddress::LocalHost;
    quint16 port = 0;          // WebSocket; 0 = a free one
    quint16 tcpPort = 0;       // newline-delimited JSON over TCP; 0 = a free one
    std::optional<double> rotateAt;  // wall seconds after start
    QString token;             // read from --token-file; empty = none asked for
    QString certFile, keyFile; // TLS (wss://) when both are given
    bool secure() const { return !certFile.isEmpty(); }
    QString speedText() const;
};

// Parses argv. On --help prints the usage and exits 0; on a usage error prints it
// with the usage hint and exits 2 (the CLI's code for usage errors).
FeedOptions parseFeedOptions(const QStringList& arguments);

}  // namespace clusterdesk::feed
