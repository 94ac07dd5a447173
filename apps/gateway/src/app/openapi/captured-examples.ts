// Written by `npm run openapi:examples` (scripts/capture-openapi-examples.ts): real answers of a
// standalone service, by operationId and status. Do not edit by hand; capture again.
export const CAPTURED_EXAMPLES: Record<string, Record<string, Record<string, { summary: string; value: unknown }>>> = {
  createBuiltinRerankSearch: {
    '202': {
      started: {
        summary: 'A builtin-rerank search in the dense search’s group',
        value: {
          searchId: '59ebd058-e278-4cc0-b1b4-9ea1c17ba42c',
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          status: 'processing',
          searchType: 'builtin-rerank',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '10 to 20 seconds',
          statusUrl: '/v1/public/searches/59ebd058-e278-4cc0-b1b4-9ea1c17ba42c',
          resultsUrl: '/v1/public/searches/59ebd058-e278-4cc0-b1b4-9ea1c17ba42c/results',
        },
      },
    },
  },
  createDenseSearch: {
    '200': {
      completedWithinWait: {
        summary: 'Prefer: wait=10, and the search ended within it: its status, in one round trip',
        value: {
          searchId: 'b14546b2-0f0b-4231-90cc-73f1beea8f60',
          searchGroupId: '6a514c4b-8c4f-45aa-8e62-171e07e1d1c8',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'dense',
          createdAt: '2026-11-25T01:22:22.734Z',
          status: 'completed',
          resultsCount: 3,
          processingTimeMs: 2,
          completedAt: '2026-11-25T01:22:22.807Z',
          resultsUrl: '/v1/public/searches/b14546b2-0f0b-4231-90cc-73f1beea8f60/results',
        },
      },
    },
    '202': {
      started: {
        summary: 'A dense search',
        value: {
          searchId: '713c220c-6e87-4756-ad47-f72241a59aca',
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          status: 'processing',
          searchType: 'dense',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '5 to 10 seconds',
          statusUrl: '/v1/public/searches/713c220c-6e87-4756-ad47-f72241a59aca',
          resultsUrl: '/v1/public/searches/713c220c-6e87-4756-ad47-f72241a59aca/results',
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
          searchId: '84ce3da6-a06b-4439-8e07-af684399e834',
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          status: 'processing',
          searchType: 'hybrid',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '15 to 30 seconds',
          statusUrl: '/v1/public/searches/84ce3da6-a06b-4439-8e07-af684399e834',
          resultsUrl: '/v1/public/searches/84ce3da6-a06b-4439-8e07-af684399e834/results',
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
          uploadId: '5d2504c2-d1b6-47b0-ac75-a9dff91ae0f8',
          presignedUrl:
            'https://cv-search.example.com/uploads/5d2504c2-d1b6-47b0-ac75-a9dff91ae0f8?expires=1795573339&signature=63c785a24c3b6a35c222e7d7a4d1c7241243b47c4d78b78ccd9579e191b7dcfe',
          method: 'PUT',
          headers: {
            'Content-Type': 'text/plain',
          },
          expiresAt: '2026-11-25T02:22:19.867Z',
        },
      },
    },
  },
  createSparseSearch: {
    '202': {
      started: {
        summary: 'A sparse search in the dense search’s group',
        value: {
          searchId: 'c75a695e-46e4-45a6-b829-a909245e28fb',
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          status: 'processing',
          searchType: 'sparse',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '5 to 10 seconds',
          statusUrl: '/v1/public/searches/c75a695e-46e4-45a6-b829-a909245e28fb',
          resultsUrl: '/v1/public/searches/c75a695e-46e4-45a6-b829-a909245e28fb/results',
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
          documentId: '536c1993-ed29-4398-9c89-483d37b9cee5',
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
          documentId: '796e72e6-e917-48bc-aa83-68e919e51450',
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
          statusEndpoint: '/v1/public/documents/796e72e6-e917-48bc-aa83-68e919e51450',
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
          documentId: 'd7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
          documentName: 'accountant CV',
          documentType: 'cv',
          documentDate: '03-2024',
          status: 'completed',
          message: 'Searchable',
          createdAt: '2026-11-25T01:22:18.757Z',
          updatedAt: '2026-11-25T01:22:19.087Z',
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
          uploadId: '5d2504c2-d1b6-47b0-ac75-a9dff91ae0f8',
          status: 'pending',
          fileName: 'teacher.txt',
          contentType: 'text/plain',
          fileSize: 255,
          expiresAt: '2026-11-25T02:22:19.867Z',
        },
      },
      uploaded: {
        summary: 'The bytes arrived',
        value: {
          uploadId: '5d2504c2-d1b6-47b0-ac75-a9dff91ae0f8',
          status: 'uploaded',
          fileName: 'teacher.txt',
          contentType: 'text/plain',
          fileSize: 255,
          expiresAt: '2026-11-25T02:22:19.867Z',
        },
      },
    },
  },
  getSearch: {
    '200': {
      completed: {
        summary: 'A completed search',
        value: {
          searchId: '84ce3da6-a06b-4439-8e07-af684399e834',
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'hybrid',
          createdAt: '2026-11-25T01:22:22.529Z',
          status: 'completed',
          resultsCount: 5,
          processingTimeMs: 15,
          completedAt: '2026-11-25T01:22:22.563Z',
          resultsUrl: '/v1/public/searches/84ce3da6-a06b-4439-8e07-af684399e834/results',
        },
      },
      failed: {
        summary: 'A search that failed: no CVs to search',
        value: {
          searchId: '2778a87e-6d0c-4f07-9081-d1cb2cf8d6bc',
          searchGroupId: '0d768b0f-8fbc-4118-8316-023f003c531e',
          query: 'chef',
          searchType: 'sparse',
          createdAt: '2026-11-25T01:22:25.640Z',
          status: 'failed',
          error: 'the company has no searchable documents; upload CVs and wait until they are completed',
          errorRetryable: false,
          completedAt: '2026-11-25T01:22:25.655Z',
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
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          groupStatus: 'completed',
          query: 'accountant with general ledger and month-end close experience',
          createdAt: '2026-11-25T01:22:22.440Z',
          totalSearches: 4,
          searches: [
            {
              searchId: '713c220c-6e87-4756-ad47-f72241a59aca',
              searchType: 'dense',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 3,
              processingTimeMs: 30,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-25T01:22:22.440Z',
              completedAt: '2026-11-25T01:22:22.493Z',
              statusUrl: '/v1/public/searches/713c220c-6e87-4756-ad47-f72241a59aca',
              resultsUrl: '/v1/public/searches/713c220c-6e87-4756-ad47-f72241a59aca/results',
            },
            {
              searchId: 'c75a695e-46e4-45a6-b829-a909245e28fb',
              searchType: 'sparse',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 1,
              processingTimeMs: 3,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-25T01:22:22.509Z',
              completedAt: '2026-11-25T01:22:22.524Z',
              statusUrl: '/v1/public/searches/c75a695e-46e4-45a6-b829-a909245e28fb',
              resultsUrl: '/v1/public/searches/c75a695e-46e4-45a6-b829-a909245e28fb/results',
            },
            {
              searchId: '84ce3da6-a06b-4439-8e07-af684399e834',
              searchType: 'hybrid',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 5,
              processingTimeMs: 15,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-25T01:22:22.529Z',
              completedAt: '2026-11-25T01:22:22.563Z',
              statusUrl: '/v1/public/searches/84ce3da6-a06b-4439-8e07-af684399e834',
              resultsUrl: '/v1/public/searches/84ce3da6-a06b-4439-8e07-af684399e834/results',
            },
            {
              searchId: '59ebd058-e278-4cc0-b1b4-9ea1c17ba42c',
              searchType: 'builtin-rerank',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 5,
              processingTimeMs: 36,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-25T01:22:22.573Z',
              completedAt: '2026-11-25T01:22:22.671Z',
              statusUrl: '/v1/public/searches/59ebd058-e278-4cc0-b1b4-9ea1c17ba42c',
              resultsUrl: '/v1/public/searches/59ebd058-e278-4cc0-b1b4-9ea1c17ba42c/results',
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
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          groupStatus: 'completed',
          query: 'accountant with general ledger and month-end close experience',
          createdAt: '2026-11-25T01:22:22.440Z',
          totalSearches: 4,
          searches: [
            {
              searchId: '713c220c-6e87-4756-ad47-f72241a59aca',
              searchType: 'dense',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 3,
              processingTimeMs: 30,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-25T01:22:22.440Z',
              completedAt: '2026-11-25T01:22:22.493Z',
              statusUrl: '/v1/public/searches/713c220c-6e87-4756-ad47-f72241a59aca',
              resultsUrl: '/v1/public/searches/713c220c-6e87-4756-ad47-f72241a59aca/results',
              totalResults: 3,
              results: [
                {
                  rank: 1,
                  score: 0.7146,
                  scores: {
                    dense: 0.7146,
                  },
                  documentId: 'd7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
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
                  score: 0.1973,
                  scores: {
                    dense: 0.1973,
                  },
                  documentId: 'aee5bd32-080d-4906-95c9-721b2f744e46',
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
                  score: 0.1848,
                  scores: {
                    dense: 0.1848,
                  },
                  documentId: '9c370da2-f51e-45cd-b0ec-3b37ebf7f3b0',
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
                processingTimeMs: 30,
                createdAt: '2026-11-25T01:22:22.440Z',
                completedAt: '2026-11-25T01:22:22.493Z',
                topK: 3,
                reranker: null,
                denseModel: {
                  id: 'builtin:glove-sif-100d-v2',
                  dimensions: 100,
                },
                rerankTopN: null,
                stageTimingsMs: {
                  explain: 13.8,
                  documents: 8.4,
                  retrieval: 7,
                },
              },
            },
            {
              searchId: 'c75a695e-46e4-45a6-b829-a909245e28fb',
              searchType: 'sparse',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 1,
              processingTimeMs: 3,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-25T01:22:22.509Z',
              completedAt: '2026-11-25T01:22:22.524Z',
              statusUrl: '/v1/public/searches/c75a695e-46e4-45a6-b829-a909245e28fb',
              resultsUrl: '/v1/public/searches/c75a695e-46e4-45a6-b829-a909245e28fb/results',
              totalResults: 1,
              results: [
                {
                  rank: 1,
                  score: 0.4673,
                  scores: {
                    sparse: 0.4673,
                  },
                  documentId: 'd7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
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
                processingTimeMs: 3,
                createdAt: '2026-11-25T01:22:22.509Z',
                completedAt: '2026-11-25T01:22:22.524Z',
                topK: 3,
                reranker: null,
                rerankTopN: null,
                stageTimingsMs: {
                  explain: 0.5,
                  documents: 0.7,
                  retrieval: 2.1,
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
                searchIds: ['713c220c-6e87-4756-ad47-f72241a59aca', 'c75a695e-46e4-45a6-b829-a909245e28fb'],
                searchTypes: ['dense', 'sparse'],
                overlap: 1,
                jaccard: 0.3333,
              },
            ],
            foundByAll: ['d7b694c4-ca2b-4cb7-bb90-aeb62f16606e'],
            documents: [
              {
                documentId: 'd7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
                ranks: {
                  '713c220c-6e87-4756-ad47-f72241a59aca': 1,
                  'c75a695e-46e4-45a6-b829-a909245e28fb': 1,
                },
              },
              {
                documentId: 'aee5bd32-080d-4906-95c9-721b2f744e46',
                ranks: {
                  '713c220c-6e87-4756-ad47-f72241a59aca': 2,
                  'c75a695e-46e4-45a6-b829-a909245e28fb': null,
                },
              },
              {
                documentId: '9c370da2-f51e-45cd-b0ec-3b37ebf7f3b0',
                ranks: {
                  '713c220c-6e87-4756-ad47-f72241a59aca': 3,
                  'c75a695e-46e4-45a6-b829-a909245e28fb': null,
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
          searchId: '84ce3da6-a06b-4439-8e07-af684399e834',
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'hybrid',
          status: 'completed',
          totalResults: 5,
          results: [
            {
              rank: 1,
              score: 0.4984,
              scores: {
                dense: 0.7146,
                fused: 1,
                rerank: 0.4984,
                sparse: 0.4673,
              },
              documentId: 'd7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
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
              score: 0.026,
              scores: {
                dense: 0.1973,
                fused: 0.0926,
                rerank: 0.026,
              },
              documentId: 'aee5bd32-080d-4906-95c9-721b2f744e46',
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
            processingTimeMs: 15,
            createdAt: '2026-11-25T01:22:22.529Z',
            completedAt: '2026-11-25T01:22:22.563Z',
            topK: 3,
            fusion: {
              method: 'convex-combination',
              denseShare: 0.6,
              denseCandidates: 5,
              fusedCandidates: 5,
              sparseCandidates: 1,
            },
            reranker: {
              degraded: false,
              provider: 'local',
            },
            denseModel: {
              id: 'builtin:glove-sif-100d-v2',
              dimensions: 100,
            },
            rerankTopN: 30,
            stageTimingsMs: {
              rerank: 11.6,
              explain: 0.3,
              documents: 1.8,
              retrieval: 1.2,
            },
          },
        },
      },
      withText: {
        summary: 'The best of a dense search, with its CV’s text',
        value: {
          searchId: '713c220c-6e87-4756-ad47-f72241a59aca',
          searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'dense',
          status: 'completed',
          totalResults: 3,
          results: [
            {
              rank: 1,
              score: 0.7146,
              scores: {
                dense: 0.7146,
              },
              documentId: 'd7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
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
            processingTimeMs: 30,
            createdAt: '2026-11-25T01:22:22.440Z',
            completedAt: '2026-11-25T01:22:22.493Z',
            topK: 3,
            reranker: null,
            denseModel: {
              id: 'builtin:glove-sif-100d-v2',
              dimensions: 100,
            },
            rerankTopN: null,
            stageTimingsMs: {
              explain: 13.8,
              documents: 8.4,
              retrieval: 7,
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
              documentId: 'aee5bd32-080d-4906-95c9-721b2f744e46',
              documentName: 'developer CV',
              documentType: 'cv',
              documentDate: '03-2024',
              status: 'completed',
              message: 'Searchable',
              createdAt: '2026-11-25T01:22:21.492Z',
              updatedAt: '2026-11-25T01:22:21.615Z',
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
              documentId: '796e72e6-e917-48bc-aa83-68e919e51450',
              documentName: 'teacher CV',
              documentType: 'cv',
              documentDate: '03-2024',
              status: 'completed',
              message: 'Searchable',
              createdAt: '2026-11-25T01:22:20.723Z',
              updatedAt: '2026-11-25T01:22:21.229Z',
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
              searchGroupId: '71acd553-bfcc-421a-aea0-e34fe7c2858d',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 1,
              searchTypes: ['sparse'],
              createdAt: '2026-11-25T01:22:22.932Z',
              groupUrl: '/v1/public/searches/groups/71acd553-bfcc-421a-aea0-e34fe7c2858d',
            },
            {
              searchGroupId: '6a514c4b-8c4f-45aa-8e62-171e07e1d1c8',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 1,
              searchTypes: ['dense'],
              createdAt: '2026-11-25T01:22:22.734Z',
              groupUrl: '/v1/public/searches/groups/6a514c4b-8c4f-45aa-8e62-171e07e1d1c8',
            },
            {
              searchGroupId: 'f5f3db0f-207e-4bfc-8c38-2faea875af4f',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 4,
              searchTypes: ['dense', 'sparse', 'hybrid', 'builtin-rerank'],
              createdAt: '2026-11-25T01:22:22.440Z',
              groupUrl: '/v1/public/searches/groups/f5f3db0f-207e-4bfc-8c38-2faea875af4f',
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
          uploadId: '5d2504c2-d1b6-47b0-ac75-a9dff91ae0f8',
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
          documentId: 'd7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
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
          statusEndpoint: '/v1/public/documents/d7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
        },
      },
    },
    '201': {
      created: {
        summary: 'A new document, queued',
        value: {
          documentId: 'd7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
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
          statusEndpoint: '/v1/public/documents/d7b694c4-ca2b-4cb7-bb90-aeb62f16606e',
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
          documentId: 'aee5bd32-080d-4906-95c9-721b2f744e46',
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
          statusEndpoint: '/v1/public/documents/aee5bd32-080d-4906-95c9-721b2f744e46',
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
