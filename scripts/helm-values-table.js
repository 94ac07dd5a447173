#!/usr/bin/env node
// @ts-check
// Writes the values table of helm/README.md from values.yaml's `# --` comments (helm-docs'
// convention), between the values-table markers. `--check` only says whether the table is
// current (the chart suite runs it, so CI fails on a stale table).
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { isMap, isScalar, parseDocument } = require('yaml');

const ROOT = path.resolve(__dirname, '..');
const VALUES = path.join(ROOT, 'helm/candidate-search/values.yaml');
const README = path.join(ROOT, 'helm/README.md');
const START = '<!-- values-table:start (npm run helm:values-table writes it) -->';
const END = '<!-- values-table:end -->';

/** The text of a `# --` comment, joined into one line; undefined when there is none. */
function described(comment) {
  if (!comment) return undefined;
  const at = comment.lastIndexOf('-- ');
  if (at < 0 || !/^\s*--/.test(comment.slice(comment.lastIndexOf('\n', at) + 1))) return undefined;
  return comment
    .slice(at + 3)
    .split('\n')
    .map((line) => line.trim())
    .join(' ')
    .trim();
}

const cell = (text) => text.replace(/\|/g, '\\|');
const typeOf = (value) => (Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value);

function rows(map, prefix, inherited, out) {
  map.items.forEach((pair, index) => {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const name = prefix ? `${prefix}.${key}` : key;
    // The comment before a map's first key is kept on the map itself.
    const description = described(pair.key?.commentBefore) ?? (index === 0 ? inherited : undefined);
    if (description !== undefined) {
      const value = pair.value?.toJSON();
      out.push(`| \`${cell(name)}\` | ${typeOf(value)} | \`${cell(JSON.stringify(value))}\` | ${cell(description)} |`);
    } else if (isMap(pair.value)) {
      rows(pair.value, name, described(pair.value.commentBefore), out);
    }
  });
  return out;
}

function table() {
  const doc = parseDocument(readFileSync(VALUES, 'utf8'));
  if (!isMap(doc.contents)) throw new Error('values.yaml is not a map');
  const lines = rows(doc.contents, '', described(doc.contents.commentBefore ?? doc.commentBefore), []);
  return ['| Key | Type | Default | Description |', '|---|---|---|---|', ...lines].join('\n');
}

const readme = readFileSync(README, 'utf8');
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start < 0 || end < start) throw new Error(`helm/README.md lacks the markers ${START} and ${END}`);
const next = `${readme.slice(0, start + START.length)}\n${table()}\n${readme.slice(end)}`;
if (process.argv.includes('--check')) {
  if (next !== readme) {
    process.stderr.write('helm/README.md: the values table is stale: run npm run helm:values-table\n');
    process.exit(1);
  }
} else {
  writeFileSync(README, next);
}
