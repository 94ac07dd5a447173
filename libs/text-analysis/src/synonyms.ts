/**
 * The curated skills vocabulary: one canonical term per skill, with the abbreviations and
 * spellings CVs and recruiters use for it. Applied the same way at index and at query time:
 * a one-word variant is replaced by its canonical term, and a several-word variant keeps its
 * words and adds the canonical term, so `k8s` finds "Kubernetes" and `USDA` finds "United States
 * Department of Agriculture" and the other way round. Variants are written as the tokenizer
 * lowercases them.
 */
export const SKILL_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  kubernetes: ['k8s'],
  javascript: ['js', 'ecmascript'],
  'node.js': ['nodejs'],
  react: ['react.js', 'reactjs'],
  vue: ['vue.js', 'vuejs'],
  angular: ['angularjs', 'angular.js'],
  golang: ['go lang'],
  postgresql: ['postgres', 'psql'],
  mssql: ['sql server', 'microsoft sql server'],
  gcp: ['google cloud', 'google cloud platform'],
  aws: ['amazon web services'],
  ml: ['machine learning'],
  nlp: ['natural language processing'],
  cicd: ['ci/cd', 'continuous integration'],
  sre: ['site reliability engineering'],
  qa: ['quality assurance'],
  ux: ['user experience'],
  seo: ['search engine optimization', 'search engine optimisation'],
  sem: ['search engine marketing'],
  crm: ['customer relationship management'],
  erp: ['enterprise resource planning'],
  hris: ['human resources information system'],
  pmp: ['project management professional'],
  emr: ['electronic medical records', 'electronic medical record'],
  ehr: ['electronic health records', 'electronic health record'],
  rn: ['registered nurse'],
  lpn: ['licensed practical nurse'],
  cpa: ['certified public accountant'],
  'accounts payable': ['a/p'],
  'accounts receivable': ['a/r'],
  'general ledger': ['g/l'],
  'profit and loss': ['p&l'],
  kpi: ['kpis', 'key performance indicator', 'key performance indicators'],
  sla: ['slas', 'service level agreement', 'service level agreements'],
  bpo: ['business process outsourcing'],
  faa: ['federal aviation administration'],
  usda: ['united states department of agriculture', 'u.s. department of agriculture'],
  hipaa: ['health insurance portability and accountability act'],
  cnc: ['computer numerical control'],
  hvac: ['heating ventilation and air conditioning'],
};
