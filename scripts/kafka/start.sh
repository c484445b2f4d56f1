#!/usr/bin/env bash
# Starts a single-node KRaft Kafka from the Maven Central jars (cached in .kafka/ and ~/.m2).
# Prints KAFKA_BROKERS=host:port on stdout. Usage: eval "$(scripts/kafka/start.sh)"; export KAFKA_BROKERS
set -euo pipefail
cd "$(dirname "$0")/../.."
exec node --import @swc-node/register/esm-register scripts/kafka/kafka.ts start
