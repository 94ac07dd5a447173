// Written by `npm run openapi:examples` (scripts/capture-openapi-examples.ts): real answers of a
// standalone service, by operationId and status. Do not edit by hand; capture again.
export const CAPTURED_EXAMPLES: Record<string, Record<string, Record<string, { summary: string; value: unknown }>>> = {
  createBuiltinRerankSearch: {
    '202': {
      started: {
        summary: 'A builtin-rerank search in the dense search’s group',
        value: {
          searchId: '69eb12bd-82ae-4ac9-bb27-1c791aba638a',
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
          status: 'processing',
          searchType: 'builtin-rerank',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '10 to 20 seconds',
          statusUrl: '/v1/public/searches/69eb12bd-82ae-4ac9-bb27-1c791aba638a',
          resultsUrl: '/v1/public/searches/69eb12bd-82ae-4ac9-bb27-1c791aba638a/results',
        },
      },
    },
  },
  createDenseSearch: {
    '202': {
      started: {
        summary: 'A dense search',
        value: {
          searchId: '4b86c87d-70d2-4487-b7f1-02948cac7cb9',
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
          status: 'processing',
          searchType: 'dense',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '5 to 10 seconds',
          statusUrl: '/v1/public/searches/4b86c87d-70d2-4487-b7f1-02948cac7cb9',
          resultsUrl: '/v1/public/searches/4b86c87d-70d2-4487-b7f1-02948cac7cb9/results',
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
          searchId: '9d5e907e-7292-4dce-bf0f-b733820db585',
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
          status: 'processing',
          searchType: 'hybrid',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '15 to 30 seconds',
          statusUrl: '/v1/public/searches/9d5e907e-7292-4dce-bf0f-b733820db585',
          resultsUrl: '/v1/public/searches/9d5e907e-7292-4dce-bf0f-b733820db585/results',
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
          uploadId: '99dca69d-713f-4a38-b5fa-e69d9f5a1d4b',
          presignedUrl:
            'https://cv-search.example.com/uploads/99dca69d-713f-4a38-b5fa-e69d9f5a1d4b?expires=1795532427&signature=806a8bdddf8938ceb481afcd6771e8cd342361c88dddfafdd445a90bd84ba125',
          method: 'PUT',
          headers: {
            'Content-Type': 'text/plain',
          },
          expiresAt: '2026-11-24T15:00:27.189Z',
        },
      },
    },
  },
  createSparseSearch: {
    '202': {
      started: {
        summary: 'A sparse search in the dense search’s group',
        value: {
          searchId: 'b90b9350-5a4a-4437-a0f4-3e855ce78fda',
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
          status: 'processing',
          searchType: 'sparse',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '5 to 10 seconds',
          statusUrl: '/v1/public/searches/b90b9350-5a4a-4437-a0f4-3e855ce78fda',
          resultsUrl: '/v1/public/searches/b90b9350-5a4a-4437-a0f4-3e855ce78fda/results',
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
          documentId: 'e973431f-4fa4-4d21-8221-f0b4cf681e36',
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
          documentId: '6a1580e9-be87-4d66-9c8b-8c0452ea7759',
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
          statusEndpoint: '/v1/public/documents/6a1580e9-be87-4d66-9c8b-8c0452ea7759',
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
          documentId: 'a6373e87-0fc1-4483-84d2-7d4f767405e9',
          documentName: 'accountant CV',
          documentType: 'cv',
          documentDate: '03-2024',
          status: 'completed',
          message: 'Searchable',
          createdAt: '2026-11-24T14:00:26.951Z',
          updatedAt: '2026-11-24T14:00:27.012Z',
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
          uploadId: '99dca69d-713f-4a38-b5fa-e69d9f5a1d4b',
          status: 'pending',
          fileName: 'teacher.txt',
          contentType: 'text/plain',
          fileSize: 255,
          expiresAt: '2026-11-24T15:00:27.189Z',
        },
      },
      uploaded: {
        summary: 'The bytes arrived',
        value: {
          uploadId: '99dca69d-713f-4a38-b5fa-e69d9f5a1d4b',
          status: 'uploaded',
          fileName: 'teacher.txt',
          contentType: 'text/plain',
          fileSize: 255,
          expiresAt: '2026-11-24T15:00:27.189Z',
        },
      },
    },
  },
  getSearch: {
    '200': {
      completed: {
        summary: 'A completed search',
        value: {
          searchId: '9d5e907e-7292-4dce-bf0f-b733820db585',
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'hybrid',
          createdAt: '2026-11-24T14:00:27.553Z',
          status: 'completed',
          resultsCount: 5,
          processingTimeMs: 7,
          completedAt: '2026-11-24T14:00:27.574Z',
          resultsUrl: '/v1/public/searches/9d5e907e-7292-4dce-bf0f-b733820db585/results',
        },
      },
      failed: {
        summary: 'A search that failed: no CVs to search',
        value: {
          searchId: '3896a715-2286-46d3-a457-b0628d6184cd',
          searchGroupId: '48e758e9-5150-4962-b2de-dbbfd13ddabe',
          query: 'chef',
          searchType: 'sparse',
          createdAt: '2026-11-24T14:00:27.826Z',
          status: 'failed',
          error: 'the company has no searchable documents; upload CVs and wait until they are completed',
          errorRetryable: false,
          completedAt: '2026-11-24T14:00:27.836Z',
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
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
          groupStatus: 'completed',
          query: 'accountant with general ledger and month-end close experience',
          createdAt: '2026-11-24T14:00:27.447Z',
          totalSearches: 4,
          searches: [
            {
              searchId: '4b86c87d-70d2-4487-b7f1-02948cac7cb9',
              searchType: 'dense',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 3,
              processingTimeMs: 15,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T14:00:27.447Z',
              completedAt: '2026-11-24T14:00:27.489Z',
              statusUrl: '/v1/public/searches/4b86c87d-70d2-4487-b7f1-02948cac7cb9',
              resultsUrl: '/v1/public/searches/4b86c87d-70d2-4487-b7f1-02948cac7cb9/results',
            },
            {
              searchId: 'b90b9350-5a4a-4437-a0f4-3e855ce78fda',
              searchType: 'sparse',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 1,
              processingTimeMs: 4,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T14:00:27.497Z',
              completedAt: '2026-11-24T14:00:27.543Z',
              statusUrl: '/v1/public/searches/b90b9350-5a4a-4437-a0f4-3e855ce78fda',
              resultsUrl: '/v1/public/searches/b90b9350-5a4a-4437-a0f4-3e855ce78fda/results',
            },
            {
              searchId: '9d5e907e-7292-4dce-bf0f-b733820db585',
              searchType: 'hybrid',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 5,
              processingTimeMs: 7,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T14:00:27.553Z',
              completedAt: '2026-11-24T14:00:27.574Z',
              statusUrl: '/v1/public/searches/9d5e907e-7292-4dce-bf0f-b733820db585',
              resultsUrl: '/v1/public/searches/9d5e907e-7292-4dce-bf0f-b733820db585/results',
            },
            {
              searchId: '69eb12bd-82ae-4ac9-bb27-1c791aba638a',
              searchType: 'builtin-rerank',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 5,
              processingTimeMs: 2,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T14:00:27.579Z',
              completedAt: '2026-11-24T14:00:27.592Z',
              statusUrl: '/v1/public/searches/69eb12bd-82ae-4ac9-bb27-1c791aba638a',
              resultsUrl: '/v1/public/searches/69eb12bd-82ae-4ac9-bb27-1c791aba638a/results',
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
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
          groupStatus: 'completed',
          query: 'accountant with general ledger and month-end close experience',
          createdAt: '2026-11-24T14:00:27.447Z',
          totalSearches: 4,
          searches: [
            {
              searchId: '4b86c87d-70d2-4487-b7f1-02948cac7cb9',
              searchType: 'dense',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 3,
              processingTimeMs: 15,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T14:00:27.447Z',
              completedAt: '2026-11-24T14:00:27.489Z',
              statusUrl: '/v1/public/searches/4b86c87d-70d2-4487-b7f1-02948cac7cb9',
              resultsUrl: '/v1/public/searches/4b86c87d-70d2-4487-b7f1-02948cac7cb9/results',
              totalResults: 3,
              results: [
                {
                  rank: 1,
                  score: 0.6452,
                  scores: {
                    dense: 0.6452,
                  },
                  documentId: 'a6373e87-0fc1-4483-84d2-7d4f767405e9',
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
                  documentId: '610bed99-9af2-4bf0-b9e5-0c8929b3d5af',
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
                  documentId: '9bd11c7b-6e27-4095-8513-36d14d81a2fe',
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
                processingTimeMs: 15,
                createdAt: '2026-11-24T14:00:27.447Z',
                completedAt: '2026-11-24T14:00:27.489Z',
                topK: 3,
                reranker: null,
                rerankTopN: null,
                stageTimingsMs: {
                  explain: 11.9,
                  documents: 1.5,
                  retrieval: 1.3,
                },
              },
            },
            {
              searchId: 'b90b9350-5a4a-4437-a0f4-3e855ce78fda',
              searchType: 'sparse',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 1,
              processingTimeMs: 4,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T14:00:27.497Z',
              completedAt: '2026-11-24T14:00:27.543Z',
              statusUrl: '/v1/public/searches/b90b9350-5a4a-4437-a0f4-3e855ce78fda',
              resultsUrl: '/v1/public/searches/b90b9350-5a4a-4437-a0f4-3e855ce78fda/results',
              totalResults: 1,
              results: [
                {
                  rank: 1,
                  score: 0.4673,
                  scores: {
                    sparse: 0.4673,
                  },
                  documentId: 'a6373e87-0fc1-4483-84d2-7d4f767405e9',
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
                processingTimeMs: 4,
                createdAt: '2026-11-24T14:00:27.497Z',
                completedAt: '2026-11-24T14:00:27.543Z',
                topK: 3,
                reranker: null,
                rerankTopN: null,
                stageTimingsMs: {
                  explain: 0.4,
                  documents: 2.1,
                  retrieval: 1.4,
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
                searchIds: ['4b86c87d-70d2-4487-b7f1-02948cac7cb9', 'b90b9350-5a4a-4437-a0f4-3e855ce78fda'],
                searchTypes: ['dense', 'sparse'],
                overlap: 1,
                jaccard: 0.3333,
              },
            ],
            foundByAll: ['a6373e87-0fc1-4483-84d2-7d4f767405e9'],
            documents: [
              {
                documentId: 'a6373e87-0fc1-4483-84d2-7d4f767405e9',
                ranks: {
                  '4b86c87d-70d2-4487-b7f1-02948cac7cb9': 1,
                  'b90b9350-5a4a-4437-a0f4-3e855ce78fda': 1,
                },
              },
              {
                documentId: '610bed99-9af2-4bf0-b9e5-0c8929b3d5af',
                ranks: {
                  '4b86c87d-70d2-4487-b7f1-02948cac7cb9': 2,
                  'b90b9350-5a4a-4437-a0f4-3e855ce78fda': null,
                },
              },
              {
                documentId: '9bd11c7b-6e27-4095-8513-36d14d81a2fe',
                ranks: {
                  '4b86c87d-70d2-4487-b7f1-02948cac7cb9': 3,
                  'b90b9350-5a4a-4437-a0f4-3e855ce78fda': null,
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
          searchId: '9d5e907e-7292-4dce-bf0f-b733820db585',
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
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
              documentId: 'a6373e87-0fc1-4483-84d2-7d4f767405e9',
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
              documentId: '610bed99-9af2-4bf0-b9e5-0c8929b3d5af',
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
            processingTimeMs: 7,
            createdAt: '2026-11-24T14:00:27.553Z',
            completedAt: '2026-11-24T14:00:27.574Z',
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
              rerank: 4.1,
              explain: 0.2,
              documents: 1.5,
              retrieval: 0.9,
            },
          },
        },
      },
      withText: {
        summary: 'The best of a dense search, with its CV’s text',
        value: {
          searchId: '4b86c87d-70d2-4487-b7f1-02948cac7cb9',
          searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
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
              documentId: 'a6373e87-0fc1-4483-84d2-7d4f767405e9',
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
            processingTimeMs: 15,
            createdAt: '2026-11-24T14:00:27.447Z',
            completedAt: '2026-11-24T14:00:27.489Z',
            topK: 3,
            reranker: null,
            rerankTopN: null,
            stageTimingsMs: {
              explain: 11.9,
              documents: 1.5,
              retrieval: 1.3,
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
              documentId: '9bd11c7b-6e27-4095-8513-36d14d81a2fe',
              documentName: 'developer CV',
              documentType: 'cv',
              documentDate: '03-2024',
              status: 'completed',
              message: 'Searchable',
              createdAt: '2026-11-24T14:00:27.271Z',
              updatedAt: '2026-11-24T14:00:27.310Z',
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
              documentId: '6a1580e9-be87-4d66-9c8b-8c0452ea7759',
              documentName: 'teacher CV',
              documentType: 'cv',
              documentDate: '03-2024',
              status: 'completed',
              message: 'Searchable',
              createdAt: '2026-11-24T14:00:27.234Z',
              updatedAt: '2026-11-24T14:00:27.250Z',
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
              searchGroupId: '502d06ea-b046-4121-8dd7-f444cb7114a4',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 4,
              searchTypes: ['dense', 'sparse', 'hybrid', 'builtin-rerank'],
              createdAt: '2026-11-24T14:00:27.447Z',
              groupUrl: '/v1/public/searches/groups/502d06ea-b046-4121-8dd7-f444cb7114a4',
            },
          ],
          pagination: {
            limit: 5,
            offset: 0,
            total: 1,
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
          uploadId: '99dca69d-713f-4a38-b5fa-e69d9f5a1d4b',
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
  uploadDocument: {
    '200': {
      duplicate: {
        summary: 'The same bytes again: the existing document',
        value: {
          documentId: 'a6373e87-0fc1-4483-84d2-7d4f767405e9',
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
          statusEndpoint: '/v1/public/documents/a6373e87-0fc1-4483-84d2-7d4f767405e9',
        },
      },
    },
    '201': {
      created: {
        summary: 'A new document, queued',
        value: {
          documentId: 'a6373e87-0fc1-4483-84d2-7d4f767405e9',
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
          statusEndpoint: '/v1/public/documents/a6373e87-0fc1-4483-84d2-7d4f767405e9',
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
          documentId: '9bd11c7b-6e27-4095-8513-36d14d81a2fe',
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
          statusEndpoint: '/v1/public/documents/9bd11c7b-6e27-4095-8513-36d14d81a2fe',
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
