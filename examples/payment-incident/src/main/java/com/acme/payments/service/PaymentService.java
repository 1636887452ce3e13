package com.acme.payments.service;

import com.acme.payments.domain.Payment;
import com.acme.payments.domain.PaymentStatus;
import com.acme.payments.domain.Refund;
import com.acme.payments.events.PaymentEventPublisher;
import com.acme.payments.fraud.FraudDecision;
import com.acme.payments.fraud.FraudScoringClient;
import com.acme.payments.ledger.LedgerClient;
import com.acme.payments.repository.PaymentRepository;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class PaymentService {

  private static final Logger log = LoggerFactory.getLogger(PaymentService.class);

  private final PaymentRepository payments;
  private final FraudScoringClient fraudScoring;
  private final LedgerClient ledger;
  private final PaymentEventPublisher events;

  public PaymentService(
      PaymentRepository payments,
      FraudScoringClient fraudScoring,
      LedgerClient ledger,
      PaymentEventPublisher events) {
    this.payments = payments;
    this.fraudScoring = fraudScoring;
    this.ledger = ledger;
    this.events = events;
  }

  @Transactional
  public Payment create(CreatePaymentCommand command, String idempotencyKey) {
    log.debug(
        "Creating payment merchant={} amount={} currency={} method={} idempotencyKey={}",
        command.merchantId(),
        command.amount(),
        command.currency(),
        command.paymentMethod().wireName(),
        idempotencyKey != null ? "present" : "absent");
    if (idempotencyKey != null) {
      var existing = payments.findByIdempotencyKey(command.merchantId(), idempotencyKey);
      if (existing.isPresent()) {
        return existing.get();
      }
    }
    FraudDecision decision = fraudScoring.score(command);
    PaymentStatus status =
        decision.requiresReview() ? PaymentStatus.PENDING_REVIEW : PaymentStatus.AUTHORIZED;
    Payment payment = payments.save(Payment.create(command, status, idempotencyKey));
    if (status == PaymentStatus.AUTHORIZED) {
      ledger.createHold(payment);
    }
    events.paymentCreated(payment);
    return payment;
  }

  public Payment get(String id) {
    return payments.findById(id).orElseThrow(() -> new PaymentNotFoundException(id));
  }

  public List<Payment> list(String merchantId, Instant from, Instant to) {
    return payments.findByMerchantIdAndCreatedAtBetween(merchantId, from, to);
  }

  @Transactional
  public Refund refund(String paymentId, BigDecimal amount, String reason, String idempotencyKey) {
    Payment payment = get(paymentId);
    Objects.requireNonNull(amount, "amount");
    Refund refund = payment.refund(amount, reason, idempotencyKey);
    payments.save(payment);
    ledger.releaseOrReverse(payment, refund);
    events.refundCreated(payment, refund);
    return refund;
  }
}
