import { newStemmer } from 'snowball-stemmers';

/**
 * A small interpreter of Elasticsearch analysis settings, for the parity spec: it runs a custom
 * analyzer the way Elasticsearch documents its parts, for the parts our settings use, and throws
 * on anything else rather than guess. What it follows:
 * - `pattern` tokenizer: the tokens are the pattern's successive matches (Java's `Matcher.find`),
 *   the `group` of each, empty ones skipped. Java's and JavaScript's (flag u) regular expressions
 *   agree on the syntax our patterns use (classes, `\p{L}`, `\p{N}`, look-ahead and fixed look-behind).
 * - `lowercase`: each code point by Java's `Character.toLowerCase`, which has no context (a final
 *   sigma stays σ) and maps İ to i.
 * - `stop` (a list, case-sensitive), `length`, and a `pattern_replace` to '': a removed token leaves
 *   a hole (its position increment goes to the next token).
 * - `keyword_marker` with `keywords_pattern`: a token the pattern matches whole is not stemmed.
 * - `stemmer` `porter2`: Lucene's Snowball English, the algorithm `snowball-stemmers` implements.
 * - `synonym_graph` with explicit Solr rules (`words => replacement`): each side is analysed by the
 *   filters before this one (synonym filters skipped), and a side with a hole or no token is an
 *   error, as Lucene's parser says; the longest rule matching at a token wins, holes between input
 *   tokens ignored; the matched tokens are replaced by the replacement's. Only rules with one
 *   replacement path: those keep the stream a line, and `flatten_graph` then changes nothing.
 */
export interface AnalysisDefinition {
  tokenizer: Readonly<Record<string, Readonly<{ type: string; pattern?: string; group?: number }>>>;
  filter: Readonly<Record<string, Readonly<{ type: string } & Record<string, unknown>>>>;
  analyzer: Readonly<Record<string, Readonly<{ type: string; tokenizer: string; filter: readonly string[] }>>>;
}

/** A token as filters see it: its term, its position increment, and whether stemmers leave it. */
export interface StreamToken {
  term: string;
  positionIncrement: number;
  keyword: boolean;
}

type Filter = (tokens: StreamToken[]) => StreamToken[];

const english = newStemmer('english');

function javaLowercase(text: string): string {
  let out = '';
  for (const ch of text) out += String.fromCodePoint(ch.toLowerCase().codePointAt(0)!);
  return out;
}

/** Keeps the tokens `keep` accepts; a dropped token's position increment passes to the next kept one. */
function filtering(keep: (token: StreamToken) => boolean): Filter {
  return (tokens) => {
    const kept: StreamToken[] = [];
    let skipped = 0;
    for (const token of tokens) {
      if (keep(token)) {
        kept.push({ ...token, positionIncrement: token.positionIncrement + skipped });
        skipped = 0;
      } else skipped += token.positionIncrement;
    }
    return kept;
  };
}

const stringParam = (params: Record<string, unknown>, name: string): string => {
  const value = params[name];
  if (typeof value !== 'string') throw new Error(`expected a string ${name}, got ${JSON.stringify(value)}`);
  return value;
};

export class AnalysisInterpreter {
  private readonly chains = new Map<string, { tokenize: (text: string) => StreamToken[]; filters: Filter[] }>();

  constructor(private readonly definition: AnalysisDefinition) {}

  /** The analyzer's terms in stream order. */
  terms(analyzer: string, text: string): string[] {
    return this.tokens(analyzer, text).map((t) => t.term);
  }

  tokens(analyzer: string, text: string): StreamToken[] {
    const chain = this.chain(analyzer);
    return chain.filters.reduce((tokens, filter) => filter(tokens), chain.tokenize(text));
  }

  private chain(name: string): { tokenize: (text: string) => StreamToken[]; filters: Filter[] } {
    const known = this.chains.get(name);
    if (known) return known;
    const analyzer = this.definition.analyzer[name];
    if (analyzer?.type !== 'custom') throw new Error(`no custom analyzer ${name}`);
    const tokenize = this.tokenizer(analyzer.tokenizer);
    const filters: Filter[] = [];
    // What parses synonym rules: the filters so far, synonym filters skipped (Elasticsearch's identity for them).
    const parsing: Filter[] = [];
    for (const filterName of analyzer.filter) {
      const filter = this.filter(filterName, tokenize, [...parsing]);
      filters.push(filter);
      if (this.definition.filter[filterName]?.type !== 'synonym_graph') parsing.push(filter);
    }
    const chain = { tokenize, filters };
    this.chains.set(name, chain);
    return chain;
  }

  private tokenizer(name: string): (text: string) => StreamToken[] {
    const definition = this.definition.tokenizer[name];
    if (definition?.type !== 'pattern' || definition.pattern === undefined) throw new Error(`unsupported tokenizer ${name}`);
    const pattern = new RegExp(definition.pattern, 'gu');
    const group = definition.group ?? -1;
    if (group < 0) throw new Error('the split mode of the pattern tokenizer is not interpreted');
    return (text) =>
      [...text.matchAll(pattern)].flatMap((m) => (m[group] ? [{ term: m[group], positionIncrement: 1, keyword: false }] : []));
  }

  /** The filter `name`; a synonym filter parses its rules with `tokenize` and the filters `before` it. */
  private filter(name: string, tokenize: (text: string) => StreamToken[], before: Filter[]): Filter {
    if (name === 'lowercase') return (tokens) => tokens.map((t) => ({ ...t, term: javaLowercase(t.term) }));
    if (name === 'flatten_graph') return (tokens) => tokens; // our streams are lines: see synonymGraph
    const params = this.definition.filter[name];
    if (!params) throw new Error(`unknown filter ${name}`);
    switch (params.type) {
      case 'stop': {
        if (!Array.isArray(params.stopwords) || params.ignore_case)
          throw new Error('only a case-sensitive list of stop words is interpreted');
        const stop = new Set(params.stopwords as string[]);
        return filtering((t) => !stop.has(t.term));
      }
      case 'pattern_replace': {
        const replacement = stringParam(params, 'replacement');
        if (/[$\\]/.test(replacement)) throw new Error('replacement groups are not interpreted');
        const pattern = new RegExp(stringParam(params, 'pattern'), 'gu');
        return (tokens) => tokens.map((t) => ({ ...t, term: t.term.replace(pattern, replacement) }));
      }
      case 'length': {
        const [min, max] = [Number(params.min ?? 0), Number(params.max ?? 2 ** 31 - 1)];
        return filtering((t) => t.term.length >= min && t.term.length <= max);
      }
      case 'keyword_marker': {
        const whole = new RegExp(`^(?:${stringParam(params, 'keywords_pattern')})$`, 'u');
        return (tokens) => tokens.map((t) => ({ ...t, keyword: t.keyword || whole.test(t.term) }));
      }
      case 'stemmer': {
        if (params.language !== 'porter2') throw new Error(`stemmer ${String(params.language)} is not interpreted`);
        const stems = new Map<string, string>();
        const stem = (word: string) => stems.get(word) ?? stems.set(word, english.stem(word)).get(word)!;
        return (tokens) => tokens.map((t) => (t.keyword ? t : { ...t, term: stem(t.term) }));
      }
      case 'synonym_graph':
        return this.synonymGraph(params, (text) => before.reduce((tokens, filter) => filter(tokens), tokenize(text)));
      default:
        throw new Error(`filter type ${params.type} is not interpreted`);
    }
  }

  private synonymGraph(params: Record<string, unknown>, analyse: (text: string) => StreamToken[]): Filter {
    if (!Array.isArray(params.synonyms)) throw new Error('only inline synonyms are interpreted');
    const side = (text: string, rule: string): string[] => {
      const tokens = analyse(text.trim());
      if (tokens.length === 0) throw new Error(`term: ${text} was completely eliminated by analyzer (rule ${rule})`);
      const hole = tokens.find((t) => t.positionIncrement !== 1);
      if (hole) throw new Error(`term: ${text} analyzed to a token (${hole.term}) with position increment != 1 (rule ${rule})`);
      return tokens.map((t) => t.term);
    };
    const rules = new Map<string, string[]>();
    for (const rule of params.synonyms as string[]) {
      const sides = rule.split('=>');
      if (sides.length !== 2 || sides.some((s) => s.includes(',') || s.includes('\\')))
        throw new Error(`only explicit rules with one replacement are interpreted: ${rule}`);
      const key = side(sides[0], rule).join('\u0000');
      if (rules.has(key)) throw new Error(`two rules for ${sides[0]}: ${rule}`);
      rules.set(key, side(sides[1], rule));
    }
    const longest = Math.max(0, ...[...rules.keys()].map((k) => k.split('\u0000').length));
    return (tokens) => {
      const out: StreamToken[] = [];
      for (let i = 0; i < tokens.length;) {
        let matched = 0;
        for (let n = Math.min(longest, tokens.length - i); n > 0 && matched === 0; n--) {
          if (
            rules.has(
              tokens
                .slice(i, i + n)
                .map((t) => t.term)
                .join('\u0000'),
            )
          )
            matched = n;
        }
        if (matched === 0) {
          out.push(tokens[i++]);
          continue;
        }
        const replacement = rules.get(
          tokens
            .slice(i, i + matched)
            .map((t) => t.term)
            .join('\u0000'),
        )!;
        replacement.forEach((term, k) => out.push({ term, positionIncrement: k === 0 ? tokens[i].positionIncrement : 1, keyword: false }));
        i += matched;
      }
      return out;
    };
  }
}
