import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { DomainError, sparseV1 } from '@cs/contracts';
import { skillKey } from '@cs/search-filters';
import { parseKeywordQuery } from '@cs/text-analysis';
import { conditionFromWire, conditionToWire } from './keyword-conditions';

const wire = (init: Parameters<typeof create<typeof sparseV1.ConditionSchema>>[1]) =>
  fromBinary(sparseV1.ConditionSchema, toBinary(sparseV1.ConditionSchema, create(sparseV1.ConditionSchema, init)));

describe('keyword query conditions on the wire', () => {
  it('reads back every kind of condition as it was sent, through protobuf bytes', () => {
    const query = parseKeywordQuery('+(java OR "spring boot" OR (senior kotlin)) -title:intern skill:K8s x', { skillKey });
    const conditions = [...query.required, ...query.excluded];
    expect(conditions.map((c) => c.kind).sort()).toEqual(['any', 'skill', 'title']);
    for (const condition of conditions) expect(conditionFromWire(wire(conditionToWire(condition)))).toEqual(condition);
  });

  it('refuses a condition without a kind, or without terms or skill, as the caller’s error', () => {
    expect(() => conditionFromWire(wire({}))).toThrow(DomainError);
    expect(() => conditionFromWire(wire({ condition: { case: 'text', value: { text: 'x', terms: [] } } }))).toThrow(/needs terms/);
    expect(() => conditionFromWire(wire({ condition: { case: 'skill', value: { text: 'x', skill: '' } } }))).toThrow(/needs its skill/);
  });

  it('refuses conditions nested deeper than any query makes', () => {
    let deep = conditionToWire({ kind: 'text', text: 'java', terms: ['java'] });
    for (let i = 0; i < 20; i++) deep = { condition: { case: 'any', value: { conditions: [deep] } } };
    expect(() => conditionFromWire(wire(deep))).toThrow(/nested more than/);
  });
});
