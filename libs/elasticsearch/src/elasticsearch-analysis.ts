import { LONE_SIGN, PLAIN_WORD, STOP_WORDS, SYNONYM_RULES, onePassTokenPattern } from '@cs/text-analysis';

/** A rule in Solr's synonym format: explicit, so the words are replaced by exactly these. */
const explicitRule = (words: readonly string[], replacement: readonly string[]) => `${words.join(' ')} => ${replacement.join(' ')}`;

/**
 * `analyze` of libs/text-analysis as Elasticsearch analysis settings, generated from its exports
 * so that both keyword indexes see the same terms (the parity spec checks it token by token):
 * - `cs_tokens`: its tokens, from one pattern (technical names kept whole: C++, C#, .NET, Node.js, CI/CD);
 * - `cs_skill_words`: one-word skill variants (k8s, a/p), matched before stop words and stemming,
 *   replaced by the skill's words;
 * - `cs_stop`, then `cs_lone_signs` and `cs_not_empty`: its stop words, and its one-character
 *   tokens that are no letter or digit of ours, dropped;
 * - `cs_technical_names` and `cs_stem`: Porter2 (Snowball English) for plain words only;
 * - `cs_skill_phrases`: several-word variants (machine learning), matched on stemmed terms across
 *   stop words (written without them: a rule with a word its chain removes is an error), kept, and
 *   followed by the skill's terms. Every rule maps to one path, so the graph stays a line: each
 *   term keeps a position of its own and counts in the field's length, as in the embedded index.
 *   Rules are parsed by the filters before them (synonym filters skipped), which stem them alike.
 */
/** The filter chain of `analyze`, in order (see above). */
const TEXT_FILTERS = [
  'lowercase',
  'cs_skill_words',
  'cs_stop',
  'cs_lone_signs',
  'cs_not_empty',
  'cs_technical_names',
  'cs_stem',
  'cs_skill_phrases',
  'flatten_graph',
];

export const ANALYSIS = {
  tokenizer: {
    cs_tokens: { type: 'pattern', pattern: onePassTokenPattern(), group: 0 },
  },
  filter: {
    cs_skill_words: { type: 'synonym_graph', synonyms: SYNONYM_RULES.oneWord.map((r) => explicitRule(r.words, r.canonical)) },
    cs_stop: { type: 'stop', stopwords: [...STOP_WORDS] },
    cs_lone_signs: { type: 'pattern_replace', pattern: LONE_SIGN.source, replacement: '' },
    cs_not_empty: { type: 'length', min: 1 },
    // keyword_marker matches the whole token: every token that is not a plain word.
    cs_technical_names: { type: 'keyword_marker', keywords_pattern: `(?!${PLAIN_WORD.source.replace(/^\^/, '')}).*` },
    cs_stem: { type: 'stemmer', language: 'porter2' },
    cs_skill_phrases: {
      type: 'synonym_graph',
      synonyms: SYNONYM_RULES.severalWords.map((r) => explicitRule(r.words, [...r.words, ...r.canonical])),
    },
    cs_pairs: { type: 'shingle', min_shingle_size: 2, max_shingle_size: 2, output_unigrams: false },
  },
  analyzer: {
    cs_text: { type: 'custom', tokenizer: 'cs_tokens', filter: TEXT_FILTERS },
    // The same terms, as word pairs (for phrases).
    cs_pairs: { type: 'custom', tokenizer: 'cs_tokens', filter: [...TEXT_FILTERS, 'cs_pairs'] },
  },
} as const;
