// Runs the built clusterdesk-cli in a test and captures what it printed.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

// In `env` (the test's own environment stays as it was, whatever fails).
inline CliResult runCliIn(const QProcessEnvironment& env, const QStringList& args, int timeoutMs = 300000)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(CLUSTERDESK_BIN_DIR "/clusterdesk-cli"), args);
    CliResult result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = QStringLiteral("clusterdesk-cli did not finish in time");
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

inline CliResult runCli(const QStringList& args, int timeoutMs = 300000)
{
    return runCliIn(QProcessEnvironment::systemEnvironment(), args, timeoutMs);
}
