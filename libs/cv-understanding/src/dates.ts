const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** A month as a number of months since year 0. */
type MonthIndex = number;

export interface DateRange {
  start: MonthIndex;
  end: MonthIndex;
  /** Where the range is written, for finding the job it belongs to. */
  offset: number;
}

const MONTH_NAME = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const POINT = `(?:(\\d{1,2})\\s*[/.-]\\s*(\\d{4})|${MONTH_NAME}\\s*,?\\s*(\\d{4})|(\\d{4}))`;
const OPEN_END = '(present|current|now|today|date)';
const RANGE = new RegExp(`\\b${POINT}\\s*(?:-|–|—|to|until|till)\\s*(?:${POINT}|${OPEN_END})`, 'gi');

function monthOf(groups: (string | undefined)[], base: number, isEnd: boolean): MonthIndex | null {
  const [numericMonth, numericYear, monthName, namedYear, bareYear] = groups.slice(base, base + 5);
  if (numericYear) {
    const month = Number(numericMonth);
    return month >= 1 && month <= 12 ? Number(numericYear) * 12 + month - 1 : null;
  }
  if (namedYear && monthName)
    return Number(namedYear) * 12 + (MONTHS[monthName.toLowerCase().slice(0, 4)] ?? MONTHS[monthName.toLowerCase().slice(0, 3)]) - 1;
  // A bare year: from its January, or to its December.
  if (bareYear) return Number(bareYear) * 12 + (isEnd ? 11 : 0);
  return null;
}

/** Employment-like date ranges ("10/2012 to 11/2015", "Jan 2019 - Present", "2006 – 2012"). */
export function findDateRanges(text: string, asOf: Date): DateRange[] {
  const now = asOf.getUTCFullYear() * 12 + asOf.getUTCMonth();
  const ranges: DateRange[] = [];
  for (const m of text.matchAll(RANGE)) {
    const start = monthOf([...m], 1, false);
    const end = m[11] ? now : monthOf([...m], 6, true);
    if (start === null || end === null) continue;
    const plausible = start >= 1950 * 12 && start <= now && end >= start && end <= now + 12 && end - start <= 50 * 12;
    if (plausible) ranges.push({ start, end: Math.min(end, now), offset: m.index });
  }
  return ranges;
}

/** Years covered by the ranges, overlaps counted once, to one decimal. */
export function yearsCovered(ranges: readonly DateRange[]): number {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let months = 0;
  let reach = -Infinity;
  for (const r of sorted) {
    const from = Math.max(r.start, reach);
    if (r.end + 1 > from) months += r.end + 1 - from;
    reach = Math.max(reach, r.end + 1);
  }
  return Math.round((months / 12) * 10) / 10;
}
