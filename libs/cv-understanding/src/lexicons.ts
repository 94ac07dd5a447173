/**
 * Curated vocabularies for reading CVs. Each entry is written as it should be shown; matching
 * goes through the same analysis as search (case, stemming, skill synonyms).
 */

/** Industries a CV can name. */
export const INDUSTRIES: Readonly<Record<string, readonly string[]>> = {
  Accounting: ['accounting firm', 'cpa firm', 'public accounting'],
  Agriculture: ['agriculture', 'agricultural', 'farm', 'farming', 'usda', 'crop'],
  Automotive: ['automotive', 'dealership', 'auto repair', 'vehicle'],
  Aviation: ['aviation', 'airline', 'aircraft', 'aerospace', 'airport', 'faa'],
  Banking: ['bank', 'banking', 'credit union', 'mortgage', 'lending'],
  Construction: ['construction', 'contractor', 'building site'],
  Consulting: ['consulting', 'consultancy'],
  Education: ['school', 'university', 'college', 'education', 'classroom'],
  Energy: ['oil and gas', 'energy', 'utilities', 'power plant'],
  Government: ['government', 'federal', 'municipal', 'department of defense', 'military', 'army', 'navy', 'air force'],
  Healthcare: ['hospital', 'clinic', 'healthcare', 'health care', 'medical center', 'patient'],
  Hospitality: ['hotel', 'restaurant', 'hospitality', 'catering', 'resort'],
  Insurance: ['insurance', 'claims', 'underwriting'],
  Manufacturing: ['manufacturing', 'plant', 'production line', 'factory'],
  Media: ['media', 'publishing', 'broadcast', 'advertising agency'],
  'Non-profit': ['non-profit', 'nonprofit', 'charity', 'foundation'],
  Pharmaceuticals: ['pharmaceutical', 'pharma', 'biotech', 'clinical trials'],
  'Real estate': ['real estate', 'property management'],
  Retail: ['retail', 'store', 'merchandise', 'apparel'],
  Technology: ['software', 'saas', 'technology company', 'it services'],
  Telecommunications: ['telecommunications', 'telecom', 'wireless carrier'],
  Logistics: ['logistics', 'warehouse', 'supply chain', 'shipping'],
};

/** Occupational domains, recognised by the words of the headline and the CV. */
export const DOMAINS: Readonly<Record<string, readonly string[]>> = {
  'Software engineering': [
    'software engineer',
    'developer',
    'programmer',
    'full stack',
    'front end',
    'back end',
    'java',
    'javascript',
    'react',
    'devops',
  ],
  'Information technology': [
    'information technology',
    'network',
    'system administrator',
    'help desk',
    'windows server',
    'active directory',
    'cisco',
    'infrastructure',
  ],
  'Data and analytics': ['data scientist', 'data analyst', 'machine learning', 'analytics', 'statistics', 'data engineer'],
  'Accounting and finance': [
    'accountant',
    'accounting',
    'general ledger',
    'reconciliation',
    'accounts payable',
    'financial analyst',
    'finance',
    'budget',
    'audit',
    'tax',
  ],
  Banking: ['banker', 'bank', 'teller', 'loan', 'mortgage', 'branch'],
  Healthcare: ['nurse', 'patient', 'clinical', 'medical', 'healthcare', 'physician', 'hospital', 'hipaa'],
  Education: ['teacher', 'teaching', 'students', 'classroom', 'curriculum', 'lesson', 'school', 'tutor'],
  Sales: ['sales', 'account executive', 'business development', 'quota', 'retail', 'customer', 'cashier'],
  'Marketing and media': ['marketing', 'seo', 'social media', 'brand', 'content', 'digital media', 'campaign', 'advertising'],
  'Hospitality and culinary': ['chef', 'cook', 'kitchen', 'culinary', 'restaurant', 'menu', 'hotel', 'banquet', 'catering'],
  Aviation: ['aviation', 'aircraft', 'pilot', 'faa', 'flight', 'avionics', 'airframe'],
  Agriculture: ['agriculture', 'agricultural', 'farm', 'crop', 'soil', 'livestock', 'agronomy'],
  Construction: ['construction', 'carpenter', 'foreman', 'site', 'building', 'contractor', 'electrician'],
  Engineering: ['engineer', 'engineering', 'mechanical', 'electrical', 'autocad', 'design', 'cad'],
  Legal: ['attorney', 'lawyer', 'legal', 'paralegal', 'litigation', 'counsel', 'advocate', 'court'],
  'Human resources': ['human resources', 'recruiter', 'recruiting', 'hr', 'payroll', 'benefits', 'onboarding', 'talent'],
  'Design and arts': ['designer', 'design', 'art', 'artist', 'photoshop', 'illustrator', 'creative'],
  'Customer service and BPO': ['call center', 'customer service', 'bpo', 'process associate', 'customer support'],
  Consulting: ['consultant', 'consulting', 'advisory', 'client engagements'],
  Automotive: ['automotive', 'mechanic', 'vehicle', 'auto', 'claims adjuster'],
  Fitness: ['fitness', 'personal trainer', 'trainer', 'exercise', 'wellness', 'coach'],
  'Public relations': ['public relations', 'media relations', 'press', 'communications'],
  Apparel: ['apparel', 'fashion', 'garment', 'clothing', 'merchandising'],
};

/** The domains a profile may name, as it writes them. */
export const DOMAIN_NAMES: readonly string[] = Object.keys(DOMAINS);

/** Title words and the seniority they signal, most senior first. */
export const SENIORITY: readonly [string, RegExp][] = [
  ['executive', /\b(chief|ceo|cfo|cto|coo|cio|president|vice president|vp|executive director|partner|owner|founder)\b/i],
  ['director', /\b(director|head of)\b/i],
  ['manager', /\b(manager|supervisor|superintendent)\b/i],
  ['lead', /\b(lead|principal|staff engineer|architect)\b/i],
  ['senior', /\b(senior|sr\.?)\b/i],
  ['junior', /\b(junior|jr\.?|assistant|associate|entry[- ]level|trainee|apprentice)\b/i],
  ['intern', /\b(intern|internship|student)\b/i],
];
