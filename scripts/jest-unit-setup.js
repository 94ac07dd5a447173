// @ts-check
// Before the unit suites: which local tools and data this run has (see jest-probe.js). No server:
// a unit suite connects to none.
const { probeTestEnvironment } = require('./jest-probe');

module.exports = async function unitSetup() {
  await probeTestEnvironment({ servers: false });
};
