// The systems of the tool-output corpus (see gen-tool-output.mjs): line shapes and message templates as the real
// systems write them (after the public Loghub samples and the tools' own output). `<*>` marks a variable part.

/** A template: severity (ground truth), the level word the system writes, the text, fillers for its `<*>`. */
function T(severity, template, fills = [], opts = {}) {
  return {
    severity,
    template,
    ...opts,
    emit: (r) => {
      let k = 0;
      const text = template.replace(/<\*>/g, () => {
        const f = fills[k++];
        return f ? f(r) : String(r.int(1, 99999));
      });
      return opts.after ? [text, ...opts.after(r)] : text;
    },
  };
}
const I = (template, fills, opts) => T('info', template, fills, opts);
const W = (template, fills, opts) => T('warn', template, fills, opts);
const E = (template, fills, opts) => T('error', template, fills, opts);

const pad = (n, w = 2) => String(n).padStart(w, '0');
const d = (t) => new Date(t);
const iso = (t, sep = ' ', frac = ',') => { const x = d(t); return `${x.getUTCFullYear()}-${pad(x.getUTCMonth() + 1)}-${pad(x.getUTCDate())}${sep}${pad(x.getUTCHours())}:${pad(x.getUTCMinutes())}:${pad(x.getUTCSeconds())}${frac}${pad(x.getUTCMilliseconds(), 3)}`; };
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const syslogTime = (t) => { const x = d(t); return `${MON[x.getUTCMonth()]} ${String(x.getUTCDate()).padStart(2, ' ')} ${pad(x.getUTCHours())}:${pad(x.getUTCMinutes())}:${pad(x.getUTCSeconds())}`; };
const hms = (x) => `${pad(x.getUTCHours())}:${pad(x.getUTCMinutes())}:${pad(x.getUTCSeconds())}`;

const blk = (r) => `blk_${r.rand() < 0.5 ? '-' : ''}${r.int(1e9, 9e9)}${r.int(1e8, 9e8)}`;
const ipPort = (r) => `${r.ip()}:${r.int(1024, 65535)}`;
const javaStack = (cls, msg, frames) => (r) => [`${cls}: ${msg}`, ...frames.map((f) => `\tat ${f}(${f.split('.').at(-2)}.java:${r.int(40, 900)})`)];

export const SYSTEMS = [
  {
    name: 'hadoop', format: 'log4j', start: Date.UTC(2015, 9, 18, 18, 1, 47), stepMax: 2000,
    line: (t, level, m, r, x) => { const [first, ...rest] = [].concat(m); return [`${iso(t)} ${level.toUpperCase().padEnd(4)} [${x.thread ?? 'main'}] ${x.logger}: ${first}`, ...rest]; },
    templates: [
      I('Created MRAppMaster for application appattempt_<*>_<*>_<*>', [], { logger: 'org.apache.hadoop.mapreduce.v2.app.MRAppMaster', weight: 1 }),
      I('Executing with tokens:', [], { logger: 'org.apache.hadoop.mapreduce.v2.app.MRAppMaster' }),
      I('<*> TaskAttempt Transitioned from NEW to UNASSIGNED', [(r) => `attempt_1445144423722_0020_m_${pad(r.int(0, 12), 6)}_0`], { logger: 'org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl', weight: 6, thread: 'AsyncDispatcher event handler' }),
      I('Progress of TaskAttempt <*> is : <*>', [(r) => `attempt_1445144423722_0020_m_${pad(r.int(0, 12), 6)}_0`, (r) => r.rand().toFixed(7)], { logger: 'org.apache.hadoop.mapred.TaskAttemptListenerImpl', weight: 12, thread: 'IPC Server handler 13 on 62270' }),
      I('Recalculating schedule, headroom=<memory:<*>, vCores:<*>>', [], { logger: 'org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator', weight: 8, thread: 'RMCommunicator Allocator' }),
      I('Reduce slow start threshold not met. completedMapsForReduceSlowstart <*>', [], { logger: 'org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator', weight: 5, thread: 'RMCommunicator Allocator' }),
      W('Failed to renew lease for [DFSClient_NONMAPREDUCE_<*>_1] for <*> seconds.  Will retry shortly ...', [], { logger: 'org.apache.hadoop.hdfs.LeaseRenewer', thread: 'LeaseRenewer:msrabi@msra-sa-41:9000', after: javaStack('java.net.ConnectException', 'Connection refused: no further information', ['sun.nio.ch.SocketChannelImpl.checkConnect', 'org.apache.hadoop.ipc.Client.call']) }),
      W('Slow ReadProcessor read fields took <*>ms (threshold=30000ms); ack: seqno: -2 status: SUCCESS status: ERROR downstreamAckTimeNanos: 0, targets: [<*>, <*>]', [null, ipPort, ipPort], { logger: 'org.apache.hadoop.hdfs.DFSClient', thread: 'ResponseProcessor for block BP-1347369012-10.190.173.170-1444972147527:blk_1073743510_2729' }),
      E('ERROR IN CONTACTING RM.', [], { logger: 'org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator', thread: 'RMCommunicator Allocator', after: javaStack('java.net.NoRouteToHostException', 'No Route to Host from  MININT-FNANLI5/127.0.0.1 to msra-sa-41:8030 failed on socket timeout exception', ['org.apache.hadoop.net.NetUtils.wrapException', 'org.apache.hadoop.ipc.Client.call']) }),
      E('Error Recovery for block BP-<*>:blk_<*>_<*> in pipeline <*>, <*>: bad datanode <*>', [null, null, null, ipPort, ipPort, ipPort], { logger: 'org.apache.hadoop.hdfs.DFSClient', thread: 'DataStreamer for file /tmp/hadoop-yarn/staging/msrabi/.staging/job_1445144423722_0020/job_1445144423722_0020_1.jhist' }),
      W('Address change detected. Old: msra-sa-41/<*> New: msra-sa-41:<*>', [ipPort, (r) => r.int(8000, 9000)], { logger: 'org.apache.hadoop.ipc.Client', thread: 'RMCommunicator Allocator' }),
      E('Diagnostics report from <*>: Container killed by the ApplicationMaster.', [(r) => `attempt_1445144423722_0020_m_${pad(r.int(0, 12), 6)}_1`], { logger: 'org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl', thread: 'AsyncDispatcher event handler' }),
    ],
  },
  {
    name: 'hdfs', format: 'hdfs', start: Date.UTC(2008, 10, 9, 20, 36, 15), stepMax: 3000,
    line: (t, level, m, r, x) => { const y = d(t); const [first, ...rest] = [].concat(m); return [`${pad(y.getUTCFullYear() % 100)}${pad(y.getUTCMonth() + 1)}${pad(y.getUTCDate())} ${pad(y.getUTCHours())}${pad(y.getUTCMinutes())}${pad(y.getUTCSeconds())} ${r.int(13, 35000)} ${level.toUpperCase()} ${x.logger}: ${first}`, ...rest]; },
    templates: [
      I('PacketResponder <*> for block <*> terminating', [(r) => r.int(0, 2), blk], { logger: 'dfs.DataNode$PacketResponder', weight: 10 }),
      I('Received block <*> of size <*> from /<*>', [blk, null, (r) => r.ip()], { logger: 'dfs.DataNode$PacketResponder', weight: 10 }),
      I('Receiving block <*> src: /<*> dest: /<*>', [blk, ipPort, ipPort], { logger: 'dfs.DataNode$DataXceiver', weight: 10 }),
      I('BLOCK* NameSystem.addStoredBlock: blockMap updated: <*> is added to <*> size <*>', [ipPort, blk], { logger: 'dfs.FSNamesystem', weight: 10 }),
      I('BLOCK* NameSystem.allocateBlock: /user/root/rand/_temporary/_task_200811092030_0001_m_<*>_0/part-<*>. <*>', [null, null, blk], { logger: 'dfs.FSNamesystem', weight: 4 }),
      I('Deleting block <*> file /mnt/hadoop/dfs/data/current/subdir<*>/<*>', [blk, null, blk], { logger: 'dfs.FSDataset', weight: 5 }),
      W('<*>:Got exception while serving <*> to /<*>:', [ipPort, blk, (r) => r.ip()], { logger: 'dfs.DataNode$DataXceiver', after: javaStack('java.net.SocketTimeoutException', '480000 millis timeout while waiting for channel to be ready for write.', ['org.apache.hadoop.net.SocketIOWithTimeout.waitForIO', 'org.apache.hadoop.dfs.DataNode$BlockSender.sendChunks']) }),
      W('IOException in BlockReceiver.run(): ', [], { logger: 'dfs.DataNode$PacketResponder', after: javaStack('java.io.IOException', 'Connection reset by peer', ['sun.nio.ch.FileDispatcher.write0', 'org.apache.hadoop.dfs.DataNode$PacketResponder.run']) }),
      W('PendingReplicationMonitor timed out block <*>', [blk], { logger: 'dfs.PendingReplicationBlocks$PendingReplicationMonitor' }),
      E('<*>:DataXceiver: java.io.IOException: Block <*> is valid, and cannot be written to.', [ipPort, blk], { logger: 'dfs.DataNode$DataXceiver' }),
      E('<*>:Failed to transfer <*> to <*> got java.io.IOException: Connection reset by peer', [ipPort, blk, ipPort], { logger: 'dfs.DataNode' }),
      W('Unexpected error trying to delete block <*>. BlockInfo not found in volumeMap.', [blk], { logger: 'dfs.FSDataset' }),
    ],
  },
  {
    name: 'spark', format: 'log4j-short', start: Date.UTC(2017, 5, 9, 20, 10, 40), stepMax: 1500,
    line: (t, level, m, r, x) => { const y = d(t); const [first, ...rest] = [].concat(m); return [`${pad(y.getUTCFullYear() % 100)}/${pad(y.getUTCMonth() + 1)}/${pad(y.getUTCDate())} ${hms(y)} ${level.toUpperCase()} ${x.logger}: ${first}`, ...rest]; },
    templates: [
      I('Started reading broadcast variable <*>', [], { logger: 'broadcast.TorrentBroadcast', weight: 6 }),
      I('Block <*> stored as bytes in memory (estimated size <*> B, free <*> MB)', [(r) => `broadcast_${r.int(0, 90)}_piece0`, null, (r) => (r.rand() * 5000).toFixed(1)], { logger: 'storage.MemoryStore', weight: 8 }),
      I('Running task <*> in stage <*> (TID <*>)', [(r) => `${r.int(0, 40)}.0`, (r) => `${r.int(0, 30)}.0`], { logger: 'executor.Executor', weight: 10 }),
      I('Finished task <*> in stage <*> (TID <*>). <*> bytes result sent to driver', [(r) => `${r.int(0, 40)}.0`, (r) => `${r.int(0, 30)}.0`], { logger: 'executor.Executor', weight: 10 }),
      I('Found block <*> locally', [(r) => `rdd_${r.int(0, 60)}_${r.int(0, 40)}`], { logger: 'storage.BlockManager', weight: 8 }),
      W('Putting block <*> failed', [(r) => `rdd_${r.int(0, 60)}_${r.int(0, 40)}`], { logger: 'storage.BlockManager' }),
      W('Issue communicating with driver in heartbeater', [], { logger: 'executor.Executor', after: javaStack('org.apache.spark.rpc.RpcTimeoutException', 'Futures timed out after [10 seconds]. This timeout is controlled by spark.executor.heartbeatInterval', ['org.apache.spark.rpc.RpcTimeout.createRpcTimeoutException', 'org.apache.spark.executor.Executor.reportHeartBeat']) }),
      E('Exception in task <*> in stage <*> (TID <*>)', [(r) => `${r.int(0, 40)}.0`, (r) => `${r.int(0, 30)}.0`], { logger: 'executor.Executor', after: javaStack('java.lang.OutOfMemoryError', 'Java heap space', ['java.util.Arrays.copyOf', 'org.apache.spark.util.collection.ExternalAppendOnlyMap.insertAll']) }),
      E('RECEIVED SIGNAL 15: SIGTERM', [], { logger: 'executor.CoarseGrainedExecutorBackend' }),
      E('Still have <*> requests outstanding when connection from <*>/<*> is closed', [null, (r) => `mesos-slave-${r.int(1, 30)}`, ipPort], { logger: 'client.TransportResponseHandler' }),
      W('Error sending message [message = Heartbeat(<*>,[Lscala.Tuple2;@<*>,BlockManagerId(<*>, mesos-slave-<*>, <*>))] in <*> attempts', [null, (r) => r.hex(7)], { logger: 'netty.NettyRpcEndpointRef' }),
    ],
  },
  {
    name: 'zookeeper', format: 'log4j-dash', start: Date.UTC(2015, 6, 29, 17, 41, 44), stepMax: 8000,
    line: (t, level, m, r, x) => { const [first, ...rest] = [].concat(m); return [`${iso(t)} - ${level.toUpperCase().padEnd(5)} [${x.thread}] - ${first}`, ...rest]; },
    templates: [
      I('Notification: <*> (n.leader), 0x<*> (n.zxid), 0x1 (n.round), LOOKING (n.state), <*> (n.sid), 0x0 (n.peerEPoch), FOLLOWING (my state)', [null, (r) => r.hex(9)], { thread: 'WorkerReceiver[myid=1]:FastLeaderElection@542', weight: 6 }),
      I('Accepted socket connection from /<*>', [ipPort], { thread: 'NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181:NIOServerCnxnFactory@197', weight: 10 }),
      I('Closed socket connection for client /<*> which had sessionid 0x<*>', [ipPort, (r) => r.hex(15)], { thread: 'NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181:NIOServerCnxn@1007', weight: 10 }),
      I('Client attempting to establish new session at /<*>', [ipPort], { thread: 'NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181:ZooKeeperServer@839', weight: 8 }),
      I('Established session 0x<*> with negotiated timeout <*> for client /<*>', [(r) => r.hex(15), null, ipPort], { thread: 'CommitProcessor:1:ZooKeeperServer@595', weight: 8 }),
      W('caught end of stream exception', [], { thread: 'NIOServerCxn.Factory:0.0.0.0/0.0.0.0:2181:NIOServerCnxn@349', after: () => ['EndOfStreamException: Unable to read additional data from client sessionid 0x14ed93111f20027, likely client has closed socket', '\tat org.apache.zookeeper.server.NIOServerCnxn.doIO(NIOServerCnxn.java:220)'] }),
      W('Connection broken for id <*>, my id = <*>, error = ', [null, (r) => r.int(1, 3)], { thread: 'RecvWorker:188978561024:QuorumCnxManager$RecvWorker@762' }),
      W('Interrupting SendWorker', [], { thread: 'RecvWorker:188978561024:QuorumCnxManager$RecvWorker@765' }),
      W('Cannot open channel to <*> at election address /<*>', [(r) => r.int(1, 3), (r) => `${r.ip()}:3888`], { thread: 'WorkerSender[myid=1]:QuorumCnxManager@368', after: javaStack('java.net.ConnectException', 'Connection refused', ['java.net.PlainSocketImpl.socketConnect', 'org.apache.zookeeper.server.quorum.QuorumCnxManager.connectOne']) }),
      E('Unexpected exception causing shutdown while sock still open', [], { thread: 'LearnerHandler-/10.10.34.13:50564:LearnerHandler@562', after: javaStack('java.net.SocketTimeoutException', 'Read timed out', ['java.net.SocketInputStream.read', 'org.apache.zookeeper.server.quorum.LearnerHandler.run']) }),
      E('Unexpected Exception: ', [], { thread: 'CommitProcessor:1:NIOServerCnxn@180', after: () => ['java.nio.channels.CancelledKeyException', '\tat sun.nio.ch.SelectionKeyImpl.ensureValid(SelectionKeyImpl.java:73)'] }),
      E('Exception when following the leader', [], { thread: 'QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:Follower@89', after: javaStack('java.io.EOFException', 'null', ['java.io.DataInputStream.readInt', 'org.apache.zookeeper.server.quorum.Learner.readPacket']) }),
    ],
  },
  {
    name: 'apache-error', format: 'apache-error', start: Date.UTC(2005, 11, 4, 4, 47, 44), stepMax: 20000,
    line: (t, level, m) => { const x = d(t); return `[${DAY[x.getUTCDay()]} ${MON[x.getUTCMonth()]} ${pad(x.getUTCDate())} ${hms(x)} ${x.getUTCFullYear()}] [${level}] ${m}`; },
    templates: [
      I('workerEnv.init() ok /etc/httpd/conf/workers2.properties', [], { level: 'notice', weight: 10 }),
      I('jk2_init() Found child <*> in scoreboard slot <*>', [], { level: 'notice', weight: 10 }),
      I('Digest: generating secret for digest authentication ...', [], { level: 'notice', weight: 1 }),
      E('mod_jk child workerEnv in error state <*>', [(r) => r.int(6, 10)], { level: 'error' }),
      E('[client <*>] Directory index forbidden by rule: /var/www/html/', [(r) => r.ip()], { level: 'error' }),
      E('jk2_init() Can\'t find child <*> in scoreboard', [], { level: 'error' }),
      E('[client <*>] File does not exist: /var/www/html/<*>', [(r) => r.ip(), (r) => r.pick(['robots.txt', 'favicon.ico', 'scripts/..%255c%255c../winnt/system32/cmd.exe'])], { level: 'error' }),
      W('child process <*> still did not exit, sending a SIGTERM', [], { level: 'warn' }),
      E('mod_jk: could not create scoreboard: No space left on device', [], { level: 'crit', repeat: 1 }),
    ],
  },
  {
    name: 'android', format: 'logcat-threadtime', start: Date.UTC(2017, 2, 17, 16, 13, 38), stepMin: 1, stepMax: 400,
    line: (t, level, m, r, x) => { const y = d(t); const [first, ...rest] = [].concat(m); const head = `${pad(y.getUTCMonth() + 1)}-${pad(y.getUTCDate())} ${hms(y)}.${pad(y.getUTCMilliseconds(), 3)}  1702  ${String(r.int(1700, 9000)).padStart(4)} ${x.letter ?? 'D'} ${x.tag}: `; return [head + first, ...rest.map((l) => head + l)]; },
    templates: [
      I('printFreezingDisplayLogsopening app wtoken = AppWindowToken{<*> token=Token{<*> ActivityRecord{<*> u0 com.tencent.qt.qtl/.activity.info.NewsDetailXmlActivity t<*>}}}, allDrawn= false', [(r) => r.hex(7), (r) => r.hex(7), (r) => r.hex(7)], { tag: 'WindowManager', weight: 4 }),
      I('acquire lock=<*>, flags=0x1, tag="View Lock", name=com.tencent.qt.qtl, ws=null, uid=<*>, pid=<*>', [], { tag: 'PowerManagerService', letter: 'D', weight: 10 }),
      I('release lock=<*>, flags=0x1, tag="View Lock", name=com.tencent.qt.qtl, ws=null, uid=<*>, pid=<*>', [], { tag: 'PowerManagerService', letter: 'D', weight: 10 }),
      I('Skipping AppWindowToken{<*> token=Token{<*>}} -- going to hide', [(r) => r.hex(7), (r) => r.hex(7)], { tag: 'WindowManager', letter: 'V', weight: 6 }),
      I('ready=true,policy=3,wakefulness=1,wksummary=0x23,uasummary=0x1,bootcompleted=true,boostinprogress=false,waitmodeenable=false,mode=false,manual=38,auto=-1,adj=0.0userId=0', [], { tag: 'DisplayPowerController', letter: 'D', weight: 5 }),
      E('ANR in com.tencent.mm (com.tencent.mm/.plugin.account.ui.LoginPasswordUI)', [], { tag: 'ActivityManager', letter: 'E' }),
      W('Unable to start service Intent { act=com.tencent.mm.<*> } U=0: not found', [(r) => r.pick(['RECONNECT', 'PUSH'])], { tag: 'ActivityManager', letter: 'W' }),
      W('Timeout waiting for the frame: 0x<*>', [(r) => r.hex(8)], { tag: 'SurfaceFlinger', letter: 'W' }),
      E('FATAL EXCEPTION: main', [], { tag: 'AndroidRuntime', letter: 'E', after: () => ['Process: com.tencent.qt.qtl, PID: 9128', 'java.lang.NullPointerException: Attempt to invoke virtual method \'int android.view.View.getWidth()\' on a null object reference'] }),
      E('Failed to write to socket: Broken pipe', [], { tag: 'InputDispatcher', letter: 'E' }),
      W('Attempted to finish an input event but the input event receiver has already been disposed.', [], { tag: 'InputEventReceiver', letter: 'W' }),
    ],
  },
  {
    name: 'bgl', format: 'bgl-ras', start: Date.UTC(2005, 5, 3, 15, 42, 50), stepMax: 60000,
    line: (t, level, m, r, x) => { const y = d(t); const node = `R${pad(r.int(0, 77))}-M${r.int(0, 1)}-N${r.pick('0123456789ABCDEF'.split(''))}-C:J${pad(r.int(2, 17))}-U${pad(r.int(1, 11))}`; const stamp = `${y.getUTCFullYear()}-${pad(y.getUTCMonth() + 1)}-${pad(y.getUTCDate())}-${pad(y.getUTCHours())}.${pad(y.getUTCMinutes())}.${pad(y.getUTCSeconds())}.${pad(y.getUTCMilliseconds(), 3)}${pad(r.int(0, 999), 3)}`; return `${x.alert ?? '-'} ${Math.floor(t / 1000)} ${y.getUTCFullYear()}.${pad(y.getUTCMonth() + 1)}.${pad(y.getUTCDate())} ${node} ${stamp} ${node} RAS ${x.facility ?? 'KERNEL'} ${x.level} ${m}`; },
    templates: [
      I('instruction cache parity error corrected', [], { level: 'INFO', weight: 10 }),
      I('generating core.<*>', [], { level: 'INFO', weight: 8 }),
      I('<*> double-hummer alignment exceptions', [], { level: 'INFO', weight: 6 }),
      I('CE sym <*>, at 0x<*>, mask 0x<*>', [null, (r) => r.hex(8), (r) => r.hex(2)], { level: 'INFO', weight: 6 }),
      I('total of <*> ddr error(s) detected and corrected', [], { level: 'INFO', weight: 4 }),
      E('data TLB error interrupt', [], { level: 'FATAL', alert: 'KERNDTLB' }),
      E('ciod: failed to read message prefix on control stream (CioStream socket to <*>', [ipPort], { level: 'FATAL', facility: 'APP', alert: 'APPREAD' }),
      E('rts: kernel terminated for reason <*>', [(r) => r.pick([1001, 1004])], { level: 'FATAL', alert: 'KERNRTSP' }),
      E('machine check interrupt (bit=0x<*>): L2 dcache unit data parity error', [(r) => r.hex(2)], { level: 'FATAL', alert: 'KERNMC' }),
      E('idoproxydb hit ASSERT condition: ASSERT expression=<*> Source file=idotransportmgr.cpp Source line=<*> Function=int IdoTransportMgr::SendPacket(IdoUdpMgr*, BglCtlPavTrace*)', [(r) => r.pick(['0', '!(nBytes > 0)'])], { level: 'FATAL', facility: 'MMCS', alert: 'MASABNORM' }),
      W('ddr: activating redundant bit steering: rank=<*> symbol=<*>', [], { level: 'WARNING' }),
      E('Lustre mount FAILED : bglio<*> : block_id : location', [], { level: 'FAILURE', facility: 'APP', alert: 'APPUNAV' }),
      W('NodeCard temperature sensor chip U<*> is not accessible', [], { level: 'SEVERE', facility: 'MONITOR' }),
    ],
  },
  {
    name: 'linux-syslog', format: 'syslog-rfc3164', start: Date.UTC(2005, 5, 14, 15, 16, 1), stepMax: 200000,
    line: (t, level, m, r, x) => `${syslogTime(t)} combo ${x.proc}[${r.int(1000, 32000)}]: ${m}`,
    templates: [
      I('session opened for user <*> by (uid=0)', [(r) => r.pick(['cyrus', 'news', 'root'])], { proc: 'su(pam_unix)', weight: 8 }),
      I('session closed for user <*>', [(r) => r.pick(['cyrus', 'news', 'root'])], { proc: 'su(pam_unix)', weight: 8 }),
      I('connection from <*> () at <*>', [(r) => r.ip(), () => 'Fri Jul 22 09:42:43 2005'], { proc: 'ftpd', weight: 5 }),
      I('cupsd shutdown succeeded', [], { proc: 'cups', weight: 1 }),
      I('irqbalance startup succeeded', [], { proc: 'irqbalance', weight: 1 }),
      I('Kernel logging (proc) stopped.', [], { proc: 'kernel', weight: 1 }),
      E('authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=<*>', [(r) => r.ip()], { proc: 'sshd(pam_unix)', repeat: 6 }),
      E('check pass; user unknown', [], { proc: 'sshd(pam_unix)' }),
      E('ALERT exited abnormally with [1]', [], { proc: 'logrotate' }),
      E('Out of Memory: Killed process <*> (httpd).', [], { proc: 'kernel' }),
      W('audit(<*>:0): avc: denied { read } for pid=<*> comm="<*>" name="<*>" dev=dm-0', [(r) => `${r.int(1e9, 2e9)}.${r.int(100, 999)}`, null, (r) => r.pick(['httpd', 'named']), (r) => r.pick(['tmp', 'log'])], { proc: 'kernel' }),
      E('Bluetooth: hci0: command 0x<*> tx timeout', [(r) => r.hex(4)], { proc: 'kernel' }),
    ],
  },
  {
    name: 'mac', format: 'syslog-macos', start: Date.UTC(2017, 6, 1, 9, 0, 55), stepMax: 30000,
    line: (t, level, m, r, x) => `${syslogTime(t)} calvisitor-10-105-160-95 ${x.proc}[${x.pid ?? r.int(80, 40000)}]: ${m}`,
    templates: [
      I('IOThunderboltSwitch<0>(0x0)::listenerCallback - Thunderbolt HPD packet for route = 0x0 port = <*> unplug = 0', [], { proc: 'kernel', pid: 0, weight: 6 }),
      I('ARPT: <*>: wl0: wl_update_tcpkeep_seq: Original Seq: <*>, Ack: <*>, Win size: <*>', [(r) => `${r.int(600000, 700000)}.${r.int(100000, 999999)}`], { proc: 'kernel', pid: 0, weight: 8 }),
      I('Location icon should now be in state \'<*>\'', [(r) => r.pick(['Active', 'Inactive'])], { proc: 'locationd', pid: 82, weight: 5 }),
      I('CGXDisplayDidWakeNotification [<*>]: posting kCGSDisplayDidWake', [], { proc: 'WindowServer', pid: 184, weight: 3 }),
      I('AppleCamIn::systemWakeCall - messageType = 0x<*>', [(r) => r.hex(8).toUpperCase()], { proc: 'kernel', pid: 0, weight: 4 }),
      E('Sandbox: com.apple.Addres(<*>) deny(1) network-outbound /private/var/run/mDNSResponder', [], { proc: 'kernel', pid: 0 }),
      W('__73-[NetworkAnalyticsEngine observeValueForKeyPath:ofObject:change:context:]_block_invoke unexpected switch value <*>', [(r) => r.int(1, 3)], { proc: 'symptomsd', pid: 215 }),
      E('ERROR: [<*>] TSMRemoteSeamlessServer failed: -<*>', [], { proc: 'Microsoft Word' }),
      W('mDNS_RegisterInterface: Frequent transitions for interface en0 (<*>)', [(r) => r.ip()], { proc: 'mDNSResponder', pid: 91 }),
      E('Failed to connect (_connectionRef) to the server: com.apple.cloudd: Connection interrupted', [], { proc: 'CalendarAgent' }),
      W('PM response took <*> ms (<*>, <*>)', [null, null, (r) => r.pick(['powerd', 'WindowServer'])], { proc: 'kernel', pid: 0 }),
      W('AirPort: Link Down on awdl0. Reason 1 (Unspecified).', [], { proc: 'kernel', pid: 0 }),
    ],
  },
  {
    name: 'openssh', format: 'syslog-sshd', start: Date.UTC(2016, 11, 10, 6, 55, 46), stepMax: 8000,
    line: (t, level, m, r) => `${syslogTime(t)} LabSZ sshd[${r.int(20000, 30000)}]: ${m}`,
    templates: [
      I('Connection closed by <*> [preauth]', [(r) => r.ip()], { weight: 8 }),
      I('Received disconnect from <*>: 11: Bye Bye [preauth]', [(r) => r.ip()], { weight: 8 }),
      I('Accepted password for <*> from <*> port <*> ssh2', [(r) => r.pick(['fztu', 'curi', 'jmzhu'])], { weight: 2 }),
      I('pam_unix(sshd:session): session opened for user <*> by (uid=0)', [(r) => r.pick(['fztu', 'curi'])], { weight: 2 }),
      E('pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=<*>  user=root', [(r) => r.ip()], { repeat: 10 }),
      E('reverse mapping checking getaddrinfo for <*> [<*>] failed - POSSIBLE BREAK-IN ATTEMPT!', [(r) => `ns${r.int(1, 99)}.example-host.com`, (r) => r.ip()]),
      E('Invalid user <*> from <*>', [(r) => r.pick(['webmaster', 'admin', 'test', 'oracle', 'git']), (r) => r.ip()], { repeat: 8 }),
      E('Failed password for invalid user <*> from <*> port <*> ssh2', [(r) => r.pick(['webmaster', 'admin', 'test', 'oracle']), (r) => r.ip()], { repeat: 8 }),
      E('Failed password for root from <*> port <*> ssh2', [(r) => r.ip()], { repeat: 8 }),
      E('error: Received disconnect from <*>: 14: No more user authentication methods available. [preauth]', [(r) => r.ip()]),
      E('Disconnecting: Too many authentication failures for root [preauth]', []),
      W('Did not receive identification string from <*>', [(r) => r.ip()]),
      E('PAM <*> more authentication failures; logname= uid=0 euid=0 tty=ssh ruser= rhost=<*>  user=root', [(r) => r.int(1, 5), (r) => r.ip()]),
      W('pam_unix(sshd:auth): check pass; user unknown', []),
    ],
  },
  {
    name: 'openstack', format: 'oslo-log', start: Date.UTC(2017, 4, 16, 0, 0, 0), stepMax: 3000,
    line: (t, level, m, r, x) => { const [first, ...rest] = [].concat(m); const file = x.file ?? 'nova-compute.log.1.2017-05-16_13:55:31'; level = level === 'warn' ? 'warning' : level; const head = (msg) => `${file} ${iso(t, ' ', '.')} ${x.pid ?? 2931} ${level.toUpperCase()} ${x.logger} [req-${r.uuid()} - - - - -] ${msg}`; return [head(first), ...rest.map((l) => `${file} ${iso(t, ' ', '.')} ${x.pid ?? 2931} ${level.toUpperCase()} ${x.logger} ${l}`)]; },
    templates: [
      I('<*> "GET /v2/<*>/servers/detail HTTP/1.1" status: 200 len: <*> time: <*>', [(r) => r.ip(), (r) => r.hex(32), null, (r) => r.rand().toFixed(7)], { logger: 'nova.osapi_compute.wsgi.server', file: 'nova-api.log.1.2017-05-16_13:53:08', pid: 25746, weight: 20 }),
      I('[instance: <*>] VM Started (Lifecycle Event)', [(r) => r.uuid()], { logger: 'nova.compute.manager', weight: 2 }),
      I('[instance: <*>] VM Paused (Lifecycle Event)', [(r) => r.uuid()], { logger: 'nova.compute.manager', weight: 2 }),
      I('[instance: <*>] Took <*> seconds to spawn the instance on the hypervisor.', [(r) => r.uuid(), (r) => (r.rand() * 30).toFixed(2)], { logger: 'nova.compute.manager', weight: 2 }),
      I('image <*> at (/var/lib/nova/instances/_base/<*>): checking', [(r) => r.uuid(), (r) => r.hex(40)], { logger: 'nova.virt.libvirt.imagecache', weight: 3 }),
      I('Final resource view: name=cp-1.slowvm1.tcloud-pg0.utah.cloudlab.us phys_ram=64172MB used_ram=<*>MB phys_disk=15GB used_disk=<*>GB total_vcpus=16 used_vcpus=<*> pci_stats=[]', [], { logger: 'nova.compute.resource_tracker', weight: 3 }),
      W('[instance: <*>] Instance shutdown by itself. Calling the stop API. Current vm_state: active, current task_state: None, original DB power_state: 1, current VM power_state: 4', [(r) => r.uuid()], { logger: 'nova.compute.manager' }),
      W('Unknown base file: /var/lib/nova/instances/_base/<*>', [(r) => r.hex(40)], { logger: 'nova.virt.libvirt.imagecache' }),
      W('[instance: <*>] Received unexpected event network-vif-unplugged-<*> for instance', [(r) => r.uuid(), (r) => r.uuid()], { logger: 'nova.compute.manager' }),
      E('[instance: <*>] Instance failed to spawn', [(r) => r.uuid()], { logger: 'nova.compute.manager', after: () => ['Traceback (most recent call last):', '  File "/usr/lib/python2.7/dist-packages/nova/compute/manager.py", line 2218, in _build_resources', 'PortBindingFailed: Binding failed for port 3c1a2d95-5b8e-4c4e-9a6a-55ae0d3e1a8e, please check neutron logs for more information.'] }),
      E('Error from libvirt during undefine of instance-<*>: [Error Code 42] Domain not found: no domain with matching uuid \'<*>\'', [(r) => r.hex(8), (r) => r.uuid()], { logger: 'nova.virt.libvirt.driver' }),
      E('[instance: <*>] Setting instance vm_state to ERROR', [(r) => r.uuid()], { logger: 'nova.compute.manager' }),
    ],
  },
  {
    name: 'windows-cbs', format: 'cbs', start: Date.UTC(2016, 8, 28, 4, 30, 30), stepMax: 3000,
    line: (t, level, m, r, x) => `${iso(t).slice(0, 19)}, ${x.level.padEnd(22)}${x.comp ?? 'CBS'}    ${m}`,
    templates: [
      I('Loaded Servicing Stack v6.1.7601.<*> with Core: C:\\Windows\\winsxs\\amd64_microsoft-windows-servicingstack_31bf3856ad364e35_6.1.7601.<*>_none_<*>\\cbscore.dll', [null, null, (r) => r.hex(16)], { level: 'Info', weight: 2 }),
      I('<*>@2016/9/27:20:30:31.455 WcpInitialize (wcp.dll version 0.0.0.6) called (stack @0x<*> @0x<*>)', [(r) => r.hex(8), (r) => r.hex(11), (r) => r.hex(11)], { level: 'Info', comp: 'CSI', weight: 4 }),
      I('Session: <*>_<*> initialized by client WindowsUpdateAgent.', [], { level: 'Info', weight: 6 }),
      I('Read out cached package applicability for package: Package_for_KB<*>~31bf3856ad364e35~amd64~~6.1.1.<*>, ApplicableState: <*>, CurrentState:<*>', [], { level: 'Info', weight: 20 }),
      I('Failed to internally open package. [HRESULT = 0x800f0805 - CBS_E_INVALID_PACKAGE]', [], { level: 'Info', weight: 3 }),
      I('SQM: Initializing online with Windows opt-in: False', [], { level: 'Info', weight: 2 }),
      W('Unrecognized packageExtended attribute.', [], { level: 'Warning' }),
      W('SQM: Failed to start upload with file pattern: C:\\Windows\\servicing\\sqm\\*_std.sqm, flags: 0x2 [HRESULT = 0x80004005 - E_FAIL]', [], { level: 'Warning' }),
      E('Failed to process single phase execution. [HRESULT = 0x800f0818 - CBS_E_IDENTITY_MISMATCH]', [], { level: 'Error' }),
      E('Exec: Failed to get Installed State for package: Package_for_KB<*>~31bf3856ad364e35~amd64~~6.1.1.<*> [HRESULT = 0x80070002 - ERROR_FILE_NOT_FOUND]', [], { level: 'Error' }),
      E('(F) STATUS_OBJECT_NAME_NOT_FOUND #<*># from Windows::Rtl::SystemImplementation::DirectFileSystemProvider::SysCreateFile(flags = (AllowSharingViolation), handle = {provider=NULL, handle=0, name= ("null")}, da = (SYNCHRONIZE|FILE_READ_ATTRIBUTES), oa = @0x<*>->OBJECT_ATTRIBUTES {s:48; rd:NULL; on:[<*>]"\\??\\C:\\Windows\\Microsoft.NET\\Framework64\\v2.0.50727\\CONFIG"; a:(OBJ_CASE_INSENSITIVE)})', [null, (r) => r.hex(8), null], { level: 'Error', comp: 'CSI' }),
      W('Failed to get next element [HRESULT = 0x800f080d - CBS_E_MANIFEST_INVALID_ITEM]', [], { level: 'Warning' }),
    ],
  },
  {
    name: 'proxifier', format: 'proxifier', start: Date.UTC(2016, 9, 30, 16, 49, 6), stepMin: 100, stepMax: 6000,
    line: (t, level, m, r, x) => { const y = d(t); return `[${pad(y.getUTCMonth() + 1)}.${pad(y.getUTCDate())} ${hms(y)}] ${x.app ?? r.pick(['chrome.exe', 'chrome.exe', 'firefox.exe', 'Dropbox.exe'])} - ${m}`; },
    templates: [
      I('proxy.cse.cuhk.edu.hk:5070 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS', [], { weight: 10 }),
      I('proxy.cse.cuhk.edu.hk:5070 close, <*> bytes sent, <*> bytes received, lifetime <1 sec', [], { weight: 10 }),
      I('<*>:443 open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS', [(r) => r.pick(['clients1.google.com', 'www.google.com', 'ssl.gstatic.com'])], { weight: 8 }),
      I('<*>:443 close, <*> bytes (<*> KB) sent, <*> bytes (<*> KB) received, lifetime 00:<*>', [(r) => r.pick(['clients1.google.com', 'www.google.com']), null, (r) => (r.rand() * 10).toFixed(2), null, (r) => (r.rand() * 10).toFixed(2), (r) => pad(r.int(1, 59))], { weight: 8 }),
      E('proxy.cse.cuhk.edu.hk:5070 error : Could not connect through proxy proxy.cse.cuhk.edu.hk:5070 - Proxy server cannot establish a connection with the target, status code <*>', [(r) => r.pick([403, 502])], { repeat: 6 }),
      E('<*>:80 error : A connection request was canceled before the completion.', [(r) => r.ip()], { app: 'SogouCloud.exe *64' }),
      E('proxy.cse.cuhk.edu.hk:5070 error : Could not connect to proxy proxy.cse.cuhk.edu.hk:5070 - connection attempt failed with error <*>', [(r) => r.pick([10061, 10060])]),
      E('<*>:443 error : Could not connect through proxy proxy.cse.cuhk.edu.hk:5070 - Proxy server cannot establish a connection with the target, status code 403', [(r) => r.pick(['www.facebook.com', 'twitter.com'])]),
    ],
  },
  {
    name: 'healthapp', format: 'pipe-separated', start: Date.UTC(2017, 11, 23, 22, 15, 29), stepMin: 1, stepMax: 3000,
    line: (t, level, m, r, x) => { const y = d(t); return `${y.getUTCFullYear()}${pad(y.getUTCMonth() + 1)}${pad(y.getUTCDate())}-${pad(y.getUTCHours())}:${pad(y.getUTCMinutes())}:${pad(y.getUTCSeconds())}:${pad(y.getUTCMilliseconds(), 3)}|${x.comp}|30002312|${m}`; },
    templates: [
      I('onStandStepChanged <*>', [], { comp: 'Step_LSC', weight: 10 }),
      I('onReceive action: android.intent.action.<*>', [(r) => r.pick(['SCREEN_ON', 'SCREEN_OFF', 'TIME_TICK'])], { comp: 'Step_StandReportReceiver', weight: 6 }),
      I('flush sensor data', [], { comp: 'Step_StandStepCounter', weight: 6 }),
      I(' getTodayTotalDetailSteps = <*>##<*>##<*>##<*>##<*>##<*>', [], { comp: 'Step_SPUtils', weight: 6 }),
      I('calculateCaloriesWithCache totalCalories=<*>', [], { comp: 'Step_ExtSDM', weight: 6 }),
      I('REPORT : <*> <*> <*> <*>', [], { comp: 'Step_StandReportReceiver', weight: 4 }),
      E('uploadStaticsToDB failed message=<*>', [(r) => r.pick(['true', 'false'])], { comp: 'HiH_HiHealthDataInsertStore' }),
      E('sendSyncFailedBroadcast', [], { comp: 'HiH_HiBroadcastUtil' }),
      E('getCurrentProcessName exception: java.lang.SecurityException: Permission Denial', [], { comp: 'HiH_HiAppUtil' }),
      W('syncData() retry later, errorCode = <*>', [(r) => r.pick([-1, 8])], { comp: 'HiH_HiSyncControl' }),
      E('insertHiHealthData() insert data error, type = <*>', [], { comp: 'HiH_HiHealthDataInsertStore' }),
      W('flushTempCacheToDB by tempCache is null, skipped', [], { comp: 'Step_ExtSDM' }),
    ],
  },
  {
    name: 'hpc', format: 'hpc', start: Date.UTC(2003, 11, 9, 0, 0, 0), stepMax: 120000,
    line: (t, level, m, r, x) => `${r.int(1000, 460000)} ${x.node ? x.node(r) : `node-${r.int(1, 255)}`} ${x.comp} ${Math.floor(t / 1000)} 1 ${m}`,
    templates: [
      I('clusterAddMember  (command <*>)', [], { comp: 'action start', weight: 6 }),
      I('Targeting domains:node-D<*> and nodes:node-[<*>-<*>] child of command <*>', [], { comp: 'boot_cmd new', weight: 6 }),
      I('Command has completed successfully', [], { comp: 'boot_cmd success', weight: 6 }),
      I('running running', [], { comp: 'node status', weight: 8 }),
      I('ambient=<*>', [], { comp: 'node temperature', weight: 4 }),
      E('Component State Change: Component \\042alt0\\042 is in the unavailable state (HWID=<*>)', [], { comp: 'unix.hw state_change.unavailable' }),
      E('Link error on broadcast tree Interconnect-0T00:00:<*>:0', [(r) => r.int(0, 9)], { comp: 'gige.link state_change.down', node: (r) => `gige${r.int(1, 9)}` }),
      E('PSU failure ( ambient=<*> )', [], { comp: 'node psu' }),
      E('boot (command <*>) Error: The command exited with code 255', [], { comp: 'action error' }),
      W('Fan speeds ( <*> <*> <*> **** <*> <*> )', [], { comp: 'node fan' }),
      E('ServerFileSystem domain storage<*> is full', [], { comp: 'server file system', node: () => 'node-D0' }),
    ],
  },
  {
    name: 'github-actions', format: 'github-actions', start: Date.UTC(2024, 2, 1, 10, 0, 0), stepMin: 1, stepMax: 300,
    line: (t, level, m, r, x) => `${iso(t, 'T', '.')}0000Z ${x.mark ?? ''}${m}`,
    templates: [
      W('npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.', [], { repeat: 1 }),
      I('  ✓ compiled <*> modules in <*>ms', [], { weight: 4 }),
      I('src/<*>/<*>.ts', [(r) => r.pick(['api', 'core', 'ui']), (r) => r.pick(['index', 'client', 'store', 'view'])], { weight: 8 }),
      I('added <*> packages, and audited <*> packages in <*>s', [], { weight: 1 }),
      I('[build] transforming (<*>) node_modules/<*>/dist/index.js', [(r) => r.int(1, 900), (r) => r.pick(['react', 'lodash', 'zod', 'axios'])], { weight: 12 }),
      W('Node.js 16 actions are deprecated. Please update the following actions to use Node.js 20: actions/checkout@v3', [], { mark: '##[warning]', repeat: 1 }),
      W('src/<*>/<*>.ts(<*>,<*>): warning TS6133: \'<*>\' is declared but its value is never read.', [(r) => r.pick(['api', 'core']), (r) => r.pick(['client', 'store']), null, null, (r) => r.pick(['ctx', 'opts'])]),
      E('src/api/client.ts(<*>,<*>): error TS2345: Argument of type \'string | undefined\' is not assignable to parameter of type \'string\'.', []),
      E('npm ERR! code ELIFECYCLE', []),
      E('Process completed with exit code <*>.', [(r) => r.pick([1, 2])], { mark: '##[error]', repeat: 1 }),
    ],
    footer: () => ['2024-03-01T10:14:00.0000000Z Post job cleanup.', '2024-03-01T10:14:01.0000000Z Cleaning up orphan processes'],
  },
  {
    name: 'klog', format: 'klog', start: Date.UTC(2024, 0, 2, 15, 4, 5), stepMin: 1, stepMax: 2000,
    line: (t, level, m, r, x) => { const y = d(t); return `${x.letter ?? 'I'}${pad(y.getUTCMonth() + 1)}${pad(y.getUTCDate())} ${hms(y)}.${pad(y.getUTCMilliseconds(), 3)}${pad(r.int(0, 999), 3)}    ${r.int(1, 9)} ${x.file}] ${m}`; },
    templates: [
      I('"Successfully synced" key="<*>"', [(r) => `kube-system/${r.pick(['coredns', 'kube-proxy'])}-${r.hex(5)}`], { file: 'controller.go:212', weight: 10 }),
      I('"SyncLoop (PLEG): event for pod" pod="<*>" event={"ID":"<*>","Type":"ContainerStarted"}', [(r) => `default/api-${r.hex(5)}`, (r) => r.uuid()], { file: 'kubelet.go:2457', weight: 8 }),
      I('"Started container" containerName="<*>"', [(r) => r.pick(['api', 'worker'])], { file: 'kuberuntime_container.go:708', weight: 5 }),
      E('"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"api\\" with CrashLoopBackOff: \\"back-off 5m0s restarting failed container=api pod=api-<*>\\"" pod="default/api-<*>"', [(r) => r.hex(5), (r) => r.hex(5)], { letter: 'E', file: 'pod_workers.go:1298' }),
      W('"Readiness probe failed" probe="<*>" output="Get \\"http://<*>/healthz\\": dial tcp <*>: connect: connection refused"', [(r) => r.pick(['Readiness']), ipPort, ipPort], { letter: 'W', file: 'prober.go:104' }),
      E('"Failed to pull image" err="rpc error: code = NotFound desc = failed to pull and unpack image \\"registry.local/api:<*>\\""', [(r) => `v1.${r.int(0, 9)}.${r.int(0, 9)}`], { letter: 'E', file: 'kuberuntime_image.go:53' }),
      W('"Nameserver limits exceeded" err="Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: <*> <*> <*>"', [(r) => r.ip(), (r) => r.ip(), (r) => r.ip()], { letter: 'W', file: 'dns.go:153' }),
      E('"Unhandled Error" err="unable to sync caches for garbage collector" logger="UnhandledError"', [], { letter: 'E', file: 'garbagecollector.go:277' }),
    ],
  },
  {
    name: 'pino-jsonl', format: 'json-lines', start: Date.UTC(2026, 10, 12, 8, 0, 0), stepMin: 1, stepMax: 2000,
    line: (t, level, m, r, x) => JSON.stringify({ level: { info: 30, warn: 40, error: 50 }[level], time: t, pid: 7, hostname: 'orders-7c9f', reqId: `req-${r.int(1, 9999)}`, msg: m, ...(x.err ? { err: { type: x.err, message: m } } : {}) }),
    templates: [
      I('request completed', [], { weight: 10 }),
      I('incoming request', [], { weight: 10 }),
      I('cache hit for order <*>', [(r) => `ord_${r.hex(10)}`], { weight: 6 }),
      W('slow query on orders took <*>ms', [], {}),
      W('retrying webhook delivery to <*> (attempt <*>/5)', [(r) => `https://hooks.example.com/${r.hex(6)}`, (r) => r.int(2, 5)], {}),
      E('payment provider returned 502 for order <*>', [(r) => `ord_${r.hex(10)}`], { err: 'HTTPError' }),
      E('connect ECONNREFUSED <*>', [ipPort], { err: 'Error' }),
      E('unhandled rejection: Cannot read properties of undefined (reading \'<*>\')', [(r) => r.pick(['id', 'total'])], { err: 'TypeError' }),
    ],
  },
];
