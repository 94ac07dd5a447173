// @ts-check
// Jest's order, but on a run with no timings from an earlier one (a fresh clone, CI) the
// end-to-end suites go first: they take one to three minutes each, the unit suites seconds, and
// Jest's fallback (bigger files first) mixes them so that a long suite may start near the end and
// run alone (a whole run on 2 cores: 926 s one time, 851 s another).
const Sequencer = require('@jest/test-sequencer').default;

/** @param {import('@jest/test-result').Test} test */
const isEndToEnd = (test) => test.path.endsWith('.e2e-spec.ts');

class EndToEndFirstSequencer extends Sequencer {
  /** @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    const sorted = /** @type {import('@jest/test-result').Test[]} */ (super.sort(tests));
    if (sorted.some((test) => test.duration != null)) return sorted;
    return [...sorted.filter(isEndToEnd), ...sorted.filter((test) => !isEndToEnd(test))];
  }
}

module.exports = EndToEndFirstSequencer;
