#!/usr/bin/env node
// Fails when a Markdown file speaks of how the project was made rather than of the product:
// work sessions, the machines runs were made on by letter, numbered issues, what an issue
// asked. Docs state what is true now; a figure names its command, machine, date and commit.
//
//   node scripts/check-docs-history.js [FILE...]   (default: every Markdown file git knows, tracked or new)
'use strict';
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/** Each pattern with what to write instead. */
const HISTORY = [
  { pattern: /\bsessions? \d+/i, instead: 'the date and commit a figure was measured at' },
  { pattern: /\b(this|that|last|next|previous|earlier|later|an earlier|a later|one) session\b/i, instead: 'what is true now' },
  { pattern: /\bmachines? [A-Z]\b/, instead: "the machine's cores, memory and Node version" },
  { pattern: /\b(issue|ticket|pull request|PR) #?\d+/i, instead: 'what the change does' },
  { pattern: /\bthe issue(?:'s| (?:asked|asks|said|says|wanted|wants|required|requires|demanded))\b/i, instead: 'the requirement itself' },
  { pattern: /\battempt (#|no\.? ?)?\d+\b/i, instead: 'the figures of the final measurement' },
  { pattern: /\bthe lead\b/i, instead: 'the team, or nothing' },
  { pattern: /\b(yesterday|earlier today|this morning|last night)\b/i, instead: 'a date' },
];

function markdownFiles() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'], { cwd: ROOT });
  return out
    .toString()
    .split('\0')
    .filter(Boolean)
    .map((file) => path.join(ROOT, file));
}

const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => path.resolve(f)) : markdownFiles();
const findings = [];
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    for (const { pattern, instead } of HISTORY) {
      const match = pattern.exec(line);
      if (match)
        findings.push(`${path.relative(process.cwd(), file)}:${i + 1}: "${match[0]}" tells the project's history; write ${instead}`);
    }
  });
}
if (findings.length) {
  process.stderr.write(`${findings.join('\n')}\ndocs:history: ${findings.length} history word(s) in Markdown\n`);
  process.exit(1);
}
process.stdout.write(`docs:history: ${files.length} Markdown files, no history words\n`);
