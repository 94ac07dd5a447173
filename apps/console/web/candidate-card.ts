import type { api } from '@cs/contracts';
import { el, type Child } from './dom';
import { marked } from './result-card';

type ResultItem = api.ResultItem;
type Contact = NonNullable<ResultItem['contact']>;
type Profile = NonNullable<ResultItem['profile']>;

/**
 * Below this relevance (the reranker's score, 0 to 1, that a hybrid search ranks by) a card is
 * marked "Weak match": the CV shares little with the query beyond general words. The service
 * ranks every CV that passes the filters, so a small library's list always reaches them.
 */
export const WEAK_MATCH_SCORE = 0.1;

/** The candidate's name as read from the CV, or null when none was. */
export function candidateName(contact: Contact | null): string | null {
  const name = [contact?.firstName, contact?.lastName].filter(Boolean).join(' ');
  return name || null;
}

/** "Austin, TX, United States": the place the CV's header states, as the gazetteer knows it, else as written. */
export function placeOf(profile: Profile | null, contact: Contact | null): string | null {
  const place = profile?.location;
  if (place) return [place.city, place.regionCode ?? place.region, place.country].filter(Boolean).join(', ');
  const stated = contact?.location;
  return stated ? [stated.city, stated.country].filter(Boolean).join(', ') || null : null;
}

/** The heading a candidate goes by: their name, or "Candidate" and the file's name when none was read. */
export function candidateHeading(contact: Contact | null, documentName: string | null): string {
  return candidateName(contact) ?? `Candidate · ${documentName ?? 'deleted CV'}`;
}

/** Labelled facts of a profile, for cards and the CV pane: [label, value]. */
export function profileFacts(profile: Profile | null, contact: Contact | null): [string, string][] {
  const facts: [string, string | null][] = [
    ['Role', profile?.specialization ?? null],
    ['Experience', profile?.experienceYears == null ? null : `${profile.experienceYears} years`],
    ['Location', placeOf(profile, contact)],
    ['Seniority', profile?.seniorityLevel ?? null],
    ['Domain', profile?.domain ?? null],
  ];
  return facts.filter((fact): fact is [string, string] => fact[1] !== null);
}

/**
 * One candidate of the ranked list: name and role, years and place, labelled chips (skills,
 * seniority, domain), the passage that matched, and one relevance figure, marked weak below
 * WEAK_MATCH_SCORE. Selecting it (click, Enter) opens the CV beside the list.
 */
export function candidateCard(item: ResultItem): HTMLLIElement {
  const relevance = Math.round(item.score * 100);
  const weak = item.score < WEAK_MATCH_SCORE;
  const facts = profileFacts(item.profile, item.contact);
  const skills = item.profile?.technicalStack.slice(0, 5) ?? [];
  const highlight = item.highlights[0];
  const chips: Child[] = [
    skills.length ? chip('Skills', skills.join(', ')) : null,
    item.profile?.seniorityLevel ? chip('Seniority', item.profile.seniorityLevel) : null,
    item.profile?.domain ? chip('Domain', item.profile.domain) : null,
  ];
  return el(
    'li',
    {
      class: `candidate${weak ? ' weak' : ''}`,
      tabindex: 0,
      'data-document-id': item.documentId,
      'aria-label': `${item.rank}. ${candidateHeading(item.contact, item.documentName)}, relevance ${relevance} of 100${weak ? ', weak match' : ''}`,
    },
    [
      el('div', { class: 'candidate-head' }, [
        el('span', { class: 'rank' }, [`${item.rank}`]),
        el('span', { class: 'candidate-name' }, [candidateHeading(item.contact, item.documentName)]),
        el('span', { class: 'relevance', title: 'Relevance, 0 to 100: how well the CV answers the query' }, [
          el('span', { class: 'visually-hidden' }, ['Relevance ']),
          `${relevance}`,
        ]),
        weak ? el('span', { class: 'weak-marker' }, ['Weak match']) : null,
      ]),
      facts.length
        ? el(
            'p',
            { class: 'candidate-facts' },
            facts
              .filter(([label]) => label === 'Role' || label === 'Experience' || label === 'Location')
              .flatMap(([label, value], i) => [i ? ' · ' : '', el('span', { class: 'visually-hidden' }, [`${label}: `]), value]),
          )
        : null,
      highlight ? el('p', { class: 'highlight' }, marked(highlight)) : null,
      chips.some(Boolean) ? el('ul', { class: 'labelled-chips', 'aria-label': 'Profile' }, chips) : null,
    ],
  );
}

function chip(label: string, value: string): HTMLLIElement {
  return el('li', {}, [el('span', { class: 'chip-label' }, [`${label}: `]), value]);
}
