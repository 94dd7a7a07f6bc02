import PaymentServiceCore

// SimHarnessKit also exports SimHarness's own `PaymentGateway` and `PaymentRequest` (its SPEC
// reference's types); in this module the names mean the service's own.
typealias PaymentGateway = PaymentServiceCore.PaymentGateway
typealias PaymentRequest = PaymentServiceCore.PaymentRequest
