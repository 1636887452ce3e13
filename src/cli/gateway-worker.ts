import { parentPort } from 'node:worker_threads';
import { DecisionStore } from '../core/gateway/decisions';
import { runRecordJob, type RecordJob, type RecorderState } from './gateway-recorder';
import { installDiskHost } from '../host/disk';

// The engines of this bundle take their host; code it calls outside an engine reaches the default one: the disk.
installDiskHost();

/** The gateway's record worker: one job in, its record written, one log line back (gateway-recorder.ts). */

const state: RecorderState = { store: new DecisionStore() };
parentPort?.on('message', (job: RecordJob) => {
  let line: string;
  try {
    line = runRecordJob(job, state);
  } catch (e) {
    line = `gateway: record not written: ${(e as Error).message}`;
  }
  parentPort?.postMessage({ log: line });
});
