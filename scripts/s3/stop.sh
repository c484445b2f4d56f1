#!/usr/bin/env bash
# Stops the store started by scripts/s3/start.sh (S3_DIR, as there).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec node --conditions=source --import @swc-node/register/esm-register scripts/s3/seaweedfs.ts stop
