#!/usr/bin/env bash
# Stops the broker started by scripts/kafka/start.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec node --conditions=source --import @swc-node/register/esm-register scripts/kafka/kafka.ts stop
