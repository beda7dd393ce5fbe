#!/usr/bin/env bash
# Renders the README pictures: each example ask of docs/ (docs/example-ask*.json) through `holdpoint
# preview-ask`, then scripts/render-ask-preview.mjs, then a headless Chromium screenshot cropped to the message.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ask in docs/example-ask*.json; do
  name=$(basename "$ask" .json)
  npx tsx src/cli.ts preview-ask "$ask" > "$work/$name.json"
  node scripts/render-ask-preview.mjs "$work/$name.json" > "$work/$name.html"
  height=$(node -e '
    const blocks = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).blocks;
    const rows = blocks.reduce((sum, b) => sum + (b.type === "actions" ? (b.elements.find((e) => e.options && e.type !== "overflow")?.options.length ?? 1) * 1.6 : 1.5), 0);
    process.stdout.write(String(Math.round(170 + rows * 34)));' "$work/$name.json")
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="docs/${name/example-ask/ask-preview}.png" \
    --window-size=760,"$height" "file://$work/$name.html" 2>/dev/null
done
