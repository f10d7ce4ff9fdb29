#!/usr/bin/env bash
# CI: a production install (`npm ci --omit=dev`) of this checkout, then `npm start`. On a Node older than
# 24 it must say what to do; on Node 24 (the development install's own, when the system's is older) it must
# blank burned-in text with no OCR program on PATH and no network, then start and answer /api/v1/health.
# Usage: scripts/check-production-install.sh (from the repository root, after `npm ci` and a site build, whose
# dist/ it reuses).
set -euo pipefail
root=$(pwd)
prod=$(mktemp -d)
port=${PROD_CHECK_PORT:-18990}
server=
cleanup() {
  # npm runs the server as a grandchild: the whole process group goes.
  if [ -n "$server" ]; then kill -- "-$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$prod"
}
trap cleanup EXIT

# The committed tree plus the working tree's changes, without node_modules or data.
tar --exclude=./node_modules --exclude=./.git --exclude=./data --exclude=./test-results -cf - . | tar -xf - -C "$prod"
cd "$prod"
npm ci --omit=dev --no-audit --no-fund >/dev/null
[ -d node_modules/typescript ] && { echo "a dev dependency was installed by npm ci --omit=dev"; exit 1; }
# The built site of the checkout, newer than every source, so start does not rebuild it.
[ -d "$root/dist" ] && cp -r "$root/dist" "$prod/dist" && touch "$prod/dist/index.html"

system_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$system_major" -lt 24 ]; then
  if npm start >"$prod/old-node.log" 2>&1; then echo "npm start ran on Node $system_major"; exit 1; fi
  grep -q 'LumenQC needs Node.js 24 or newer' "$prod/old-node.log" || { cat "$prod/old-node.log"; exit 1; }
  echo "On Node $system_major, npm start says: $(grep -m1 'needs Node.js 24' "$prod/old-node.log")"
  export PATH="$root/node_modules/node/bin:$PATH"
fi

# Burned-in text is read in process (tesseract.js and its English model are dependencies): on a PATH holding
# only node, and with no network where this machine can take it away, a word burned into an ultrasound frame
# must be found and blanked.
ocr_bin="$prod/ocr-bin"
mkdir -p "$ocr_bin"
ln -s "$(command -v node)" "$ocr_bin/node"
if PATH="$ocr_bin" /bin/sh -c 'command -v tesseract' >/dev/null; then echo "tesseract is on the OCR check's PATH"; exit 1; fi
no_network=()
if unshare -n true 2>/dev/null; then no_network=(unshare -n); fi
"${no_network[@]}" env PATH="$ocr_bin" node scripts/check-burned-in-text.ts
# The model is read from node_modules and never cached elsewhere (tesseract.js would write it to the cwd).
if [ -e eng.traineddata ]; then echo "the OCR engine wrote its model into the working directory"; exit 1; fi
if [ ${#no_network[@]} -gt 0 ]; then echo "(read without network access)"; fi

if curl -fsS "http://127.0.0.1:$port/api/v1/health" >/dev/null 2>&1; then echo "port $port is taken"; exit 1; fi
PORT=$port DATA_DIR="$prod/data" LOG_LEVEL=warn setsid npm start >"$prod/start.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/api/v1/health" >/dev/null 2>&1; then
    echo "Production install on Node $(node -v): npm start answers /api/v1/health"
    exit 0
  fi
  kill -0 "$server" 2>/dev/null || break
  sleep 1
done
cat "$prod/start.log"
echo "the production install did not start"
exit 1
