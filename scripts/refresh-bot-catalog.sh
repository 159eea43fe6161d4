#!/usr/bin/env bash
# Refreshes the long tail of bots the jar recognises: Matomo device-detector's regexes/bots.yml,
# as the npm package node-device-detector carries it (regexes/bots.js, the same entries in the same
# order), converted to the JSON that CrawlerCatalog reads, one entry a line so that a refresh
# reads as a diff. The data is LGPL-3.0-or-later (Matomo's); its license texts go beside it.
#
#   scripts/refresh-bot-catalog.sh [VERSION]     (default: the version in device-detector/VERSION)
#
# Needs npm and node (any recent one); reaches only the npm registry. After a refresh, run
# CrawlerIdentifierOracleTest: a new upstream entry can change which names the fixtures get, and
# src/main/resources/long-tail-types.json may need a type for a new name.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$here/src/main/resources/device-detector"
version="${1:-$(sed -n 's/^node-device-detector \([0-9.]*\).*/\1/p' "$out/VERSION" 2>/dev/null || true)}"
version="${version:-2.2.7}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$work"
npm pack --silent "node-device-detector@$version" >/dev/null
# node-device-detector's package.json says MIT for its code, and ships no license text; the data it
# ports is Matomo's, under the LGPL v3 (or later), whose text device-detector-js (an LGPL-3.0 port
# of the same data) ships. The LGPL v3 is a set of permissions on top of the GPL v3: both go along.
npm pack --silent "device-detector-js@3.0.3" >/dev/null
mkdir ndd ddj
tar xzf node-device-detector-"$version".tgz -C ndd
tar xzf device-detector-js-3.0.3.tgz -C ddj

mkdir -p "$out"
node - "$work/ndd/package/regexes/bots.js" "$version" > "$out/bots.json" <<'JS'
const [file, version] = process.argv.slice(2);
const bots = require(file);
const text = v => (typeof v === 'string' ? v : '');
const lines = bots.map(b => '    ' + JSON.stringify({
  regex: b.regex,
  name: text(b.name),
  category: text(b.category),
  producer: text(b.producer && b.producer.name),
  url: text(b.url),
}));
process.stdout.write('{\n'
  + '  "source": "Matomo device-detector regexes/bots.yml (https://github.com/matomo-org/device-detector), as node-device-detector '
  + version + ' (npm) carries it in regexes/bots.js",\n'
  + '  "license": "LGPL-3.0-or-later: see LICENSE (the LGPL v3) and GPL-3.0 beside this file",\n'
  + '  "version": "node-device-detector ' + version + '",\n'
  + '  "bots": [\n' + lines.join(',\n') + '\n  ]\n}\n');
JS
cp "$work/ddj/package/LICENSE" "$out/LICENSE"
cp /usr/share/common-licenses/GPL-3 "$out/GPL-3.0"
count="$(grep -c '"regex"' "$out/bots.json")"
echo "node-device-detector $version: Matomo device-detector regexes/bots.yml, $count entries" > "$out/VERSION"
echo "wrote $out/bots.json ($count bots from node-device-detector $version)"
