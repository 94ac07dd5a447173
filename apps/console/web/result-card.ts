import type { api } from '@cs/contracts';
import { el, type Child } from './dom';

type ResultItem = api.ResultItem;

const STAGES = ['dense', 'sparse', 'fused', 'rerank'] as const;
const score = (value: number): string => value.toFixed(3);

/** The line under a completed search's title: how many CVs, how long, and its reranker. */
export function completedSentence(results: api.SearchResults): string {
  const time = results.metadata.processingTimeMs;
  const reranker = results.metadata.reranker;
  return [
    `completed: ${results.totalResults} CV${results.totalResults === 1 ? '' : 's'}`,
    time === null ? '' : ` in ${time} ms`,
    reranker ? `, reranker ${reranker.provider}${reranker.degraded ? ' (degraded)' : ''}` : '',
  ].join('');
}

/** A search's results as cards, or one line saying `empty` when it found none. */
export function resultCards(results: api.SearchResults, empty: string): HTMLLIElement[] {
  return results.results.length ? results.results.map(resultCard) : [el('li', { class: 'empty' }, [empty])];
}

/**
 * One result: rank, CV name, score and the scores per stage, matched terms, highlights with
 * their matches marked, profile chips, a "More like this" button (for a CV not deleted), and a
 * line the comparison fills with where else it was found. All of it text nodes.
 */
export function resultCard(item: ResultItem): HTMLLIElement {
  const stages = STAGES.filter((stage) => item.scores[stage] !== undefined);
  const profile = item.profile;
  // [what it is, value]: the field's name is read out (visually hidden), so "senior" or "9 years" is not left to guess.
  const chips: [string, string][] = profile
    ? (
        [
          ['Domain', profile.domain],
          ['Specialization', profile.specialization],
          ['Seniority', profile.seniorityLevel],
          ['Experience', profile.experienceYears === null ? null : `${profile.experienceYears} years`],
          ['Management', profile.hasManagement ? 'manages people' : null],
          ...profile.technicalStack.slice(0, 6).map((skill) => ['Skill', skill]),
          ...profile.industries.map((industry) => ['Industry', industry]),
        ] as [string, string | null][]
      ).filter((chip): chip is [string, string] => !!chip[1])
    : [];
  const name = item.documentName;
  return el('li', { class: 'result', tabindex: 0, 'data-document-id': item.documentId }, [
    el('div', { class: 'result-head' }, [
      el('span', { class: 'rank' }, [`#${item.rank}`]),
      el('span', { class: 'document-name' }, [name ?? 'deleted CV']),
      el('span', { class: 'score', title: 'score: the last stage’s' }, [score(item.score)]),
    ]),
    stages.length
      ? el(
          'dl',
          { class: 'stage-scores' },
          stages.flatMap((stage) => [el('dt', {}, [stage]), el('dd', {}, [score(item.scores[stage] ?? 0)])]),
        )
      : null,
    item.matchedTerms.length
      ? el('p', { class: 'terms' }, [
          'Matched: ',
          ...item.matchedTerms.flatMap((term, i) => [i ? ', ' : '', el('span', { class: 'term' }, [term])]),
        ])
      : null,
    ...item.highlights.slice(0, 2).map((highlight) => el('p', { class: 'highlight' }, marked(highlight))),
    chips.length
      ? el(
          'ul',
          { class: 'chips', 'aria-label': 'Profile' },
          chips.map(([field, value]) => el('li', { title: field }, [el('span', { class: 'visually-hidden' }, [`${field}: `]), value])),
        )
      : null,
    el('p', { class: 'found-by' }),
    // A deleted CV has no words or vector left to start from.
    name !== null && !item.documentDeleted
      ? el(
          'button',
          {
            type: 'button',
            class: 'more-like secondary',
            'data-document-id': item.documentId,
            'data-document-name': name,
            'aria-label': `More like this: ${name}`,
          },
          ['More like this'],
        )
      : null,
  ]);
}

/** A highlight's text with its matched terms in <mark>, all as text nodes. */
export function marked(highlight: ResultItem['highlights'][number]): Child[] {
  const text = highlight.text;
  const parts: Child[] = [];
  let at = 0;
  for (const match of [...highlight.matches].sort((a, b) => a.start - b.start)) {
    const start = Math.max(at, Math.min(text.length, match.start));
    const end = Math.max(start, Math.min(text.length, match.end));
    if (start > at) parts.push(text.slice(at, start));
    if (end > start) parts.push(el('mark', {}, [text.slice(start, end)]));
    at = end;
  }
  parts.push(text.slice(at));
  return ['…', ...parts, '…'];
}
