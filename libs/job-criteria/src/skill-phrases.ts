import { CAPITALISED_SKILLS, EVERYDAY_SKILLS } from '@cs/cv-understanding';
import { skillKey } from '@cs/search-filters';
import { SKILLS, SKILL_SYNONYMS, STOP_WORDS, analyze, tokenize } from '@cs/text-analysis';
import { FUNCTION_WORDS, GENERIC_WORDS, LEADING_VERBS, LY_NOUNS, NOT_ALONE, VERBS } from './posting-words';

/** A skill read from a clause: its name, and its analysed terms (how two phrases are told the same). */
export interface SkillPhrase {
  name: string;
  key: string;
  /** Where it starts in its clause. */
  start: number;
  /** A skill of the vocabulary (else a noun phrase of the posting). */
  vocabulary: boolean;
  /** Capitalised words, two or more, of no vocabulary skill: a name ("Assistant Controller", "Riverside Health System"). */
  properName: boolean;
}

/** Most content words a phrase keeps; a longer run keeps its last ones, where English puts a phrase's head noun. */
const PHRASE_WORDS = 3;
/** A longer "word" is no word (a run of letters, a URL): it ends a phrase. */
const MAX_WORD_CHARS = 40;

const termsOf = (text: string): string[] => analyze(text).map((t) => t.term);

/** A skill of the vocabulary: its name, its terms, and how it must be written to count. */
interface Entry {
  /** The vocabulary's name; null for a synonym key the skills list lacks (`usda`, `kpi`): named as the posting writes it. */
  name: string | null;
  terms: string[];
  /** What tells it from other phrases: its name's terms ("machin learn ml" for ML too); a key's own terms when unnamed. */
  key: string;
  /**
   * For a one-word skill named for a thing, and a synonym key: its names, as one of which it must
   * be written where it is read ("Revit", not "Revitalized"), a sticky pattern.
   */
  written: RegExp | null;
  /** Written with its capitals only ("Excel", "REST"); `everyday` also not as its clause's first word ("Access to a car"). */
  cased: 'everyday' | 'capitalised' | null;
}

const EVERYDAY = new Set(EVERYDAY_SKILLS);
const CAPITALISED = new Set(CAPITALISED_SKILLS);

/** A skill's names: itself and its synonyms, lower case. */
function namesOf(skill: string): string[] {
  const own = skill.toLowerCase();
  const names = new Set([own]);
  for (const [canonical, variants] of Object.entries(SKILL_SYNONYMS))
    if (canonical === own || variants.includes(own)) [canonical, ...variants].forEach((n) => names.add(n));
  return [...names];
}

/** A skill's names (a plural too) as a sticky pattern, read at a match's start. */
const writtenAs = (skill: string): RegExp =>
  new RegExp(
    `(?:${namesOf(skill)
      .sort((a, b) => b.length - a.length)
      .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
      .join('|')})(?:s|es)?(?![\\p{L}\\p{N}])`,
    'iuy',
  );

/** The vocabulary by first term, longest entries first: the skills list and the synonyms' keys it does not name. */
const ENTRIES: ReadonlyMap<string, readonly Entry[]> = (() => {
  const entries: Entry[] = SKILLS.map((skill) => {
    const terms = termsOf(skill);
    const thing = terms.length === 1 && !skill.includes(' ') && !skill.endsWith('ing');
    return {
      name: skill,
      terms,
      key: terms.join(' '),
      written: thing ? writtenAs(skill) : null,
      cased: EVERYDAY.has(skill) ? 'everyday' : CAPITALISED.has(skill) ? 'capitalised' : null,
    };
  });
  // Each synonym key as it is written ("ML", "GCP", "USDA"), named as the skills list names its skill, if it does.
  const nameOf = new Map(SKILLS.map((s) => [skillKey(s), s]));
  const listed = new Set(entries.map((e) => e.terms.join(' ')));
  for (const key of Object.keys(SKILL_SYNONYMS)) {
    const terms = termsOf(key);
    if (listed.has(terms.join(' '))) continue;
    const name = nameOf.get(key) ?? null;
    entries.push({ name, terms, key: termsOf(name ?? key).join(' '), written: writtenAs(key), cased: null });
  }
  const byFirst = new Map<string, Entry[]>();
  for (const entry of entries.filter((e) => e.terms.length > 0))
    byFirst.set(entry.terms[0], [...(byFirst.get(entry.terms[0]) ?? []), entry]);
  for (const list of byFirst.values()) list.sort((a, b) => b.terms.length - a.terms.length);
  return byFirst;
})();

/**
 * Where a vocabulary match written as the skill ends (its name for a thing or a synonym key, its
 * capitals for an everyday word, not inside an abbreviation), or null when it is not so written.
 */
function writtenEnd(entry: Entry, clause: string, start: number, end: number): number | null {
  if (entry.written) {
    entry.written.lastIndex = start;
    if (!entry.written.test(clause)) return null;
    end = entry.written.lastIndex;
  }
  if (!entry.cased) return end;
  if (clause.slice(start, end) !== entry.name) return null;
  // "A/R", "R&D", "Go-live": part of something else.
  if (/[/&-]\s*$/.test(clause.slice(Math.max(0, start - 2), start)) || /^\s*[/&-]\s*\w/.test(clause.slice(end, end + 3))) return null;
  // Opening its clause, an everyday word is the skill only alone or in a list ("Excel, Word", "Rust"), not in a sentence ("Access to a car").
  const listed = clause.slice(0, start).trim().length > 0 || /^\s*(?:$|[,/(;]|(?:and|or)\s+\p{Lu})/u.test(clause.slice(end, end + 40));
  return entry.cased === 'capitalised' || listed ? end : null;
}

/** The vocabulary's skills in a clause, left to right, each where it is written. */
function vocabularyIn(clause: string): (SkillPhrase & { end: number })[] {
  const terms = analyze(clause);
  const found: (SkillPhrase & { end: number })[] = [];
  let reach = 0;
  for (let i = 0; i < terms.length; i++) {
    if (terms[i].start < reach) continue;
    for (const entry of ENTRIES.get(terms[i].term) ?? []) {
      const n = entry.terms.length;
      if (i + n > terms.length || !entry.terms.every((t, k) => terms[i + k].term === t)) continue;
      const start = terms[i].start;
      const end = writtenEnd(
        entry,
        clause,
        start,
        terms.slice(i, i + n).reduce((e, t) => Math.max(e, t.end), 0),
      );
      if (end === null) continue;
      const name = entry.name ?? clause.slice(start, end).replace(/\s+/g, ' ');
      found.push({ name, key: entry.key, start, end, vocabulary: true, properName: false });
      reach = end;
      i += n - 1;
      break;
    }
  }
  return found;
}

interface Word {
  text: string;
  lower: string;
  start: number;
  end: number;
}

/** A word: letters or digits, then letters, digits and the signs that join a word (`A&P`, `C++`, `month-end`, `driver's`, `A/B`). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.&+#/-]*/gu;
/** An abbreviation with dots ("e.g", "B.S", "U.S"). */
const DOTTED = /^(?:\p{L}\.)+\p{L}?$/u;
/** A word's prefix that leaves it the same verb ("co-running", "re-test"). */
const VERB_PREFIX = /^(?:co|re|pre|self|over|under)-/;
/** Endings of adjectives and participles: such a word says nothing alone ("technical", "tested"), nor before a skill ("annual external audit"). */
const ADJECTIVE_ALONE = /\p{L}{3}(?:ical|ful|ous|able|ible|ive|ed)$/u;
const ADJECTIVE_BEFORE_SKILL = /\p{L}{3}(?:al|ic|ful|ous|able|ible|ive|ed)$/u;
/** The vocabulary's one-word skills, lower-cased: written as names even opening a sentence ("Excel skills"). */
const SKILL_WORDS: ReadonlySet<string> = new Set(SKILLS.filter((s) => !s.includes(' ')).map((s) => s.toLowerCase()));
/** Capitalised, or a number after a capitalised word: a name's ("Office 365"). */
const capitalised = (w: Word) => /^\p{Lu}/u.test(w.text);
const NAME_NUMBER = /^\d{1,4}$/;

/** Whether a word can be part of a skill phrase (else it ends one); `of` is told apart, as it may join two words. */
function wordRole(word: Word, leading: boolean): 'content' | 'of' | 'break' {
  const { lower } = word;
  if (lower === 'of') return 'of';
  if (lower.length > MAX_WORD_CHARS || /^\p{N}/u.test(lower) || DOTTED.test(lower)) return 'break';
  const bare = lower.replace(/['’]s$/, '');
  if (STOP_WORDS.has(lower) || FUNCTION_WORDS.has(lower) || GENERIC_WORDS.has(lower) || GENERIC_WORDS.has(bare)) return 'break';
  // A verb's -ing form ends a phrase only where it starts one ("handling cash"): after a noun it is one ("requirements gathering").
  const verb = VERBS.has(lower) || VERBS.has(lower.replace(VERB_PREFIX, ''));
  if ((verb && (leading || !lower.endsWith('ing'))) || (leading && LEADING_VERBS.has(lower))) return 'break';
  if (lower.endsWith('ly') && lower.length > 4 && !LY_NOUNS.has(lower)) return 'break';
  return 'content';
}

/** The clause's words; a slash parts two words unless analysis keeps them one (`A/B`, `CI/CD`). */
function wordsOf(clause: string): Word[] {
  const found: Word[] = [];
  const add = (text: string, start: number) => {
    if (text) found.push({ text, lower: text.toLowerCase(), start, end: start + text.length });
  };
  for (const m of clause.matchAll(WORD)) {
    const text = m[0].replace(/[.'’&/-]+$/, '');
    if (!text.includes('/') || tokenize(text).length === 1) {
      add(text, m.index);
      continue;
    }
    let at = m.index;
    for (const part of text.split('/')) {
      add(part, at);
      at += part.length + 1;
    }
  }
  return found;
}

/**
 * Runs of content words: no stop word, generic word, verb, -ly adverb, number or punctuation
 * between them; "of" joins one word to what follows ("point of sale", "chart of accounts").
 */
function contentRuns(clause: string, words: readonly Word[], taken: readonly { start: number; end: number }[]): Word[][] {
  const runs: Word[][] = [];
  let run: Word[] = [];
  let joinsWithOf = false;
  const close = () => {
    if (joinsWithOf) run.pop();
    joinsWithOf = false;
    if (run.length) runs.push(run);
    run = [];
  };
  let next = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    // `taken` is in the order written, as the words are: one pass over both.
    while (next < taken.length && taken[next].end <= word.start) next++;
    const joined = run.length > 0 && /^\s+$/.test(clause.slice(words[i - 1].end, word.start));
    if (!joined) close();
    const inVocabulary = next < taken.length && taken[next].start < word.end;
    // A number after a name is part of it ("Office 365", "Read 180").
    const numbered = run.length > 0 && capitalised(run[run.length - 1]) && NAME_NUMBER.test(word.text);
    const role = inVocabulary ? 'break' : numbered ? 'content' : wordRole(word, run.length === 0);
    if (role === 'break') {
      close();
    } else if (role === 'of') {
      const followed = i + 1 < words.length && /^\s+$/.test(clause.slice(word.end, words[i + 1].start));
      if (run.length === 1 && followed) {
        run.push(word);
        joinsWithOf = true;
      } else close();
    } else {
      run.push(word);
      joinsWithOf = false;
    }
  }
  close();
  return runs;
}

/**
 * A run as phrases: itself, or when it has more than three content words, its parts where
 * capitalised words meet lower-case ones ("Air Force" and "aviation maintenance"), each its last
 * three content words, where English puts a phrase's head noun.
 */
function phrasesOfRun(run: Word[]): Word[][] {
  const content = run.filter((w) => w.lower !== 'of');
  if (content.length <= PHRASE_WORDS) return [run];
  const parts: Word[][] = [[content[0]]];
  for (let i = 1; i < content.length; i++) {
    // A name's number goes with the name.
    if (!NAME_NUMBER.test(content[i].text) && capitalised(content[i]) !== capitalised(content[i - 1])) parts.push([]);
    parts[parts.length - 1].push(content[i]);
  }
  return parts.map((part) => part.slice(-PHRASE_WORDS));
}

/**
 * The noun phrases of a clause that are no vocabulary skill (see `contentRuns`, `phrasesOfRun`).
 * A one-word phrase that says nothing alone ("management", "technical") is dropped, and so is
 * an adjective left before a vocabulary skill ("annual external" of "annual external audit").
 */
function nounPhrases(clause: string, taken: readonly { start: number; end: number }[]): SkillPhrase[] {
  const words = wordsOf(clause);
  const skillStarts = new Set(taken.map((t) => t.start));
  const phrases: SkillPhrase[] = [];
  for (const kept of contentRuns(clause, words, taken).flatMap(phrasesOfRun)) {
    const first = kept[0];
    const last = kept[kept.length - 1];
    // Alone, two letters are an abbreviation only in capitals ("IV", not "St").
    const tooShort = first.lower.length < 2 || (first.lower.length === 2 && first.text !== first.text.toUpperCase());
    if (kept.length === 1 && (tooShort || NOT_ALONE.has(first.lower) || ADJECTIVE_ALONE.test(first.lower))) continue;
    const afterLast = /\s*/y;
    afterLast.lastIndex = last.end;
    afterLast.test(clause);
    if (skillStarts.has(afterLast.lastIndex) && ADJECTIVE_BEFORE_SKILL.test(last.lower)) continue;
    let name = clause.slice(first.start, last.end).replace(/\s+/g, ' ');
    // A clause's first word is capitalised as the sentence's, not as a name ("Troubleshooting of …").
    const content = kept.filter((w) => w.lower !== 'of');
    const sentenceCase =
      clause.slice(0, first.start).trim() === '' && /^\p{Lu}\p{Ll}+$/u.test(first.text.replace(/-/g, '')) && !SKILL_WORDS.has(first.lower);
    if (sentenceCase && !content.slice(1).some((w) => capitalised(w) || NAME_NUMBER.test(w.text)))
      name = name.charAt(0).toLowerCase() + name.slice(1);
    const key = termsOf(name).join(' ');
    const properName = content.length > 1 && content.every(capitalised);
    if (key) phrases.push({ name, key, start: first.start, vocabulary: false, properName });
  }
  return phrases;
}

/** The skills a clause names: the vocabulary's first, then the noun phrases of the rest, in the order written. */
export function skillPhrases(clause: string): SkillPhrase[] {
  const vocabulary = vocabularyIn(clause);
  const phrases: SkillPhrase[] = [...vocabulary.map(({ end: _, ...p }) => p), ...nounPhrases(clause, vocabulary)];
  return phrases.sort((a, b) => a.start - b.start);
}
