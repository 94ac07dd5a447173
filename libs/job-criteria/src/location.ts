import { looksLikePlace } from '@cs/cv-understanding';
import { resolvePlace, type Place } from '@cs/gazetteer';
import { MAX_RADIUS_KM } from '@cs/search-filters/body';
import { DEFAULT_RADIUS_KM, type JobCriteria } from './criteria';

/** Work done away from any office: "fully remote", "remote position", "work from home", a "Location: Remote" line. */
const REMOTE =
  /\b(?:(?:fully|100 ?%|completely|entirely|permanently)[ \t]+remote|remote(?:[- ](?:first|only|friendly|based))?[ \t]+(?:position|role|job|work|working|opportunity|team|eligible|option)|work(?:ing)?[ \t]+(?:from[ \t]+home|remotely)|wfh)\b|^[ \t]*(?:(?:job[ \t]+)?location[ \t]*[:：][ \t]*)?remote[ \t]*(?:[(,–-][^\n]{0,60})?$/im;
/** What says the work is not remote, or only partly: "not remote", "hybrid", "on-site only". */
const NOT_REMOTE =
  /\b(?:not|no|non)[- ]remote\b|\bnot[ \t]+(?:a[ \t]+)?remote\b|\bremote[ \t]+(?:work[ \t]+)?is[ \t]+not\b|\bhybrid\b|\bon[- ]?site[ \t]+only\b/i;

/** A place as written: capitalised words, then up to two comma-separated parts ("Austin, TX", "Pune, Maharashtra, India"). */
const PLACE = `[A-Z][\\p{L}.'’-]*(?:[ \\t][A-Z][\\p{L}.'’-]*){0,3}(?:[ \\t]*,[ \\t]*[A-Z][\\p{L}.'’-]*(?:[ \\t][A-Z][\\p{L}.'’-]*){0,2}){0,2}`;
/** Where the posting says the work is: "based in …", "located in …", "on-site in …", "Location: …". */
const PLACE_STATED = new RegExp(
  `\\b(?:based|located|on[- ]?site|in[- ]office|in[- ]person|work(?:ing)?[ \\t]+from[ \\t]+our[ \\t]+office)[ \\t]+(?:in|at|near)[ \\t]+(?:our[ \\t]+[\\p{L}]+[ \\t]+(?:in|at)[ \\t]+)?(${PLACE})|^[ \\t]*(?:job[ \\t]+|work[ \\t]+)?location[ \\t]*[:：][ \\t]*(${PLACE})`,
  'gmu',
);
/** A city and its US state's code or its country, anywhere: "Austin, TX", "Pune, India". */
const CITY_AND_STATE =
  /\b([A-Z][\p{L}.'’-]*(?:[ \t][A-Z][\p{L}.'’-]*){0,3}[ \t]*,[ \t]*(?:[A-Z]{2}|[A-Z][a-z]+(?:[ \t][A-Z][a-z]+){0,2}))\b/gu;
/** A radius the posting states: "within 30 miles", "within 25 km". */
const RADIUS = /\bwithin[ \t]+(\d{1,4})[ \t]*(km|kilomet(?:er|re)s?|mi|miles?)\b/i;
const KM_PER_MILE = 1.609344;

/** The place as a text the gazetteer resolves to it again: "Austin, Texas, United States". */
export function placeName(place: Place): string {
  return [place.city, place.region, place.country].filter((part): part is string => Boolean(part)).join(', ');
}

/** The written place, or the longest start of it that resolves ("Austin, TX, hybrid" is Austin). */
function resolveWritten(written: string): Place | null {
  const parts = written.split(',');
  for (let n = parts.length; n >= 1; n--) {
    const place = resolvePlace(parts.slice(0, n).join(','));
    if (place) return place;
  }
  return null;
}

function radiusOf(text: string): number {
  const m = RADIUS.exec(text);
  if (!m) return DEFAULT_RADIUS_KM;
  const km = m[2].toLowerCase().startsWith('k') ? Number(m[1]) : Math.round(Number(m[1]) * KM_PER_MILE);
  return Math.min(MAX_RADIUS_KM, Math.max(1, km));
}

/**
 * Where the work is: remote when the posting says so (and not hybrid), else the place it states
 * ("based in", "located in", "on-site in", a "Location:" line, else the first "City, ST" or
 * "City, Country" it names) as the gazetteer resolves it, within the radius it states or 50 km.
 * Null when it says neither, or names no place the gazetteer knows.
 */
export function locationOf(text: string): JobCriteria['location'] {
  if (REMOTE.test(text) && !NOT_REMOTE.test(text)) return { remote: true };
  for (const m of text.matchAll(PLACE_STATED)) {
    const place = resolveWritten(m[1] ?? m[2]);
    if (place) return { place: placeName(place), radiusKm: radiusOf(text) };
  }
  for (const m of text.matchAll(CITY_AND_STATE)) {
    if (!looksLikePlace(m[1])) continue;
    const place = resolvePlace(m[1]);
    if (place) return { place: placeName(place), radiusKm: radiusOf(text) };
  }
  return null;
}
