// Written by `npm run openapi:examples` (scripts/capture-openapi-examples.ts): real answers of a
// standalone service, by operationId and status. Do not edit by hand; capture again.
export const CAPTURED_EXAMPLES: Record<string, Record<string, Record<string, { summary: string; value: unknown }>>> = {
  createBuiltinRerankSearch: {
    '202': {
      started: {
        summary: 'A builtin-rerank search in the dense search’s group',
        value: {
          searchId: 'aa0c5108-c9b1-4eab-9744-3468b3df7b9a',
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
          status: 'processing',
          searchType: 'builtin-rerank',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '10 to 20 seconds',
          statusUrl: '/v1/public/searches/aa0c5108-c9b1-4eab-9744-3468b3df7b9a',
          resultsUrl: '/v1/public/searches/aa0c5108-c9b1-4eab-9744-3468b3df7b9a/results',
        },
      },
    },
  },
  createDenseSearch: {
    '200': {
      completedWithinWait: {
        summary: 'Prefer: wait=10, and the search ended within it: its status, in one round trip',
        value: {
          searchId: 'c7307ef6-0d5b-485d-acc6-9388ef8f6286',
          searchGroupId: '8517b052-93a5-4407-871c-e4a3f9e7f58a',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'dense',
          createdAt: '2026-11-24T23:01:05.548Z',
          status: 'completed',
          resultsCount: 3,
          processingTimeMs: 1,
          completedAt: '2026-11-24T23:01:05.556Z',
          resultsUrl: '/v1/public/searches/c7307ef6-0d5b-485d-acc6-9388ef8f6286/results',
        },
      },
    },
    '202': {
      started: {
        summary: 'A dense search',
        value: {
          searchId: 'c3542cd3-462f-40c9-9854-e6d67c73b6d3',
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
          status: 'processing',
          searchType: 'dense',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '5 to 10 seconds',
          statusUrl: '/v1/public/searches/c3542cd3-462f-40c9-9854-e6d67c73b6d3',
          resultsUrl: '/v1/public/searches/c3542cd3-462f-40c9-9854-e6d67c73b6d3/results',
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
          searchId: 'c7b90735-257b-4260-b28d-69c217231b1f',
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
          status: 'processing',
          searchType: 'hybrid',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '15 to 30 seconds',
          statusUrl: '/v1/public/searches/c7b90735-257b-4260-b28d-69c217231b1f',
          resultsUrl: '/v1/public/searches/c7b90735-257b-4260-b28d-69c217231b1f/results',
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
          uploadId: 'fa8d2563-040e-4036-9b76-5eb5fe6963b9',
          presignedUrl:
            'https://cv-search.example.com/uploads/fa8d2563-040e-4036-9b76-5eb5fe6963b9?expires=1795564865&signature=0d77da60d7c7f480dbb0a95d5709eadfe1743db0918f5dbc8fd45f2ee339f07b',
          method: 'PUT',
          headers: {
            'Content-Type': 'text/plain',
          },
          expiresAt: '2026-11-25T00:01:05.266Z',
        },
      },
    },
  },
  createSparseSearch: {
    '202': {
      started: {
        summary: 'A sparse search in the dense search’s group',
        value: {
          searchId: '1b213d2d-6acb-4749-b13c-ba0725594a6f',
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
          status: 'processing',
          searchType: 'sparse',
          query: 'accountant with general ledger and month-end close experience',
          estimatedTime: '5 to 10 seconds',
          statusUrl: '/v1/public/searches/1b213d2d-6acb-4749-b13c-ba0725594a6f',
          resultsUrl: '/v1/public/searches/1b213d2d-6acb-4749-b13c-ba0725594a6f/results',
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
          documentId: '4c055719-5816-4517-9b72-e0494a652a1f',
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
          documentId: '6b854fd6-5edc-4919-af31-286fe254d64a',
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
          statusEndpoint: '/v1/public/documents/6b854fd6-5edc-4919-af31-286fe254d64a',
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
          documentId: 'e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
          documentName: 'accountant CV',
          documentType: 'cv',
          documentDate: '03-2024',
          status: 'completed',
          message: 'Searchable',
          createdAt: '2026-11-24T23:01:04.986Z',
          updatedAt: '2026-11-24T23:01:05.024Z',
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
          uploadId: 'fa8d2563-040e-4036-9b76-5eb5fe6963b9',
          status: 'pending',
          fileName: 'teacher.txt',
          contentType: 'text/plain',
          fileSize: 255,
          expiresAt: '2026-11-25T00:01:05.266Z',
        },
      },
      uploaded: {
        summary: 'The bytes arrived',
        value: {
          uploadId: 'fa8d2563-040e-4036-9b76-5eb5fe6963b9',
          status: 'uploaded',
          fileName: 'teacher.txt',
          contentType: 'text/plain',
          fileSize: 255,
          expiresAt: '2026-11-25T00:01:05.266Z',
        },
      },
    },
  },
  getSearch: {
    '200': {
      completed: {
        summary: 'A completed search',
        value: {
          searchId: 'c7b90735-257b-4260-b28d-69c217231b1f',
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'hybrid',
          createdAt: '2026-11-24T23:01:05.490Z',
          status: 'completed',
          resultsCount: 5,
          processingTimeMs: 6,
          completedAt: '2026-11-24T23:01:05.502Z',
          resultsUrl: '/v1/public/searches/c7b90735-257b-4260-b28d-69c217231b1f/results',
        },
      },
      failed: {
        summary: 'A search that failed: no CVs to search',
        value: {
          searchId: '4ac8caa0-440d-447d-b7b4-5f88c738f04d',
          searchGroupId: 'bf90b057-bfb1-46d2-9c47-a8d1a5b305ad',
          query: 'chef',
          searchType: 'sparse',
          createdAt: '2026-11-24T23:01:05.772Z',
          status: 'failed',
          error: 'the company has no searchable documents; upload CVs and wait until they are completed',
          errorRetryable: false,
          completedAt: '2026-11-24T23:01:05.780Z',
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
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
          groupStatus: 'completed',
          query: 'accountant with general ledger and month-end close experience',
          createdAt: '2026-11-24T23:01:05.449Z',
          totalSearches: 4,
          searches: [
            {
              searchId: 'c3542cd3-462f-40c9-9854-e6d67c73b6d3',
              searchType: 'dense',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 3,
              processingTimeMs: 9,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T23:01:05.449Z',
              completedAt: '2026-11-24T23:01:05.466Z',
              statusUrl: '/v1/public/searches/c3542cd3-462f-40c9-9854-e6d67c73b6d3',
              resultsUrl: '/v1/public/searches/c3542cd3-462f-40c9-9854-e6d67c73b6d3/results',
            },
            {
              searchId: '1b213d2d-6acb-4749-b13c-ba0725594a6f',
              searchType: 'sparse',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 1,
              processingTimeMs: 4,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T23:01:05.476Z',
              completedAt: '2026-11-24T23:01:05.486Z',
              statusUrl: '/v1/public/searches/1b213d2d-6acb-4749-b13c-ba0725594a6f',
              resultsUrl: '/v1/public/searches/1b213d2d-6acb-4749-b13c-ba0725594a6f/results',
            },
            {
              searchId: 'c7b90735-257b-4260-b28d-69c217231b1f',
              searchType: 'hybrid',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 5,
              processingTimeMs: 6,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T23:01:05.490Z',
              completedAt: '2026-11-24T23:01:05.502Z',
              statusUrl: '/v1/public/searches/c7b90735-257b-4260-b28d-69c217231b1f',
              resultsUrl: '/v1/public/searches/c7b90735-257b-4260-b28d-69c217231b1f/results',
            },
            {
              searchId: 'aa0c5108-c9b1-4eab-9744-3468b3df7b9a',
              searchType: 'builtin-rerank',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 5,
              processingTimeMs: 2,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T23:01:05.513Z',
              completedAt: '2026-11-24T23:01:05.525Z',
              statusUrl: '/v1/public/searches/aa0c5108-c9b1-4eab-9744-3468b3df7b9a',
              resultsUrl: '/v1/public/searches/aa0c5108-c9b1-4eab-9744-3468b3df7b9a/results',
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
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
          groupStatus: 'completed',
          query: 'accountant with general ledger and month-end close experience',
          createdAt: '2026-11-24T23:01:05.449Z',
          totalSearches: 4,
          searches: [
            {
              searchId: 'c3542cd3-462f-40c9-9854-e6d67c73b6d3',
              searchType: 'dense',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 3,
              processingTimeMs: 9,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T23:01:05.449Z',
              completedAt: '2026-11-24T23:01:05.466Z',
              statusUrl: '/v1/public/searches/c3542cd3-462f-40c9-9854-e6d67c73b6d3',
              resultsUrl: '/v1/public/searches/c3542cd3-462f-40c9-9854-e6d67c73b6d3/results',
              totalResults: 3,
              results: [
                {
                  rank: 1,
                  score: 0.7146,
                  scores: {
                    dense: 0.7146,
                  },
                  documentId: 'e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
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
                  documentId: 'd341e9b8-6535-4c64-9e02-2f890fd1d8c6',
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
                  documentId: '743aa442-3431-4593-8491-1e7ee5d28a3c',
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
                processingTimeMs: 9,
                createdAt: '2026-11-24T23:01:05.449Z',
                completedAt: '2026-11-24T23:01:05.466Z',
                topK: 3,
                reranker: null,
                denseModel: {
                  id: 'builtin:glove-sif-100d-v2',
                  dimensions: 100,
                },
                rerankTopN: null,
                stageTimingsMs: {
                  explain: 3,
                  documents: 2,
                  retrieval: 4.3,
                },
              },
            },
            {
              searchId: '1b213d2d-6acb-4749-b13c-ba0725594a6f',
              searchType: 'sparse',
              query: 'accountant with general ledger and month-end close experience',
              status: 'completed',
              resultsCount: 1,
              processingTimeMs: 4,
              error: null,
              errorRetryable: null,
              createdAt: '2026-11-24T23:01:05.476Z',
              completedAt: '2026-11-24T23:01:05.486Z',
              statusUrl: '/v1/public/searches/1b213d2d-6acb-4749-b13c-ba0725594a6f',
              resultsUrl: '/v1/public/searches/1b213d2d-6acb-4749-b13c-ba0725594a6f/results',
              totalResults: 1,
              results: [
                {
                  rank: 1,
                  score: 0.4673,
                  scores: {
                    sparse: 0.4673,
                  },
                  documentId: 'e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
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
                createdAt: '2026-11-24T23:01:05.476Z',
                completedAt: '2026-11-24T23:01:05.486Z',
                topK: 3,
                reranker: null,
                rerankTopN: null,
                stageTimingsMs: {
                  explain: 0.5,
                  documents: 0.8,
                  retrieval: 2.5,
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
                searchIds: ['c3542cd3-462f-40c9-9854-e6d67c73b6d3', '1b213d2d-6acb-4749-b13c-ba0725594a6f'],
                searchTypes: ['dense', 'sparse'],
                overlap: 1,
                jaccard: 0.3333,
              },
            ],
            foundByAll: ['e8eca28e-24ed-49e1-aae4-bba9fe36d45f'],
            documents: [
              {
                documentId: 'e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
                ranks: {
                  'c3542cd3-462f-40c9-9854-e6d67c73b6d3': 1,
                  '1b213d2d-6acb-4749-b13c-ba0725594a6f': 1,
                },
              },
              {
                documentId: 'd341e9b8-6535-4c64-9e02-2f890fd1d8c6',
                ranks: {
                  'c3542cd3-462f-40c9-9854-e6d67c73b6d3': 2,
                  '1b213d2d-6acb-4749-b13c-ba0725594a6f': null,
                },
              },
              {
                documentId: '743aa442-3431-4593-8491-1e7ee5d28a3c',
                ranks: {
                  'c3542cd3-462f-40c9-9854-e6d67c73b6d3': 3,
                  '1b213d2d-6acb-4749-b13c-ba0725594a6f': null,
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
          searchId: 'c7b90735-257b-4260-b28d-69c217231b1f',
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
          query: 'accountant with general ledger and month-end close experience',
          searchType: 'hybrid',
          status: 'completed',
          totalResults: 5,
          results: [
            {
              rank: 1,
              score: 0.4992,
              scores: {
                dense: 0.7146,
                fused: 1,
                rerank: 0.4992,
                sparse: 0.4673,
              },
              documentId: 'e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
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
              score: 0.0252,
              scores: {
                dense: 0.1973,
                fused: 0.4919,
                rerank: 0.0252,
              },
              documentId: 'd341e9b8-6535-4c64-9e02-2f890fd1d8c6',
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
            processingTimeMs: 6,
            createdAt: '2026-11-24T23:01:05.490Z',
            completedAt: '2026-11-24T23:01:05.502Z',
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
            denseModel: {
              id: 'builtin:glove-sif-100d-v2',
              dimensions: 100,
            },
            rerankTopN: 30,
            stageTimingsMs: {
              rerank: 2.9,
              explain: 0.3,
              documents: 1,
              retrieval: 1.1,
            },
          },
        },
      },
      withText: {
        summary: 'The best of a dense search, with its CV’s text',
        value: {
          searchId: 'c3542cd3-462f-40c9-9854-e6d67c73b6d3',
          searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
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
              documentId: 'e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
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
            processingTimeMs: 9,
            createdAt: '2026-11-24T23:01:05.449Z',
            completedAt: '2026-11-24T23:01:05.466Z',
            topK: 3,
            reranker: null,
            denseModel: {
              id: 'builtin:glove-sif-100d-v2',
              dimensions: 100,
            },
            rerankTopN: null,
            stageTimingsMs: {
              explain: 3,
              documents: 2,
              retrieval: 4.3,
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
              documentId: 'd341e9b8-6535-4c64-9e02-2f890fd1d8c6',
              documentName: 'developer CV',
              documentType: 'cv',
              documentDate: '03-2024',
              status: 'completed',
              message: 'Searchable',
              createdAt: '2026-11-24T23:01:05.336Z',
              updatedAt: '2026-11-24T23:01:05.370Z',
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
              documentId: '6b854fd6-5edc-4919-af31-286fe254d64a',
              documentName: 'teacher CV',
              documentType: 'cv',
              documentDate: '03-2024',
              status: 'completed',
              message: 'Searchable',
              createdAt: '2026-11-24T23:01:05.308Z',
              updatedAt: '2026-11-24T23:01:05.329Z',
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
              searchGroupId: '2c23dcfe-bab7-41ab-b420-5b29c4024395',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 1,
              searchTypes: ['sparse'],
              createdAt: '2026-11-24T23:01:05.576Z',
              groupUrl: '/v1/public/searches/groups/2c23dcfe-bab7-41ab-b420-5b29c4024395',
            },
            {
              searchGroupId: '8517b052-93a5-4407-871c-e4a3f9e7f58a',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 1,
              searchTypes: ['dense'],
              createdAt: '2026-11-24T23:01:05.548Z',
              groupUrl: '/v1/public/searches/groups/8517b052-93a5-4407-871c-e4a3f9e7f58a',
            },
            {
              searchGroupId: '9d3c6d5d-15a1-4e40-9899-797736b47e8b',
              query: 'accountant with general ledger and month-end close experience',
              groupStatus: 'completed',
              totalSearches: 4,
              searchTypes: ['dense', 'sparse', 'hybrid', 'builtin-rerank'],
              createdAt: '2026-11-24T23:01:05.449Z',
              groupUrl: '/v1/public/searches/groups/9d3c6d5d-15a1-4e40-9899-797736b47e8b',
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
          uploadId: 'fa8d2563-040e-4036-9b76-5eb5fe6963b9',
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
          documentId: 'e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
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
          statusEndpoint: '/v1/public/documents/e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
        },
      },
    },
    '201': {
      created: {
        summary: 'A new document, queued',
        value: {
          documentId: 'e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
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
          statusEndpoint: '/v1/public/documents/e8eca28e-24ed-49e1-aae4-bba9fe36d45f',
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
          documentId: 'd341e9b8-6535-4c64-9e02-2f890fd1d8c6',
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
          statusEndpoint: '/v1/public/documents/d341e9b8-6535-4c64-9e02-2f890fd1d8c6',
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
