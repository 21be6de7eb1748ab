// The demo source: generated datasets (demo.h), located by their spec
// ("blobs:n=1000,k=4"); the spec's keys are the demo's options, so it takes none here.
#include "data_source.h"
#include "demo.h"

namespace clusterdesk::data {
namespace {

class DemoSource final : public DataSource {
public:
    std::string name() const override { return "demo"; }
    std::string holds() const override { return "a generated demo"; }
    bool generated() const override { return true; }
    Dataset open(const SourceSpec& spec, const ProgressCallback&) const override { return makeDemo(spec.location); }
};

}  // namespace

std::unique_ptr<DataSource> makeDemoSource()
{
    return std::make_unique<DemoSource>();
}

}  // namespace clusterdesk::data
