#!/usr/bin/env bash
# Writes the test oracles for crawler identification into src/test/resources/agents/, trimmed to
# the user agents and (for bots) the name and category the peers expect:
#
#   device-detector/   Matomo device-detector's test fixtures (LGPL-3.0-or-later), in the newest
#                      copies a registry serves: node-device-detector 1.2.8 (tests/fixtures, the
#                      upstream fixtures of 2020-09) and device-detector-js 2.0.0 (fixtures/Tests,
#                      of 2019-10). bots.tsv: agent, name, category; others.txt: every other
#                      fixture's agent (browsers, apps, devices, libraries), each once.
#   uap-core/          the browser-only test files of Debian's uap-core (Apache-2.0): Firefox and
#                      Opera Mini agents. (Its other corpora mark bots only by a "Spider" regex and
#                      hold feed readers and monitors it does not mark: no oracle of people.)
#
# Needs npm, node, and apt-get (download only, no install); reaches the npm registry and Debian.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$here/src/test/resources/agents"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent node-device-detector@1.2.8 device-detector-js@2.0.0 device-detector-js@3.0.3 js-yaml@4.1.0 >/dev/null
for p in node-device-detector-1.2.8 device-detector-js-2.0.0 device-detector-js-3.0.3 js-yaml-4.1.0; do
  mkdir "$p" && tar xzf "$p.tgz" -C "$p"
done
(apt-get download uap-core >/dev/null 2>&1 && dpkg-deb -x uap-core_*.deb uap) || { echo "apt-get download uap-core failed" >&2; exit 1; }

mkdir -p "$out/device-detector" "$out/uap-core"
node - "$work" "$out" <<'JS'
const fs = require('fs'), path = require('path');
const [work, out] = process.argv.slice(2);
const yaml = require(path.join(work, 'js-yaml-4.1.0/package'));
const ndd = path.join(work, 'node-device-detector-1.2.8/package/tests/fixtures');
const ddj = path.join(work, 'device-detector-js-2.0.0/package/fixtures/Tests');
const read = f => f.endsWith('.json') ? JSON.parse(fs.readFileSync(f, 'utf8')) : yaml.load(fs.readFileSync(f, 'utf8'));
const files = (dir, ext) => fs.readdirSync(dir, {recursive: true}).filter(f => f.endsWith(ext)).sort().map(f => path.join(dir, f));
// one line an agent: the few with a tab or line break (which no log line can hold) are left out
let skipped = 0;
const clean = ua => { if (/[\t\r\n]/.test(ua)) { skipped++; return null; } return ua; };
const bots = [], seenBots = new Set();
for (const [file, source] of [[path.join(ndd, 'devices/bots.yml'), 'node-device-detector 1.2.8'],
                              [path.join(ddj, 'fixtures/bots.json'), 'device-detector-js 2.0.0']]) {
  for (const e of read(file)) {
    const ua = clean(String(e.user_agent));
    if (ua === null || seenBots.has(ua)) continue;
    seenBots.add(ua);
    bots.push([ua, e.bot.name || '', e.bot.category || '', source].join('\t'));
  }
}
const others = [], seen = new Set();
const otherFiles = files(path.join(ndd, 'devices'), '.yml').concat(files(path.join(ndd, 'clients'), '.yml'))
  .concat(files(path.join(ddj, 'fixtures'), '.json'), files(path.join(ddj, 'Parser'), '.json'))
  .filter(f => !/[\/\\]bots\.(yml|json)$/.test(f));
for (const file of otherFiles) {
  const data = read(file);
  for (const e of Array.isArray(data) ? data : Object.values(data)) {
    if (!e || typeof e !== 'object' || e.user_agent == null || e.bot) continue;
    const ua = clean(String(e.user_agent));
    if (ua === null || seen.has(ua) || seenBots.has(ua)) continue;
    seen.add(ua);
    others.push(ua);
  }
}
fs.writeFileSync(path.join(out, 'device-detector/bots.tsv'), bots.join('\n') + '\n');
fs.writeFileSync(path.join(out, 'device-detector/others.txt'), others.join('\n') + '\n');
const uap = path.join(work, 'uap/usr/share/uap-core/test_resources');
const browsers = [], seenBrowsers = new Set();
for (const f of ['firefox_user_agent_strings.yaml', 'opera_mini_user_agent_strings.yaml']) {
  for (const c of yaml.load(fs.readFileSync(path.join(uap, f), 'utf8')).test_cases) {
    const ua = String(c.user_agent_string);
    if (/[\t\r\n]/.test(ua) || seenBrowsers.has(ua)) continue;
    seenBrowsers.add(ua);
    browsers.push(ua);
  }
}
fs.writeFileSync(path.join(out, 'uap-core/browsers.txt'), browsers.join('\n') + '\n');
console.log(`bots ${bots.length}, others ${others.length}, uap-core browsers ${browsers.length}; ${skipped} agents with a tab or line break left out`);
JS
cp device-detector-js-3.0.3/package/LICENSE "$out/device-detector/LICENSE"
cp /usr/share/common-licenses/GPL-3 "$out/device-detector/GPL-3.0"
cp uap/usr/share/doc/uap-core/copyright "$out/uap-core/copyright"
cp /usr/share/common-licenses/Apache-2.0 "$out/uap-core/LICENSE"
uap_version="$(dpkg-deb -f uap-core_*.deb Version)"
cat > "$out/README.md" <<MD
# User agents the identification is tested against

Written by \`scripts/refresh-bot-fixtures.sh\`; do not edit by hand.

- \`device-detector/\`: Matomo device-detector's test fixtures (LGPL-3.0-or-later, \`LICENSE\` and
  \`GPL-3.0\`), from node-device-detector 1.2.8 (npm, \`tests/fixtures\`) and device-detector-js
  2.0.0 (npm, \`fixtures/Tests\`), the newest copies a package registry serves. \`bots.tsv\`: agent,
  the bot's name and category as device-detector names them, and which package it came from (an
  agent both hold is kept once, from the first); \`others.txt\`: the agents of every other fixture
  file (browsers, apps, devices, libraries), each once.
- \`uap-core/\`: the Firefox and Opera Mini agents of Debian's uap-core $uap_version test resources
  (Apache-2.0, \`LICENSE\`, \`copyright\`).
MD
wc -l "$out"/device-detector/*.t* "$out"/uap-core/browsers.txt
