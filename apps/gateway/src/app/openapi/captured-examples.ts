// Written by `npm run openapi:examples` (scripts/capture-openapi-examples.ts): real answers of a
// standalone service, by operationId and status. Do not edit by hand; capture again.
export const CAPTURED_EXAMPLES: Record<string, Record<string, Record<string, { summary: string; value: unknown }>>> = {
  createBuiltinRerankSearch: {
    '202': {
      started: {
        summary: 'A builtin-rerank search in the dense search’s group',
        value: {
          searchId: 'c98d8d6b-aabf-40cf-bdf9-aa6e417cd396',
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          status: 'processing',
          searchType: 'builtin-rerank',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '10 to 20 seconds',
          statusUrl: '/v1/public/searches/c98d8d6b-aabf-40cf-bdf9-aa6e417cd396',
          resultsUrl: '/v1/public/searches/c98d8d6b-aabf-40cf-bdf9-aa6e417cd396/results',
        },
      },
    },
  },
  createDenseSearch: {
    '200': {
      completedWithinWait: {
        summary: 'Prefer: wait=10, and the search ended within it: its status, in one round trip',
        value: {
          searchId: '970a555a-bac1-43d0-8b7f-f8bdacea83d1',
          searchGroupId: '46459f71-841e-40a9-88dc-523d0d1a9d2f',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'dense',
          createdAt: '2026-11-24T20:28:08.117Z',
          status: 'completed',
          resultsCount: 3,
          processingTimeMs: 5,
          completedAt: '2026-11-24T20:28:08.150Z',
          resultsUrl: '/v1/public/searches/970a555a-bac1-43d0-8b7f-f8bdacea83d1/results',
        },
      },
    },
    '202': {
      started: {
        summary: 'A dense search',
        value: {
          searchId: '46364624-36a3-49ed-b952-f585ed271198',
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          status: 'processing',
          searchType: 'dense',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '5 to 10 seconds',
          statusUrl: '/v1/public/searches/46364624-36a3-49ed-b952-f585ed271198',
          resultsUrl: '/v1/public/searches/46364624-36a3-49ed-b952-f585ed271198/results',
        },
      },
    },
    '400': {
      emptyQuery: {
        summary: 'A query that is empty',
        value: {
          error: 'invalid_request',
          message: 'query must be a string of 1 to 500 characters',
        },
      },
    },
    '429': {
      rateLimited: {
        summary: 'The search limit is spent',
        value: {
          error: 'rate_limit_exceeded',
          message: 'Search rate limit exceeded: 1 requests per 1 minute.',
          limit: 1,
          window: '1 minute',
          retryAfter: '60',
          hint: 'Space searches about 6 seconds apart; poll status instead of starting new searches; ask support for a higher limit.',
        },
      },
    },
  },
  createHybridSearch: {
    '202': {
      started: {
        summary: 'A hybrid search in the dense search’s group',
        value: {
          searchId: '8d057eca-9c79-41a2-9234-589746a4ea3f',
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          status: 'processing',
          searchType: 'hybrid',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '15 to 30 seconds',
          statusUrl: '/v1/public/searches/8d057eca-9c79-41a2-9234-589746a4ea3f',
          resultsUrl: '/v1/public/searches/8d057eca-9c79-41a2-9234-589746a4ea3f/results',
        },
      },
    },
    '400': {
      unknownField: {
        summary: 'A field the API does not take',
        value: {
          error: 'invalid_request',
          message: 'unknown field "topK"',
        },
      },
    },
  },
  createPresignedUpload: {
    '200': {
      created: {
        summary: 'Where to PUT the file',
        value: {
          uploadId: '3a60af60-ec81-4d62-bcd1-f9f0fd8fec42',
          presignedUrl:
            'https://cv-search.example.com/uploads/3a60af60-ec81-4d62-bcd1-f9f0fd8fec42?expires=1795555687&signature=d07a66036321c7f0f6467f48745af12734bf80e4d52655f22e35a74202e0d09f',
          method: 'PUT',
          headers: {
            'Content-Type': 'text/plain',
          },
          expiresAt: '2026-11-24T21:28:07.478Z',
        },
      },
    },
  },
  createSparseSearch: {
    '202': {
      started: {
        summary: 'A sparse search in the dense search’s group',
        value: {
          searchId: 'bfbbef49-d331-4ab2-ad16-175053f0ffa4',
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          status: 'processing',
          searchType: 'sparse',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '5 to 10 seconds',
          statusUrl: '/v1/public/searches/bfbbef49-d331-4ab2-ad16-175053f0ffa4',
          resultsUrl: '/v1/public/searches/bfbbef49-d331-4ab2-ad16-175053f0ffa4/results',
        },
      },
    },
    '422': {
      idempotencyKeyReused: {
        summary: 'An Idempotency-Key sent before with another request',
        value: {
          error: 'idempotency_key_reused',
          message:
            'this Idempotency-Key was already used for POST /v1/public/searches/sparse with another body or query string: a key names one request; send a new key for a new request',
        },
      },
    },
  },
  deleteDocument: {
    '200': {
      deleted: {
        summary: 'A CV and its index entries deleted',
        value: {
          message: 'The document, its file and its index entries were deleted.',
          documentId: '1233f6db-d478-4d92-b0de-33100e42b8fd',
          documentName: 'chef CV',
          deleted: {
            database: true,
            storage: true,
            searchIndex: {
              denseVectors: 4,
              sparseVectors: 1,
            },
          },
        },
      },
    },
  },
  finalizePresignedUpload: {
    '201': {
      created: {
        summary: 'A new document from the uploaded file',
        value: {
          documentId: '614a9a53-c11f-407a-9a25-c0fb198dbec9',
          status: 'uploading',
          message: 'File stored; it is being parsed and indexed.',
          duplicate: false,
          file: {
            name: 'teacher.txt',
            size: 255,
            sizeFormatted: '255 B',
            contentType: 'text/plain',
          },
          estimatedProcessingTime: 'under 30 seconds',
          statusEndpoint: '/v1/public/documents/614a9a53-c11f-407a-9a25-c0fb198dbec9',
        },
      },
    },
    '409': {
      noFileYet: {
        summary: 'Finalized before the PUT',
        value: {
          error: 'conflict',
          message: 'no file was uploaded yet: PUT the bytes to presignedUrl first',
        },
      },
    },
  },
  getDocument: {
    '200': {
      completed: {
        summary: 'A processed CV',
        value: {
          documentId: '80ed744e-ad3b-4bab-87f3-e383845b64df',
          documentName: 'accountant CV',
          documentType: 'cv',
          documentDate: '03-2024',
          status: 'completed',
          message: 'Searchable',
          createdAt: '2026-11-24T20:28:07.078Z',
          updatedAt: '2026-11-24T20:28:07.168Z',
          file: {
            name: 'accountant.txt',
            size: 276,
            sizeFormatted: '276 B',
            contentType: 'text/plain',
          },
          summary:
            'CPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.',
          contact: null,
          profile: {
            domain: 'Accounting and finance',
            industries: ['Banking'],
            hasManagement: false,
            seniorityLevel: 'senior',
            specialization: 'Senior Accountant',
            technicalStack: ['Reconciliation', 'QuickBooks', 'SAP', 'General Ledger', 'Accounts Payable', 'Accounts Receivable'],
            experienceYears: 9,
            recentExpertise: ['Reconciliation'],
          },
          extractedText:
            'Senior Accountant\nSummary\nCPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.\nExperience\nStaff Accountant, 2015 to 2023: prepared journal entries, bank reconciliations and financial statements.',
          error: null,
        },
      },
    },
    '400': {
      badId: {
        summary: 'An id that is not a UUID',
        value: {
          error: 'invalid_request',
          message: 'documentId must be a UUID',
        },
      },
    },
    '404': {
      notFound: {
        summary: 'No such document (or another company’s)',
        value: {
          error: 'not_found',
          message: 'document not found',
        },
      },
    },
  },
  getPresignedUpload: {
    '200': {
      pending: {
        summary: 'No bytes yet',
        value: {
          uploadId: '3a60af60-ec81-4d62-bcd1-f9f0fd8fec42',
          status: 'pending',
          fileName: 'teacher.txt',
          contentType: 'text/plain',
          fileSize: 255,
          expiresAt: '2026-11-24T21:28:07.478Z',
        },
      },
      uploaded: {
        summary: 'The bytes arrived',
        value: {
          uploadId: '3a60af60-ec81-4d62-bcd1-f9f0fd8fec42',
          status: 'uploaded',
          fileName: 'teacher.txt',
          contentType: 'text/plain',
          fileSize: 255,
          expiresAt: '2026-11-24T21:28:07.478Z',
        },
      },
    },
  },
  getSearch: {
    '200': {
      completed: {
        summary: 'A completed search',
        value: {
          searchId: '8d057eca-9c79-41a2-9234-589746a4ea3f',
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'hybrid',
          createdAt: '2026-11-24T20:28:08.031Z',
          status: 'completed',
          resultsCount: 5,
          processingTimeMs: 8,
          completedAt: '2026-11-24T20:28:08.059Z',
          resultsUrl: '/v1/public/searches/8d057eca-9c79-41a2-9234-589746a4ea3f/results',
        },
      },
      failed: {
        summary: 'A search that failed: no CVs to search',
        value: {
          searchId: '483d6786-3a2b-424f-ae87-39385f426766',
          searchGroupId: 'd0e5a72c-7d9e-4469-8ace-fac9931f1a01',
          query: 'chef',
          searchType: 'sparse',
          createdAt: '2026-11-24T20:28:08.550Z',
          status: 'failed',
          error: 'the company has no searchable documents; upload CVs and wait until they are completed',
          errorRetryable: false,
          completedAt: '2026-11-24T20:28:08.563Z',
        },
      },
    },
    '404': {
      notFound: {
        summary: 'No such search (or another company’s)',
        value: {
          error: 'not_found',
          message: 'search not found',
        },
      },
    },
  },
  getSearchGroup: {
    '200': {
      completed: {
        summary: 'The four searches of one group',
        value: {
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          groupStatus: 'completed',
          query: 'accountant with general ledger and month-end close experience',
          createdAt: '2026-11-24T20:28:07.889Z',
          totalSearches: 4,
          searches: [
            {
              searchId: '46364624-36a3-49ed-b952-f585ed271198',
              searchType: 'dense',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 3,
              processingTimeMs: 34,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T20:28:07.889Z',
              completedAt: '2026-11-24T20:28:07.975Z',
              statusUrl: '/v1/public/searches/46364624-36a3-49ed-b952-f585ed271198',
              resultsUrl: '/v1/public/searches/46364624-36a3-49ed-b952-f585ed271198/results',
            },
            {
              searchId: 'bfbbef49-d331-4ab2-ad16-175053f0ffa4',
              searchType: 'sparse',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 1,
              processingTimeMs: 10,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T20:28:07.997Z',
              completedAt: '2026-11-24T20:28:08.020Z',
              statusUrl: '/v1/public/searches/bfbbef49-d331-4ab2-ad16-175053f0ffa4',
              resultsUrl: '/v1/public/searches/bfbbef49-d331-4ab2-ad16-175053f0ffa4/results',
            },
            {
              searchId: '8d057eca-9c79-41a2-9234-589746a4ea3f',
              searchType: 'hybrid',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 5,
              processingTimeMs: 8,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T20:28:08.031Z',
              completedAt: '2026-11-24T20:28:08.059Z',
              statusUrl: '/v1/public/searches/8d057eca-9c79-41a2-9234-589746a4ea3f',
              resultsUrl: '/v1/public/searches/8d057eca-9c79-41a2-9234-589746a4ea3f/results',
            },
            {
              searchId: 'c98d8d6b-aabf-40cf-bdf9-aa6e417cd396',
              searchType: 'builtin-rerank',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 5,
              processingTimeMs: 5,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T20:28:08.065Z',
              completedAt: '2026-11-24T20:28:08.079Z',
              statusUrl: '/v1/public/searches/c98d8d6b-aabf-40cf-bdf9-aa6e417cd396',
              resultsUrl: '/v1/public/searches/c98d8d6b-aabf-40cf-bdf9-aa6e417cd396/results',
            },
          ],
        },
      },
    },
    '404': {
      notFound: {
        summary: 'No such group',
        value: {
          error: 'not_found',
          message: 'search group not found',
        },
      },
    },
  },
  getSearchGroupResults: {
    '200': {
      completed: {
        summary: 'Two of the group’s searches with their results, compared',
        value: {
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          groupStatus: 'completed',
          query: 'accountant with general ledger and month-end close experience',
          createdAt: '2026-11-24T20:28:07.889Z',
          totalSearches: 4,
          searches: [
            {
              searchId: '46364624-36a3-49ed-b952-f585ed271198',
              searchType: 'dense',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 3,
              processingTimeMs: 34,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T20:28:07.889Z',
              completedAt: '2026-11-24T20:28:07.975Z',
              statusUrl: '/v1/public/searches/46364624-36a3-49ed-b952-f585ed271198',
              resultsUrl: '/v1/public/searches/46364624-36a3-49ed-b952-f585ed271198/results',
              totalResults: 3,
              results: [
                {
                  rank: 1,
                  score: 0.6452,
                  scores: {
                    dense: 0.6452,
                  },
                  documentId: '80ed744e-ad3b-4bab-87f3-e383845b64df',
                  highlights: [
                    {
                      end: 17,
                      text: 'Senior Accountant',
                      start: 0,
                      matches: [
                        {
                          end: 17,
                          start: 7,
                        },
                      ],
                    },
                  ],
                  documentDate: '03-2024',
                  documentName: 'accountant CV',
                  matchedTerms: ['accountant with general ledger and month-end close experience'],
                  summary:
                    'CPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.',
                  contact: null,
                  profile: {
                    domain: 'Accounting and finance',
                    industries: ['Banking'],
                    hasManagement: false,
                    seniorityLevel: 'senior',
                    specialization: 'Senior Accountant',
                    technicalStack: ['Reconciliation', 'QuickBooks', 'SAP', 'General Ledger', 'Accounts Payable', 'Accounts Receivable'],
                    experienceYears: 9,
                    recentExpertise: ['Reconciliation'],
                  },
                },
                {
                  rank: 2,
                  score: 0.1078,
                  scores: {
                    dense: 0.1078,
                  },
                  documentId: '144ad9aa-6e2d-4df4-9a2f-8713bf887fd6',
                  highlights: [
                    {
                      end: 17,
                      text: 'Software Engineer',
                      start: 0,
                      matches: [],
                    },
                  ],
                  documentDate: '03-2024',
                  documentName: 'developer CV',
                  matchedTerms: [],
                  summary:
                    'Backend developer building Node.js and TypeScript services on Kubernetes, with PostgreSQL, Redis and CI/CD pipelines.',
                  contact: null,
                  profile: {
                    domain: 'Engineering',
                    industries: ['Technology'],
                    hasManagement: true,
                    seniorityLevel: 'junior',
                    specialization: 'Software Engineer',
                    technicalStack: ['TypeScript', 'Python', 'C++', 'Node.js', 'REST', 'Kubernetes', 'Redis', 'PostgreSQL', 'CI/CD'],
                    experienceYears: 6.3,
                    recentExpertise: ['Python', 'C++', 'REST'],
                  },
                },
                {
                  rank: 3,
                  score: 0.1076,
                  scores: {
                    dense: 0.1076,
                  },
                  documentId: 'd83148ee-33b0-40f9-8b40-91a543bbe28d',
                  highlights: [
                    {
                      end: 17,
                      text: 'Software Engineer',
                      start: 0,
                      matches: [],
                    },
                  ],
                  documentDate: '03-2024',
                  documentName: 'developer CV',
                  matchedTerms: [],
                  summary:
                    'Backend developer building Node.js and TypeScript services on Kubernetes, with PostgreSQL, Redis and CI/CD pipelines.',
                  contact: null,
                  profile: {
                    domain: 'Engineering',
                    industries: ['Technology'],
                    hasManagement: true,
                    seniorityLevel: 'junior',
                    specialization: 'Software Engineer',
                    technicalStack: ['TypeScript', 'Python', 'C++', 'Node.js', 'REST', 'Kubernetes', 'Redis', 'PostgreSQL', 'CI/CD'],
                    experienceYears: 6.3,
                    recentExpertise: ['Python', 'C++', 'REST'],
                  },
                },
              ],
              metadata: {
                processingTimeMs: 34,
                createdAt: '2026-11-24T20:28:07.889Z',
                completedAt: '2026-11-24T20:28:07.975Z',
                topK: 3,
                reranker: null,
                rerankTopN: null,
                stageTimingsMs: {
                  explain: 16.2,
                  documents: 15.7,
                  retrieval: 1.9,
                },
              },
            },
            {
              searchId: 'bfbbef49-d331-4ab2-ad16-175053f0ffa4',
              searchType: 'sparse',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 1,
              processingTimeMs: 10,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T20:28:07.997Z',
              completedAt: '2026-11-24T20:28:08.020Z',
              statusUrl: '/v1/public/searches/bfbbef49-d331-4ab2-ad16-175053f0ffa4',
              resultsUrl: '/v1/public/searches/bfbbef49-d331-4ab2-ad16-175053f0ffa4/results',
              totalResults: 1,
              results: [
                {
                  rank: 1,
                  score: 0.4673,
                  scores: {
                    sparse: 0.4673,
                  },
                  documentId: '80ed744e-ad3b-4bab-87f3-e383845b64df',
                  highlights: [
                    {
                      end: 212,
                      text: 'Senior Accountant\nSummary\nCPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.\nExperience\nStaff Accountant, 2015 to 2023: prepared',
                      start: 0,
                      matches: [
                        {
                          end: 17,
                          start: 7,
                        },
                        {
                          end: 55,
                          start: 50,
                        },
                        {
                          end: 59,
                          start: 56,
                        },
                        {
                          end: 65,
                          start: 60,
                        },
                        {
                          end: 74,
                          start: 67,
                        },
                        {
                          end: 81,
                          start: 75,
                        },
                        {
                          end: 107,
                          start: 99,
                        },
                        {
                          end: 128,
                          start: 120,
                        },
                        {
                          end: 188,
                          start: 178,
                        },
                      ],
                    },
                  ],
                  documentDate: '03-2024',
                  documentName: 'accountant CV',
                  matchedTerms: ['accountant with general ledger and month-end close experience'],
                  summary:
                    'CPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.',
                  contact: null,
                  profile: {
                    domain: 'Accounting and finance',
                    industries: ['Banking'],
                    hasManagement: false,
                    seniorityLevel: 'senior',
                    specialization: 'Senior Accountant',
                    technicalStack: ['Reconciliation', 'QuickBooks', 'SAP', 'General Ledger', 'Accounts Payable', 'Accounts Receivable'],
                    experienceYears: 9,
                    recentExpertise: ['Reconciliation'],
                  },
                },
              ],
              metadata: {
                processingTimeMs: 10,
                createdAt: '2026-11-24T20:28:07.997Z',
                completedAt: '2026-11-24T20:28:08.020Z',
                topK: 3,
                reranker: null,
                rerankTopN: null,
                stageTimingsMs: {
                  explain: 1.6,
                  documents: 0.8,
                  retrieval: 7.4,
                },
              },
            },
          ],
          pagination: {
            limit: 2,
            offset: 0,
            total: 4,
            hasMore: true,
          },
          comparison: {
            pairs: [
              {
                searchIds: ['46364624-36a3-49ed-b952-f585ed271198', 'bfbbef49-d331-4ab2-ad16-175053f0ffa4'],
                searchTypes: ['dense', 'sparse'],
                overlap: 1,
                jaccard: 0.3333,
              },
            ],
            foundByAll: ['80ed744e-ad3b-4bab-87f3-e383845b64df'],
            documents: [
              {
                documentId: '80ed744e-ad3b-4bab-87f3-e383845b64df',
                ranks: {
                  '46364624-36a3-49ed-b952-f585ed271198': 1,
                  'bfbbef49-d331-4ab2-ad16-175053f0ffa4': 1,
                },
              },
              {
                documentId: '144ad9aa-6e2d-4df4-9a2f-8713bf887fd6',
                ranks: {
                  '46364624-36a3-49ed-b952-f585ed271198': 2,
                  'bfbbef49-d331-4ab2-ad16-175053f0ffa4': null,
                },
              },
              {
                documentId: 'd83148ee-33b0-40f9-8b40-91a543bbe28d',
                ranks: {
                  '46364624-36a3-49ed-b952-f585ed271198': 3,
                  'bfbbef49-d331-4ab2-ad16-175053f0ffa4': null,
                },
              },
            ],
          },
        },
      },
    },
  },
  getSearchResults: {
    '200': {
      hybrid: {
        summary: 'The best two of a hybrid search',
        value: {
          searchId: '8d057eca-9c79-41a2-9234-589746a4ea3f',
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'hybrid',
          status: 'completed',
          totalResults: 5,
          results: [
            {
              rank: 1,
              score: 0.4999,
              scores: {
                dense: 0.6452,
                fused: 1,
                rerank: 0.4999,
                sparse: 0.4673,
              },
              documentId: '80ed744e-ad3b-4bab-87f3-e383845b64df',
              highlights: [
                {
                  end: 17,
                  text: 'Senior Accountant',
                  start: 0,
                  matches: [
                    {
                      end: 17,
                      start: 7,
                    },
                  ],
                },
              ],
              documentDate: '03-2024',
              documentName: 'accountant CV',
              matchedTerms: ['accountant with general ledger and month-end close experience'],
              summary:
                'CPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.',
              contact: null,
              profile: {
                domain: 'Accounting and finance',
                industries: ['Banking'],
                hasManagement: false,
                seniorityLevel: 'senior',
                specialization: 'Senior Accountant',
                technicalStack: ['Reconciliation', 'QuickBooks', 'SAP', 'General Ledger', 'Accounts Payable', 'Accounts Receivable'],
                experienceYears: 9,
                recentExpertise: ['Reconciliation'],
              },
            },
            {
              rank: 2,
              score: 0.0237,
              scores: {
                dense: 0.1078,
                fused: 0.4919,
                rerank: 0.0237,
              },
              documentId: '144ad9aa-6e2d-4df4-9a2f-8713bf887fd6',
              highlights: [
                {
                  end: 17,
                  text: 'Software Engineer',
                  start: 0,
                  matches: [],
                },
              ],
              documentDate: '03-2024',
              documentName: 'developer CV',
              matchedTerms: [],
              summary:
                'Backend developer building Node.js and TypeScript services on Kubernetes, with PostgreSQL, Redis and CI/CD pipelines.',
              contact: null,
              profile: {
                domain: 'Engineering',
                industries: ['Technology'],
                hasManagement: true,
                seniorityLevel: 'junior',
                specialization: 'Software Engineer',
                technicalStack: ['TypeScript', 'Python', 'C++', 'Node.js', 'REST', 'Kubernetes', 'Redis', 'PostgreSQL', 'CI/CD'],
                experienceYears: 6.3,
                recentExpertise: ['Python', 'C++', 'REST'],
              },
            },
          ],
          pagination: {
            limit: 2,
            offset: 0,
            total: 5,
            hasMore: true,
          },
          metadata: {
            processingTimeMs: 8,
            createdAt: '2026-11-24T20:28:08.031Z',
            completedAt: '2026-11-24T20:28:08.059Z',
            topK: 3,
            fusion: {
              k: 60,
              method: 'reciprocal-rank-fusion',
              denseCandidates: 5,
              fusedCandidates: 5,
              sparseCandidates: 1,
            },
            reranker: {
              degraded: false,
              provider: 'local',
            },
            rerankTopN: 30,
            stageTimingsMs: {
              rerank: 4.2,
              explain: 0.4,
              documents: 1.7,
              retrieval: 1.3,
            },
          },
        },
      },
      withText: {
        summary: 'The best of a dense search, with its CV’s text',
        value: {
          searchId: '46364624-36a3-49ed-b952-f585ed271198',
          searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'dense',
          status: 'completed',
          totalResults: 3,
          results: [
            {
              rank: 1,
              score: 0.6452,
              scores: {
                dense: 0.6452,
              },
              documentId: '80ed744e-ad3b-4bab-87f3-e383845b64df',
              highlights: [
                {
                  end: 17,
                  text: 'Senior Accountant',
                  start: 0,
                  matches: [
                    {
                      end: 17,
                      start: 7,
                    },
                  ],
                },
              ],
              documentDate: '03-2024',
              documentName: 'accountant CV',
              matchedTerms: ['accountant with general ledger and month-end close experience'],
              summary:
                'CPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.',
              contact: null,
              profile: {
                domain: 'Accounting and finance',
                industries: ['Banking'],
                hasManagement: false,
                seniorityLevel: 'senior',
                specialization: 'Senior Accountant',
                technicalStack: ['Reconciliation', 'QuickBooks', 'SAP', 'General Ledger', 'Accounts Payable', 'Accounts Receivable'],
                experienceYears: 9,
                recentExpertise: ['Reconciliation'],
              },
              extractedText:
                'Senior Accountant\nSummary\nCPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.\nExperience\nStaff Accountant, 2015 to 2023: prepared journal entries, bank reconciliations and financial statements.',
            },
          ],
          pagination: {
            limit: 1,
            offset: 0,
            total: 3,
            hasMore: true,
          },
          metadata: {
            processingTimeMs: 34,
            createdAt: '2026-11-24T20:28:07.889Z',
            completedAt: '2026-11-24T20:28:07.975Z',
            topK: 3,
            reranker: null,
            rerankTopN: null,
            stageTimingsMs: {
              explain: 16.2,
              documents: 15.7,
              retrieval: 1.9,
            },
          },
        },
      },
    },
    '400': {
      tooManyWithText: {
        summary: 'A limit over 20 with include=extractedText',
        value: {
          error: 'invalid_request',
          message: 'limit must be at most 20 with include=extractedText',
        },
      },
    },
    '409': {
      failed: {
        summary: 'The results of a failed search',
        value: {
          error: 'conflict',
          message:
            'the search failed, so it has no results: the company has no searchable documents; upload CVs and wait until they are completed',
          status: 'failed',
          searchError: 'the company has no searchable documents; upload CVs and wait until they are completed',
          errorRetryable: false,
        },
      },
    },
  },
  listDocuments: {
    '200': {
      page: {
        summary: 'The two newest documents',
        value: {
          data: [
            {
              documentId: 'd83148ee-33b0-40f9-8b40-91a543bbe28d',
              documentName: 'developer CV',
              documentType: 'cv',
              documentDate: '03-2024',
              status: 'completed',
              message: 'Searchable',
              createdAt: '2026-11-24T20:28:07.603Z',
              updatedAt: '2026-11-24T20:28:07.712Z',
              file: {
                name: 'developer-cv.txt',
                size: 277,
                sizeFormatted: '277 B',
                contentType: 'text/plain',
              },
              summary:
                'Backend developer building Node.js and TypeScript services on Kubernetes, with PostgreSQL, Redis and CI/CD pipelines.',
              contact: null,
              profile: {
                domain: 'Engineering',
                industries: ['Technology'],
                hasManagement: true,
                seniorityLevel: 'junior',
                specialization: 'Software Engineer',
                technicalStack: ['TypeScript', 'Python', 'C++', 'Node.js', 'REST', 'Kubernetes', 'Redis', 'PostgreSQL', 'CI/CD'],
                experienceYears: 6.3,
                recentExpertise: ['Python', 'C++', 'REST'],
              },
              error: null,
            },
            {
              documentId: '614a9a53-c11f-407a-9a25-c0fb198dbec9',
              documentName: 'teacher CV',
              documentType: 'cv',
              documentDate: '03-2024',
              status: 'completed',
              message: 'Searchable',
              createdAt: '2026-11-24T20:28:07.528Z',
              updatedAt: '2026-11-24T20:28:07.565Z',
              file: {
                name: 'teacher.txt',
                size: 255,
                sizeFormatted: '255 B',
                contentType: 'text/plain',
              },
              summary:
                'Language arts teacher planning lessons and curriculum for middle school students, classroom management and reading intervention.',
              contact: null,
              profile: {
                domain: 'Education',
                industries: ['Education'],
                hasManagement: false,
                seniorityLevel: 'senior',
                specialization: 'Middle School Teacher',
                technicalStack: ['Classroom Management'],
                experienceYears: 13,
                recentExpertise: [],
              },
              error: null,
            },
          ],
          pagination: {
            limit: 2,
            offset: 0,
            total: 5,
            hasMore: true,
          },
        },
      },
    },
    '400': {
      badLimit: {
        summary: 'A limit out of range',
        value: {
          error: 'invalid_request',
          message: 'limit must be an integer between 1 and 100',
        },
      },
    },
    '401': {
      noKey: {
        summary: 'Without X-API-Key',
        value: {
          error: 'unauthorized',
          message: 'missing API key: send your API key in the X-API-Key header',
        },
      },
    },
  },
  listSearchGroups: {
    '200': {
      page: {
        summary: 'The newest groups',
        value: {
          data: [
            {
              searchGroupId: 'e8987bfe-b02e-416f-93fd-d1df687a6499',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 1,
              searchTypes: ['sparse'],
              createdAt: '2026-11-24T20:28:08.190Z',
              groupUrl: '/v1/public/searches/groups/e8987bfe-b02e-416f-93fd-d1df687a6499',
            },
            {
              searchGroupId: '46459f71-841e-40a9-88dc-523d0d1a9d2f',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 1,
              searchTypes: ['dense'],
              createdAt: '2026-11-24T20:28:08.117Z',
              groupUrl: '/v1/public/searches/groups/46459f71-841e-40a9-88dc-523d0d1a9d2f',
            },
            {
              searchGroupId: 'fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 4,
              searchTypes: ['dense', 'sparse', 'hybrid', 'builtin-rerank'],
              createdAt: '2026-11-24T20:28:07.889Z',
              groupUrl: '/v1/public/searches/groups/fd66e1e4-0a94-4cd2-b284-a7284610a0bf',
            },
          ],
          pagination: {
            limit: 5,
            offset: 0,
            total: 3,
            hasMore: false,
          },
        },
      },
    },
  },
  putPresignedUpload: {
    '200': {
      stored: {
        summary: 'The bytes arrived',
        value: {
          uploadId: '3a60af60-ec81-4d62-bcd1-f9f0fd8fec42',
          status: 'uploaded',
        },
      },
    },
    '401': {
      badSignature: {
        summary: 'A signature that does not match',
        value: {
          error: 'unauthorized',
          message: 'the upload URL signature is invalid',
        },
      },
    },
  },
  streamSearchEvents: {
    '406': {
      notAcceptable: {
        summary: 'An Accept that excludes text/event-stream',
        value: {
          error: 'not_acceptable',
          message: 'this resource is a text/event-stream; the Accept header excludes it',
        },
      },
    },
  },
  uploadDocument: {
    '200': {
      duplicate: {
        summary: 'The same bytes again: the existing document',
        value: {
          documentId: '80ed744e-ad3b-4bab-87f3-e383845b64df',
          status: 'completed',
          message: 'These exact bytes were uploaded before: this is the existing document.',
          duplicate: true,
          file: {
            name: 'accountant.txt',
            size: 276,
            sizeFormatted: '276 B',
            contentType: 'text/plain',
          },
          estimatedProcessingTime: 'done',
          statusEndpoint: '/v1/public/documents/80ed744e-ad3b-4bab-87f3-e383845b64df',
        },
      },
    },
    '201': {
      created: {
        summary: 'A new document, queued',
        value: {
          documentId: '80ed744e-ad3b-4bab-87f3-e383845b64df',
          status: 'uploading',
          message: 'File stored; it is being parsed and indexed.',
          duplicate: false,
          file: {
            name: 'accountant.txt',
            size: 276,
            sizeFormatted: '276 B',
            contentType: 'text/plain',
          },
          estimatedProcessingTime: 'under 30 seconds',
          statusEndpoint: '/v1/public/documents/80ed744e-ad3b-4bab-87f3-e383845b64df',
        },
      },
    },
    '400': {
      badDate: {
        summary: 'documentDate not MM-YYYY',
        value: {
          error: 'invalid_request',
          message: 'documentDate must be MM-YYYY, for example 03-2024',
        },
      },
    },
    '415': {
      unsupportedType: {
        summary: 'A type that is not a CV format',
        value: {
          error: 'unsupported_media_type',
          message:
            'unsupported file type "image/gif"; accepted: application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/msword, text/plain',
        },
      },
    },
  },
  uploadDocumentFromUrl: {
    '201': {
      created: {
        summary: 'A CV fetched from a URL',
        value: {
          documentId: 'd83148ee-33b0-40f9-8b40-91a543bbe28d',
          status: 'uploading',
          message: 'File stored; it is being parsed and indexed.',
          duplicate: false,
          file: {
            name: 'developer-cv.txt',
            size: 277,
            sizeFormatted: '277 B',
            contentType: 'text/plain',
          },
          estimatedProcessingTime: 'under 30 seconds',
          statusEndpoint: '/v1/public/documents/d83148ee-33b0-40f9-8b40-91a543bbe28d',
        },
      },
    },
    '422': {
      htmlPage: {
        summary: 'A URL that serves a web page',
        value: {
          error: 'unprocessable',
          message: 'the URL points to an HTML page, not a CV file',
        },
      },
    },
  },
};
