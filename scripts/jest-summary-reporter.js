// Prints the plain closing line CI reads ("N passed, N failed, N skipped"), naming what the
// skipped cases lacked (the global setup's probe: a server, Docker, ../shared/eval).
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const missing = JSON.parse(process.env.CS_TEST_MISSING || '[]');
    const why = skipped > 0 && missing.length ? ` (this run lacks ${missing.join('; ')})` : '';
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped${why}\n`);
  }
}
module.exports = SummaryReporter;
