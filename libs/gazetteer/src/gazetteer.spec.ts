import { CITY_ALIASES } from './aliases';
import { distanceKm } from './distance';
import { foldName } from './fold-name';
import { BARE_CITY_MIN_POPULATION, resolveParts, resolvePlace, type Place } from './resolve-place';

/** The fields that say which place it is, without the coordinates. */
const which = (p: Place | null) => p && { kind: p.kind, city: p.city, regionCode: p.regionCode, countryCode: p.countryCode };

describe('resolvePlace: a city with its region or country', () => {
  it('reads "Austin, TX" as the city in Texas, with its point and its names', () => {
    const austin = resolvePlace('Austin, TX')!;
    expect(austin).toMatchObject({
      kind: 'city',
      city: 'Austin',
      region: 'Texas',
      regionCode: 'TX',
      country: 'United States',
      countryCode: 'US',
    });
    expect(austin.lat).toBeCloseTo(30.267, 2);
    expect(austin.lon).toBeCloseTo(-97.743, 2);
  });

  it('reads the region by its name or its code, in any case', () => {
    for (const text of ['Austin, Texas', 'austin, texas', 'AUSTIN, TX', 'Austin, Tx.', 'Austin TX', 'Austin, Texas, USA'])
      expect(which(resolvePlace(text))).toEqual({ kind: 'city', city: 'Austin', regionCode: 'TX', countryCode: 'US' });
  });

  it('takes the city of that name in the region named, not the most populous one', () => {
    expect(which(resolvePlace('Austin, MN'))).toEqual({ kind: 'city', city: 'Austin', regionCode: 'MN', countryCode: 'US' });
    expect(which(resolvePlace('Paris, TX'))).toEqual({ kind: 'city', city: 'Paris', regionCode: 'TX', countryCode: 'US' });
    expect(which(resolvePlace('London, ON'))).toEqual({ kind: 'city', city: 'London', regionCode: 'ON', countryCode: 'CA' });
    expect(which(resolvePlace('Hyderabad, Pakistan'))?.countryCode).toBe('PK');
  });

  it('reads a name that is a country and a US state in whichever holds the city ("Atlanta, Georgia")', () => {
    expect(which(resolvePlace('Atlanta, Georgia'))).toEqual({ kind: 'city', city: 'Atlanta', regionCode: 'GA', countryCode: 'US' });
    expect(which(resolvePlace('Tbilisi, Georgia'))).toMatchObject({ city: 'Tbilisi', countryCode: 'GE' });
  });

  it('reads the country by its name, an alias or, after a city, its ISO code', () => {
    for (const text of ['London, UK', 'London, U.K.', 'London, Great Britain', 'London, United Kingdom', 'London, England', 'London, GB'])
      expect(which(resolvePlace(text))).toEqual({ kind: 'city', city: 'London', regionCode: 'ENG', countryCode: 'GB' });
    expect(resolvePlace('Berlin, Germany')).toMatchObject({ city: 'Berlin', countryCode: 'DE', country: 'Germany' });
    expect(resolvePlace('Berlin, DE')).toMatchObject({ city: 'Berlin', countryCode: 'DE' });
    expect(resolvePlace('Paris, FR')).toMatchObject({ city: 'Paris', countryCode: 'FR' });
  });

  it('reads city, region and country, and takes a renamed city under its old name', () => {
    expect(which(resolvePlace('Bangalore, Karnataka, India'))).toEqual({
      kind: 'city',
      city: 'Bengaluru',
      regionCode: 'KA',
      countryCode: 'IN',
    });
    expect(which(resolvePlace('Bengaluru, India'))).toEqual({ kind: 'city', city: 'Bengaluru', regionCode: 'KA', countryCode: 'IN' });
    expect(which(resolvePlace('Mumbai, Maharashtra'))).toEqual({ kind: 'city', city: 'Mumbai', regionCode: 'MH', countryCode: 'IN' });
  });

  it('ignores ZIP and postal codes, and parts before the city (a street, a district)', () => {
    expect(which(resolvePlace('New York, NY 10001'))).toEqual({ kind: 'city', city: 'New York City', regionCode: 'NY', countryCode: 'US' });
    expect(which(resolvePlace('Austin, TX 78701-1234'))).toMatchObject({ city: 'Austin', regionCode: 'TX' });
    expect(which(resolvePlace('Main Street, Austin, TX 78701'))).toMatchObject({ city: 'Austin', regionCode: 'TX' });
    expect(which(resolvePlace('Koramangala, Bangalore, Karnataka 560034'))).toMatchObject({ city: 'Bengaluru', regionCode: 'KA' });
    expect(which(resolvePlace('London SW1A 1AA, UK'))).toMatchObject({ city: 'London', countryCode: 'GB' });
  });

  it('folds accents and spells out St. both ways', () => {
    expect(which(resolvePlace('Zurich, Switzerland'))).toEqual(which(resolvePlace('Zürich')));
    expect(resolvePlace('Zurich')?.city).toBe('Zürich');
    expect(resolvePlace('Sao Paulo, Brazil')).toMatchObject({ city: 'São Paulo', regionCode: 'SP' });
    expect(resolvePlace('Montreal, QC')).toMatchObject({ city: 'Montréal', countryCode: 'CA' });
    expect(resolvePlace('Saint Louis, Missouri')).toMatchObject({ city: 'St. Louis', regionCode: 'MO' });
    expect(resolvePlace('St. Petersburg, FL')).toMatchObject({ city: 'St. Petersburg', regionCode: 'FL' });
  });

  it("links GeoNames' regions to ISO codes across countries", () => {
    const cases: [string, string, string][] = [
      ['Toronto, Canada', 'CA', 'ON'],
      ['Munich, Germany', 'DE', 'BY'],
      ['Tokyo, Japan', 'JP', '13'],
      ['Lyon, France', 'FR', 'ARA'],
      ['Sydney, Australia', 'AU', 'NSW'],
      ['Edinburgh, UK', 'GB', 'SCT'],
      ['Belfast, UK', 'GB', 'NIR'],
      ['Haifa, Israel', 'IL', 'HA'],
      ['Nairobi, Kenya', 'KE', '30'], // GeoNames' old province holds Thika, in Kiambu: linked city by city
      ['Thika, Kenya', 'KE', '13'],
    ];
    for (const [text, countryCode, regionCode] of cases)
      expect([text, which(resolvePlace(text))]).toEqual([text, expect.objectContaining({ countryCode, regionCode })]);
  });
});

describe('resolvePlace: one name alone', () => {
  it('reads a country, by name in any case or by alias', () => {
    for (const text of ['United States', 'united states', 'USA', 'U.S.', 'U.S.A.', 'US', 'United States of America'])
      expect([text, which(resolvePlace(text))]).toEqual([text, { kind: 'country', city: null, regionCode: null, countryCode: 'US' }]);
    for (const text of ['UK', 'U.K.', 'Great Britain', 'United Kingdom'])
      expect(resolvePlace(text)).toMatchObject({ kind: 'country', countryCode: 'GB' });
    expect(resolvePlace('GERMANY')).toMatchObject({ kind: 'country', country: 'Germany', countryCode: 'DE' });
    expect(resolvePlace("Côte d'Ivoire")?.countryCode).toBe('CI');
    expect(resolvePlace('Czechia')?.countryCode).toBe('CZ');
  });

  it('gives a country and a region their centre as the data gives it', () => {
    const us = resolvePlace('United States')!;
    expect([us.lat, us.lon]).toEqual([38, -97]);
    const texas = resolvePlace('Texas')!;
    expect(texas).toMatchObject({ kind: 'region', city: null, region: 'Texas', regionCode: 'TX', countryCode: 'US' });
    expect(distanceKm(texas, { lat: 31.0, lon: -99.0 })).toBeLessThan(200);
  });

  it('reads a region by its name, not its code: a bare two-letter code is ambiguous ("CA": California or Canada)', () => {
    expect(which(resolvePlace('Karnataka'))).toEqual({ kind: 'region', city: null, regionCode: 'KA', countryCode: 'IN' });
    expect(which(resolvePlace('Texas, USA'))).toEqual({ kind: 'region', city: null, regionCode: 'TX', countryCode: 'US' });
    for (const code of ['TX', 'CA', 'DE', 'IN', 'NY', 'tx']) expect([code, resolvePlace(code)]).toEqual([code, null]);
  });

  it('reads a name that is a region and a city in it as the city, and otherwise as the region', () => {
    expect(which(resolvePlace('New York'))).toEqual({ kind: 'city', city: 'New York City', regionCode: 'NY', countryCode: 'US' });
    expect(which(resolvePlace('Berlin'))).toEqual({ kind: 'city', city: 'Berlin', regionCode: 'BE', countryCode: 'DE' });
    expect(which(resolvePlace('Washington'))).toEqual({ kind: 'region', city: null, regionCode: 'WA', countryCode: 'US' });
    expect(which(resolvePlace('Washington, DC'))).toEqual({ kind: 'city', city: 'Washington, D.C.', regionCode: 'DC', countryCode: 'US' });
  });

  it('reads a city alone as the most populous of its name', () => {
    expect(which(resolvePlace('Austin'))).toEqual({ kind: 'city', city: 'Austin', regionCode: 'TX', countryCode: 'US' });
    expect(which(resolvePlace('London'))).toMatchObject({ city: 'London', countryCode: 'GB' });
    expect(which(resolvePlace('Paris'))).toMatchObject({ city: 'Paris', countryCode: 'FR' });
    expect(which(resolvePlace('Bangalore'))).toMatchObject({ city: 'Bengaluru', countryCode: 'IN' });
  });

  it(`reads a city alone only from ${BARE_CITY_MIN_POPULATION} people: small towns named like words need their region`, () => {
    expect(resolvePlace('Date')).toBeNull(); // Date, Japan: 35,301 people
    expect(resolvePlace('Police')).toBeNull(); // Police, Poland
    expect(resolvePlace('Date, Japan')).toMatchObject({ kind: 'city', city: 'Date', countryCode: 'JP' });
    // Mobile, Alabama is a city of 194,288: the name alone is it.
    expect(which(resolvePlace('Mobile'))).toEqual({ kind: 'city', city: 'Mobile', regionCode: 'AL', countryCode: 'US' });
  });
});

describe('resolvePlace: what it does not know, and hostile input', () => {
  it('answers null for unknown places, never a part of them', () => {
    for (const text of [
      'Narnia',
      'Springfield, Narnia',
      'Smalltown, Texas, USA',
      'Austin, Ontario',
      'Software Engineer',
      'Remote',
      'Mobile Developer',
      'Texsa',
    ])
      expect([text, resolvePlace(text)]).toEqual([text, null]);
  });

  it('answers null for empty, blank and punctuation-only texts', () => {
    for (const text of ['', '   ', ',', ',,,', '!!!', '.', '-', '()', '12345', '10001, 20002'])
      expect([text, resolvePlace(text)]).toEqual([text, null]);
  });

  it("answers null for names of JavaScript objects' own properties", () => {
    for (const text of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__proto__, __proto__', 'constructor, TX'])
      expect([text, resolvePlace(text)]).toEqual([text, null]);
  });

  it('refuses a text over 200 characters before reading it', () => {
    const long = `Austin, TX ${'x'.repeat(10_000)}`;
    const started = performance.now();
    expect(resolvePlace(long)).toBeNull();
    expect(resolvePlace('Austin, TX'.padEnd(201, ' '))).toBeNull();
    expect(performance.now() - started).toBeLessThan(50);
    expect(resolvePlace('Austin, TX'.padEnd(200, ' '))).toMatchObject({ city: 'Austin' });
  });

  it('answers null for what is not a string at run time', () => {
    for (const value of [null, undefined, 42, {}, ['Austin']]) expect(resolvePlace(value as string)).toBeNull();
  });

  it('hands out a new object each time, so a caller changing one changes no other answer', () => {
    const first = resolvePlace('Austin, TX')!;
    first.city = 'changed';
    expect(resolvePlace('Austin, TX')?.city).toBe('Austin');
  });
});

describe('resolveParts', () => {
  it('resolves the structured form by names or codes', () => {
    const expected = { kind: 'city', city: 'Austin', regionCode: 'TX', countryCode: 'US' };
    expect(which(resolveParts({ city: 'Austin', region: 'TX', country: 'US' }))).toEqual(expected);
    expect(which(resolveParts({ city: 'Austin', region: 'Texas', country: 'United States' }))).toEqual(expected);
    expect(which(resolveParts({ city: 'Austin', region: 'Texas' }))).toEqual(expected);
    expect(which(resolveParts({ city: 'Austin', country: 'USA' }))).toEqual(expected);
    expect(which(resolveParts({ city: 'Austin', region: null, country: null }))).toEqual(expected);
    expect(which(resolveParts({ city: 'London', country: 'Canada' }))).toMatchObject({ city: 'London', regionCode: 'ON' });
  });

  it('reads a region or a country alone, codes included: the field says what the code is', () => {
    expect(which(resolveParts({ region: 'TX' }))).toEqual({ kind: 'region', city: null, regionCode: 'TX', countryCode: 'US' });
    expect(which(resolveParts({ region: 'CA' }))).toMatchObject({ regionCode: 'CA', countryCode: 'US' }); // the most populous region coded CA
    expect(which(resolveParts({ region: 'Karnataka', country: 'India' }))).toEqual({
      kind: 'region',
      city: null,
      regionCode: 'KA',
      countryCode: 'IN',
    });
    expect(which(resolveParts({ country: 'DE' }))).toEqual({ kind: 'country', city: null, regionCode: null, countryCode: 'DE' });
    expect(which(resolveParts({ country: 'CA' }))).toMatchObject({ kind: 'country', countryCode: 'CA' });
  });

  it('reads a region by its ISO 3166-2 code, as the location facet counts it, and its country from the code', () => {
    expect(which(resolveParts({ region: 'US-TX' }))).toEqual({ kind: 'region', city: null, regionCode: 'TX', countryCode: 'US' });
    expect(which(resolveParts({ region: 'CA-ON' }))).toEqual({ kind: 'region', city: null, regionCode: 'ON', countryCode: 'CA' });
    expect(which(resolveParts({ city: 'Austin', region: 'US-TX' }))).toMatchObject({ kind: 'city', city: 'Austin' });
    expect(which(resolveParts({ region: 'US-TX', country: 'United States' }))).toMatchObject({ regionCode: 'TX', countryCode: 'US' });
    expect(resolveParts({ region: 'US-TX', country: 'Canada' })).toBeNull();
    expect(resolveParts({ region: 'US-ZZ' })).toBeNull();
  });

  it('answers null when a part is unknown or the parts do not agree', () => {
    expect(resolveParts({})).toBeNull();
    expect(resolveParts({ city: '', region: ' ', country: null })).toBeNull();
    expect(resolveParts({ city: 'Austin', region: 'Ontario' })).toBeNull();
    expect(resolveParts({ city: 'Austin', country: 'Narnia' })).toBeNull();
    expect(resolveParts({ region: 'Texas', country: 'India' })).toBeNull();
    expect(resolveParts({ city: 'Smalltown', region: 'TX' })).toBeNull();
    expect(resolveParts({ city: 'Date' })).toBeNull();
    expect(resolveParts({ city: '__proto__', region: 'constructor', country: 'toString' })).toBeNull();
    expect(resolveParts({ city: 'x'.repeat(10_000), country: 'US' })).toBeNull();
  });
});

describe('aliases', () => {
  it.each(CITY_ALIASES.map(([alias, name, countryCode]) => [alias, name, countryCode]))(
    'finds "%s" as %s (%s)',
    (alias, name, countryCode) => {
      expect(resolveParts({ city: alias, country: countryCode })).toMatchObject({ city: name, countryCode });
    },
  );

  it('folds names alike whichever way they are written', () => {
    expect(foldName('Zürich')).toBe(foldName('ZURICH'));
    expect(foldName('St. Louis')).toBe(foldName('Saint Louis'));
    expect(foldName('The Hague')).toBe('hague');
    expect(foldName('Gießen')).toBe('giessen');
    expect(foldName('U.S.A.')).toBe('u s a');
  });
});

describe('distanceKm', () => {
  it('gives great-circle distances in km', () => {
    const london = { lat: 51.5074, lon: -0.1278 };
    const paris = { lat: 48.8566, lon: 2.3522 };
    expect(distanceKm(london, paris)).toBeCloseTo(343.6, 0);
    expect(distanceKm(paris, london)).toBe(distanceKm(london, paris));
    expect(distanceKm(london, london)).toBe(0);
    expect(distanceKm({ lat: 0, lon: 0 }, { lat: 0, lon: 180 })).toBeCloseTo(Math.PI * 6371.0088, 6);
  });

  it('puts Round Rock within 50 km of Austin and San Antonio beyond', () => {
    const austin = resolvePlace('Austin, TX')!;
    expect(distanceKm(austin, resolvePlace('Round Rock, TX')!)).toBeLessThan(50);
    expect(distanceKm(austin, resolvePlace('San Antonio, TX')!)).toBeGreaterThan(100);
  });
});
