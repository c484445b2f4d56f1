#!/usr/bin/env bash
# What the whole test suite needs besides Node, for `npm test` and CI alike (.ci/run runs `npm test`).
#
#   bash scripts/provision.sh                 # install what is missing, then stop
#   bash scripts/provision.sh <command…>      # … then run the command with a local Kafka broker
#
# Installs only what is missing, so a second run does nothing but check:
#   - Debian's Chromium at /usr/bin/chromium, fonts-noto-cjk and fonts-noto-color-emoji (browser
#     tests; screenshots render kanji and the comment box's emojis), Java 17 and Maven (the local Kafka broker), python3-venv: through apt, as root.
#     Not root and something missing: it stops at once and prints the one command to run.
#   - Schemathesis 4.32.5 (the API fuzz suite) in a venv of its own under .tools/fuzz.
#   - SeaweedFS (the S3-compatible store of the object-storage suites), built once from the Go module
#     proxy into ~/.cache/intranet-tools (about 4 minutes; with a Go toolchain fetched from the same
#     proxy when the machine has none new enough), so every checkout on the machine reuses it.
# With a command, it also starts a single-node Kafka (scripts/kafka/start.sh) and a SeaweedFS
# (scripts/s3/start.sh), each in its own directory per run so two runs in one checkout do not
# collide, exports KAFKA_BROKERS, S3_TEST_ENDPOINT, SCHEMATHESIS and REQUIRE_KAFKA=1, REQUIRE_S3=1,
# REQUIRE_FUZZ=1 (a missing broker, store or Schemathesis then fails its suites instead of skipping
# them), runs the command and stops both, whatever the command's outcome.
# A KAFKA_BROKERS, S3_TEST_ENDPOINT or SCHEMATHESIS already set is used as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
FUZZ_VENV=.tools/fuzz
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"

say() { echo "provision: $*" >&2; }

deb_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

# 1. System packages: collect everything missing first, so there is one apt-get (or one command to print).
missing=()
if [ ! -x "$chromium_path" ]; then
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    say "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; unset it to use Debian's /usr/bin/chromium"
    exit 1
  fi
  missing+=(chromium)
fi
deb_installed fonts-noto-cjk || missing+=(fonts-noto-cjk)
deb_installed fonts-noto-color-emoji || missing+=(fonts-noto-color-emoji)
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
# Debian's python3 has the venv module but not ensurepip without python3-venv; a venv that already
# holds Schemathesis needs neither.
schemathesis_ok() { compgen -G "$FUZZ_VENV/lib/python3*/site-packages/schemathesis-$SCHEMATHESIS_VERSION.dist-info" >/dev/null && [ -x "$FUZZ_VENV/bin/st" ]; }
if [ -z "${SCHEMATHESIS:-}" ] && ! schemathesis_ok; then
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
fi

# Building SeaweedFS without a Go toolchain fetches one as a zip, which python3 unpacks.
command -v go >/dev/null 2>&1 || command -v python3 >/dev/null 2>&1 || missing+=(python3)

if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "missing: ${missing[*]} (Debian package names), and there is no apt-get here; install them, then run this again"
    exit 1
  fi
  if [ "$(id -u)" != 0 ]; then
    say "missing: ${missing[*]}. Install them with:"
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  say "installing ${missing[*]} (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  if [ ! -x "$chromium_path" ]; then say "apt installed chromium, but $chromium_path is still missing"; exit 1; fi
fi

# 2. Schemathesis, pinned, in .tools/fuzz (git-ignored).
if [ -n "${SCHEMATHESIS:-}" ]; then
  [ -x "$SCHEMATHESIS" ] || { say "SCHEMATHESIS=$SCHEMATHESIS is not an executable"; exit 1; }
elif ! schemathesis_ok; then
  say "installing Schemathesis $SCHEMATHESIS_VERSION into $FUZZ_VENV"
  python3 -m venv --clear "$FUZZ_VENV"
  "$FUZZ_VENV/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  schemathesis_ok || { say "Schemathesis $SCHEMATHESIS_VERSION did not install into $FUZZ_VENV"; exit 1; }
fi

# 3. SeaweedFS, built once per machine (needs node_modules: run after npm install).
if [ -z "${S3_TEST_ENDPOINT:-}" ]; then
  node --conditions=source --import @swc-node/register/esm-register scripts/s3/seaweedfs.ts build >/dev/null
fi

[ $# -eq 0 ] && { say "everything the tests need is installed"; exit 0; }

# 4. The command, with a broker and a store for their suites and every requirement switched on.
export SCHEMATHESIS="${SCHEMATHESIS:-$PWD/$FUZZ_VENV/bin/st}" REQUIRE_FUZZ=1 REQUIRE_KAFKA=1 REQUIRE_S3=1
cleanups=()
cleanup() { for c in "${cleanups[@]}"; do eval "$c" || true; done; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -z "${S3_TEST_ENDPOINT:-}" ]; then
  export S3_DIR="$PWD/.s3/run-$$"
  cleanups+=('bash scripts/s3/stop.sh; rm -rf "$S3_DIR"')
  S3_TEST_ENDPOINT="$(bash scripts/s3/start.sh | cut -d= -f2-)"
  [ -n "$S3_TEST_ENDPOINT" ] || { say "the local SeaweedFS did not start (see $S3_DIR/weed.log)"; exit 1; }
  export S3_TEST_ENDPOINT
  say "S3 at $S3_TEST_ENDPOINT for this run"
fi
if [ -z "${KAFKA_BROKERS:-}" ]; then
  export KAFKA_DIR="$PWD/.kafka/run-$$"
  cleanups+=('bash scripts/kafka/stop.sh; rm -rf "$KAFKA_DIR"')
  KAFKA_BROKERS="$(bash scripts/kafka/start.sh | cut -d= -f2)"
  [ -n "$KAFKA_BROKERS" ] || { say "the local Kafka broker did not start (see $KAFKA_DIR)"; exit 1; }
  export KAFKA_BROKERS
  say "Kafka at $KAFKA_BROKERS for this run"
fi
status=0
"$@" || status=$?
exit "$status"
