import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MaskMemo, maskTokens, TEMPLATE_CHARS, TemplateMiner, templateText } from '../../../src/core/trim/templates';
import { shortMessage } from '../../../src/core/trim/log-parse';
import { clipLogLine } from '../../../src/core/trim/lines';

describe('templates: a different word is a different template (Loghub BGL)', () => {
  it('program interrupt: privileged / illegal / trap instruction are three templates', () => {
    const miner = new TemplateMiner();
    const ids = ['program interrupt: privileged instruction...0', 'program interrupt: illegal instruction......0', 'program interrupt: trap instruction.........0', 'program interrupt: illegal instruction......1'].map((m) => miner.add(m)!.id);
    assert.deepEqual(ids, [0, 1, 2, 1]);
    assert.equal(templateText(miner.clusters[1]), 'program interrupt: illegal <*>');
  });

  it('a variable name in a longer message still merges (user names, hosts)', () => {
    const miner = new TemplateMiner();
    const a = miner.add('Failed password for root from 10.0.0.1 port 22 ssh2')!;
    const b = miner.add('Failed password for admin from 10.0.0.2 port 22 ssh2')!;
    assert.equal(a.id, b.id);
    assert.equal(templateText(a), 'Failed password for <*> from <*> port <*> <*>');
  });
});

describe('templates: what is a variable (Loghub Proxifier, Mac)', () => {
  it('a host with its port is one variable, whether or not the host name holds a digit', () => {
    assert.deepEqual(maskTokens('formi.baidu.com:843 error : Could not connect through proxy proxy.example.edu:5070 - Proxy closed'), ['<*>', 'error', ':', 'Could', 'not', 'connect', 'through', 'proxy', '<*>', '-', 'Proxy', 'closed']);
    const miner = new TemplateMiner();
    const ids = ['tcpconn6.tencent.com:443 error : A connection request was canceled before the completion.', 'client-cf.dropbox.com:443 error : A connection request was canceled before the completion.', '(www.qq.com:80) error : A connection request was canceled before the completion.'].map((m) => miner.add(m)!.id);
    assert.deepEqual(ids, [0, 0, 1]);
    assert.equal(templateText(miner.clusters[1]), '(<*>) error : A connection request was canceled before the completion.');
    // key=value with a plain key keeps its key; a file and line (`Foo.java:12`) was and stays one variable.
    assert.deepEqual(maskTokens('user=root port:22 (Foo.java:12)'), ['user=root', 'port:<*>', '(<*>)']);
    // A code name with a number after its dot keeps its name: two callbacks are two wordings, not one `<*>`.
    assert.deepEqual(maskTokens('tcp_connection_tls_session_handle_read_error.790 error 60'), ['tcp_connection_tls_session_handle_read_error.<*>', 'error', '<*>']);
    assert.deepEqual(maskTokens('WebContent.32502 node.7 v1.2'), ['WebContent.<*>', '<*>', '<*>']);
  });
});

describe('a row\'s message keeps what a level is glued to', () => {
  it('a level inside a bracketed prefix keeps the bracket (file and line); a bracket glued to the level keeps the component', () => {
    assert.equal(shortMessage('Jul  1 11:49:30 authorMacBook-Pro Dropbox[24019]: [0701/114930:WARNING:dns_config_service_posix.cc(306)] Failed to read DnsConfig.'), '[0701/114930:WARNING:dns_config_service_posix.cc(306)] Failed to read DnsConfig.');
    assert.equal(shortMessage('Jul  8 04:18:45 host blued[85]: [BluetoothHIDDeviceController]ERROR: Could not find the disconnected object'), '[BluetoothHIDDeviceController]ERROR: Could not find the disconnected object');
    // A level column alone, bracketed or not, and a thread bracket are still left out.
    assert.equal(shortMessage('2026-11-12 09:00:01 [ERROR] [main] Boom happened'), 'Boom happened');
    assert.equal(shortMessage('2015-07-29 17:41:44,747 - WARN  [QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:Learner@233] - Exception when following'), 'Exception when following');
  });

  it('a long log line loses the middle of its long paths before anything else', () => {
    const line = 'Path not allowed in target domain: type = pid, path = /System/Library/StagedFrameworks/Safari/SafariShared.framework/Versions/A/XPCServices/Search.xpc error = 147: The specified service did not ship in the requestor\'s bundle';
    assert.equal(clipLogLine(line, 200), 'Path not allowed in target domain: type = pid, path = /System/…/Search.xpc error = 147: The specified service did not ship in the requestor\'s bundle');
    assert.equal(clipLogLine(line, 1000), line, 'a line that fits is kept as it is');
    assert.equal(clipLogLine(`${'x '.repeat(60)}/usr/lib/a/b tail`, 100).includes('/usr/lib/a/b'), true, 'a path whose middle is short is not shortened');
  });
});

describe('templates: the miner masks each distinct message once (MaskMemo)', () => {
  const messages = [
    'Failed password for invalid user admin from 10.0.0.7 port 22 ssh2',
    'Failed password for root from 10.0.0.8 port 2201 ssh2',
    'connection to "db-7" lost after 1200ms',
    `${'x'.repeat(TEMPLATE_CHARS - 4)} abc /var/log/long/path/of/the/message`,
  ];

  it('gives what maskTokens gives, a long message keyed by the part masking reads', () => {
    const memo = new MaskMemo(8);
    for (const m of [...messages, ...messages]) assert.deepEqual(memo.tokens(m), maskTokens(m));
    assert.equal(memo.size, messages.length);
    const long = messages[3] + ' and more after the head';
    assert.equal(memo.tokens(long), memo.tokens(messages[3].slice(0, TEMPLATE_CHARS)));
  });

  it('holds at most its bound, starting again when full, with the same tokens', () => {
    const memo = new MaskMemo(3);
    for (let i = 0; i < 10; i++) {
      const m = `job ${i} failed on node-${i} with "reason ${i}"`;
      assert.deepEqual(memo.tokens(m), maskTokens(m));
      assert.ok(memo.size <= 3, `size ${memo.size}`);
    }
  });

  it("a cluster's merges never change the remembered tokens: a repeated message gets its own template again", () => {
    const miner = new TemplateMiner(10);
    const a = miner.add('user alice failed login attempt');
    const b = miner.add('user bob failed login attempt');
    assert.equal(a, b);
    assert.equal(templateText(a!), 'user <*> failed login attempt');
    // A second miner fed the first message alone: its template is the message's own tokens, unmerged.
    const other = new TemplateMiner(10);
    assert.equal(templateText(other.add('user alice failed login attempt')!), 'user alice failed login attempt');
    assert.equal(templateText(miner.add('user alice failed login attempt')!), 'user <*> failed login attempt');
  });
});
