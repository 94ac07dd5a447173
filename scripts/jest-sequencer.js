// @ts-check
// Jest's order, but on a run with no timings from an earlier one (a fresh clone, CI) the
// end-to-end suites go first, then the integration ones: they take one to three minutes and
// seconds to a minute each, the unit suites seconds, and
// Jest's fallback (bigger files first) mixes them so that a long suite may start near the end and
// run alone (a whole run on 2 cores: 926 s one time, 851 s another).
const Sequencer = require('@jest/test-sequencer').default;

/** @param {import('@jest/test-result').Test} test */
const tier = (test) => (test.path.endsWith('.e2e-spec.ts') ? 0 : test.path.endsWith('.int-spec.ts') ? 1 : 2);

class SlowTiersFirstSequencer extends Sequencer {
  /** @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    const sorted = /** @type {import('@jest/test-result').Test[]} */ (super.sort(tests));
    if (sorted.some((test) => test.duration != null)) return sorted;
    // A stable sort: Jest's order within a tier.
    return [...sorted].sort((a, b) => tier(a) - tier(b));
  }
}

module.exports = SlowTiersFirstSequencer;
