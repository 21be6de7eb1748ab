#!/usr/bin/env bash
# The layers of DESIGN.md, checked on the sources: each folder may include only the
# layers below it. Prints every offending include (file:line) and fails if any.
#   check_layers.sh SOURCE_DIR
set -euo pipefail
cd "$1"
status=0
# forbid FOLDER PATTERN WHY: no file under FOLDER may include a header matching PATTERN.
forbid() {
  local hits
  hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$1" --include='*.h' --include='*.cpp' --include='*.cu' --include='*.cuh' || true)
  if [[ -n "$hits" ]]; then
    echo "$3:"
    echo "$hits"
    status=1
  fi
}
forbid kernels 'Q|engine/|\.\./engine' "kernels include nothing above them, and never Qt"
forbid engine 'Q|ui/|app/' "the engine never includes Qt, the UI or the apps"
forbid engine/core 'engine/(data|cluster|exec|store|session|telemetry)' "core is the bottom of the engine"
forbid engine/data 'engine/(cluster|exec|store|session|telemetry)|\.\./(cluster|exec|store|session|telemetry)/' "data sources sit below clustering, execution and the store"
forbid engine/cluster 'engine/(exec|store|session)|\.\./(exec|store|session)/' "clustering sits below execution and the store"
forbid engine/store 'engine/(exec|session)|\.\./(exec|session)/' "the store sits below execution: one codec below both serves them"
forbid engine/exec 'engine/(store|session)|\.\./(store|session)/' "execution knows nothing of the store"
forbid engine/catalog 'engine/(data|cluster|exec|store|session|telemetry|whatif)|\.\./(data|cluster|exec|store|session|telemetry|whatif)/' "the hardware catalog is below everything that reads it"
forbid engine/whatif 'engine/(store|session)|\.\./(store|session)/' "the what-if model knows nothing of the store: the session hands it measured runs"
for below in core data cluster exec store session telemetry catalog whatif report; do
  forbid "engine/$below" 'engine/stream|\.\./stream/' "streaming sits on top of the engine: only the apps use it"
done
forbid ui 'app/' "the UI never includes the apps"
if ((status == 0)); then echo "layers: every include points down"; fi
exit $status
