/**
 * Names people write for a country besides the data's own and its English name in Intl (ISO
 * 3166-1 alpha-2 code by folded name). "US" and "UK" are here on purpose: they are the only
 * two-letter codes read alone (see README).
 */
export const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  us: 'US',
  'u s': 'US',
  usa: 'US',
  'u s a': 'US',
  'united states of america': 'US',
  uk: 'GB',
  'u k': 'GB',
  'great britain': 'GB',
  britain: 'GB',
  uae: 'AE',
  'u a e': 'AE',
  emirates: 'AE',
  holland: 'NL',
  korea: 'KR',
  'republic of korea': 'KR',
  'russian federation': 'RU',
  'viet nam': 'VN',
  'ivory coast': 'CI',
  burma: 'MM',
  'hong kong': 'HK',
  macau: 'MO',
  macao: 'MO',
  palestine: 'PS',
  drc: 'CD',
  'dr congo': 'CD',
  vatican: 'VA',
  'cape verde': 'CV',
  'cabo verde': 'CV',
  'east timor': 'TL',
  'timor leste': 'TL',
  trinidad: 'TT',
};

/**
 * Names of large cities that GeoNames keeps under another name ("Bangalore" is "Bengaluru",
 * "New York" is "New York City"): folded alias to the data's name and country. The city is found
 * under both.
 */
export const CITY_ALIASES: readonly (readonly [alias: string, name: string, countryCode: string])[] = [
  ['new york', 'New York City', 'US'],
  ['nyc', 'New York City', 'US'],
  ['washington', 'Washington, D.C.', 'US'],
  ['washington dc', 'Washington, D.C.', 'US'],
  ['bangalore', 'Bengaluru', 'IN'],
  ['bombay', 'Mumbai', 'IN'],
  ['madras', 'Chennai', 'IN'],
  ['calcutta', 'Kolkata', 'IN'],
  ['gurugram', 'Gurgaon', 'IN'],
  ['poona', 'Pune', 'IN'],
  ['frankfurt', 'Frankfurt am Main', 'DE'],
  ['cologne', 'Köln', 'DE'],
  ['munchen', 'Munich', 'DE'],
  ['nuremberg', 'Nürnberg', 'DE'],
  ['wien', 'Vienna', 'AT'],
  ['praha', 'Prague', 'CZ'],
  ['roma', 'Rome', 'IT'],
  ['milano', 'Milan', 'IT'],
  ['lisboa', 'Lisbon', 'PT'],
  ['bruxelles', 'Brussels', 'BE'],
  ['den haag', 'The Hague', 'NL'],
  ['kiev', 'Kyiv', 'UA'],
  ['saigon', 'Ho Chi Minh City', 'VN'],
  ['peking', 'Beijing', 'CN'],
  ['tel aviv yafo', 'Tel Aviv', 'IL'],
  ['quebec city', 'Québec', 'CA'],
];

/** Words that end a region's name in the data but not always as people write it ("Aichi Prefecture", "Masovian Voivodeship"). */
export const REGION_SUFFIXES = /\s(?:prefecture|province|voivodeship|district|region|governorate|oblast|county|state|department)$/;
