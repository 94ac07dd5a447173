import type { api } from '@cs/contracts';
import type { ApiClient } from './api';
import { byId, el, replaceChildren, type Child } from './dom';
import type { FilterPanel } from './filter-panel';
import { completedSentence, resultCard } from './result-card';
import { followSearch, startSearch } from './search-run';
import { thisMonth, typeOf } from './upload-panel';
import { waitFor } from './waiting';

type JobCriteria = NonNullable<api.SearchCreated['criteria']>;
type Assessment = NonNullable<api.ResultItem['match']>['criteria'][number];
type Criterion = Assessment['criterion'];

/** The posting's text is read up to here by the API; a longer one is refused before it is sent. */
const MAX_POSTING_CHARS = 20_000;
/** A dropped or chosen text file is read into the box when it is at most this big. */
const MAX_FILE_BYTES = 200_000;
/** A PDF, DOCX or DOC posting is uploaded as a job posting when it is at most this big (the API's upload limit). */
const MAX_POSTING_FILE_BYTES = 10 * 1024 * 1024;
/** How long an uploaded posting may take to be read before the panel gives up waiting. */
const POSTING_READ_DEADLINE_MS = 120_000;

const STATUS_WORDS: Record<Assessment['status'], string> = { met: 'met', partly: 'partly', missing: 'missing', unknown: 'not said' };

/**
 * Match a job posting: paste or drop a posting's text, and the service reads its criteria and
 * ranks the company's CVs against them. The criteria come back as chips a recruiter can remove
 * (a skill, the years, the place…), then run again without reading the posting; each result
 * lists the criteria it meets, partly meets, misses or does not say, with the passage that shows
 * each. The filter panel's filters apply, as to every search.
 */
export class MatchPanel {
  private readonly form = byId('match-form', HTMLFormElement);
  private readonly posting = byId('match-posting', HTMLTextAreaElement);
  private readonly file = byId('match-file', HTMLInputElement);
  private readonly strict = byId('match-strict', HTMLInputElement);
  private readonly status = byId('match-status', HTMLParagraphElement);
  private readonly criteriaBox = byId('match-criteria', HTMLElement);
  private readonly chips = byId('match-chips', HTMLDivElement);
  private readonly rerun = byId('match-rerun', HTMLButtonElement);
  private readonly list = byId('match-results', HTMLOListElement);
  private readonly outcome = byId('match-outcome', HTMLElement);
  private readonly outcomeBody = byId('match-outcome-body', HTMLDivElement);
  private criteria: JobCriteria | null = null;
  /** A PDF, DOCX or DOC posting chosen, uploaded as a job posting when Match is pressed; null when the box's text is the posting. */
  private postingFile: File | null = null;
  private abort = new AbortController();

  constructor(
    private readonly client: () => ApiClient | null,
    private readonly filters: FilterPanel,
  ) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (this.postingFile) {
        void this.runFile(this.postingFile);
        return;
      }
      const text = this.posting.value;
      if (!text.trim()) {
        this.say('Paste a job posting first.');
        return;
      }
      if (text.length > MAX_POSTING_CHARS) {
        this.say(`The posting holds ${text.length} characters; at most ${MAX_POSTING_CHARS} are read.`);
        return;
      }
      void this.run({ jobDescription: text });
    });
    this.rerun.addEventListener('click', () => {
      if (this.criteria) void this.run({ criteria: this.criteria });
    });
    this.file.addEventListener('change', () => {
      const [chosen] = this.file.files ?? [];
      if (chosen) void this.readFile(chosen);
    });
    // Typing a posting replaces a chosen file.
    this.posting.addEventListener('input', () => (this.postingFile = null));
    this.posting.addEventListener('dragover', (event) => event.preventDefault());
    this.posting.addEventListener('drop', (event) => {
      const [dropped] = event.dataTransfer?.files ?? [];
      if (!dropped) return;
      event.preventDefault();
      void this.readFile(dropped);
    });
  }

  private say(text: string): void {
    this.status.textContent = text;
  }

  /**
   * A text file's contents into the posting's box; a PDF, DOCX or DOC kept, to be uploaded as a
   * job posting when Match is pressed; other files refused with what to do.
   */
  private async readFile(file: File): Promise<void> {
    const type = typeOf(file);
    if (type && type !== 'text/plain') {
      if (file.size > MAX_POSTING_FILE_BYTES) {
        this.say(`${file.name} is over 10 MB, the most the API takes.`);
        return;
      }
      this.postingFile = file;
      this.posting.value = '';
      this.say(`${file.name} chosen: press Match to upload it as a job posting and match it.`);
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      this.say(`${file.name} is over ${MAX_FILE_BYTES / 1000} KB: paste the posting's text.`);
      return;
    }
    const text = await file.text();
    if (text.includes('\u0000')) {
      this.say(`${file.name} is neither text nor a PDF, DOCX or DOC file: paste the posting's text.`);
      return;
    }
    this.postingFile = null;
    this.posting.value = text;
    this.say(`${file.name} read: press Match.`);
  }

  /** Uploads a posting's file as a job posting (`kind: "job"`), waits until it is read, and matches by it. */
  private async runFile(file: File): Promise<void> {
    const client = this.client();
    if (!client) return;
    this.abort.abort(new Error('replaced by another match'));
    const abort = (this.abort = new AbortController());
    replaceChildren(this.list, []);
    this.outcome.hidden = true;
    try {
      this.say(`Uploading ${file.name} as a job posting…`);
      const query = new URLSearchParams({
        documentName: file.name.replace(/\.[^.]+$/, '') || file.name,
        documentDate: thisMonth(),
        fileName: file.name,
        kind: 'job',
      });
      const accepted = await client.request<api.UploadAccepted>('POST', `/v1/public/documents/upload-direct?${query.toString()}`, {
        file,
        contentType: typeOf(file),
        signal: abort.signal,
      });
      this.say(`Reading ${file.name}…`);
      const read = await waitFor(
        (headers) =>
          client.get<api.Document>(`/v1/public/documents/${encodeURIComponent(accepted.body.documentId)}`, {
            headers,
            signal: abort.signal,
          }),
        (d) => d.status === 'completed' || d.status === 'invalid' || d.status === 'failed',
        { deadlineMs: POSTING_READ_DEADLINE_MS, signal: abort.signal },
      );
      if (read.kind !== 'job') {
        this.say(`${file.name} was uploaded before as a CV: upload the posting's own file, or paste its text.`);
        return;
      }
      if (read.status !== 'completed') {
        this.say(`${file.name} could not be read as a job posting: ${read.error?.message ?? read.message ?? read.status}`);
        return;
      }
      await this.run({ jobDescriptionDocumentId: read.documentId }, abort);
    } catch (error) {
      if (abort.signal.aborted) return;
      this.say(`stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async run(
    subject: { jobDescription: string } | { jobDescriptionDocumentId: string } | { criteria: JobCriteria },
    /** The run's abort, when it continues one (an uploaded posting's). */
    continuing?: AbortController,
  ): Promise<void> {
    const client = this.client();
    if (!client) return;
    if (!continuing) this.abort.abort(new Error('replaced by another match'));
    const abort = continuing ?? (this.abort = new AbortController());
    const filters = this.filters.current();
    const say = (text: string) => this.say(text);
    replaceChildren(this.list, []);
    this.outcome.hidden = true;
    say('Reading the posting…');
    const body = { ...subject, ...(this.strict.checked ? { strict: true } : {}), ...(filters ? { filters } : {}) };
    try {
      const created = await startSearch(client, '/v1/public/searches/match', body, this.filters, { signal: abort.signal, say });
      if (!created || created === 'filters refused') return;
      if (created.criteria) this.showCriteria(created.criteria);
      const results = await followSearch(client, created, { signal: abort.signal, say });
      if (!results) return;
      say(completedSentence(results));
      replaceChildren(
        this.list,
        results.results.length
          ? results.results.map((item) => this.card(item))
          : [el('li', { class: 'empty' }, [`No CV matched${created.strict ? ' every requirement' : ''}.`])],
      );
      this.showOutcome(results);
    } catch (error) {
      if (abort.signal.aborted) return;
      say(`stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** A result card, with the criteria it meets and misses under it. */
  private card(item: api.ResultItem): HTMLLIElement {
    const card = resultCard(item);
    if (!item.match) return card;
    const met = item.match.criteria.filter((c) => c.status === 'met').length;
    card.append(
      el('p', { class: 'match-score' }, [`Criteria met: ${met} of ${item.match.criteria.length} (score ${item.match.score.toFixed(2)})`]),
      el(
        'ul',
        { class: 'criteria-list', 'aria-label': 'Criteria' },
        item.match.criteria.map((c) =>
          el('li', { class: `criterion ${c.status}`, title: c.evidence[0]?.text ?? '' }, [
            el('span', { class: 'criterion-status' }, [STATUS_WORDS[c.status]]),
            ' ',
            c.criterion.name,
            c.criterion.kind === 'skill' && !c.criterion.required ? ' (nice to have)' : '',
          ]),
        ),
      ),
    );
    return card;
  }

  /**
   * How many CVs meet every requirement; each requirement that keeps some out as a button that
   * loosens it (a required skill becomes nice to have, the rest is dropped) and runs again; and
   * the near misses, with the one requirement each misses.
   */
  private showOutcome(results: api.SearchResults): void {
    if (results.candidatesMeetingAll === undefined) return;
    const meeting = results.candidatesMeetingAll;
    const loosening = (results.relaxations ?? []).filter((r) => r.additionalCandidates > 0);
    const near = results.nearMisses ?? [];
    replaceChildren(this.outcomeBody, [
      el('p', {}, [meeting === 1 ? '1 CV meets every requirement.' : `${meeting} CVs meet every requirement.`]),
      loosening.length
        ? el('div', { class: 'criteria-group' }, [
            el('p', { class: 'criteria-label' }, ['Loosen a requirement']),
            el(
              'ul',
              { class: 'relaxations', 'aria-label': 'Loosen a requirement' },
              loosening.map((r) => {
                const button = el('button', { type: 'button', class: 'secondary' }, [
                  `${r.criterion.name}: +${r.additionalCandidates} CV${r.additionalCandidates === 1 ? '' : 's'}`,
                ]);
                button.addEventListener('click', () => {
                  if (!this.criteria) return;
                  const loosened = loosen(this.criteria, r.criterion);
                  this.showCriteria(loosened);
                  void this.run({ criteria: loosened });
                });
                return el('li', {}, [button]);
              }),
            ),
          ])
        : null,
      near.length
        ? el('div', { class: 'criteria-group' }, [
            el('p', { class: 'criteria-label' }, ['Near misses']),
            el(
              'ul',
              { class: 'near-misses', 'aria-label': 'Near misses' },
              near.map((n) =>
                el('li', {}, [n.documentName, ' ', el('span', { class: 'criterion missing' }, [`missing ${n.missing.name}`])]),
              ),
            ),
          ])
        : null,
    ]);
    this.outcome.hidden = false;
  }

  /** The criteria as chips, each removable; the title and what is not a list stay as read. */
  private showCriteria(criteria: JobCriteria): void {
    this.criteria = criteria;
    this.criteriaBox.hidden = false;
    const chip = (label: string, name: string): HTMLLIElement =>
      el('li', { class: 'name-chip' }, [
        name,
        el('button', { type: 'button', class: 'chip-remove', 'aria-label': `Remove ${label} ${name}` }, ['×']),
      ]);
    const list = (label: string, chips: [string, (c: JobCriteria) => JobCriteria][]): Child =>
      chips.length
        ? el('div', { class: 'criteria-group' }, [
            el('p', { class: 'criteria-label' }, [label]),
            el(
              'ul',
              { class: 'name-chips', 'aria-label': label },
              chips.map(([name, remove]) => this.removable(chip(label, name), remove)),
            ),
          ])
        : null;
    const without = (list: 'required' | 'preferred', name: string) => (c: JobCriteria) => ({
      ...c,
      skills: { ...c.skills, [list]: c.skills[list].filter((s) => s.name !== name) },
    });
    const other: [string, (c: JobCriteria) => JobCriteria][] = [
      ...(criteria.experienceYears
        ? [[`${criteria.experienceYears.min}+ years`, (c: JobCriteria) => ({ ...c, experienceYears: null })]]
        : []),
      ...(criteria.degree ? [[`${criteria.degree.min} or above`, (c: JobCriteria) => ({ ...c, degree: null })]] : []),
      ...(criteria.seniority ? [[criteria.seniority, (c: JobCriteria) => ({ ...c, seniority: null })]] : []),
      ...(criteria.location
        ? [
            [
              'remote' in criteria.location ? 'remote' : `${criteria.location.place} within ${criteria.location.radiusKm} km`,
              (c: JobCriteria) => ({ ...c, location: null }),
            ],
          ]
        : []),
      ...criteria.languages.map((language): [string, (c: JobCriteria) => JobCriteria] => [
        language,
        (c) => ({ ...c, languages: c.languages.filter((l) => l !== language) }),
      ]),
    ] as [string, (c: JobCriteria) => JobCriteria][];
    replaceChildren(this.chips, [
      el('p', { class: 'criteria-title' }, [`Title: ${criteria.title ?? 'none read'}`]),
      list(
        'Required skills',
        criteria.skills.required.map((s) => [s.name, without('required', s.name)]),
      ),
      list(
        'Nice to have',
        criteria.skills.preferred.map((s) => [s.name, without('preferred', s.name)]),
      ),
      list('Also asked', other),
    ]);
  }

  /** A chip whose button removes its criterion from the criteria the next run sends. */
  private removable(chip: HTMLLIElement, remove: (c: JobCriteria) => JobCriteria): HTMLLIElement {
    chip.querySelector('button')?.addEventListener('click', () => {
      if (!this.criteria) return;
      this.criteria = remove(this.criteria);
      chip.remove();
      this.rerun.focus();
    });
    return chip;
  }
}

/** Most skills either list of criteria holds, as the API takes them. */
const MAX_SKILLS = 30;

/** The criteria with one requirement loosened: a required skill becomes nice to have (dropped when that list is full), any other is dropped. */
export function loosen(criteria: JobCriteria, criterion: Criterion): JobCriteria {
  switch (criterion.kind) {
    case 'skill': {
      const skill = criteria.skills.required.find((s) => s.name === criterion.name);
      if (!skill) return criteria;
      return {
        ...criteria,
        skills: {
          required: criteria.skills.required.filter((s) => s !== skill),
          preferred: criteria.skills.preferred.length < MAX_SKILLS ? [...criteria.skills.preferred, skill] : criteria.skills.preferred,
        },
      };
    }
    case 'experienceYears':
      return { ...criteria, experienceYears: null };
    case 'degree':
      return { ...criteria, degree: null };
    case 'location':
      return { ...criteria, location: null };
    case 'language':
      return { ...criteria, languages: criteria.languages.filter((l) => l !== criterion.name) };
    default:
      return criteria;
  }
}
