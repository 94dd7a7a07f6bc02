import PaymentServiceCore

// SimHarnessKit also exports SimHarness's own `PaymentRequest` (the row a user's payment processor
// receives); in this module the name means the service's own.
typealias PaymentRequest = PaymentServiceCore.PaymentRequest
