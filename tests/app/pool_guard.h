// Skips the calling Qt Test, with the reason, where pool runs cannot start: a build
// without MPI, or no mpirun on PATH.
#pragma once

#include <QStandardPaths>
#include <QTest>

#ifdef CLUSTERDESK_HAVE_MPI
#define CLUSTERDESK_REQUIRE_POOL()                                                    \
    do {                                                                              \
        if (QStandardPaths::findExecutable("mpirun").isEmpty())                       \
            QSKIP("mpirun is not on PATH (install openmpi-bin)");                     \
    } while (false)
#else
#define CLUSTERDESK_REQUIRE_POOL() \
    QSKIP("built without MPI (CLUSTERDESK_WITH_MPI off or MPI not found): no pool runs")
#endif
