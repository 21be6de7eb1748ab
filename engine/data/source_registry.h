// Every DataSource the engine knows, found by name or by looking at a file.
#pragma once

#include "data_source.h"

#include <memory>
#include <string>
#include <vector>

namespace clusterdesk::data {

// All sources, in the order they are asked whether a file's content is theirs.
const std::vector<std::unique_ptr<DataSource>>& dataSources();

// Every file name extension some source reads (lower case, no dot, each once, in
// registration order): what a file dialog offers.
std::vector<std::string> dataFileExtensions();

// The source named `name`; UsageError listing the known names otherwise.
const DataSource& findSource(const std::string& name);

// The source that reads this file: the one whose signature it carries, else the first
// whose sniff says yes. Throws DataError when the file cannot be read, or is empty.
const DataSource& detectSource(const FileHead& head);

// The source whose signature the file carries (magic bytes, binary extension), if any.
const DataSource* signatureSource(const FileHead& head);

// given, checked against what `source` takes, with every option's canonical text and
// every missing one at its default. An option the source does not take is a
// UsageError naming it, its value, the sources that take it and what `location` holds.
SourceOptions completeOptions(const DataSource& source, const SourceOptions& given, const std::string& location);

}  // namespace clusterdesk::data
