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
  /** The first month of the range. */
  start: MonthIndex;
  /** The last month of the range, counted in full. */
  end: MonthIndex;
  /** Where the range is written, for finding the job it belongs to. */
  offset: number;
}

const MONTH_NAME = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
/**
 * A point in time, as five groups: a numeric month and year ("10/2012"), a month's name and a
 * year ("Jan 2019", "Jan-2019", "Aug '17": a two-digit year only after an apostrophe, where it
 * cannot be a day), or a bare year.
 */
const POINT = `(?:(\\d{1,2})\\s*[/.-]\\s*(\\d{4})|${MONTH_NAME}(?:\\s*[,-]?\\s*(\\d{4})|\\s*['’‘]\\s*(\\d{2})(?!\\d))|(\\d{4}))`;
const POINT_GROUPS = 6;
/** "Present" and its spellings, "till date" and "to till date" among them. */
const OPEN_END = '(?:(?:till|until|up\\s*to)\\s+)?(present|current|now|today|date)';
const RANGE = new RegExp(`\\b${POINT}\\s*(?:-|–|—|to|until|till)\\s*(?:${POINT}|${OPEN_END})`, 'gi');

/** A point's month, and whether only its year is known (a bare year, or January: what a template writes for "some month"). */
function pointOf(groups: (string | undefined)[], base: number, asOfYear: number): { month: MonthIndex; yearOnly: boolean } | null {
  const [numericMonth, numericYear, monthName, namedYear, shortYear, bareYear] = groups.slice(base, base + POINT_GROUPS);
  let year: number;
  let month: number;
  if (numericYear) {
    year = Number(numericYear);
    month = Number(numericMonth);
    if (month < 1 || month > 12) return null;
  } else if (monthName && (namedYear || shortYear)) {
    const short = Number(shortYear);
    // '17 is 2017 up to the year the CV was written, 1917 is no one's career: '98 is 1998.
    year = namedYear ? Number(namedYear) : short + (2000 + short <= asOfYear ? 2000 : 1900);
    month = MONTHS[monthName.toLowerCase().slice(0, 4)] ?? MONTHS[monthName.toLowerCase().slice(0, 3)];
  } else if (bareYear) {
    year = Number(bareYear);
    month = 1;
  } else return null;
  return { month: year * 12 + month - 1, yearOnly: month === 1 };
}

/**
 * Employment-like date ranges ("10/2012 to 11/2015", "Jan 2019 - Present", "2006 – 2012", "Aug '17
 * till date"). Months count in full at both ends ("Jan 2014 - Mar 2014" is three months), but an end
 * known only by its year (a bare year, or January, which templates write for a year) is read as the
 * year, not as its December: "2006 - 2012" and "January 2006 - January 2012" are six years, not
 * seven; a range that starts and ends in one such year counts its first month. "Present" is `asOf`'s month.
 */
export function findDateRanges(text: string, asOf: Date): DateRange[] {
  const now = asOf.getUTCFullYear() * 12 + asOf.getUTCMonth();
  const asOfYear = asOf.getUTCFullYear();
  const ranges: DateRange[] = [];
  const openEnd = 1 + 2 * POINT_GROUPS;
  for (const m of text.matchAll(RANGE)) {
    const groups = [...m];
    const start = pointOf(groups, 1, asOfYear);
    const last = groups[openEnd] ? { month: now, yearOnly: false } : pointOf(groups, 1 + POINT_GROUPS, asOfYear);
    if (start === null || last === null) continue;
    const end = last.yearOnly ? Math.max(start.month, last.month - 1) : last.month;
    const plausible =
      start.month >= 1950 * 12 && start.month <= now && last.month >= start.month && end <= now + 12 && end - start.month <= 50 * 12;
    if (plausible) ranges.push({ start: start.month, end: Math.min(end, now), offset: m.index });
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
