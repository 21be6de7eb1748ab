#include "power_source.h"

namespace clusterdesk {

std::string toString(PowerKind kind)
{
    return kind == PowerKind::Measured ? "measured" : "estimated";
}

}  // namespace clusterdesk
