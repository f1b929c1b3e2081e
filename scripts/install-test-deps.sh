#!/usr/bin/env bash
# Installs the real peers the test suite talks to (Debian packages). Idempotent: installs only what
# is missing, and does nothing when everything is present.
set -euo pipefail

packages=(
  postgresql        # PostgreSQL server for the postgres test project and multi-instance tests
  redis-server      # key-value databases (issue: databases)
  podman runc busybox-static  # Docker Engine API through Podman, with a locally built busybox image
  docker-registry apache2-utils  # the CNCF distribution registry for image pulls, htpasswd for its users
  rsyslog           # SIEM syslog sink
  openssl           # certificate test material
  chromium          # the web console's browser tests (playwright-core drives it)
  pebble            # ACME test CA (pebble, pebble-challtestsrv) for issuance and renewal
  knot              # authoritative DNS: RFC 2136 updates with TSIG (dns-01), TXT records for pages domain checks
  nginx             # ingress nodes: the gateway renders, tests and reloads a real nginx
  prometheus        # scrapes the gateway's /metrics in the metrics tests
  git               # git http-backend: a real git server for the git connector kind
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-test-deps: all test peers present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-test-deps: missing ${missing[*]}; run as root (apt-get)" >&2
  exit 1
fi

echo "install-test-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Debian starts installed services; the tests run their own instances on free ports.
for service in postgresql redis-server rsyslog knot docker-registry nginx prometheus; do
  if command -v systemctl >/dev/null 2>&1; then systemctl stop "$service" >/dev/null 2>&1 || true; fi
done
echo "install-test-deps: done"
