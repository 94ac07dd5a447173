// @ts-check
// Before the unit suites: which servers and data this run has (see jest-probe.js).
const { probeTestEnvironment } = require('./jest-probe');

module.exports = async function unitSetup() {
  await probeTestEnvironment();
};
