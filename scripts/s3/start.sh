#!/usr/bin/env bash
# Starts a local SeaweedFS serving S3 (built once and cached; see seaweedfs.ts).
# Prints exactly one line, S3_TEST_ENDPOINT=http://127.0.0.1:port, on stdout (progress goes to stderr).
# Usage: eval "$(bash scripts/s3/start.sh)"; export S3_TEST_ENDPOINT
set -euo pipefail
cd "$(dirname "$0")/../.."
out="$(node --conditions=source --import @swc-node/register/esm-register scripts/s3/seaweedfs.ts start)"
printf '%s\n' "$out" | sed 's/\x1b\[[0-9;]*m//g' | grep -o 'S3_TEST_ENDPOINT=[^[:space:]]*' | tail -n 1
