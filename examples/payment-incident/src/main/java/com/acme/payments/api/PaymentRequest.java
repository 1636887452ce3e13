package com.acme.payments.api;

import com.acme.payments.domain.PaymentMethod;
import com.acme.payments.service.CreatePaymentCommand;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;

/**
 * Body of {@code POST /v1/payments}.
 *
 * <p>Field names and their optionality are part of the public v1 contract
 * ({@code docs/api/payments-v1.yaml}). POS terminals on firmware 4.x, the mobile BFF, web checkout
 * and partner integrations all send this payload.
 */
public class PaymentRequest {

  @NotNull(message = "amount is required")
  @DecimalMin(value = "0.01", message = "amount must be greater than 0")
  @Digits(integer = 10, fraction = 2, message = "amount must have at most 2 decimals")
  private BigDecimal amount;

  @NotBlank(message = "currency is required")
  @Pattern(regexp = "[A-Z]{3}", message = "currency must be an ISO 4217 code")
  private String currency;

  @NotBlank(message = "merchantId is required")
  @Size(max = 16, message = "merchantId must be at most 16 characters")
  private String merchantId;

  /** Sent by POS terminals only. */
  @Size(max = 16, message = "terminalId must be at most 16 characters")
  private String terminalId;

  /** Merchant-side reference, echoed back in the response and in settlement files. */
  @Size(max = 64, message = "reference must be at most 64 characters")
  private String reference;

  // 2.14.0 (PAY-1388): paymentMethod is now mandatory, as required by ADR-008.
  // Until 2.13.x this field was optional and PaymentController fell back to CARD when absent.
  @NotNull(message = "paymentMethod is required")
  private PaymentMethod paymentMethod;

  public CreatePaymentCommand toCommand() {
    return new CreatePaymentCommand(
        amount, currency, merchantId, terminalId, reference, paymentMethod);
  }

  public BigDecimal getAmount() {
    return amount;
  }

  public void setAmount(BigDecimal amount) {
    this.amount = amount;
  }

  public String getCurrency() {
    return currency;
  }

  public void setCurrency(String currency) {
    this.currency = currency;
  }

  public String getMerchantId() {
    return merchantId;
  }

  public void setMerchantId(String merchantId) {
    this.merchantId = merchantId;
  }

  public String getTerminalId() {
    return terminalId;
  }

  public void setTerminalId(String terminalId) {
    this.terminalId = terminalId;
  }

  public String getReference() {
    return reference;
  }

  public void setReference(String reference) {
    this.reference = reference;
  }

  public PaymentMethod getPaymentMethod() {
    return paymentMethod;
  }

  public void setPaymentMethod(PaymentMethod paymentMethod) {
    this.paymentMethod = paymentMethod;
  }
}
