// clusterdesk-worker --rank JOB.json: one rank of a pool run (see
// engine/exec/pool_launcher.h). Built only with MPI (CLUSTERDESK_HAVE_MPI).
#pragma once

#include <string>

namespace clusterdesk::worker {

// Initialises MPI, runs the job's clustering on this rank's rows and finalises MPI.
// Rank 0 prints JSON lines on stdout; returns the process exit status.
int runRank(const std::string& jobPath, int& argc, char**& argv);

}  // namespace clusterdesk::worker
