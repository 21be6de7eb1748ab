// The host's nearest-centroid search for rows of up to kTileDims dimensions: the tile
// kernels of tile_nearest.h, the widest the CPU runs chosen once at run time, so one
// binary is fast on AVX-512, on AVX2 and on older or other CPUs without -march=native.
#pragma once

#include "tile_nearest.h"

#include <string>
#include <vector>

namespace clusterdesk::kernels::host {

// Searches every row of the job on the OpenMP threads.
void searchTiles(const TileJob& job, bool exact);

// The instruction set the tiles run with here: "AVX-512", "AVX2", or "C++" (the portable
// loop as the build compiled it: -march=native, or the compiler's default target).
const char* tileInstructionSet();

// Every instruction set this CPU can run the tiles with, widest first, and a search with
// one of them (std::invalid_argument for one it cannot run): the tests compare them all.
std::vector<std::string> tileInstructionSetsHere();
void searchTilesWith(const std::string& instructionSet, const TileJob& job, bool exact);

}  // namespace clusterdesk::kernels::host
