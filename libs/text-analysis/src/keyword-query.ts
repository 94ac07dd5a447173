import { analyze, termsOf } from './analyzer';
import { termFinder } from './find-terms';
import { headline } from './headline';
import type { ParsedQuery, QueryPart } from './query-parser';

/**
 * A condition on a CV, from a `+` or `-` clause of a keyword query (or a field term): a keyword
 * index keeps the CVs that meet every required one and none of the excluded ones, before its top K.
 * - `text`: the CV holds these terms side by side, in order (a word's terms, or a phrase's);
 * - `title`: the same within the CV's headline (its first line, `headline`);
 * - `skill`: the CV's profile names this skill (a key of the skills vocabulary, as filters use);
 * - `all` / `any`: every one / at least one of the conditions.
 */
export type KeywordCondition =
  | { kind: 'text'; text: string; terms: string[] }
  | { kind: 'title'; text: string; terms: string[] }
  | { kind: 'skill'; text: string; skill: string }
  | { kind: 'all'; of: KeywordCondition[] }
  | { kind: 'any'; of: KeywordCondition[] };

/** A keyword query as the sparse leg reads it: its scored parts, its conditions, and its positive words as text. */
export interface KeywordQuery extends ParsedQuery {
  required: KeywordCondition[];
  excluded: KeywordCondition[];
  /**
   * What a reader of meaning (the dense leg, a reranker) should read: the query itself when it has
   * no operator, else its words, phrases and field values that are not excluded, in order.
   */
  positiveText: string;
}

/** How skill names are resolved: the skills vocabulary's key of a name, or null for a skill it does not know. */
export interface KeywordVocabulary {
  skillKey(name: string): string | null;
}

/** The bounds of a query's Boolean structure (the query itself is at most 500 characters). */
export const KEYWORD_QUERY_LIMITS = {
  /** Words, phrases and field terms under `+`, `-` or `OR`, and field terms anywhere. */
  clauses: 64,
  /** Parentheses inside parentheses. */
  depth: 8,
} as const;

/** A malformed keyword query: `position` is the 1-based character where it goes wrong. */
export class KeywordQueryError extends Error {
  constructor(
    readonly position: number,
    readonly problem: string,
  ) {
    super(`at character ${position}: ${problem}`);
    this.name = 'KeywordQueryError';
  }
}

type Token =
  | { type: 'word'; text: string; start: number; end: number; spaced: boolean }
  | { type: 'phrase'; text: string; start: number; end: number; spaced: boolean }
  | { type: 'field'; field: 'title' | 'skill'; start: number; end: number; spaced: boolean }
  | { type: 'or' | 'open' | 'close' | 'plus' | 'minus' | 'separator'; start: number; end: number; spaced: boolean };

/** The separators of `parseQuery`'s parts. */
const SEPARATOR = /[,;\n|]/;
const SPACE = /\s/u;
const FIELD = /^(title|skill):/;

/** The query's tokens; a quote left open is an error here. */
function lex(raw: string, fail: (at: number, problem: string) => never): Token[] {
  const tokens: Token[] = [];
  let spaced = false;
  let i = 0;
  const push = (token: Token) => {
    tokens.push(token);
    spaced = false;
  };
  while (i < raw.length) {
    const c = raw[i];
    if (SEPARATOR.test(c)) {
      push({ type: 'separator', start: i, end: i + 1, spaced });
      i++;
    } else if (SPACE.test(c)) {
      spaced = true;
      i++;
    } else if (c === '"') {
      const close = raw.indexOf('"', i + 1);
      if (close < 0) fail(i, 'this quote is never closed: expected a closing "');
      push({ type: 'phrase', text: raw.slice(i + 1, close), start: i, end: close + 1, spaced });
      i = close + 1;
    } else if (c === '(' || c === ')') {
      push({ type: c === '(' ? 'open' : 'close', start: i, end: i + 1, spaced });
      i++;
    } else if (c === '+' || c === '-') {
      // Only where a word would begin: inside a word (`month-end`, `C++`) they are the word's.
      push({ type: c === '+' ? 'plus' : 'minus', start: i, end: i + 1, spaced });
      i++;
    } else {
      let end = i;
      while (end < raw.length && !SEPARATOR.test(raw[end]) && !SPACE.test(raw[end]) && !'"()'.includes(raw[end])) end++;
      const text = raw.slice(i, end);
      const field = FIELD.exec(text);
      if (text === 'OR') push({ type: 'or', start: i, end, spaced });
      else if (field) {
        const at = i + field[0].length;
        push({ type: 'field', field: field[1] as 'title' | 'skill', start: i, end: at, spaced });
        if (at < end) push({ type: 'word', text: raw.slice(at, end), start: at, end, spaced: false });
      } else push({ type: 'word', text, start: i, end, spaced });
      i = end;
    }
  }
  return tokens;
}

/**
 * A parsed operand, before its clause says whether it is scored, required or excluded. A run is
 * words that stand side by side with nothing else between them: one keyword part, as `parseQuery` reads one.
 */
type Node =
  | { kind: 'run'; words: (Token & { type: 'word' })[]; start: number; end: number }
  | { kind: 'phrase'; text: string; start: number }
  | { kind: 'field'; field: 'title' | 'skill'; text: string; quoted: boolean; start: number }
  | { kind: 'all'; of: Node[] }
  | { kind: 'any'; of: Node[] };

type Occur = 'scored' | 'required' | 'excluded';

const OPERAND = 'a word, a "phrase", a field or a group';

function describeToken(token: Token | undefined): string {
  if (!token) return 'the end of the query';
  switch (token.type) {
    case 'word':
      return `"${token.text}"`;
    case 'phrase':
      return 'a quote';
    case 'field':
      return `${token.field}:`;
    case 'or':
      return 'OR';
    case 'open':
      return "'('";
    case 'close':
      return "')'";
    case 'plus':
      return "'+'";
    case 'minus':
      return "'-'";
    case 'separator':
      return 'a separator';
  }
}

const startsOperand = (token: Token | undefined): boolean =>
  token !== undefined && (token.type === 'word' || token.type === 'phrase' || token.type === 'field' || token.type === 'open');

/** Recursive descent over the tokens; every failure names the character where the query goes wrong. */
class Parser {
  private at = 0;
  private counted = 0;

  constructor(
    private readonly raw: string,
    private readonly tokens: readonly Token[],
    readonly fail: (at: number, problem: string) => never,
  ) {}

  /** The top level: clauses, each scored, required (+, or holding a field term) or excluded (-). */
  clauses(): { occur: Occur; node: Node }[] {
    const clauses: { occur: Occur; node: Node }[] = [];
    for (let token = this.peek(); token; token = this.peek()) {
      switch (token.type) {
        case 'separator':
          this.at++;
          break;
        case 'close':
          return this.fail(token.start, "this ')' closes no '('");
        case 'or':
          return this.fail(token.start, `OR needs ${OPERAND} on each side`);
        case 'plus':
        case 'minus': {
          this.at++;
          const next = this.peek();
          if (!startsOperand(next) || next!.spaced)
            this.fail(
              token.start,
              `expected ${OPERAND} right after ${describeToken(token)}, found ${next?.spaced ? 'a space' : describeToken(next)}`,
            );
          // A prefix takes one operand: `+senior java` requires senior only.
          const node = this.operand(0, false);
          this.count(node);
          const or = this.peek();
          if (or?.type === 'or')
            this.fail(
              or.start,
              `OR cannot join a clause with ${describeToken(token)}: group the alternatives, as in ${token.type === 'plus' ? '+' : '-'}(a OR b)`,
            );
          clauses.push({ occur: token.type === 'plus' ? 'required' : 'excluded', node });
          break;
        }
        default: {
          const node = this.alternation(0);
          // Plain keywords are bounded by the query's length alone.
          if (node.kind !== 'run' && node.kind !== 'phrase') this.count(node);
          clauses.push({ occur: hasField(node) ? 'required' : 'scored', node });
        }
      }
    }
    return clauses;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private count(node: Node): void {
    if (node.kind === 'all' || node.kind === 'any') node.of.forEach((n) => this.count(n));
    else
      for (const start of node.kind === 'run' ? node.words.map((w) => w.start) : [node.start])
        if (++this.counted > KEYWORD_QUERY_LIMITS.clauses)
          this.fail(start, `more than ${KEYWORD_QUERY_LIMITS.clauses} clauses (terms under +, - or OR, and field terms)`);
  }

  /**
   * Alternatives separated by OR. Inside parentheses an alternative is every operand that stands
   * side by side (all of them must hold); at the top level it is one operand or a run of words.
   */
  private alternation(depth: number): Node {
    const alternatives: Node[] = [];
    for (;;) {
      const side = [this.operand(depth, true)];
      while (depth > 0 && startsOperand(this.peek())) side.push(this.operand(depth, true));
      alternatives.push(side.length === 1 ? side[0] : { kind: 'all', of: side });
      const or = this.peek();
      if (or?.type !== 'or') break;
      this.at++;
      if (!startsOperand(this.peek())) this.fail(or.start, `OR needs ${OPERAND} after it, found ${describeToken(this.peek())}`);
    }
    return alternatives.length === 1 ? alternatives[0] : { kind: 'any', of: alternatives };
  }

  /** One operand; `runs`: a word takes the words right after it into one run. */
  private operand(depth: number, runs: boolean): Node {
    const token = this.peek();
    switch (token?.type) {
      case 'word': {
        const words = [token];
        this.at++;
        for (let next = this.peek(); runs && next?.type === 'word'; next = this.peek()) {
          words.push(next);
          this.at++;
        }
        return { kind: 'run', words, start: token.start, end: words[words.length - 1].end };
      }
      case 'phrase':
        this.at++;
        return { kind: 'phrase', text: token.text.trim(), start: token.start };
      case 'field': {
        this.at++;
        const value = this.peek();
        if (!value || value.spaced || (value.type !== 'word' && value.type !== 'phrase'))
          return this.fail(token.end, `expected a word or a "quoted phrase" right after ${token.field}:`);
        this.at++;
        return {
          kind: 'field',
          field: token.field,
          text: value.type === 'phrase' ? value.text.trim() : value.text,
          quoted: value.type === 'phrase',
          start: token.start,
        };
      }
      case 'open':
        return this.group(depth + 1);
      default:
        return this.fail(token?.start ?? this.raw.length, `expected ${OPERAND}, found ${describeToken(token)}`);
    }
  }

  private group(depth: number): Node {
    const open = this.peek()!;
    if (depth > KEYWORD_QUERY_LIMITS.depth) this.fail(open.start, `parentheses nested more than ${KEYWORD_QUERY_LIMITS.depth} deep`);
    this.at++;
    const inside = this.peek();
    if (inside === undefined) this.fail(open.start, "this '(' is never closed: expected ')'");
    if (inside?.type === 'plus' || inside?.type === 'minus')
      this.fail(inside.start, `${describeToken(inside)} applies to a whole clause, not inside parentheses: write it before the '('`);
    if (!startsOperand(inside)) this.fail(inside?.start ?? open.start, `expected ${OPERAND} after '(', found ${describeToken(inside)}`);
    const node = this.alternation(depth);
    const close = this.peek();
    if (close === undefined) this.fail(open.start, "this '(' is never closed: expected ')'");
    if (close.type !== 'close')
      this.fail(
        close.start,
        close.type === 'separator'
          ? "a separator inside parentheses: separate alternatives with OR, or close the '(' first"
          : `expected OR or ')', found ${describeToken(close)}`,
      );
    this.at++;
    return node;
  }
}

const hasField = (node: Node): boolean => node.kind === 'field' || ((node.kind === 'all' || node.kind === 'any') && node.of.some(hasField));

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Parses a query of the keyword query language (docs/api.md, "Keyword query language"): keywords
 * separated by commas and "quoted phrases", as `parseQuery` reads them, plus `+` (required), `-`
 * (excluded), `OR`, parentheses, `title:` and `skill:`. A query without any of these parses to
 * exactly what `parseQuery` gives. Throws a KeywordQueryError naming the character where the query
 * is malformed, exceeds KEYWORD_QUERY_LIMITS, or has conditions but nothing to score.
 */
export function parseKeywordQuery(raw: string, vocabulary: KeywordVocabulary): KeywordQuery {
  const fail = (at: number, problem: string): never => {
    // Characters as a reader counts them: an emoji or an accented letter before the mistake counts one.
    throw new KeywordQueryError([...GRAPHEMES.segment(raw.slice(0, at))].length + 1, problem);
  };
  const tokens = lex(raw, fail);
  const clauses = new Parser(raw, tokens, fail).clauses();

  // Scored parts in parseQuery's order: phrases first, then the other parts, each in the query's order.
  const phrases: QueryPart[] = [];
  const others: QueryPart[] = [];
  const positive: string[] = [];
  const score = (node: Node): void => {
    if (node.kind === 'all' || node.kind === 'any') {
      node.of.forEach(score);
      return;
    }
    const text = node.kind === 'run' ? raw.slice(node.start, node.end) : node.text;
    const quoted = node.kind === 'phrase' || (node.kind === 'field' && node.quoted);
    if (text) positive.push(text);
    const terms = analyze(text).map((t) => t.term);
    if (terms.length > 0) (quoted ? phrases : others).push({ text, terms, phrase: quoted && terms.length > 1 });
  };
  const required: KeywordCondition[] = [];
  const excluded: KeywordCondition[] = [];
  for (const { occur, node } of clauses) {
    if (occur !== 'excluded') score(node);
    if (occur !== 'scored') (occur === 'required' ? required : excluded).push(conditionOf(node, vocabulary, fail));
  }
  const parts = [...phrases, ...others];
  if (parts.length === 0 && required.length + excluded.length > 0)
    fail(0, 'the query has only conditions and nothing to search for (-php alone ranks nothing): add a word or a "phrase"');
  const operators = tokens.some((t) => t.type !== 'word' && t.type !== 'phrase' && t.type !== 'separator');
  return { raw, parts, required, excluded, positiveText: operators ? positive.join(' ') : raw };
}

function conditionOf(node: Node, vocabulary: KeywordVocabulary, fail: (at: number, problem: string) => never): KeywordCondition {
  const termsOf = (text: string, start: number, what: string) => {
    const terms = analyze(text).map((t) => t.term);
    if (terms.length === 0)
      fail(start, `${what} holds no searchable word (stop words and punctuation are not indexed), so it cannot be a condition`);
    return terms;
  };
  switch (node.kind) {
    case 'run': {
      const of = node.words.map((w): KeywordCondition => ({ kind: 'text', text: w.text, terms: termsOf(w.text, w.start, `"${w.text}"`) }));
      return of.length === 1 ? of[0] : { kind: 'all', of };
    }
    case 'phrase':
      return { kind: 'text', text: node.text, terms: termsOf(node.text, node.start, node.text ? `"${node.text}"` : 'the empty quote') };
    case 'field': {
      const written = `${node.field}:${node.quoted ? `"${node.text}"` : node.text}`;
      if (node.field === 'title') return { kind: 'title', text: node.text, terms: termsOf(node.text, node.start, written) };
      const skill = vocabulary.skillKey(node.text);
      if (skill === null) return fail(node.start, `${written} names no skill of the skills vocabulary`);
      return { kind: 'skill', text: node.text, skill };
    }
    default: {
      const of = node.of.map((n) => conditionOf(n, vocabulary, fail));
      return { kind: node.kind, of };
    }
  }
}

/** A CV as conditions read it: where its words stand side by side, and its profile's skill keys. */
export interface ConditionSubject {
  /** Whether its text holds these terms side by side, in order. */
  holds(terms: readonly string[]): boolean;
  /** The same within its headline (its first line, `headline`). */
  headlineHolds(terms: readonly string[]): boolean;
  skills: readonly string[];
}

/** Whether the CV meets the condition, as the keyword indexes judge it. */
export function meetsCondition(cv: ConditionSubject, condition: KeywordCondition): boolean {
  switch (condition.kind) {
    case 'text':
      return cv.holds(condition.terms);
    case 'title':
      return cv.headlineHolds(condition.terms);
    case 'skill':
      return cv.skills.includes(condition.skill);
    case 'all':
      return condition.of.every((c) => meetsCondition(cv, c));
    case 'any':
      return condition.of.some((c) => meetsCondition(cv, c));
  }
}

/** Whether the CV meets every required condition of the query and no excluded one. */
export function meetsConditions(cv: ConditionSubject, query: Pick<ParsedQuery, 'required' | 'excluded'>): boolean {
  return (query.required ?? []).every((c) => meetsCondition(cv, c)) && !(query.excluded ?? []).some((c) => meetsCondition(cv, c));
}

const inSequence = (sequence: readonly string[], terms: readonly string[]): boolean => {
  for (let i = 0; i + terms.length <= sequence.length; i++) if (terms.every((t, k) => sequence[i + k] === t)) return true;
  return false;
};

const textTermsOf = (c: KeywordCondition): string[] =>
  c.kind === 'text' ? c.terms : c.kind === 'all' || c.kind === 'any' ? c.of.flatMap(textTermsOf) : [];

/**
 * A judge of CV texts against the query's conditions, for CVs no keyword index has judged (hybrid's
 * dense candidates): the index's semantics from the text alone. It finds the conditions' terms
 * without analysing the whole text (`termFinder`), and analyses it whole only where a phrase's
 * words are all there and their order decides; a headline is short, and analysed as it is.
 * Measured on 300 livecareer CVs: 2 to 50 ms a query, against 300 ms analysing every CV whole.
 */
export function conditionJudge(query: Pick<ParsedQuery, 'required' | 'excluded'>): (text: string, skills: readonly string[]) => boolean {
  const find = termFinder([...new Set([...(query.required ?? []), ...(query.excluded ?? [])].flatMap(textTermsOf))]);
  return (text, skills) => {
    const found = new Set(find(text).map((t) => t.term));
    let words: readonly string[] | null = null;
    let title: readonly string[] | null = null;
    return meetsConditions(
      {
        holds: (terms) => {
          if (!terms.every((t) => found.has(t))) return false;
          if (terms.length === 1) return true;
          words ??= termsOf(text);
          return inSequence(words, terms);
        },
        headlineHolds: (terms) => inSequence((title ??= analyze(headline(text)).map((t) => t.term)), terms),
        skills,
      },
      query,
    );
  };
}

/** Whether the query has conditions at all, and whether some of them read the profile's skills. */
export function conditionsOf(query: Pick<ParsedQuery, 'required' | 'excluded'>): { any: boolean; readSkills: boolean } {
  const all = [...(query.required ?? []), ...(query.excluded ?? [])];
  const readsSkills = (c: KeywordCondition): boolean =>
    c.kind === 'skill' || ((c.kind === 'all' || c.kind === 'any') && c.of.some(readsSkills));
  return { any: all.length > 0, readSkills: all.some(readsSkills) };
}
