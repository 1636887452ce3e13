/** The manifest's session section and what it says about the store replayed. Types only. */

/**
 * Which session file this call replayed. `workspace`: the workspace's own `.context/session.jsonl`, the file
 * `ctxctl` reads too, so both build the same request from the same inputs. `file`: a session file named on the
 * command line (`--session`). `editor`: the editor's own copy in its storage (restricted mode only, where the
 * workspace is never written); `note` then says how it differs from what `ctxctl` replays.
 */
export interface SessionStoreRef {
  kind: 'workspace' | 'editor' | 'file';
  path: string;
  note?: string;
}

/** The manifest's session section: stored = kept_raw + compacted + omitted. */
export interface SessionReport {
  stored: number;
  kept_raw: number;
  compacted: number;
  omitted: number;
  store: SessionStoreRef;
  summary?: SessionSummaryInfo;
}

/** What happened to the summary of the older groups on this call. */
export interface SessionSummaryInfo {
  status: 'accepted' | 'rejected';
  producer: string;
  label: string;
  summary_id?: string;
  range: string;
  events: number;
  groups: number;
  tokens_before: number;
  tokens_after?: number;
  reasons?: string[];
}
