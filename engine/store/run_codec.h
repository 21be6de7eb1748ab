// How a run's parameters and data source sit in the store's columns. The JSON itself
// is the engine's one codec (engine/cluster/cluster_codec.h, engine/data/source_spec.h);
// this adds the store's error type and reads records written before data sources
// were described as SourceSpecs.
#pragma once

#include "engine/cluster/params.h"
#include "engine/data/source_spec.h"

#include <string>

namespace clusterdesk::store {

// initialCentroids are not included (they are an artifact of the run).
std::string paramsToJson(const KMeansParams& params);
// Throws StoreError naming the field that is missing or wrong.
KMeansParams paramsFromJson(const std::string& json);

// The columns source (the location), source_kind ("file" or "demo") and load_options
// ({"source": name, "options": {...}}).
struct SourceColumns {
    std::string location;
    std::string kind;
    std::string options;  // JSON object
};
SourceColumns toColumns(const SourceSpec& spec);
// Records written before sources were described hold load options
// {layout?, window, max_forward_fill, min_history, bar_seconds} ("{}" for demos): they
// become the source their layout names (no layout: an empty source, chosen again from
// the file when it is reopened) with the options that source takes. Throws StoreError.
SourceSpec sourceSpecFromColumns(const SourceColumns& columns);

}  // namespace clusterdesk::store
