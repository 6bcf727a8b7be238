#!/usr/bin/env bash
# The adjudication browser test opens the exported GradedReviews workbook in pandas, as people
# who load the dataset do. Debian's python3-pandas and python3-openpyxl provide it (PyPI is not
# reachable here); installed as root on Debian, otherwise the test says what is missing.
set -euo pipefail
if /usr/bin/python3 -c "import pandas, openpyxl" >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[test] installing Debian's python3-pandas and python3-openpyxl for the workbook check" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq python3-pandas python3-openpyxl >/dev/null
else
  echo "[test] python3-pandas and python3-openpyxl are missing: the workbook check will skip (fail under CI=true)" >&2
fi
