/// Builds the typed values of one `meals` row as a Parquet table holds them (times in
/// microseconds, decimals as doubles): by default a plainly valid 30-minute lunch of user
/// `u0000001`. Any value may be set to one that breaks a SPEC rule or has no CSV text of its own.
public struct TypedMealRowBuilder: Sendable {
    public var id = "m0000001-000001"
    public var user = "u0000001"
    public var startMicros: Int64 = 1_743_206_400_000_000
    public var endMicros: Int64 = 1_743_208_200_000_000
    public var type = "lunch"
    public var kcal = 512.5
    public var protein = 30.0
    public var carbs = 50.25
    public var fat = 15.0

    public init() {}

    public func id(_ value: String) -> Self { modified(self) { $0.id = value } }
    public func user(_ value: String) -> Self { modified(self) { $0.user = value } }
    /// `start` and `end` in microseconds.
    public func times(_ start: Int64, _ end: Int64) -> Self { modified(self) { $0.startMicros = start; $0.endMicros = end } }
    public func type(_ value: String) -> Self { modified(self) { $0.type = value } }
    public func kcal(_ value: Double) -> Self { modified(self) { $0.kcal = value } }
    public func macros(protein: Double = 30, carbs: Double = 50.25, fat: Double = 15) -> Self {
        modified(self) { $0.protein = protein; $0.carbs = carbs; $0.fat = fat }
    }
}

/// Builds the typed values of one `steps` row: by default a plainly valid 10-minute watch sample of
/// user `u0000001`.
public struct TypedStepRowBuilder: Sendable {
    public var id = "s0000001-000001"
    public var user = "u0000001"
    public var source = "watch"
    public var startMicros: Int64 = 1_743_206_400_000_000
    public var endMicros: Int64 = 1_743_207_000_000_000
    public var count = 846.0

    public init() {}

    public func id(_ value: String) -> Self { modified(self) { $0.id = value } }
    public func user(_ value: String) -> Self { modified(self) { $0.user = value } }
    public func source(_ value: String) -> Self { modified(self) { $0.source = value } }
    /// `start` and `end` in microseconds.
    public func times(_ start: Int64, _ end: Int64) -> Self { modified(self) { $0.startMicros = start; $0.endMicros = end } }
    public func count(_ value: Double) -> Self { modified(self) { $0.count = value } }
}

/// Builds the typed values of one `payments` row: by default a plainly valid charge of 1,250 minor
/// units of EUR by user `u0000001`, approved at the first attempt.
public struct TypedPaymentRowBuilder: Sendable {
    public var id = "p0000001-000001"
    public var key = "k0000001-000001"
    public var user = "u0000001"
    public var kind = "charge"
    public var amount: Int64 = 1_250
    public var currency = "EUR"
    public var createdMicros: Int64 = 1_743_206_400_000_000
    /// `nil` for a null.
    public var refundOf: String?
    public var gateway = "A"

    public init() {}

    public func id(_ value: String) -> Self { modified(self) { $0.id = value } }
    public func key(_ value: String) -> Self { modified(self) { $0.key = value } }
    public func user(_ value: String) -> Self { modified(self) { $0.user = value } }
    public func kind(_ value: String) -> Self { modified(self) { $0.kind = value } }
    public func amount(_ value: Int64) -> Self { modified(self) { $0.amount = value } }
    public func currency(_ value: String) -> Self { modified(self) { $0.currency = value } }
    public func created(micros value: Int64) -> Self { modified(self) { $0.createdMicros = value } }
    public func refund(of value: String?) -> Self { modified(self) { $0.kind = "refund"; $0.refundOf = value } }
    public func refundOf(_ value: String?) -> Self { modified(self) { $0.refundOf = value } }
    public func gateway(_ value: String) -> Self { modified(self) { $0.gateway = value } }
}
