#!/usr/bin/env node
// Generates examples/payment-incident/application.log: about two hours of a
// Spring Boot payment-service pod after the 2.14.0 rollout, with realistic
// noise and eight occurrences of the PAY-1423 incident (legacy POS terminals
// rejected with "400 BAD_REQUEST ... paymentMethod is required").
//
// Deterministic: a seeded PRNG, fixed incident correlation ids, no
// dependencies, no clock. Running it twice produces byte-identical output.
//
//   node scripts/gen-example-log.mjs [output-path]

import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from './prng.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outPath = resolve(process.argv[2] ?? join(repoRoot, 'examples/payment-incident/application.log'));

// ---------------------------------------------------------------- PRNG ----
const rand = mulberry32(0x1423_2140);
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const chance = (p) => rand() < p;
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
function weighted(pairs) {
  const total = pairs.reduce((s, [, w]) => s + w, 0);
  let r = rand() * total;
  for (const [v, w] of pairs) {
    if ((r -= w) < 0) return v;
  }
  return pairs[pairs.length - 1][0];
}
const HEX = '0123456789abcdef';
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const chars = (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
function uuid() {
  return `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-${pick(['8', '9', 'a', 'b'])}${chars(HEX, 3)}-${chars(HEX, 12)}`;
}
const payId = () => `pay_${chars(B62, 24)}`;
const holdId = () => `hld_${chars(B62, 16)}`;
const refundId = () => `rf_${chars(B62, 20)}`;
const exp = (mean) => -Math.log(1 - rand()) * mean;

// ------------------------------------------------------------ timeline ----
const PID = 4821;
const T = (iso) => Date.parse(iso);
const START = T('2026-11-12T07:55:08.114Z');
const END = T('2026-11-12T09:59:00.000Z');

const entries = []; // { t, seq, text }
let seq = 0;
function log(t, level, thread, logger, msg, trace = []) {
  if (t > END) return;
  const ts = new Date(Math.round(t)).toISOString();
  const head = `${ts} ${level.padStart(5)} ${PID} --- [${thread}] ${logger} : ${msg}`;
  entries.push({ t: Math.round(t), seq: seq++, text: [head, ...trace].join('\n') });
}
const c = (corr) => `[corr=${corr}] `;

const L = {
  app: 'c.a.payments.PaymentServiceApplication',
  release: 'c.a.p.config.ReleaseInfo',
  filter: 'c.a.p.web.RequestLoggingFilter',
  controller: 'c.a.p.api.PaymentController',
  handler: 'c.a.p.api.ApiExceptionHandler',
  service: 'c.a.p.service.PaymentService',
  fraud: 'c.a.p.fraud.FraudScoringClient',
  ledger: 'c.a.p.ledger.LedgerClient',
  outbox: 'c.a.p.events.PaymentEventPublisher',
  relay: 'c.a.p.events.OutboxRelay',
  ledgerListener: 'c.a.p.events.LedgerEventsListener',
  queryTiming: 'c.a.p.repository.QueryTimingInterceptor',
  reaper: 'c.a.p.scheduler.PendingPaymentReaper',
  settlement: 'c.a.p.scheduler.SettlementExportJob',
  idemCleanup: 'c.a.p.scheduler.IdempotencyKeyCleanupJob',
  lag: 'c.a.p.observability.ConsumerLagMonitor',
  httpSummary: 'c.a.p.observability.HttpMetricsReporter',
  hikari: 'com.zaxxer.hikari.pool.HikariPool',
  hikariDs: 'com.zaxxer.hikari.HikariDataSource',
};
const KAFKA_THREAD = 'ledger-listener-0-C-1';
const execThread = () => `http-nio-8080-exec-${int(1, 20)}`;

// ------------------------------------------------------------- startup ----
{
  let t = START;
  const M = 'main';
  const s = (dt, level, logger, msg) => log((t += dt), level, M, logger, msg);
  s(0, 'INFO', L.app, `Starting PaymentServiceApplication v2.14.0 using Java 17.0.12 with PID ${PID} (/app/payment-service.jar started by app in /app)`);
  s(4, 'INFO', L.app, 'The following 1 profile is active: "prod"');
  s(1873, 'INFO', 'o.s.d.r.c.RepositoryConfigurationDelegate', 'Bootstrapping Spring Data JPA repositories in DEFAULT mode.');
  s(214, 'INFO', 'o.s.d.r.c.RepositoryConfigurationDelegate', 'Finished Spring Data repository scanning in 187 ms. Found 4 JPA repository interfaces.');
  s(1402, 'INFO', 'o.s.b.w.embedded.tomcat.TomcatWebServer', 'Tomcat initialized with port 8080 (http)');
  s(21, 'INFO', 'o.apache.catalina.core.StandardService', 'Starting service [Tomcat]');
  s(1, 'INFO', 'o.apache.catalina.core.StandardEngine', 'Starting Servlet engine: [Apache Tomcat/10.1.28]');
  s(96, 'INFO', 'o.a.c.c.C.[Tomcat].[localhost].[/]', 'Initializing Spring embedded WebApplicationContext');
  s(2, 'INFO', 'w.s.c.ServletWebServerApplicationContext', 'Root WebApplicationContext: initialization completed in 3604 ms');
  s(611, 'INFO', L.hikariDs, 'HikariPool-1 - Starting...');
  s(388, 'INFO', L.hikari, 'HikariPool-1 - Added connection org.postgresql.jdbc.PgConnection@5b1f29fa');
  s(3, 'INFO', L.hikariDs, 'HikariPool-1 - Start completed.');
  s(142, 'INFO', 'o.f.c.internal.license.VersionPrinter', 'Flyway Community Edition 10.10.0 by Redgate');
  s(61, 'INFO', 'o.f.core.internal.command.DbValidate', 'Successfully validated 47 migrations (execution time 00:00.084s)');
  s(37, 'INFO', 'o.f.core.internal.command.DbMigrate', 'Current version of schema "payments": 47');
  s(2, 'INFO', 'o.f.core.internal.command.DbMigrate', 'Schema "payments" is up to date. No migration necessary.');
  s(903, 'INFO', 'o.hibernate.jpa.internal.util.LogHelper', 'HHH000204: Processing PersistenceUnitInfo [name: default]');
  s(77, 'INFO', 'org.hibernate.Version', 'HHH000412: Hibernate ORM core version 6.5.2.Final');
  s(1288, 'INFO', 'j.LocalContainerEntityManagerFactoryBean', "Initialized JPA EntityManagerFactory for persistence unit 'default'");
  s(644, 'INFO', L.fraud, 'Fraud scoring endpoint http://fraud-scoring.risk.svc.cluster.local:8080/v2/score (connect timeout 200ms, read timeout 800ms, max attempts 3)');
  s(3, 'INFO', L.ledger, 'Ledger endpoint http://ledger.finance.svc.cluster.local:8080 (timeout 1500ms, max attempts 3)');
  s(412, 'INFO', 'o.a.k.clients.producer.KafkaProducer', '[Producer clientId=payment-service-outbox-1] Instantiated an idempotent producer.');
  s(57, 'INFO', 'o.a.kafka.common.utils.AppInfoParser', 'Kafka version: 3.7.1');
  s(960, 'INFO', 'o.s.b.a.e.web.EndpointLinksResolver', "Exposing 3 endpoints beneath base path '/actuator'");
  s(588, 'INFO', 'o.s.b.w.embedded.tomcat.TomcatWebServer', "Tomcat started on port 8080 (http) with context path '/'");
  s(24, 'INFO', L.app, 'Started PaymentServiceApplication in 14.382 seconds (process running for 15.107)');
  s(6, 'INFO', L.release, 'payment-service 2.14.0 (commit b7d20f4, built 2026-11-11T16:42:09Z, profile prod, pod payment-service-7c9f6d5b8-x2kqp)');
  const kt = (dt, logger, msg) => log((t += dt), 'INFO', KAFKA_THREAD, logger, msg);
  kt(418, 'o.a.k.c.c.internals.ConsumerCoordinator', '[Consumer clientId=consumer-payment-service-ledger-1, groupId=payment-service-ledger] Successfully joined group with generation Generation{generationId=219, memberId=\'consumer-payment-service-ledger-1-0d6e\', protocol=\'range\'}');
  kt(12, 'o.a.k.c.c.internals.ConsumerCoordinator', '[Consumer clientId=consumer-payment-service-ledger-1, groupId=payment-service-ledger] Adding newly assigned partitions: ledger.entries-0, ledger.entries-3');
  kt(9, 'o.s.k.l.KafkaMessageListenerContainer', 'payment-service-ledger: partitions assigned: [ledger.entries-0, ledger.entries-3]');
}
const READY = START + 16_000;

// -------------------------------------------------------- merchants etc ----
const storeMerchants = ['M-20102', 'M-20231', 'M-20544', 'M-20587', 'M-20931', 'M-21004', 'M-21187', 'M-21350', 'M-21412', 'M-21698'];
const webMerchants = ['M-10422', 'M-10467', 'M-10511', 'M-10538', 'M-10602', 'M-10719', 'M-10844', 'M-10990'];
const partnerMerchants = ['M-30017', 'M-30042', 'M-30108', 'M-30255'];
const terminalFor = () => `T-${String(int(100, 899)).padStart(4, '0')}`;
const amount = () => {
  const v = weighted([[() => int(150, 2500), 5], [() => int(2500, 12000), 4], [() => int(12000, 60000), 1]])();
  return (v / 100).toFixed(2);
};
const createdPayments = []; // { id, merchant, amount, currency, hold }
const httpResults = []; // { t, status, ms }

let kafkaOffset = { 0: 18_204_117, 3: 18_199_842 };
let outboxOffset = [0, 1, 2, 3, 4, 5].map(() => int(2_900_000, 3_100_000));

function completed(t, thread, corr, status, ms) {
  const text = { 200: '200 OK', 201: '201 CREATED', 400: '400 BAD_REQUEST', 404: '404 NOT_FOUND' }[status];
  log(t, 'INFO', thread, L.filter, `${c(corr)}Completed ${text} in ${ms}ms`);
  httpResults.push({ t, status, ms });
}

// ----------------------------------------------------- fixed incidents ----
const INCIDENTS = [
  ['2026-11-12T08:03:41.207Z', '2c81d0f4-6a3e-4b17-8e52-91f0c4a7d3b6', 'pos-legacy/4.2.1', 'T-0417', 'M-20931', 14, 3],
  ['2026-11-12T08:17:09.884Z', '9e4b7a12-0c5d-4f83-b6e1-3a72d8c50f19', 'pos-legacy/4.0.7', 'T-0233', 'M-20544', 11, 9],
  ['2026-11-12T08:32:55.031Z', '5d07f6e9-21b8-4c4a-a3d9-7e6b1f0824ac', 'pos-legacy/4.2.1', 'T-0418', 'M-20931', 12, 5],
  ['2026-11-12T08:51:20.466Z', 'b13e58c7-94af-4d02-8f6c-0a5e2d97c3f1', 'pos-legacy/4.2.1', 'T-0612', 'M-21187', 13, 12],
  ['2026-11-12T09:06:02.719Z', 'e6a9d3b0-7f12-4c58-9d4e-b28f05a1c67d', 'pos-legacy/4.1.3', 'T-0095', 'M-20102', 12, 16],
  ['2026-11-12T09:14:03.512Z', '7f3a9c2e-4d8b-4e21-a6f0-5c19b7e3d284', 'pos-legacy/4.2.1', 'T-0417', 'M-20931', 12, 7],
  ['2026-11-12T09:27:48.150Z', '0a6c4e83-b5d1-4a97-8c2f-e47d90b13a65', 'pos-legacy/4.0.7', 'T-0234', 'M-20544', 10, 2],
  ['2026-11-12T09:41:15.993Z', 'c4f2b819-3e6a-4d05-b7c8-62a1e0d9f54e', 'pos-legacy/4.2.1', 'T-0613', 'M-21187', 12, 19],
];
const validationTrace = [
  "org.springframework.web.bind.MethodArgumentNotValidException: Validation failed for argument [0] in public org.springframework.http.ResponseEntity<com.acme.payments.api.PaymentResponse> com.acme.payments.api.PaymentController.createPayment(com.acme.payments.api.PaymentRequest,java.lang.String): [Field error in object 'paymentRequest' on field 'paymentMethod': rejected value [null]; codes [NotNull.paymentRequest.paymentMethod,NotNull.paymentMethod,NotNull.com.acme.payments.domain.PaymentMethod,NotNull]; arguments [org.springframework.context.support.DefaultMessageSourceResolvable: codes [paymentRequest.paymentMethod,paymentMethod]; arguments []; default message [paymentMethod]]; default message [paymentMethod is required]] ",
  '\tat org.springframework.web.servlet.mvc.method.annotation.RequestResponseBodyMethodProcessor.resolveArgument(RequestResponseBodyMethodProcessor.java:159)',
  '\tat com.acme.payments.web.ClientVersionFilter.doFilterInternal(ClientVersionFilter.java:44)',
  '\tat com.acme.payments.web.RateLimitFilter.doFilterInternal(RateLimitFilter.java:57)',
  '\tat com.acme.payments.security.MerchantAuthenticationFilter.doFilterInternal(MerchantAuthenticationFilter.java:71)',
  '\tat com.acme.payments.web.CorrelationIdFilter.doFilterInternal(CorrelationIdFilter.java:38)',
  '\tat com.acme.payments.web.RequestLoggingFilter.doFilterInternal(RequestLoggingFilter.java:61)',
  '\t... 47 frames excluded',
];
for (const [iso, corr, client, terminal, merchant, ms, exec] of INCIDENTS) {
  const t = T(iso);
  const th = `http-nio-8080-exec-${exec}`;
  log(t - ms + 1, 'DEBUG', th, L.filter, `${c(corr)}POST /v1/payments client=${client} terminal=${terminal} merchant=${merchant} fields=[amount,currency,merchantId,reference,terminalId]`);
  log(t - 3, 'WARN', th, L.handler, `${c(corr)}Validation failed for PaymentRequest: paymentMethod is required`);
  log(t - 2, 'ERROR', th, L.handler, `${c(corr)}400 BAD_REQUEST POST /v1/payments: paymentMethod is required`, validationTrace);
  completed(t, th, corr, 400, ms);
}

// ------------------------------------------- fixed unrelated failures ----
const FRAUD_URL = 'http://fraud-scoring.risk.svc.cluster.local:8080/v2/score';
const FRAUD_RESETS = [
  ['2026-11-12T08:44:27.318Z', '3b9e0c71-d2a4-4f6e-9a13-58c7e2b04d96', 'web-checkout/2026.11.2', 'M-10538', '74.50', 'wallet', 4],
  ['2026-11-12T09:33:10.642Z', '8d5a2f03-6c9e-4b71-a4d8-1e0b93c76f25', 'mobile-bff/7.4.2', 'M-10844', '18.90', 'card', 15],
];
const fraudTrace = [
  `org.springframework.web.client.ResourceAccessException: I/O error on POST request for "${FRAUD_URL}": Connection reset`,
  '\tat org.springframework.web.client.RestTemplate.createResourceAccessException(RestTemplate.java:915)',
  '\tat com.acme.payments.fraud.FraudScoringClient.score(FraudScoringClient.java:74)',
  '\tat com.acme.payments.service.PaymentService.create(PaymentService.java:56)',
  '\tat com.acme.payments.api.PaymentController.createPayment(PaymentController.java:57)',
  '\tat com.acme.payments.web.RequestLoggingFilter.doFilterInternal(RequestLoggingFilter.java:61)',
  '\t... 88 frames excluded',
  'Caused by: java.net.SocketException: Connection reset',
  '\tat java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:328)',
  '\tat java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:355)',
  '\t... 31 frames excluded',
];
for (const [iso, corr, client, merchant, amt, method, exec] of FRAUD_RESETS) {
  let t = T(iso);
  const t0 = t;
  const th = `http-nio-8080-exec-${exec}`;
  log(t, 'DEBUG', th, L.filter, `${c(corr)}POST /v1/payments client=${client} merchant=${merchant} fields=[amount,currency,merchantId,paymentMethod,reference]`);
  log((t += 3), 'DEBUG', th, L.service, `${c(corr)}Creating payment merchant=${merchant} amount=${amt} EUR method=${method} idempotencyKey=present`);
  log((t += 216), 'ERROR', th, L.fraud, `${c(corr)}Fraud scoring call failed (attempt 1/3): I/O error on POST request for "${FRAUD_URL}": Connection reset`, fraudTrace);
  log((t += 1), 'WARN', th, L.fraud, `${c(corr)}Retrying fraud scoring in 100ms (attempt 2/3)`);
  log((t += 147), 'INFO', th, L.fraud, `${c(corr)}Fraud score=0.0${int(3, 9)} decision=ALLOW in 47ms (attempt 2/3)`);
  const id = payId();
  const hold = holdId();
  log((t += 26), 'DEBUG', th, L.ledger, `${c(corr)}Hold created hold=${hold} amount=${amt} EUR in 24ms`);
  log((t += 3), 'INFO', th, L.controller, `${c(corr)}Payment created id=${id} amount=${amt} currency=EUR method=${method} status=AUTHORIZED`);
  log((t += 3), 'INFO', th, L.filter, `${c(corr)}Completed 201 CREATED in ${t - t0}ms`);
  httpResults.push({ t, status: 201, ms: t - t0 });
  createdPayments.push({ id, merchant, amount: amt, currency: 'EUR', hold, corr, t });
  afterCreate(t, corr, id, hold, true);
}

function afterCreate(t, corr, id, hold, authorized) {
  const p = int(0, 5);
  const tr = t + int(180, 950);
  log(tr, 'DEBUG', 'outbox-relay-1', L.relay, `${c(corr)}Published PaymentCreated payment=${id} payments.events-${p}@${outboxOffset[p]++}`);
  if (authorized && chance(0.55)) {
    const part = pick([0, 3]);
    log(tr + int(600, 3800), 'DEBUG', KAFKA_THREAD, L.ledgerListener, `${c(corr)}Consumed HoldConfirmed hold=${hold} ledger.entries-${part}@${kafkaOffset[part]++}`);
  }
}

// Settlement export: fails once on SFTP timeout, succeeds on retry.
{
  const th = 'scheduling-1';
  let t = T('2026-11-12T08:30:00.004Z');
  log(t, 'INFO', th, L.settlement, 'Settlement export started for batch 2026-11-11 (merchants=214, payments=48931)');
  log((t += 8_412), 'DEBUG', th, L.settlement, 'Settlement file settlement-2026-11-11.csv.gpg written (14.7 MB, 48931 rows)');
  log((t += 30_021), 'ERROR', th, L.settlement, 'Settlement export failed for batch 2026-11-11: SFTP upload to sftp.settlement.bank-partner.example:22 timed out after 30000ms; will retry at 08:35:00Z', [
    'com.jcraft.jsch.JSchException: timeout: socket is not established',
    '\tat com.jcraft.jsch.Util.createSocket(Util.java:394)',
    '\tat com.jcraft.jsch.Session.connect(Session.java:215)',
    '\tat com.acme.payments.settlement.SftpUploader.upload(SftpUploader.java:88)',
    '\tat com.acme.payments.scheduler.SettlementExportJob.run(SettlementExportJob.java:63)',
    '\t... 12 frames excluded',
  ]);
  t = T('2026-11-12T08:35:00.002Z');
  log(t, 'INFO', th, L.settlement, 'Settlement export retry 1/3 for batch 2026-11-11');
  log((t += 7_930), 'DEBUG', th, L.settlement, 'Settlement file settlement-2026-11-11.csv.gpg written (14.7 MB, 48931 rows)');
  log((t += 4_218), 'INFO', th, L.settlement, 'Settlement export completed for batch 2026-11-11: uploaded settlement-2026-11-11.csv.gpg to sftp.settlement.bank-partner.example in 4218ms');
}

// ------------------------------------------------------ random traffic ----
const busy = new Set(INCIDENTS.map((i) => Math.floor(T(i[0]) / 1000)).concat(FRAUD_RESETS.map((f) => Math.floor(T(f[0]) / 1000))));

function postPayment(t0) {
  const corr = uuid();
  const th = execThread();
  const client = weighted([
    ['pos/5.3.0', 28], ['pos/5.2.4', 10], ['pos/5.1.2', 4],
    ['web-checkout/2026.11.2', 26], ['mobile-bff/7.4.2', 22], ['partner-api/1.9.0', 10],
  ]);
  const isPos = client.startsWith('pos/');
  const merchant = isPos ? pick(storeMerchants) : client.startsWith('partner') ? pick(partnerMerchants) : pick(webMerchants);
  const currency = client.startsWith('partner') ? weighted([['EUR', 6], ['GBP', 2], ['CHF', 2]]) : 'EUR';
  const method = isPos
    ? weighted([['card', 9], ['wallet', 1]])
    : client.startsWith('web')
      ? weighted([['card', 12], ['sepa_debit', 3], ['wallet', 4], ['gift_card', 1]])
      : client.startsWith('mobile')
        ? weighted([['card', 1], ['wallet', 1]])
        : weighted([['card', 7], ['sepa_debit', 3]]);
  const amt = amount();
  const fields = isPos ? '[amount,currency,merchantId,paymentMethod,reference,terminalId]' : '[amount,currency,merchantId,paymentMethod,reference]';
  let t = t0;
  log(t, 'DEBUG', th, L.filter, `${c(corr)}POST /v1/payments client=${client} ${isPos ? `terminal=${terminalFor()} ` : ''}merchant=${merchant} fields=${fields}`);
  const idem = isPos ? chance(0.3) : chance(0.9);
  log((t += int(2, 6)), 'DEBUG', th, L.service, `${c(corr)}Creating payment merchant=${merchant} amount=${amt} ${currency} method=${method} idempotencyKey=${idem ? 'present' : 'absent'}`);
  t += int(1, 3);
  const fraudMs = chance(0.03) ? int(520, 790) : int(18, 95);
  t += fraudMs;
  const review = chance(0.04);
  const score = review ? (0.6 + rand() * 0.25).toFixed(2) : (rand() * 0.3).toFixed(2);
  if (fraudMs > 500) log(t, 'WARN', th, L.fraud, `${c(corr)}Fraud scoring slow: ${fraudMs}ms (budget 800ms)`);
  log(t, 'INFO', th, L.fraud, `${c(corr)}Fraud score=${score} decision=${review ? 'REVIEW' : 'ALLOW'} in ${fraudMs}ms`);
  const id = payId();
  const hold = holdId();
  if (!review) {
    if (chance(0.012)) {
      log((t += 1500), 'WARN', th, L.ledger, `${c(corr)}Ledger hold request timed out after 1500ms, retrying (attempt 2/3)`);
    }
    const lm = int(9, 60);
    log((t += lm), 'DEBUG', th, L.ledger, `${c(corr)}Hold created hold=${hold} amount=${amt} ${currency} in ${lm}ms`);
  }
  log((t += int(2, 6)), 'INFO', th, L.controller, `${c(corr)}Payment created id=${id} amount=${amt} currency=${currency} method=${method} status=${review ? 'PENDING_REVIEW' : 'AUTHORIZED'}`);
  t += int(2, 5);
  completed(t, th, corr, 201, t - t0);
  createdPayments.push({ id, merchant, amount: amt, currency, hold, corr, t });
  afterCreate(t, corr, id, hold, !review);
}

function getPayment(t0) {
  const corr = uuid();
  const th = execThread();
  const legacy = chance(0.18);
  const client = legacy ? pick(['pos-legacy/4.2.1', 'pos-legacy/4.2.1', 'pos-legacy/4.0.7']) : weighted([['web-checkout/2026.11.2', 4], ['mobile-bff/7.4.2', 4], ['pos/5.3.0', 2], ['partner-api/1.9.0', 1]]);
  const known = !legacy && createdPayments.length > 0 && chance(0.85);
  const id = known ? pick(createdPayments.slice(-60)).id : payId();
  log(t0, 'DEBUG', th, L.filter, `${c(corr)}GET /v1/payments/${id} client=${client}`);
  if (!legacy && !known && chance(0.35)) {
    const ms = int(3, 9);
    log(t0 + ms - 1, 'WARN', th, L.handler, `${c(corr)}404 NOT_FOUND GET /v1/payments/${id}: payment ${id} not found`);
    completed(t0 + ms, th, corr, 404, ms);
    return;
  }
  const ms = int(3, 14);
  completed(t0 + ms, th, corr, 200, ms);
}

function listPayments(t0) {
  const corr = uuid();
  const th = execThread();
  const client = weighted([['partner-api/1.9.0', 3], ['backoffice/3.2.0', 2]]);
  const merchant = client.startsWith('partner') ? pick(partnerMerchants) : pick([...storeMerchants, ...webMerchants]);
  log(t0, 'DEBUG', th, L.filter, `${c(corr)}GET /v1/payments?merchantId=${merchant}&from=2026-11-11T00:00:00Z&to=2026-11-12T00:00:00Z client=${client}`);
  let ms = int(25, 180);
  const rows = int(40, 2600);
  if (chance(0.1)) {
    ms = int(1010, 2400);
    log(t0 + ms - 4, 'WARN', th, L.queryTiming, `${c(corr)}Slow query PaymentRepository.findByMerchantIdAndCreatedAtBetween took ${ms - 6}ms (threshold 1000ms) rows=${rows}`);
  } else {
    log(t0 + ms - 3, 'DEBUG', th, L.queryTiming, `${c(corr)}PaymentRepository.findByMerchantIdAndCreatedAtBetween took ${ms - 5}ms rows=${rows}`);
  }
  completed(t0 + ms, th, corr, 200, ms);
}

function refund(t0) {
  if (createdPayments.length < 5) return postPayment(t0);
  const corr = uuid();
  const th = execThread();
  const p = pick(createdPayments.slice(-120));
  const client = p.merchant.startsWith('M-2') ? pick(['pos/5.3.0', 'pos/5.2.4']) : pick(['web-checkout/2026.11.2', 'backoffice/3.2.0']);
  const full = chance(0.6);
  const amt = full ? p.amount : (Number(p.amount) / 2).toFixed(2);
  let t = t0;
  log(t, 'DEBUG', th, L.filter, `${c(corr)}POST /v1/payments/${p.id}/refunds client=${client} fields=[amount,reason]`);
  const lm = int(10, 55);
  log((t += int(4, 9) + lm), 'DEBUG', th, L.ledger, `${c(corr)}${full ? `Hold released hold=${p.hold}` : `Partial reversal posted hold=${p.hold} amount=${amt}`} payment=${p.id} in ${lm}ms`);
  const rid = refundId();
  log((t += int(2, 5)), 'INFO', th, L.controller, `${c(corr)}Refund created id=${rid} payment=${p.id} amount=${amt} currency=${p.currency}`);
  t += int(2, 4);
  completed(t, th, corr, 201, t - t0);
  const part = int(0, 5);
  log(t + int(180, 900), 'DEBUG', 'outbox-relay-1', L.relay, `${c(corr)}Published RefundCreated refund=${rid} payments.events-${part}@${outboxOffset[part]++}`);
}

{
  let t = READY + 1200;
  while (t < END) {
    // Traffic ramps up as stores open (07:55 -> 09:00), then plateaus.
    const progress = Math.min(1, (t - START) / (65 * 60_000));
    const mean = 23_000 - 8_500 * progress;
    t += exp(mean);
    if (busy.has(Math.floor(t / 1000))) continue;
    const kind = weighted([['post', 56], ['get', 22], ['list', 10], ['refund', 8]]);
    ({ post: postPayment, get: getPayment, list: listPayments, refund })[kind](t);
  }
}

// ------------------------------------------------------ periodic noise ----
for (let t = READY + 2_311; t < END; t += 10_000) {
  const j = int(0, 40);
  log(t + j, 'DEBUG', execThread(), L.filter, `GET /actuator/health/liveness 200 in ${int(1, 3)}ms`);
  log(t + 4_870 + int(0, 40), 'DEBUG', execThread(), L.filter, `GET /actuator/health/readiness 200 in ${int(2, 6)}ms`);
}
for (let t = READY + 7_402; t < END; t += 15_000) {
  log(t + int(0, 30), 'DEBUG', execThread(), L.filter, `GET /actuator/prometheus 200 in ${int(11, 34)}ms`);
}
for (let t = START + 30_000 + 517; t < END; t += 30_000) {
  const active = int(0, 4);
  const drift = int(0, 2);
  log(t + drift, 'DEBUG', 'HikariPool-1 housekeeper', L.hikari, `HikariPool-1 - Pool stats (total=20, active=${active}, idle=${20 - active}, waiting=0)`);
  if (chance(0.25)) log(t + drift + 1, 'DEBUG', 'HikariPool-1 housekeeper', L.hikari, 'HikariPool-1 - Fill pool skipped, pool has sufficient level or currently being filled (queueDepth=0).');
}
log(T('2026-11-12T09:02:31.640Z'), 'WARN', 'HikariPool-1 housekeeper', L.hikari, 'HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta=1m3s122ms).');

for (let t = READY + 20_000 + 88; t < END; t += 60_000) {
  const minute = new Date(t).toISOString().slice(11, 16);
  const spike = minute >= '09:18' && minute <= '09:22';
  const p0 = spike ? int(700, 1100) : int(0, 9);
  const p3 = spike ? int(600, 900) : int(0, 9);
  const lag = p0 + p3;
  const msg = `Consumer group payment-service-ledger topic=ledger.entries lag=${lag} (ledger.entries-0=${p0}, ledger.entries-3=${p3})`;
  if (lag > 1000) log(t, 'WARN', 'kafka-lag-monitor', L.lag, `${msg} exceeds threshold 1000`);
  else log(t, 'INFO', 'kafka-lag-monitor', L.lag, msg);
}
log(T('2026-11-12T09:18:44.201Z'), 'INFO', KAFKA_THREAD, L.ledgerListener, 'Ledger replay detected on ledger.entries (producer ledger-service epoch 57); processing at max.poll.records=500');

for (let t = START + 15_000 + 742; t < END; t += 30_000) {
  const size = int(205, 219);
  log(t, 'DEBUG', 'cache-stats', 'c.a.p.config.CacheMetricsLogger', `merchant-settings cache size=${size} hitRate=0.9${int(78, 96)} evictions=0`);
}
for (let t = START + 60_000 + 1_003; t < END; t += 60_000) {
  const th = `scheduling-${int(1, 2)}`;
  const cutoff = new Date(t - 30 * 60_000).toISOString().slice(0, 19) + 'Z';
  log(t, 'DEBUG', th, L.reaper, `Scanning pending payments created before ${cutoff}`);
  const n = chance(0.2) ? int(1, 3) : 0;
  log(t + int(8, 40), n ? 'INFO' : 'DEBUG', th, L.reaper, `Reaped ${n} pending payment${n === 1 ? '' : 's'} older than PT30M`);
}
for (let t = T('2026-11-12T08:00:00.011Z'); t < END; t += 15 * 60_000) {
  log(t, 'INFO', 'scheduling-2', L.idemCleanup, `Deleted ${int(180, 640)} idempotency keys older than P1D in ${int(40, 160)}ms`);
}

// 5-minute HTTP summaries, computed from the requests generated above.
for (let t = T('2026-11-12T08:00:00.000Z') + 250; t < END; t += 5 * 60_000) {
  const win = httpResults.filter((r) => r.t <= t && r.t > t - 5 * 60_000);
  const count = (pred) => win.filter(pred).length;
  const sorted = win.map((r) => r.ms).sort((a, b) => a - b);
  const p95 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] : 0;
  log(t, 'INFO', 'metrics-reporter', L.httpSummary, `HTTP summary last 5m: requests=${win.length} 2xx=${count((r) => r.status < 300)} 4xx=${count((r) => r.status >= 400 && r.status < 500)} 400=${count((r) => r.status === 400)} 5xx=0 p95=${p95}ms`);
}

// --------------------------------------------------------------- write ----
entries.sort((a, b) => a.t - b.t || a.seq - b.seq);
const text = entries.map((e) => e.text).join('\n') + '\n';
writeFileSync(outPath, text);
const lines = text.split('\n').length - 1;
console.log(`wrote ${outPath}: ${lines} lines, ${Buffer.byteLength(text)} bytes`);
