import { SENIORITY_LEVELS, type SearchFilters } from '@candidate-search/client';
import { append, byId, el, replaceChildren, type Child } from './dom';
import {
  DEGREE_CHOICES,
  TOP_SKILLS,
  addNames,
  countsOf,
  degreeAtLeastCounts,
  emptyFilterState,
  filtersOf,
  isSeniority,
  parseFilterState,
  passingSentence,
  refusedFields,
  withSeen,
  yearBands,
  type FilterState,
  type SearchFacets,
  type ShownCount,
} from './filter-state';

const STORAGE_KEY = 'candidate-search-console.filters';
type NameListKey = 'skillsAll' | 'skillsNone' | 'languages';

/** `12` beside a choice, read as "12 CVs"; a zero count dims its choice (kept, not removed). */
function countBadge(count: number | undefined): Child {
  if (count === undefined) return null;
  return el('span', { class: 'count' }, [String(count), el('span', { class: 'visually-hidden' }, [count === 1 ? ' CV' : ' CVs'])]);
}

/**
 * A text input taking comma-separated names, shown as removable chips below it. Enter (or
 * leaving the field) turns what was typed into chips.
 */
class NameList {
  constructor(
    readonly input: HTMLInputElement,
    private readonly list: HTMLUListElement,
    private readonly what: string,
    private readonly onChange: (names: string[]) => void,
  ) {
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || !input.value.trim()) return;
      // Enter in a field with text adds it; Enter in an empty one searches, as in the other fields.
      event.preventDefault();
      this.commit();
    });
    input.addEventListener('change', () => {
      this.commit();
    });
  }

  private names: string[] = [];

  set(names: string[]): void {
    this.names = names;
    this.render();
  }

  /** What was typed and not yet added becomes chips. */
  commit(): void {
    if (!this.input.value.trim()) return;
    this.names = addNames(this.names, this.input.value);
    this.input.value = '';
    this.render();
    this.onChange(this.names);
  }

  private remove(name: string): void {
    this.names = this.names.filter((n) => n !== name);
    this.render();
    this.onChange(this.names);
    // The chip and its button are gone: focus goes back to the field rather than to the page.
    this.input.focus();
  }

  private render(): void {
    replaceChildren(
      this.list,
      this.names.map((name) => {
        const remove = el('button', { type: 'button', class: 'chip-remove', 'aria-label': `Remove ${name} from ${this.what}` }, ['×']);
        remove.addEventListener('click', () => {
          this.remove(name);
        });
        return el('li', { class: 'name-chip', 'data-name': name }, [el('span', {}, [name]), remove]);
      }),
    );
  }
}

/**
 * The filters beside the search: what every search of a group carries as `filters`, and the
 * counts of the last search's `facets` beside each choice. The panel is kept in this tab's
 * session storage, as the key is, so a reload keeps it.
 */
export class FilterPanel {
  private readonly form = byId('filter-form', HTMLFormElement);
  private readonly error = byId('filter-error', HTMLParagraphElement);
  private readonly summary = byId('facet-summary', HTMLParagraphElement);
  private readonly minYears = byId('filter-min-years', HTMLInputElement);
  private readonly seniorityBox = byId('filter-seniority', HTMLFieldSetElement);
  private readonly degree = byId('filter-degree', HTMLSelectElement);
  private readonly near = byId('filter-near', HTMLInputElement);
  private readonly radius = byId('filter-radius', HTMLInputElement);
  private readonly dateFrom = byId('filter-date-from', HTMLInputElement);
  private readonly dateTo = byId('filter-date-to', HTMLInputElement);
  private readonly lists: Record<NameListKey, NameList>;
  private readonly seniority = new Map<string, { box: HTMLInputElement; label: HTMLLabelElement }>();
  private state: FilterState;
  /** The last counts shown and the filters they were counted under (JSON), to say when the panel has changed since. */
  private facets: { counts: SearchFacets; filters: string } | null = null;
  /** Open-ended values seen in any count so far, shown at 0 once the filters leave them out. */
  private readonly seen = { skills: new Set<string>(), location: new Set<string>(), domain: new Set<string>() };
  private applyHandler: () => void = () => undefined;

  constructor() {
    const list = (key: NameListKey, id: string, what: string) =>
      new NameList(byId(id, HTMLInputElement), byId(`${id}-chips`, HTMLUListElement), what, (names) => {
        this.update({ [key]: names });
      });
    this.lists = {
      skillsAll: list('skillsAll', 'filter-skills-all', 'skills required'),
      skillsNone: list('skillsNone', 'filter-skills-none', 'skills excluded'),
      languages: list('languages', 'filter-languages', 'languages'),
    };
    for (const level of SENIORITY_LEVELS) {
      const id = `filter-seniority-${level}`;
      const box = el('input', { type: 'checkbox', id, value: level });
      const label = el('label', { for: id, class: 'check' }, [box, ` ${level}`]);
      box.addEventListener('change', () => {
        this.update({ seniority: SENIORITY_LEVELS.filter((l) => this.seniority.get(l)?.box.checked) });
      });
      this.seniority.set(level, { box, label });
      this.seniorityBox.append(label);
    }
    for (const [input, key] of [
      [this.minYears, 'minYears'],
      [this.near, 'near'],
      [this.radius, 'radiusKm'],
      [this.dateFrom, 'dateFrom'],
      [this.dateTo, 'dateTo'],
    ] as const)
      input.addEventListener('input', () => {
        this.update({ [key]: input.value });
      });
    this.degree.addEventListener('change', () => {
      const value = this.degree.value;
      this.update({ degreeAtLeast: DEGREE_CHOICES.find((d) => d === value) ?? '' });
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.applyHandler();
    });
    byId('filter-clear', HTMLButtonElement).addEventListener('click', () => {
      this.state = emptyFilterState();
      this.show();
      this.save();
      this.clearError();
      this.renderState();
    });
    this.state = parseFilterState(this.read());
    this.show();
    this.renderFacets();
  }

  /** What submitting the panel does (runs the search). */
  onApply(handler: () => void): void {
    this.applyHandler = handler;
  }

  /** The filters for the next search, with any typed names not yet added as chips taken in first; null when none is set. */
  current(): SearchFilters | null {
    for (const names of Object.values(this.lists)) names.commit();
    return filtersOf(this.state);
  }

  /** A search with these filters starts: the last refusal no longer applies. */
  searching(): void {
    this.clearError();
  }

  /** A search's counts (`passing`: the same for every search of the group), counted under `filters`. */
  showFacets(counts: SearchFacets, filters: SearchFilters | null): void {
    const fields = counts.passing.fields;
    for (const value of fields.skills ?? []) this.seen.skills.add(value.value);
    for (const value of fields.location ?? []) this.seen.location.add(value.value);
    for (const value of fields.domain ?? []) this.seen.domain.add(value.value);
    this.facets = { counts, filters: JSON.stringify(filters) };
    this.renderFacets();
  }

  /** The service refused the filters (400): its message beside the panel, the fields it names marked; the panel is left as it is. */
  refused(message: string): void {
    this.clearError();
    this.error.textContent = message;
    for (const field of refusedFields(message).fields) this.controlsOf(field).forEach((c) => c.setAttribute('aria-invalid', 'true'));
  }

  /** Whether a 400's message is about the filters (then the panel shows it). */
  static isAboutFilters(message: string): boolean {
    return refusedFields(message).aboutFilters;
  }

  private clearError(): void {
    this.error.textContent = '';
    for (const invalid of this.form.querySelectorAll('[aria-invalid]')) invalid.removeAttribute('aria-invalid');
  }

  private controlsOf(field: keyof FilterState): HTMLElement[] {
    switch (field) {
      case 'skillsAll':
      case 'skillsNone':
      case 'languages':
        return [this.lists[field].input];
      case 'minYears':
        return [this.minYears];
      case 'seniority':
        return [...this.seniority.values()].map((s) => s.box);
      case 'degreeAtLeast':
        return [this.degree];
      case 'near':
        return [this.near];
      case 'radiusKm':
        return [this.radius];
      case 'dateFrom':
        return [this.dateFrom];
      case 'dateTo':
        return [this.dateTo];
    }
  }

  private update(change: Partial<FilterState>): void {
    this.state = { ...this.state, ...change };
    this.save();
    this.renderState();
  }

  /** The state into the controls (at start, and after Clear). */
  private show(): void {
    const s = this.state;
    this.lists.skillsAll.set(s.skillsAll);
    this.lists.skillsNone.set(s.skillsNone);
    this.lists.languages.set(s.languages);
    this.minYears.value = s.minYears;
    for (const [level, { box }] of this.seniority) box.checked = isSeniority(level) && s.seniority.includes(level);
    this.near.value = s.near;
    this.radius.value = s.radiusKm;
    this.dateFrom.value = s.dateFrom;
    this.dateTo.value = s.dateTo;
    this.renderDegrees();
  }

  /** What follows the panel as it changes: the count line (which says when the counts are of other filters) and the pressed skill chips. */
  private renderState(): void {
    let line = 'Counts show after a search.';
    let changed = false;
    if (this.facets) {
      changed = JSON.stringify(filtersOf(this.state)) !== this.facets.filters;
      line = passingSentence(this.facets.counts.passing.cvs, this.facets.filters !== 'null');
      if (changed) line += '. The filters changed since: search again to count them.';
    }
    // A live region: written only when it says something new.
    if (this.summary.textContent !== line) this.summary.textContent = line;
    this.summary.classList.toggle('stale', changed);
    const required = new Set(this.state.skillsAll.map((s) => s.toLowerCase()));
    for (const chip of byId('facet-skills', HTMLUListElement).querySelectorAll<HTMLButtonElement>('.facet-chip'))
      chip.setAttribute('aria-pressed', String(required.has((chip.dataset.value ?? '').toLowerCase())));
  }

  /** The counts beside the choices, drawn when a search brings new ones (and at start, with none). */
  private renderFacets(): void {
    const fields = this.facets?.counts.passing.fields;
    // Seniority: every level stays; the count beside it, dimmed at 0.
    const seniority = fields ? countsOf(fields.seniority) : null;
    for (const [level, { label }] of this.seniority) {
      const count = seniority ? (seniority.get(level) ?? 0) : undefined;
      label.querySelector('.count')?.remove();
      append(label, [countBadge(count)]);
      label.classList.toggle('zero', count === 0);
    }
    this.renderDegrees();
    this.renderSkillChips(fields?.skills);
    this.renderList('facet-years', fields ? yearBands(fields.experienceYears) : null);
    this.renderList('facet-regions', fields ? withSeen(fields.location, this.seen.location, true) : null);
    this.renderList('facet-domains', fields ? withSeen(fields.domain, this.seen.domain, true) : null);
    this.renderState();
  }

  /** The degree choices, made once; their counts are written into them (the select keeps its focus and value). */
  private renderDegrees(): void {
    if (this.degree.options.length === 0)
      append(this.degree, [el('option', { value: '' }, ['Any']), ...DEGREE_CHOICES.map((level) => el('option', { value: level }))]);
    const fields = this.facets?.counts.passing.fields;
    const atLeast = fields ? degreeAtLeastCounts(fields.degree) : null;
    for (const option of this.degree.options) {
      const level = DEGREE_CHOICES.find((d) => d === option.value);
      if (!level) continue;
      const count = atLeast?.get(level);
      const name = level === 'doctorate' ? level : `${level} or higher`;
      option.textContent = count === undefined ? name : `${name} (${count} CV${count === 1 ? '' : 's'})`;
      option.classList.toggle('zero', count === 0);
      if (count === undefined) delete option.dataset.count;
      else option.dataset.count = String(count);
    }
    this.degree.value = this.state.degreeAtLeast;
  }

  private renderSkillChips(counts: SearchFacets['passing']['fields']['skills']): void {
    const box = byId('facet-skills-box', HTMLDivElement);
    box.hidden = counts === undefined;
    if (!counts) return;
    const chips = withSeen(counts, this.seen.skills, counts.length < TOP_SKILLS).map(({ value, count }) => {
      // aria-pressed (whether the skill is required) is set by renderState.
      const chip = el('button', { type: 'button', class: `facet-chip${count === 0 ? ' zero' : ''}`, 'data-value': value }, [
        value,
        ' ',
        countBadge(count),
      ]);
      chip.addEventListener('click', () => {
        const names =
          chip.getAttribute('aria-pressed') === 'true'
            ? this.state.skillsAll.filter((s) => s.toLowerCase() !== value.toLowerCase())
            : addNames(this.state.skillsAll, value);
        this.lists.skillsAll.set(names);
        this.update({ skillsAll: names });
      });
      return el('li', {}, [chip]);
    });
    replaceChildren(byId('facet-skills', HTMLUListElement), chips);
  }

  private renderList(id: string, shown: ShownCount[] | null): void {
    const list = byId(id, HTMLUListElement);
    const box = byId(`${id}-box`, HTMLDivElement);
    box.hidden = shown === null;
    replaceChildren(
      list,
      (shown ?? []).map(({ value, count }) =>
        el('li', { class: count === 0 ? 'zero' : null, 'data-value': value }, [
          el('span', { class: 'facet-value' }, [value]),
          countBadge(count),
        ]),
      ),
    );
  }

  private read(): string | null {
    try {
      return sessionStorage.getItem(STORAGE_KEY);
    } catch {
      return null;
    }
  }

  private save(): void {
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(this.state));
    } catch {
      // Storage refused (full, or off): the panel still works, it is just not kept.
    }
  }
}
