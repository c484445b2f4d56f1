#!/usr/bin/env bash
# Starts a single-node KRaft Kafka from the Maven Central jars (cached in .kafka/ and ~/.m2).
# Prints exactly one line, KAFKA_BROKERS=host:port, on stdout (progress goes to stderr).
# Usage: eval "$(bash scripts/kafka/start.sh)"; export KAFKA_BROKERS
set -euo pipefail
cd "$(dirname "$0")/../.."
out="$(node --conditions=source --import @swc-node/register/esm-register scripts/kafka/kafka.ts start)"
# Strip terminal colour codes the TypeScript loader may print, keep the one line that matters.
printf '%s\n' "$out" | sed 's/\x1b\[[0-9;]*m//g' | grep -o 'KAFKA_BROKERS=[^[:space:]]*' | tail -n 1
