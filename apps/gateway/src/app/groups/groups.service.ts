import { Injectable } from '@nestjs/common';
import { notFound, type api, type http } from '@cs/contracts';
import { SearchesRepository, type SearchRecord, type SearchStatus } from '@cs/records';
import { compareSearches, groupStatus } from '@cs/search-domain';
import type { AuthContext } from '../auth/auth-context';
import { SearchesService, type WaitRequest } from '../searches/searches.service';
import { waitUntil } from '../searches/waiter-registry';
import { echoedFields, resultsUrl, statusUrl } from '../searches/search-views';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const groupUrl = (id: string) => `/v1/public/searches/groups/${id}`;

/** Search groups: status, side-by-side results with their comparison, and the list. */
@Injectable()
export class GroupsService {
  constructor(
    private readonly searches: SearchesRepository,
    private readonly searchesService: SearchesService,
  ) {}

  async status(auth: AuthContext, groupId: string): Promise<api.GroupStatus> {
    return this.statusView(groupId, await this.members(auth, groupId, false));
  }

  /**
   * The group's status, after waiting up to `wait.seconds` for every search of it to end when the
   * client prefers to (and the bounds allow). One waiter watches all the group's searches.
   */
  async statusWaiting(auth: AuthContext, groupId: string, wait: WaitRequest | null): Promise<{ view: api.GroupStatus; applied: boolean }> {
    const waiter = wait?.hold(auth.company.id, []);
    if (!wait || !waiter) return { view: await this.status(auth, groupId), applied: false };
    try {
      const members = await waitUntil(
        waiter,
        wait.seconds,
        async () => {
          const read = await this.members(auth, groupId, false);
          for (const s of read) waiter.saw(s.id, s.status);
          return read;
        },
        (read) => groupStatus(read.map((s) => s.status)) !== 'processing',
        (read) => read.map((s) => s.id),
      );
      return { view: this.statusView(groupId, members), applied: true };
    } finally {
      waiter.release();
    }
  }

  private statusView(groupId: string, members: SearchRecord[]): api.GroupStatus {
    return { ...this.header(groupId, members), searches: members.map((s) => this.memberView(s)) };
  }

  /**
   * 202 while any member runs (with the results so far), else 200. A page of the group's
   * searches, each with all its results; the comparison covers the page's completed searches.
   */
  async results(auth: AuthContext, groupId: string, page: http.GroupResultsQuery): Promise<{ status: 200 | 202; body: api.GroupResults }> {
    const members = await this.members(auth, groupId, false);
    const header = this.header(groupId, members);
    const shown = members.slice(page.offset, page.offset + page.limit);
    // Results (up to 100 items a search) are read for the page's searches only.
    const withResults = new Map(
      (
        await this.searches.getMany(
          auth.company.id,
          shown.filter((s) => s.status === 'completed').map((s) => s.id),
        )
      ).map((s) => [s.id, s]),
    );
    const resultsPage = { limit: 100, offset: 0, include: { extractedText: false } };
    // One search at a time: each reads up to 100 documents, and a page holds 20 searches.
    const searches: api.GroupResults['searches'] = [];
    for (const s of shown) {
      const view = this.memberView(s);
      const completed = withResults.get(s.id);
      if (!completed) {
        searches.push({ ...view, totalResults: null, results: [] });
        continue;
      }
      const body = await this.searchesService.resultsBody(completed, resultsPage);
      searches.push({ ...view, totalResults: body.totalResults, results: body.results, metadata: body.metadata });
    }
    const comparison = compareSearches(
      shown
        .flatMap((member) => withResults.get(member.id) ?? [])
        .map((s) => ({ searchId: s.id, searchType: s.searchType, documentIds: (s.results ?? []).map((r) => r.documentId) })),
    );
    const pagination = {
      limit: page.limit,
      offset: page.offset,
      total: members.length,
      hasMore: page.offset + shown.length < members.length,
    };
    return { status: header.groupStatus === 'processing' ? 202 : 200, body: { ...header, searches, pagination, comparison } };
  }

  async list(auth: AuthContext, status: SearchStatus | undefined, limit: number, offset: number): Promise<api.GroupList> {
    const { items, total } = await this.searches.listGroups(auth.company.id, status, limit, offset);
    return {
      data: items.map((g) => ({
        searchGroupId: g.searchGroupId,
        query: g.query,
        groupStatus: groupStatus(g.statuses),
        totalSearches: g.statuses.length,
        searchTypes: [...new Set(g.searchTypes)],
        createdAt: new Date(g.createdAt).toISOString(),
        groupUrl: groupUrl(g.searchGroupId),
      })),
      pagination: { limit, offset, total, hasMore: offset + items.length < total },
    };
  }

  private async members(auth: AuthContext, groupId: string, withResults: boolean): Promise<SearchRecord[]> {
    const members = await this.searches.listGroupMembers(auth.company.id, groupId, withResults);
    if (members.length === 0) throw notFound('search group');
    return members;
  }

  private header(groupId: string, members: SearchRecord[]) {
    return {
      searchGroupId: groupId,
      groupStatus: groupStatus(members.map((s) => s.status)),
      query: members[0].query,
      createdAt: members[0].createdAt.toISOString(),
      totalSearches: members.length,
    };
  }

  private memberView(s: SearchRecord) {
    return {
      searchId: s.id,
      searchType: s.searchType,
      query: s.query,
      ...echoedFields(s),
      status: s.status,
      resultsCount: s.resultsCount,
      processingTimeMs: s.processingTimeMs,
      error: s.error,
      errorRetryable: s.errorRetryable,
      createdAt: s.createdAt.toISOString(),
      completedAt: iso(s.completedAt),
      statusUrl: statusUrl(s.id),
      resultsUrl: resultsUrl(s.id),
    };
  }
}
