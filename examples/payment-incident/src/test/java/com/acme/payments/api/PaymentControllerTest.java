package com.acme.payments.api;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.acme.payments.domain.Payment;
import com.acme.payments.domain.PaymentMethod;
import com.acme.payments.domain.PaymentStatus;
import com.acme.payments.service.CreatePaymentCommand;
import com.acme.payments.service.PaymentService;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.boot.test.mock.mockito.MockBean;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

@WebMvcTest(PaymentController.class)
class PaymentControllerTest {

  @Autowired private MockMvc mvc;

  @MockBean private PaymentService paymentService;

  @Test
  void createsCardPayment() throws Exception {
    when(paymentService.create(any(CreatePaymentCommand.class), eq(null)))
        .thenReturn(
            Payment.of(
                "pay_7Qm2xK9cLw4RtZ8bN1vYh3Ds",
                new BigDecimal("42.90"),
                "EUR",
                PaymentMethod.CARD,
                PaymentStatus.AUTHORIZED));

    mvc.perform(
            post("/v1/payments")
                .contentType(MediaType.APPLICATION_JSON)
                .content(
                    """
                    {"amount": 42.90, "currency": "EUR", "merchantId": "M-20931",
                     "terminalId": "T-0417", "reference": "R-88121", "paymentMethod": "card"}
                    """))
        .andExpect(status().isCreated())
        .andExpect(header().string("Location", "/v1/payments/pay_7Qm2xK9cLw4RtZ8bN1vYh3Ds"))
        .andExpect(jsonPath("$.method").value("card"))
        .andExpect(jsonPath("$.status").value("AUTHORIZED"));
  }

  @Test
  void createsSepaDebitPaymentWithIdempotencyKey() throws Exception {
    when(paymentService.create(any(CreatePaymentCommand.class), eq("idem-5521")))
        .thenReturn(
            Payment.of(
                "pay_Gd81LpQw0sXe6VbNc2TzRk7u",
                new BigDecimal("129.00"),
                "EUR",
                PaymentMethod.SEPA_DEBIT,
                PaymentStatus.AUTHORIZED));

    mvc.perform(
            post("/v1/payments")
                .header("Idempotency-Key", "idem-5521")
                .contentType(MediaType.APPLICATION_JSON)
                .content(
                    """
                    {"amount": 129.00, "currency": "EUR", "merchantId": "M-10422",
                     "reference": "WEB-2026-11-0042", "paymentMethod": "sepa_debit"}
                    """))
        .andExpect(status().isCreated())
        .andExpect(jsonPath("$.method").value("sepa_debit"));

    verify(paymentService).create(any(CreatePaymentCommand.class), eq("idem-5521"));
  }

  @Test
  void rejectsUnknownPaymentMethod() throws Exception {
    mvc.perform(
            post("/v1/payments")
                .contentType(MediaType.APPLICATION_JSON)
                .content(
                    """
                    {"amount": 10.00, "currency": "EUR", "merchantId": "M-20931",
                     "paymentMethod": "cheque"}
                    """))
        .andExpect(status().isBadRequest())
        .andExpect(jsonPath("$.error").value("BAD_REQUEST"));

    verifyNoInteractions(paymentService);
  }

  @Test
  void rejectsNonPositiveAmount() throws Exception {
    mvc.perform(
            post("/v1/payments")
                .contentType(MediaType.APPLICATION_JSON)
                .content(
                    """
                    {"amount": 0, "currency": "EUR", "merchantId": "M-20931",
                     "paymentMethod": "card"}
                    """))
        .andExpect(status().isBadRequest())
        .andExpect(jsonPath("$.message").value("amount must be greater than 0"));

    verifyNoInteractions(paymentService);
  }
}
