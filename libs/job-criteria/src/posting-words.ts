/**
 * Words that end a skill phrase of a posting rather than belong to it, lower-cased. Postings
 * wrap their skills in the same few words everywhere ("Strong working knowledge of …", "3+ years
 * of hands-on experience with …", "Ability to prepare …"): these lists are those words, for any
 * occupation, never one posting's skills. Stop words (`STOP_WORDS` of the text analysis) end a
 * phrase too.
 */

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

/** Function words the search's stop list keeps (it serves queries, where they are rare). */
export const FUNCTION_WORDS = words(`
  per via within including include includes included such like plus across toward towards among along upon without
  onto around e.g i.e etc vs versus either neither every any each will can may might must shall whether
  throughout beyond behind inside outside whatever wherever everything something anything anyone everyone
  us they one ones two three four five six seven eight nine ten twelve first second third half
  lot lots many much less least non never always often sometimes ever usually
  hundred hundreds thousand thousands million millions billion billions`);

/**
 * Nouns and adjectives that name no skill: how much, how well, how long, who and where ("strong",
 * "proven", "ability", "years", "team", "environment"), and the degree words (the degree is a
 * criterion of its own).
 */
export const GENERIC_WORDS = words(`
  experience experiences experienced expertise knowledge knowledgeable understanding familiarity familiar
  proficiency proficient competency competence competent ability abilities able capability capable
  skill skills skilled skillset talent aptitude
  strong stronger excellent exceptional outstanding superb great good solid proven demonstrated demonstrable
  thorough deep broad extensive considerable significant substantial sound working hands-on practical
  effective efficient successful success relevant related similar equivalent comparable applicable
  minimum min maximum max least year years yr yrs month months week weeks day days hour hours time times
  full-time part-time full part
  plus bonus preferred required desired desirable ideal ideally preferably must mandatory essential
  record track history background exposure progress
  fluent fluency native conversational
  candidate candidates person people individual someone applicant applicants
  team teams role roles position positions job jobs opportunity opportunities career company companies
  organization organisation environment setting settings place workplace
  work works worked working
  area areas field fields discipline disciplines industry industries sector
  degree degrees diploma bachelor bachelors bachelor's master masters master's doctorate phd graduate graduates
  associate's bs ba bsc msc mba ged
  new various variety multiple several numerous other others additional further own certain
  high highly well-developed detail-oriented results-driven self-motivated self-starter motivated
  passionate enthusiastic eager willing willingness comfortable flexible reliable dependable friendly
  upbeat positive professional dedicated organized organised energetic hardworking hard-working
  attitude approach mindset personality manner
  basics basic advanced intermediate fundamentals fundamental general-purpose
  safe clean happy sure simple right busy quick fair clear healthy
  monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays
  sunday sundays morning mornings evening evenings night nights weekday weekdays weekend weekends
  holiday holidays overtime am pm
  valid current previous prior recent past present existing active
  remote hybrid on-site onsite in-office in-person
  lb lbs pound pounds kg kilograms km miles mph percent
  etc. things thing stuff way ways kind kinds type types range
  duty duties responsibility responsibilities task tasks
  system systems tool tools
  matter matters`);

/**
 * Verbs postings use around skills ("prepare", "explain", "ensure"), in the forms they take
 * (base, -s, -ed, -ing are derived; irregular forms are listed). Words that are also common skill
 * nouns ("report", "plan", "test", "design", "support") are in `LEADING_VERBS` instead.
 */
const VERB_BASES = `
  accept achieve adapt adjust analyze analyse apply assess assist attend become bring build collaborate
  collect communicate complete conduct configure contribute coordinate create deliver demonstrate describe
  determine develop drive enjoy ensure establish exceed execute expect explain find follow give greet grow
  handle hire identify implement improve keep launch lift live love maintain make manage meet monitor need
  obtain offer oversee own participate pay perform pitch prepare prioritize prioritise provide raise receive
  reduce regroup rely resolve respond seek select serve sit solve sponsor stand standardize standardise stay
  take teach tell thrive understand use verify want write assure promote operate learn join get go do put
  run let say see show think try feel hold move interact engage align partner juggle choose last
  thrive come`;
const IRREGULAR_FORMS = `
  running ran led made kept built taken took given gave written wrote brought sought found held sat stood
  told thought got gotten paid sent spent met set shown done did gone went seen saw grown grew known knew
  understood taught sold chosen came helps helped helping supporting supported relied`;

const verbForms = (base: string): string[] => {
  const stem = base.endsWith('e') ? base.slice(0, -1) : base;
  return [base, `${base}s`, `${stem}ed`, `${stem}ing`, base.endsWith('y') ? `${base.slice(0, -1)}ies` : `${base}es`];
};

export const VERBS: ReadonlySet<string> = new Set([
  ...VERB_BASES.split(/\s+/).filter(Boolean).flatMap(verbForms),
  ...IRREGULAR_FORMS.split(/\s+/).filter(Boolean),
]);

/**
 * Verbs that are also skill nouns: a phrase does not start with one ("lead client workshops",
 * "map business processes"), but may hold one ("team lead", "status reports").
 */
export const LEADING_VERBS: ReadonlySet<string> = new Set(
  `lead plan report test design order schedule map document track review train travel support manage gather sign mentor`
    .split(/\s+/)
    .flatMap(verbForms),
);

/**
 * Words that say too little to be a skill alone, though they head many ("project management",
 * "business process", "aircraft systems"): a phrase of one of these alone is dropped.
 */
export const NOT_ALONE = words(`
  management development operations operation process processes procedures procedure services service
  solutions solution activities activity programs program programme projects project reports reporting
  support maintenance planning analysis communication communications administration training
  standards standard practices practice techniques methods quality data information software
  application applications equipment products product materials documentation policies policy
  issues problems needs requirements results goals objectives outcomes performance growth
  clients client customers customer users user staff employees members partners vendors
  department office offices site sites location locations center centre facility facilities
  hands world market markets business businesses help report shift shifts user
  close control line hand numbers ownership preparation tier`);

/** Words that end in -ly and are no adverbs: the -ly adverbs ("clearly", "daily") end a phrase, these do not. */
export const LY_NOUNS = words(`supply assembly family anomaly italy july reply rally ally fly poly monopoly`);
