#!/usr/bin/env node
// The `candidate-search` command: runs the CLI's TypeScript through @swc-node/register, as the
// other npm scripts do. The project's tsconfig is named explicitly because its path aliases
// must resolve from wherever the user runs the command, not only from the repository's root.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.resolve(__dirname, '../../../tsconfig.json');
require('@swc-node/register');
require('../src/main.ts');
