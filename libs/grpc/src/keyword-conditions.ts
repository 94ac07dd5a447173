import type { MessageInitShape } from '@bufbuild/protobuf';
import { DomainError, sparseV1 } from '@cs/contracts';
import type { KeywordCondition } from '@cs/text-analysis';

type ConditionInit = MessageInitShape<typeof sparseV1.ConditionSchema>;

/** A keyword query's condition as candidate_search.sparse.v1.Condition. */
export function conditionToWire(condition: KeywordCondition): ConditionInit {
  switch (condition.kind) {
    case 'text':
    case 'title':
      return { condition: { case: condition.kind, value: { text: condition.text, terms: condition.terms } } };
    case 'skill':
      return { condition: { case: 'skill', value: { text: condition.text, skill: condition.skill } } };
    case 'all':
    case 'any':
      return { condition: { case: condition.kind, value: { conditions: condition.of.map(conditionToWire) } } };
  }
}

/** The bound on a condition's nesting the server accepts: the query language's, with room to spare. */
const MAX_DEPTH = 16;

/** A condition as the sparse service receives it; one without a kind, or nested deeper than any query makes, is the caller's error. */
export function conditionFromWire(message: sparseV1.Condition, depth = 0): KeywordCondition {
  if (depth > MAX_DEPTH) throw new DomainError('invalid_request', `conditions nested more than ${MAX_DEPTH} deep`);
  const { condition } = message;
  switch (condition.case) {
    case 'text':
    case 'title':
      if (condition.value.terms.length === 0) throw new DomainError('invalid_request', `a ${condition.case} condition needs terms`);
      return { kind: condition.case, text: condition.value.text, terms: [...condition.value.terms] };
    case 'skill':
      if (!condition.value.skill) throw new DomainError('invalid_request', 'a skill condition needs its skill');
      return { kind: 'skill', text: condition.value.text, skill: condition.value.skill };
    case 'all':
    case 'any':
      return { kind: condition.case, of: condition.value.conditions.map((c) => conditionFromWire(c, depth + 1)) };
    case undefined:
      throw new DomainError('invalid_request', 'a condition needs one of text, title, skill, all or any');
  }
}
