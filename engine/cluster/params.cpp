#include "params.h"

namespace clusterdesk {

std::string toString(Algorithm algorithm)
{
    return algorithm == Algorithm::KMeans ? "kmeans" : "adaptgrow";
}

std::string toString(InitMethod init)
{
    switch (init) {
    case InitMethod::KMeansPlusPlus: return "kmeans++";
    case InitMethod::KMeansParallel: return "kmeans||";
    case InitMethod::Given: return "given";
    }
    return "kmeans++";
}

}  // namespace clusterdesk
