#!/usr/bin/env bash
# Starts the Solr the tests run against (docs/testing.md): builds the launcher of this folder when its
# build is missing or older than its sources (offline first, so a rerun never downloads again; online
# only when the local Maven repository lacks something), starts it in the background on 127.0.0.1 with
# the configsets, waits until its cores answer, and prints for `eval`:
#   export SOLR_TEST_URL=…        the standalone core "biblio" (made from the plugin's own configset)
#   export SOLR_CLOUD_TEST_URL=…  the two-shard SolrCloud collection "biblio"
#   export SOLR_CLOUD_NODE_URLS=… the SolrCloud's nodes (SOLR_CLOUD_NODES of them, default 2), comma-separated
#   export SOLR_TEST_PID=…        the launcher's process: `kill $SOLR_TEST_PID` stops both and deletes their data
#   export SOLR_LAUNCHER_CLASSPATH=…  the launcher's Java classpath, for a test that starts a SolrCloud of its
#                                 own to stop a node of it (test/support/ownSolrCloud.ts; the launcher's header)
# Tests make further cores and collections beside "biblio" (test/support/realSolr.ts).
# Everything else goes to stderr. Exits non-zero, having started nothing, when Java 17+ or Maven is
# missing or Solr does not come up within SOLR_START_TIMEOUT seconds (default 180).
#
#   eval "$(tools/solr/start.sh)" && npx ava test/adapters/solr/solrIndex.shared.test.ts; kill "$SOLR_TEST_PID"
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
say() { echo "tools/solr/start.sh: $*" >&2; }

if ! command -v java >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
  say "needs java (17 or later) and mvn on PATH; not starting Solr"
  exit 2
fi
java_major="$(java -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p')"
if [ -z "$java_major" ] || [ "$java_major" -lt 17 ]; then
  say "needs Java 17 or later (found ${java_major:-none}); not starting Solr"
  exit 2
fi

built="$here/target/classes/org/koacatalogversions/solrtest/SolrTestLauncher.class"
if [ ! -f "$built" ] || [ ! -d "$here/target/lib" ] || [ -n "$(find "$here/pom.xml" "$here/src" -newer "$built" -type f | head -1)" ]; then
  say "building the launcher"
  if ! (cd "$here" && mvn -B -q -o package >&2 2>/dev/null); then
    say "offline build failed (first run?); fetching from Maven Central"
    (cd "$here" && mvn -B -q package >&2) || { say "Maven build failed; not starting Solr"; exit 3; }
  fi
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/catalog-versions-solr.XXXXXX")"
out="$work/urls"
log="$work/launcher.log"
classpath="$here/target/classes:$here/target/lib/*"
# A small heap and the serial collector suit a two-core machine shared with the tests.
nohup java -Xmx${SOLR_TEST_HEAP:-1g} -XX:+UseSerialGC -Dsolr.log.dir="$work" \
  -cp "$classpath" org.koacatalogversions.solrtest.SolrTestLauncher \
  --work "$work" --out "$out" \
  --configset "catalog-versions=$repo/src/adapters/solr/configset" \
  --configset "vufind-biblio=$repo/test/solr-configsets/vufind-biblio" \
  --cloud-nodes "${SOLR_CLOUD_NODES:-2}" \
  </dev/null >"$log" 2>&1 &
pid=$!

deadline=$((SECONDS + ${SOLR_START_TIMEOUT:-180}))
while [ ! -f "$out" ]; do
  if ! kill -0 "$pid" 2>/dev/null; then
    say "the launcher stopped before Solr answered; its log:"; tail -40 "$log" >&2; rm -rf "$work"; exit 4
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    say "Solr did not answer within ${SOLR_START_TIMEOUT:-180} s; stopping it. Its log:"; tail -40 "$log" >&2
    kill "$pid" 2>/dev/null || true; exit 4
  fi
  sleep 1
done
standalone="$(sed -n 's/^SOLR_STANDALONE_BASE=//p' "$out")"
cloud="$(sed -n 's/^SOLR_CLOUD_BASE=//p' "$out")"
nodes="$(sed -n 's/^SOLR_CLOUD_NODE_BASES=//p' "$out")"
say "Solr is up ($(grep -o 'READY in [0-9]* ms' "$log")): standalone $standalone, SolrCloud $cloud, log $log"
echo "export SOLR_TEST_URL=$standalone/biblio"
echo "export SOLR_CLOUD_TEST_URL=$cloud/biblio"
echo "export SOLR_CLOUD_NODE_URLS=$nodes"
echo "export SOLR_TEST_PID=$pid"
# Quoted: the classpath's `*` is Java's to expand, not the shell's.
printf 'export SOLR_LAUNCHER_CLASSPATH=%q\n' "$classpath"
