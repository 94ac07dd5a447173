// @ts-check
// Before the integration suites: which servers (PostgreSQL, Redis, NATS, Docker), local tools and
// data this run has (see jest-probe.js).
const { probeTestEnvironment } = require('./jest-probe');

module.exports = async function integrationSetup() {
  await probeTestEnvironment();
};
