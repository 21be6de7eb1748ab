#!/usr/bin/env bash
# The main job: installs what is missing, builds, then starts clusterdesk on the
# embedded market demo (a window when a display exists, a printed summary otherwise).
# Arguments are passed to clusterdesk.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" -DCLUSTERDESK_TEST_HOOKS=OFF  # a production build: test hooks are not honoured
exec "$root/build/bin/clusterdesk" "$@"
