package com.acme.payments.api;

import com.acme.payments.domain.Payment;
import com.acme.payments.domain.Refund;
import com.acme.payments.service.PaymentService;
import jakarta.validation.Valid;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Public payment API, version 1.
 *
 * <p>Validation errors on request bodies are turned into {@code 400 BAD_REQUEST} responses by
 * {@link ApiExceptionHandler} before any method of this class runs.
 */
@RestController
@RequestMapping("/v1/payments")
public class PaymentController {

  private static final Logger log = LoggerFactory.getLogger(PaymentController.class);

  private final PaymentService paymentService;

  public PaymentController(PaymentService paymentService) {
    this.paymentService = paymentService;
  }

  /**
   * Creates and authorizes a payment.
   *
   * <p>Changed in 2.14.0 (PAY-1388): {@code paymentMethod} is enforced by
   * {@code @NotNull} on {@link PaymentRequest}, and the fallback that used to live here was
   * removed:
   *
   * <pre>{@code
   * PaymentMethod method =
   *     request.getPaymentMethod() != null ? request.getPaymentMethod() : PaymentMethod.CARD;
   * }</pre>
   */
  @PostMapping
  public ResponseEntity<PaymentResponse> createPayment(
      @Valid @RequestBody PaymentRequest request,
      @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey) {
    Payment payment = paymentService.create(request.toCommand(), idempotencyKey);
    log.info(
        "Payment created id={} amount={} currency={} method={} status={}",
        payment.id(),
        payment.amount(),
        payment.currency(),
        payment.method().wireName(),
        payment.status());
    return ResponseEntity.created(URI.create("/v1/payments/" + payment.id()))
        .body(PaymentResponse.from(payment));
  }

  @GetMapping("/{id}")
  public PaymentResponse getPayment(@PathVariable String id) {
    return PaymentResponse.from(paymentService.get(id));
  }

  @GetMapping
  public List<PaymentResponse> listPayments(
      @RequestParam String merchantId,
      @RequestParam @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
      @RequestParam @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to) {
    return paymentService.list(merchantId, from, to).stream().map(PaymentResponse::from).toList();
  }

  @PostMapping("/{id}/refunds")
  public ResponseEntity<RefundResponse> refund(
      @PathVariable String id,
      @Valid @RequestBody RefundRequest request,
      @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey) {
    Refund refund =
        paymentService.refund(id, request.getAmount(), request.getReason(), idempotencyKey);
    log.info(
        "Refund created id={} payment={} amount={} currency={}",
        refund.id(),
        id,
        refund.amount(),
        refund.currency());
    return ResponseEntity.created(URI.create("/v1/payments/" + id + "/refunds/" + refund.id()))
        .body(RefundResponse.from(refund));
  }
}
