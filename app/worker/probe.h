// clusterdesk-worker --probe: the pool's "test connection". Started by mpirun like a
// pool run, every rank says where it runs (host name), which backend a pool rank uses
// and what its device is; rank 0 prints one JSON line per rank, in rank order:
//   {"type":"probe","rank":R,"host":"...","backend":"host","device":"...","gpus":N}
// No data is loaded and nothing is clustered, so it answers in about a second.
#pragma once

namespace clusterdesk::worker {

// Needs a build with MPI. Returns the process exit status.
int runProbe(int& argc, char**& argv);

}  // namespace clusterdesk::worker
