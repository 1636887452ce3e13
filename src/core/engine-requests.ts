import type { AssembleOptions } from './chain/assemble';
import type { SnapshotOptions } from './sources/snapshot';

/** What a surface asks to load: the snapshot's inputs, the folder being the engine's. */
export type LoadRequest = Omit<SnapshotOptions, 'root'>;

/** How to assemble: the chain's options, with the summaries and the relevance index being the engine's. */
export interface AssembleRequest extends Omit<AssembleOptions, 'summaries' | 'relevanceIndex'> {
  /** The session file whose summary store is read (default: the workspace's). */
  sessionFile?: string;
  /** `false`: no stored summary (the chat's patch brings its own history); records: these (read once by the caller). */
  summaries?: false | AssembleOptions['summaries'];
}
