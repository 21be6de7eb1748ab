// The x86 vector registers' upper halves, left "dirty" by code that ran AVX
// instructions without VZEROUPPER afterwards: from then on every legacy SSE
// instruction of the thread (glibc's libm, code built for plain x86-64) carries a false
// dependency on them, and runs many times slower. Creating a QApplication leaves the
// main thread in that state on this machine (log() 25x slower after it: the market
// demo regenerated for a report took 2 s instead of 0.3 s), and threads started later
// inherit it. Call this after such a library call, before compute.
#pragma once

namespace clusterdesk {

// VZEROUPPER on an x86-64 CPU with AVX; nothing elsewhere.
void clearUpperVectorState();

}  // namespace clusterdesk
