import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { fileLines } from '../../../src/core/sources/scan';
import { detectDialect } from '../../../src/core/trim/dialect';
import { lines } from './fixtures';

const CORPUS = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'tool-output');

describe('dialect detection by content, with a confidence score', () => {
  const expected: Record<string, string> = {
    android: 'logcat-threadtime', 'apache-error': 'apache-error', bgl: 'bgl-ras', 'github-actions': 'github-actions', hadoop: 'log4j', hdfs: 'hdfs', healthapp: 'pipe-separated', hpc: 'hpc',
    klog: 'klog', 'linux-syslog': 'syslog-rfc3164', mac: 'syslog-rfc3164', openssh: 'syslog-rfc3164', openstack: 'openstack', 'pino-jsonl': 'json-lines', proxifier: 'proxifier', spark: 'spark',
    'windows-cbs': 'windows-cbs', zookeeper: 'log4j',
  };
  for (const [name, dialect] of Object.entries(expected)) {
    it(`${name}.log is ${dialect}`, () => {
      assert.deepEqual(detectDialect(() => fileLines(path.join(CORPUS, `${name}.log`))), { name: dialect, confidence: 1 });
    });
  }

  it('a log whose lines start with "[" is not JSON; a mixed input gets a partial confidence', () => {
    assert.deepEqual(detectDialect(lines('[10.30 16:49:06] chrome.exe - proxy.cse.cuhk.edu.hk:5070 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS')), { name: 'proxifier', confidence: 1 });
    const mixed = ['E0102 15:04:05.999999    1 pod_workers.go:1298] "Error syncing pod"', 'plain text', 'more text', 'I0102 15:04:06.000001    1 kubelet.go:2457] "ok"'].join('\n');
    assert.deepEqual(detectDialect(lines(mixed)), { name: 'klog', confidence: 0.5 });
    assert.equal(detectDialect(lines('\n\n')), undefined);
  });
});
