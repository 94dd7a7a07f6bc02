/// Readable instants for test data: seconds since the epoch from a local day and time of day.
public enum TestTime {
    public static let minute: Int64 = 60
    public static let hour: Int64 = 3_600
    public static let day: Int64 = 86_400

    /// 2024-01-01, local day 19723 (1_704_067_200 / 86_400): the default day of test data.
    public static let referenceDay: Int64 = 19_723

    /// The UTC instant of local time `hour:minute:second` on local day `day` (days since
    /// 1970-01-01) for a user `utcOffsetMinutes` east of UTC.
    public static func instant(
        day: Int64 = referenceDay, hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, utcOffsetMinutes: Int32 = 0
    ) -> Int64 {
        day * Self.day + hour * Self.hour + minute * Self.minute + second - Int64(utcOffsetMinutes) * Self.minute
    }
}

/// Returns a copy of `value` changed by `change`: the body of every builder method.
func modified<T>(_ value: T, _ change: (inout T) -> Void) -> T {
    var copy = value
    change(&copy)
    return copy
}
