import type { SearchAttributes } from '@cs/search-filters';
import { FILTER_CVS } from './filter-cases';

/**
 * CVs and keyword queries with required and excluded clauses, with the CVs each must return, for
 * every keyword store: the conditions select before the top K, as filters do. Company `f1` holds
 * the filter CVs (every one says "engineer"), `h1` two CVs whose headlines differ from their text.
 * Every CV that meets a case's conditions holds one of its scored words, so the conditions alone
 * decide the answer.
 */
export const CONDITION_CVS: { companyId: string; id: string; text: string; attributes: SearchAttributes | undefined }[] = [
  ...FILTER_CVS.map((cv) => ({ companyId: 'f1', ...cv })),
  {
    companyId: 'h1',
    id: 'senior-accountant',
    text: 'Senior Accountant\nManaged the junior staff and the general ledger.',
    attributes: undefined,
  },
  {
    companyId: 'h1',
    id: 'junior-accountant',
    text: 'Junior Accountant\nReported to the senior accountant; general ledger entries.',
    attributes: undefined,
  },
];

export const CONDITION_CASES: { name: string; companyId: string; query: string; expected: string[] }[] = [
  {
    name: 'an excluded word keeps out the CVs holding it',
    companyId: 'f1',
    query: 'engineer -php',
    expected: ['java-senior-austin', 'junior-no-place', 'no-attributes', 'python-lead-berlin'],
  },
  {
    name: 'an excluded phrase keeps out only the CVs holding it in order',
    companyId: 'f1',
    query: 'engineer -"data engineer" -"engineer data"',
    expected: ['java-php-roundrock', 'java-senior-austin', 'junior-no-place', 'no-attributes'],
  },
  { name: 'every required word', companyId: 'f1', query: 'engineer +java +school', expected: ['junior-no-place'] },
  {
    name: 'a required OR needs one alternative',
    companyId: 'f1',
    query: 'engineer +(python OR php)',
    expected: ['java-php-roundrock', 'python-lead-berlin'],
  },
  {
    name: 'groups nest, words side by side in one all needed',
    companyId: 'f1',
    query: '+(spark OR (java kubernetes)) -berlin',
    expected: ['java-senior-austin'],
  },
  { name: 'a required phrase', companyId: 'f1', query: 'engineer +"data engineer"', expected: ['python-lead-berlin'] },
  {
    name: 'title: reads the headline only',
    companyId: 'h1',
    query: 'accountant +title:"senior accountant"',
    expected: ['senior-accountant'],
  },
  { name: 'an excluded title', companyId: 'h1', query: 'ledger -title:junior', expected: ['senior-accountant'] },
  {
    name: 'a field term is required without +',
    companyId: 'h1',
    query: 'title:accountant',
    expected: ['junior-accountant', 'senior-accountant'],
  },
  {
    name: 'skill: reads the profile through the vocabulary',
    companyId: 'f1',
    query: 'engineer +skill:k8s',
    expected: ['java-senior-austin'],
  },
  {
    name: 'an excluded skill keeps the CVs without a profile',
    companyId: 'f1',
    query: 'engineer -skill:Java',
    expected: ['no-attributes', 'python-lead-berlin'],
  },
  {
    name: 'an OR of skills',
    companyId: 'f1',
    query: 'engineer +(skill:spark OR skill:php)',
    expected: ['java-php-roundrock', 'python-lead-berlin'],
  },
];
