// Throttled progress reporting for loaders: calls the user's callback only when the
// fraction moved by at least a step, and turns "false" into Cancelled.
#pragma once

#include "engine/core/error.h"

#include <algorithm>
#include <functional>

namespace clusterdesk::data {

class Progress {
public:
    // span maps this stage's [0,1] onto [begin, begin + span] of the whole load.
    explicit Progress(const std::function<bool(double)>& callback, double begin = 0.0, double span = 1.0)
        : m_callback(callback)
        , m_begin(begin)
        , m_span(span)
    {
    }

    // Reports fraction (of this stage) when it advanced by >= 1% since the last report.
    void update(double fraction)
    {
        if (!m_callback || fraction < m_last + 0.01) return;
        report(fraction);
    }
    // Reports unconditionally (stage start and end).
    void report(double fraction)
    {
        if (!m_callback) return;
        m_last = fraction;
        if (!m_callback(m_begin + m_span * std::clamp(fraction, 0.0, 1.0))) throw Cancelled("loading cancelled");
    }

private:
    const std::function<bool(double)>& m_callback;
    double m_begin;
    double m_span;
    double m_last = -1.0;
};

}  // namespace clusterdesk::data
